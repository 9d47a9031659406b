import type { QueryResult } from '@cota/contracts';
import { simulateSaleTax } from './tax';
import type { WarehouseQuery } from './warehouse-query';

/** A warehouse where the client holds none of the fund asked about. */
const noPosition: WarehouseQuery = { query: async () => ({ rows: [] }) as unknown as QueryResult };
const ctx = { request_id: 'r1', client_id: 'cliente-demo-3', today: '2026-11-29' };

describe('simular_ir_venda for a fund no longer held', () => {
  it('answers the tax of the sale already made when there was one', async () => {
    const out = await simulateSaleTax(noPosition, { ticker: 'xpin11' }, ctx, async (t) => ({ text: `**Imposto sobre as vendas de FII em agosto de 2022: R$ 33,74** (${t})` }));
    expect(out.text).toBe('Você não tem mais cotas do XPIN11; o imposto da venda que fez:\n\n**Imposto sobre as vendas de FII em agosto de 2022: R$ 33,74** (XPIN11)');
  });

  it('says there is nothing to simulate when the fund was never sold either', async () => {
    await expect(simulateSaleTax(noPosition, { ticker: 'HGLG11' }, ctx, async () => null)).rejects.toThrow('Você não tem cotas do HGLG11 na carteira');
  });
});
