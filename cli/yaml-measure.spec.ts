import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMeasureCatalog } from '@cota/catalog';
import { policiesDir } from '@cota/config';
import type { MeasureResult, NarrateRequest, StructuredQuestion } from '@cota/contracts';
import { createNarrator } from '@cota/narration';
import { loadPlanningPolicies, Planner } from '@cota/planning';
import { buildMeasureSql, MeasureQueryService, SqlRunner } from '@cota/warehouse';

/**
 * The catalog owns the vocabulary: a measure over a series the warehouse already has (the opening
 * price of wh_prices) is added by its YAML block alone, and the planner, the executor's SQL builder
 * and the narrator all know it. No TypeScript names it.
 */
const OPEN_PRICE = `  open_price:
    label: preço de abertura
    answer_name: o preço de abertura
    better: none
    entity: fiis_precos
    subject: fund
    table: wh_prices
    subject_column: ticker
    date_column: traded_at
    value_column: open_price
    unit: brl
    kind: level
    aggregations: [value, list, avg, min, max, first, last]
    default_agg: value
    priority: 2
    words: [abertura, preco de abertura, abriu]
`;

/** Answers the coverage and stats statements from a made-up series; records what it was asked. */
class SeriesRunner implements SqlRunner {
  readonly statements: string[] = [];
  async run(sql: string): Promise<Array<Record<string, unknown>>> {
    this.statements.push(sql);
    if (sql.includes('first_date')) return [{ first_date: '2010-12-30', last_date: '2025-12-23' }];
    if (sql.includes('AS compounded')) return [{ n: 250, first_d: '2024-01-02', first_v: '160.1', last_d: '2024-12-30', last_v: '157.2' }];
    return [];
  }
}

describe('a measure added in policies/measures.yaml alone', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cota-yaml-measure-'));
    cpSync(policiesDir(), dir, { recursive: true });
    const file = join(dir, 'measures.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^measures:\n/m);
    writeFileSync(file, text.replace(/^measures:\n/m, `measures:\n${OPEN_PRICE}`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read by the planner, queried by the SQL builder and named by the narrator', async () => {
    const planner = new Planner({ policies: loadPlanningPolicies(dir), funds: ['HGLG11'] });
    const plan = planner.planDeterministic('qual foi o preço de abertura do HGLG11 em 2024?');
    expect(plan.kind).toBe('measure');
    const question = plan.question as StructuredQuestion;
    expect(question).toMatchObject({ measure: 'open_price', subjects: [{ kind: 'fund', id: 'HGLG11' }] });

    const catalog = loadMeasureCatalog(dir);
    const sql = buildMeasureSql(catalog.measures.open_price, null);
    expect(sql.stats).toContain('"open_price"');
    expect(sql.stats).toContain('"wh_prices"');
    const runner = new SeriesRunner();
    const result = await new MeasureQueryService(catalog, runner).compute(question, 'cliente-demo-1');
    expect(result).toMatchObject({ measure: 'open_price', unit: 'brl', values: [{ value: 157.2 }] });
    expect(runner.statements.some((s) => s.includes('"open_price"'))).toBe(true);

    const narrator = createNarrator({ policiesDir: dir, llm: null });
    const answer = narrator.deterministic.narrate(measureRequest(plan.question as StructuredQuestion, result)).answer;
    expect(answer).toMatch(/^O preço de abertura do HGLG11 em 2024 foi R\$ 157,20/);
  });
});

function measureRequest(question: StructuredQuestion, measure: MeasureResult): NarrateRequest {
  return {
    request_id: 'req-yaml-measure',
    question: 'qual foi o preço de abertura do HGLG11 em 2024?',
    nickname: '',
    plan: null,
    status: 'ok',
    kind: 'measure',
    intent: 'fiis_precos',
    entity: 'fiis_precos',
    params: null,
    smalltalk: null,
    out_of_scope: null,
    unknown_tickers: [],
    candidates: [],
    problem: null,
    data: null,
    measure,
    question_spec: question,
    advice: false,
    tool: null,
    rag: [],
    memory: { recent: [], summary: null },
    context_used: false,
    stream: false,
  };
}
