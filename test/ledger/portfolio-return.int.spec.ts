import type { DataSource } from 'typeorm';
import { dataDir } from '@cota/config';
import { extractArgs } from '@cota/planning';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { portfolioReturn } from '@cota/tools';
import { ensureWarehouse, loadMeasureCatalog, MeasureQueryService, PgSqlRunner } from '@cota/warehouse';

/**
 * The portfolio's return over a period (`rentabilidade_carteira`, Modified Dietz) on the real
 * warehouse: a ledger written here, the closes and benchmarks of the shared data. The expected
 * return is computed in the test from the closes it reads, flow by flow, with the formula written out.
 */
const CLIENT = 'cliente-rentabilidade';
const TODAY = '2026-11-27';
let db: TestDatabase;
let ds: DataSource;
let measures: MeasureQueryService;

const entry = (seq: number, kind: string, date: string, quantity: number, price: number, amount: number) =>
  ds.query(
    `INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, is_demo, source)
     VALUES ($1, $2, $3, $4, $5, 'HGLG11', $6, $7, $8, 0, false, 'chat')`,
    [CLIENT, `e${seq}`, seq, kind, date, quantity, price, amount],
  );

async function closeOn(date: string, column: 'close_price' | 'adj_close_price' = 'close_price'): Promise<{ d: string; p: number }> {
  const [row] = await ds.query(
    `SELECT traded_at::text AS d, ${column}::float AS p FROM wh_prices WHERE ticker = 'HGLG11' AND traded_at <= $1 AND ${column} IS NOT NULL ORDER BY traded_at DESC LIMIT 1`,
    [date],
  );
  return row;
}

