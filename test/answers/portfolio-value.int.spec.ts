import type { DataSource } from 'typeorm';
import { dataDir } from '@cota/config';
import { createNarrator, loadCatalogColumns, Narrator } from '@cota/narration';
import { loadPlanningPolicies, Planner, readFunds } from '@cota/planning';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { ensureWarehouse, loadMeasureCatalog, MeasureQueryService, PgSqlRunner } from '@cota/warehouse';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * The market value and the unrealised gain of the client's positions (catalog measures over
 * client_fiis_positions), from question to text over the real warehouse, for cliente-demo-1:
 * HGLG11 100 × 170,55 + 20 × 164,42, KNRI11 120 × 133,50, XPML11 80 × 97,87, VISC11 80 × 101,30 (demo
 * trades at real month closes), valued at the last traded closes of 25/06/2025 (dashbord): HGLG11 157,60,
 * KNRI11 143,34, XPML11 102,61, VISC11 102,73.
 */
let db: TestDatabase;
let ds: DataSource;
let planner: Planner;
let measures: MeasureQueryService;
let narrator: Narrator;

beforeAll(async () => {
  db = await createTestDatabase('portfolio_value');
  ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: dataDir(), log: silentLogger() });
  planner = new Planner({ policies: loadPlanningPolicies(), funds: readFunds(dataDir()) });
  measures = new MeasureQueryService(loadMeasureCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
}, 300_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

async function answer(question: string, client = 'cliente-demo-1'): Promise<string> {
  const plan = planner.planDeterministic(question);
  expect({ question, kind: plan.kind }).toEqual({ question, kind: 'measure' });
  const result = await measures.compute(plan.question!, client);
  return (await narrator.narrate(narrateRequest({ question, kind: 'measure', entity: plan.entity, measure: result, question_spec: plan.question }))).answer;
}

describe("the client's positions at the last close", () => {
  it.each([
    // 120 × 157,60 + 120 × 143,34 + 80 × 102,61 + 80 × 102,73 = 18 912,00 + 17 200,80 + 8 208,80 + 8 218,40 = 52 540,00.
    ['quanto vale minha carteira', ['R$ 52.540,00', 'pelo fechamento de 25/06/2025', '4 posições']],
    // Cost: 17 055,00 + 3 288,40 + 16 020,00 + 7 829,60 + 8 104,00 = 52 297,00; 52 540,00 − 52 297,00 = 243,00.
    ['lucro nao realizado', ['R$ 243,00', 'pelo fechamento de 25/06/2025']],
    // HGLG11: 18 912,00 − 20 343,40 = −1 431,40.
    ['qual meu lucro nao realizado no hglg11?', ['HGLG11', '-R$ 1.431,40', 'pelo fechamento de 25/06/2025']],
    // KNRI11: 120 × 143,34.
    ['quanto vale minha posicao no knri11?', ['KNRI11', 'R$ 17.200,80']],
  ])('%s', async (question, expected) => {
    const text = await answer(question);
    for (const e of expected) expect(text).toContain(e);
  });
});

describe('what the client paid, fund by fund and for a fund sold since', () => {
  it('"quanto investi por fundo?" is one cost per fund held (17 055,00 + 3 288,40 for HGLG11)', async () => {
    const text = await answer('quanto investi por fundo?');
    for (const e of ['HGLG11', 'R$ 20.343,40', 'KNRI11', 'R$ 16.020,00', 'XPML11', 'R$ 7.829,60', 'VISC11', 'R$ 8.104,00']) expect(text).toContain(e);
  });

  it('"quanto gastei comprando HGLG11?" sums its purchases', async () => {
    expect(await answer('quanto gastei comprando HGLG11?')).toContain('R$ 20.343,40');
  });

  it("a sale's result in percent: the XPIN11 sold at R$ 86,70 over its average cost of R$ 84,29 (+2,86%)", async () => {
    expect(await answer('quanto eu ganhei em % na venda do xpin11?', 'cliente-demo-3')).toContain('2,86%');
  });

  it('what was paid for the XPIN11, sold in full since (70 × 84,29), says it is no longer held', async () => {
    const text = await answer('quanto eu tinha pago no XPIN11?', 'cliente-demo-3');
    expect(text).toContain('R$ 5.900,30 (1 compra: 70 cotas a R$ 84,29)');
    expect(text).toContain('não tem mais cotas');
  });
});

describe("a screen of the client's funds", () => {
  it('"quais dos meus fundos estão com P/VP abaixo de 0,95?" lists those that pass (araquem snapshot: KNRI11 0,90, VISC11 0,89; HGLG11 0,99, XPML11 0,97)', async () => {
    const text = await answer('quais dos meus fundos estao com pvp abaixo de 0,95?');
    expect(text).toContain('Dos 4 fundos, 2 têm o P/VP abaixo de 0,95:');
    expect(text).toContain('KNRI11');
    expect(text).not.toContain('HGLG11');
  });
});
