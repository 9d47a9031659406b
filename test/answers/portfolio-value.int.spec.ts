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

describe('what the positions were worth at a past close (client_position_values)', () => {
  // Closes of 29/12/2022 (market16): HGLG11 164,50, KNRI11 140,20, VISC11 106,22, XPML11 95,68; shares then held: 120, 120, 80, 80.
  it('a fund at the close of a month: the shares held then × that close (80 × 95,68)', async () => {
    const text = await answer('quanto valia a minha posicao em xpml11 no fechamento de dezembro de 2022?');
    expect(text).toContain('R$ 7.654,40');
    expect(text).toContain('29/12/2022');
  });

  it('the whole portfolio at the year-end close: each fund held then, summed (19 740,00 + 16 824,00 + 8 497,60 + 7 654,40)', async () => {
    const text = await answer('no fechamento de 2022, quanto valia minha carteira a preco de mercado?');
    for (const e of ['R$ 19.740,00', 'R$ 16.824,00', 'R$ 8.497,60', 'R$ 7.654,40']) expect(text).toContain(e);
    expect(text).toContain('Somando os 4 fundos, a carteira valia R$ 52.716,00 em 29/12/2022.');
  });

  it('a fund sold before the date is no part of it (cliente-demo-3 sold its 70 XPIN11 on 31/08/2022)', async () => {
    const text = await answer('quanto valia minha carteira no fim de 2022?', 'cliente-demo-3');
    expect(text).not.toContain('XPIN11');
    expect(text).toContain('Somando os');
  });
});

describe("the client's trades, listed", () => {
  it('"lista as operacoes que eu fiz em 2022": buys and sells, each with its fund, shares, price and amount (cliente-demo-2)', async () => {
    const text = await answer('lista as operacoes que eu fiz em 2022', 'cliente-demo-2');
    expect(text).toContain('| Data | Fundo | Operação | Cotas | Preço por cota | Valor |');
    // The HGCR11 sale of 30/09/2022: 40 × 104,71.
    expect(text).toContain('| 30/09/2022 | HGCR11 | Venda | 40 | R$ 104,71 | R$ 4.188,40 |');
    expect(text).toMatch(/\| 31\/01\/2022 \| KNIP11 \| Compra \|/);
  });

  it('"me mostra todas as compras que eu fiz" lists every purchase (cliente-demo-1: 5, the last 20 HGLG11 at R$ 164,42 on 30/06/2022)', async () => {
    const text = await answer('me mostra todas as compras que eu fiz');
    expect(text).toContain('5 compras');
    expect(text).toContain('| 30/06/2022 | HGLG11 | 20 | R$ 164,42 |');
  });
});

describe("a fund's dividends asked of the whole portfolio: what the client's shares got", () => {
  // 2nd half of 2024 by data-com (dashbord): HGLG11 6 × 1,10 × 120, KNRI11 6 × 1,00 × 120, XPML11 6 × 0,92 × 80, VISC11 (0,85 + 0,83 + 4 × 0,80) × 80.
  it('"quanto a minha carteira pingou de dividendos no segundo semestre de 2024?" is R$ 2.344,00', async () => {
    const text = await answer('quanto a minha carteira pingou de dividendos no segundo semestre de 2024? (pela data com)');
    expect(text).toContain('R$ 2.344,00');
  });
});
