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

  it('refuses a holding that is no whole positive number of shares, or an amount that buys none', async () => {
    await expect(magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', cotas: 2.5 }, ctx)).rejects.toThrow('inteiro positivo');
    await expect(magicNumber(warehouse('158.40', '1.10'), { ticker: 'HGLG11', valor_investido: '100' }, ctx)).rejects.toThrow('não dá para comprar uma cota');
  });
});