beforeAll(async () => {
  db = await createTestDatabase('portfolio_return');
  ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: dataDir(), log: silentLogger() });
  measures = new MeasureQueryService(loadMeasureCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 20_000, today: () => TODAY });
  // HGLG11: 100 in 2020, 50 more and 30 sold in 2021 with two incomes from the statement; 20 more and 40 sold in 2024.
  await entry(1, 'buy', '2020-06-30', 100, 160, 16000);
  await entry(2, 'income', '2021-02-12', 100, 1.1, 110);
  await entry(3, 'buy', '2021-03-31', 50, 162, 8100);
  await entry(4, 'income', '2021-08-13', 150, 1.1, 165);
  await entry(5, 'sell', '2021-09-30', 30, 158, 4740);
  await entry(6, 'buy', '2024-03-28', 20, 160, 3200);
  await entry(7, 'sell', '2024-09-30', 40, 158, 6320);
}, 600_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('rentabilidade_carteira', () => {
  it('reads the period of the question', () => {
    const gate = loadToolGatePolicy();
    const args = (q: string) => extractArgs(q, gate.tools.rentabilidade_carteira.extractors, gate, { today: TODAY, expecting: [] });
    expect(args('quanto minha carteira rendeu em 2024 contra o cdi?')).toEqual({ data_inicio: '2024-01-01', data_fim: '2024-12-31' });
    expect(args('rentabilidade da carteira nos ultimos 12 meses')).toEqual({ meses: 12 });
    expect(args('bati o ifix desde março de 2024?')).toEqual({ data_inicio: '2024-03-01' });
    expect(args('bati o ifix?')).toEqual({});
  });

  it('gives the money-weighted return of 2021 at traded month closes, income as flows, against the IFIX and the CDI', async () => {
    const r = await portfolioReturn(ds, measures, { data_inicio: '2021-01-01', data_fim: '2021-12-31' }, { client_id: CLIENT, today: TODAY });
    const v0 = await closeOn('2020-12-31');
    const v1 = await closeOn('2021-12-31');
    // 365 days from the close of 31/12/2020 to that of 31/12/2021; each flow weighs (31/12/2021 − its date) / 365:
    // 12/02 income −110 (322 days), 31/03 buy +8 100 (275), 13/08 income −165 (140), 30/09 sale −4 740 (92).
    const V0 = 100 * v0.p;
    const V1 = 120 * v1.p;
    const net = -110 + 8100 - 165 - 4740;
    const capital = V0 + (-110 * 322 + 8100 * 275 - 165 * 140 - 4740 * 92) / 365;
    const expected = ((V1 - V0 - net) / capital) * 100;
    expect([r.data_inicio, r.data_fim, r.precos]).toEqual(['2021-01-01', '2021-12-31', 'fechamento']);
    expect(Number(r.valor_inicial)).toBeCloseTo(V0, 2);
    expect(Number(r.valor_final)).toBeCloseTo(V1, 2);
    expect(Number(r.rentabilidade_pct)).toBeCloseTo(expected, 3);
    expect([r.compras, r.vendas, r.proventos]).toEqual(['8100.00', '4740.00', '275.00']);
    expect(r.referencias.map((b) => b.indice)).toEqual(['IFIX', 'CDI']);
    expect(r.referencias.every((b) => b.rentabilidade_pct !== null)).toBe(true);
    expect(r.text).toContain('De 01/01/2021 a 31/12/2021');
    expect(r.text).toContain('Modified Dietz');
    expect(r.text).toContain(`fechamento de ${v1.d.split('-').reverse().join('/')}`);
  }, 60_000);

  it('values 2024 at the adjusted closes the base has, each lot grown from its cost with income reinvested, and says so', async () => {
    const r = await portfolioReturn(ds, measures, { data_inicio: '2024-01-01', data_fim: '2024-12-31' }, { client_id: CLIENT, today: TODAY });
    const dates = ['2023-12-31', '2024-12-31', '2020-06-30', '2021-03-31', '2024-03-28', '2024-09-30'];
    const [a0, a1, b20, b21, buy, sale] = await Promise.all(dates.map((d) => closeOn(d, 'adj_close_price')));
    // Each lot in units of the adjusted series (its cost over that day's adjusted close); a sale takes its share of the units.
    const before2024 = (100 * 160) / b20.p + (50 * 162) / b21.p;
    const held = before2024 * (1 - 30 / 150);
    const bought = (20 * 160) / buy.p;
    const sold = (held + bought) * (40 / 140);
    // 366 days; the buy of 20 on 28/03 (278 days to the end) brought R$ 3.200; the sale of 40 on 30/09 (92 days) took its units out.
    const V0 = held * a0.p;
    const V1 = (held + bought - sold) * a1.p;
    const net = 20 * 160 - sold * sale.p;
    const capital = V0 + (20 * 160 * 278 - sold * sale.p * 92) / 366;
    const expected = ((V1 - V0 - net) / capital) * 100;
    expect(r.precos).toBe('fechamento_ajustado');
    expect(Number(r.rentabilidade_pct)).toBeCloseTo(expected, 3);
    expect(r.proventos).toBe('0.00');
    // The IFIX of 2024 as the measure answers it (3 311,43 → 3 116,28 = −5,89%); the CDI compounded over 2024's business days.
    const [ifix, cdi] = r.referencias;
    expect(ifix).toMatchObject({ indice: 'IFIX', de: '2023-12-28', ate: '2024-12-30' });
    expect(ifix.rentabilidade_pct!).toBeCloseTo(-5.89, 2);
    expect(cdi.rentabilidade_pct!).toBeGreaterThan(10);
    expect(cdi.rentabilidade_pct!).toBeLessThan(11.5);
    expect(r.text).toContain('ajustados por proventos');
    // (and by how much, in percentage points, against each index)
    const gap = (Math.round(Number(r.rentabilidade_pct) * 100) - Math.round(ifix.rentabilidade_pct! * 100)) / 100;
    expect(r.text).toContain(`${Math.abs(gap).toFixed(2).replace('.', ',')} p.p. ${gap > 0 ? 'acima' : 'abaixo'} do IFIX`);
  }, 60_000);

  it('ends a trailing period at the latest close, and a period past it says the prices are older', async () => {
    const trailing = await portfolioReturn(ds, measures, { meses: 12 }, { client_id: CLIENT, today: TODAY });
    const last = await closeOn(TODAY);
    expect(trailing.data_fim <= last.d).toBe(true);
    const past = await portfolioReturn(ds, measures, { data_inicio: '2024-07-01', data_fim: '2026-11-27' }, { client_id: CLIENT, today: TODAY });
    // HGLG11's closes adjusted for distributions stop at 30/12/2024 in the base (its traded closes at 2022-12, then June 2025).
    expect(past.data_fim).toBe((await closeOn(TODAY, 'adj_close_price')).d);
    expect(past.text).toContain('anteriores ao fim do período pedido (27/11/2026)');
  }, 60_000);
});
