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
 * The catalog owns the vocabulary: a measure over a series the warehouse already has (the cash the
 * funds report to the CVM, wh_cvm_monthly.cash_amt) is added by its YAML block alone, and the planner,
 * the executor's SQL builder and the narrator all know it. No TypeScript names it.
 */
const FUND_CASH = `  fund_cash:
    label: caixa do fundo
    answer_name: o caixa do fundo
    better: none
    entity: fiis_financials_snapshot
    subject: fund
    table: wh_cvm_monthly
    subject_column: ticker
    date_column: ref_date
    value_column: cash_amt
    grain: month
    unit: brl
    kind: stock
    aggregations: [value, list, avg, min, max, first, last]
    default_agg: value
    priority: 2
    words: [caixa do fundo, dinheiro em caixa]
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
    // (a measure the repo's catalog does not have)
    expect(loadMeasureCatalog().measures.fund_cash).toBeUndefined();
    writeFileSync(file, text.replace(/^measures:\n/m, `measures:\n${FUND_CASH}`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read by the planner, queried by the SQL builder and named by the narrator', async () => {
    const planner = new Planner({ policies: loadPlanningPolicies(dir), funds: ['HGLG11'] });
    const plan = planner.planDeterministic('qual era o caixa do fundo HGLG11 em 2024?');
    expect(plan.kind).toBe('measure');
    const question = plan.question as StructuredQuestion;
    expect(question).toMatchObject({ measure: 'fund_cash', subjects: [{ kind: 'fund', id: 'HGLG11' }] });

    const catalog = loadMeasureCatalog(dir);
    const sql = buildMeasureSql(catalog.measures.fund_cash, null);
    expect(sql.stats).toContain('"cash_amt"');
    expect(sql.stats).toContain('"wh_cvm_monthly"');
    const runner = new SeriesRunner();
    const result = await new MeasureQueryService(catalog, runner).compute(question, 'cliente-demo-1');
    expect(result).toMatchObject({ measure: 'fund_cash', unit: 'brl', values: [{ value: 157.2 }] });
    expect(runner.statements.some((s) => s.includes('"cash_amt"'))).toBe(true);

    const narrator = createNarrator({ policiesDir: dir, llm: null });
    const answer = narrator.deterministic.narrate(measureRequest(plan.question as StructuredQuestion, result)).answer;
    expect(answer).toMatch(/^O caixa do fundo do HGLG11 em 2024 foi R\$ 157,20/);
  });
});

function measureRequest(question: StructuredQuestion, measure: MeasureResult): NarrateRequest {
  return {
    request_id: 'req-yaml-measure',
    question: 'qual era o caixa do fundo HGLG11 em 2024?',
    nickname: '',
    plan: null,
    status: 'ok',
    kind: 'measure',
    intent: 'fiis_financials_snapshot',
    entity: 'fiis_financials_snapshot',
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
