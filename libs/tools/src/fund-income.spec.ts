import { queryParams, type QueryResult } from '@cota/contracts';
import { magicNumber } from './fund-income';
import type { WarehouseQuery } from './warehouse-query';

/** The fund's last close and last dividend, as the catalog entities return them. */
const warehouse = (close: string, dividend: string): WarehouseQuery => ({
  query: async (entity) => {
    const rows =
      entity === 'fiis_precos'
        ? [{ ticker: 'HGLG11', traded_at: '2025-06-25', close_price: close }]
        : [{ ticker: 'HGLG11', traded_until_date: '2025-05-30', payment_date: '2025-06-13', dividend_amt: dividend }];
    const result: QueryResult = { entity, columns: [], rows, row_count: 1, truncated: false, as_of: null, sources: ['dashbord'], params: queryParams({}) };
    return result;
  },
});
const ctx = { request_id: 'r1', client_id: 'cliente-demo-1' };

describe('numero_magico with a holding', () => {
  it('gives the monthly income of a number of shares at the last dividend, exactly', async () => {
    const out = await magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', cotas: 300 }, ctx);
    expect(out).toMatchObject({ cotas: '300', renda_mensal: '330.00', custo: '47520.00' });
    expect(out.text).toContain('300 cotas do HGLG11 rendem cerca de R$ 330,00 por mês');
  });

  it('buys whole shares with an amount invested and says what is left', async () => {
    const out = await magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', valor_investido: '10000' }, ctx);
    // ⌊10000 ÷ 158,40⌋ = 63 shares, R$ 9.979,20; 63 × 1,10 = R$ 69,30 a month.
    expect(out).toMatchObject({ cotas: '63', custo: '9979.20', renda_mensal: '69.30', sobra: '20.80' });
  });

  it("takes the snapshot's last payment when it is newer than the distributions'", async () => {
    const base = warehouse('104.50', '1.20');
    const withSnapshot: WarehouseQuery = {
      query: async (entity, params, c) => {
        const r = await base.query(entity, params, c);
        return entity === 'fiis_financials_snapshot' ? { ...r, rows: [{ ticker: 'KNCR11', last_dividend_amt: '1.33', last_payment_date: '2025-11-13' }], sources: ['araquem'] } : r;
      },
    };
    const out = await magicNumber(withSnapshot, { ticker: 'KNCR11', renda_mensal: '500' }, ctx);
    // ⌈500 ÷ 1,33⌉ = 376 shares.
    expect(out.text).toContain('376 cotas');
    expect(out.text).toContain('R$ 1,33 por cota (pago em 13/11/2025)');
    // An older snapshot payment leaves the distributions' own.
    const older: WarehouseQuery = {
      query: async (entity, params, c) => {
        const r = await base.query(entity, params, c);
        return entity === 'fiis_financials_snapshot' ? { ...r, rows: [{ last_dividend_amt: '0.90', last_payment_date: '2025-01-10' }] } : r;
      },
    };
    expect((await magicNumber(older, { ticker: 'KNCR11', renda_mensal: '500' }, ctx)).text).toContain('417 cotas');
  });

  it('refuses a holding that is no whole positive number of shares, or an amount that buys none', async () => {
    await expect(magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', cotas: 2.5 }, ctx)).rejects.toThrow('inteiro positivo');
    await expect(magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', valor_investido: '100' }, ctx)).rejects.toThrow('não dá para comprar uma cota');
  });
});
