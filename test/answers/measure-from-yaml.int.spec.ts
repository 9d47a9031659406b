import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { dataDir, policiesDir } from '@cota/config';
import { createNarrator, loadCatalogColumns } from '@cota/narration';
import { loadPlanningPolicies, Planner, readFunds } from '@cota/planning';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { ensureWarehouse, loadMeasureCatalog, MeasureQueryService, PgSqlRunner } from '@cota/warehouse';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * A measure whose series the warehouse already loads is one YAML block: the cash of the CVM monthly
 * report (wh_cvm_monthly.cash_amt, "Disponibilidades"), declared in a copy of the policies and nowhere
 * else, is read by the planner, computed by the measure query and worded by the narrator.
 */
const FUND_CASH = `
  fund_cash:
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
    aggregations: [value, list, min, max, first, last, variation, avg]
    default_agg: value
    words: [caixa do fundo, dinheiro em caixa, disponibilidades]
`;

let db: TestDatabase;
let ds: DataSource;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cota-policies-'));
  cpSync(policiesDir(), dir, { recursive: true });
  const file = join(dir, 'measures.yaml');
  // The block goes first in the `measures:` map.
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^measures:\n/m, `measures:\n${FUND_CASH.slice(1)}`));
  db = await createTestDatabase('measure_from_yaml');
  ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: dataDir(), log: silentLogger() });
}, 300_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

it('a new measure declared in measures.yaml alone is planned, computed and worded', async () => {
  // (a measure the repo's catalog does not have)
  expect(loadMeasureCatalog().measures.fund_cash).toBeUndefined();
  const catalog = loadMeasureCatalog(dir);
  expect(catalog.measures.fund_cash).toMatchObject({ answer_name: 'o caixa do fundo', unit: 'brl' });
  const planner = new Planner({ policies: loadPlanningPolicies(dir), funds: readFunds(dataDir()) });
  const measures = new MeasureQueryService(catalog, new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  const narrator = createNarrator({ llm: null, catalog: loadCatalogColumns(dir) ?? undefined, policiesDir: dir });

  const question = 'qual era o caixa do fundo KNRI11 em dezembro de 2022?';
  const plan = planner.planDeterministic(question);
  expect(plan).toMatchObject({ kind: 'measure', question: { measure: 'fund_cash', subjects: [{ kind: 'fund', id: 'KNRI11' }] } });
  const result = await measures.compute(plan.question!, 'cliente-demo-1');
  // CVM inf_mensal_fii_ativo_passivo_2022.csv, KNRI11 (12.005.956/0001-65), 2022-12: Disponibilidades 738496.38.
  expect(Number(result.values[0].value)).toBeCloseTo(738496.38, 2);
  const text = (await narrator.narrate(narrateRequest({ question, kind: 'measure', entity: plan.entity, measure: result, question_spec: plan.question }))).answer;
  expect(text).toContain('caixa do fundo');
  expect(text).toContain('KNRI11');
  expect(text).toContain('R$ 738.496,38');
  expect(text).toContain('dezembro de 2022');
}, 60_000);
