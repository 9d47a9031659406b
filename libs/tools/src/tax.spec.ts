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

describe('simular_ir_venda with the prices stated', () => {
  it('a sale whose shares, purchase and sale prices are all said needs no fund nor portfolio', async () => {
    const out = await simulateSaleTax(noPosition, { quantidade: 200, preco_compra: '98', preco_venda: '105' }, ctx);
    expect(out).toMatchObject({ ticker: null, lucro: '1400.00', imposto: '280.00' });
    expect(out.text).toContain('**Vendendo 200 cotas a R$ 105,00, o lucro seria de R$ 1.400,00 e o imposto de renda, R$ 280,00 (20%).**');
    expect(out.text).toContain('200 × preço de compra informado de R$ 98,00');
  });

  it('a loss pays nothing and is said to offset later gains', async () => {
    const out = await simulateSaleTax(noPosition, { ticker: 'HGLG11', quantidade: 10, preco_compra: '160', preco_venda: '150' }, ctx);
    expect(out).toMatchObject({ lucro: '-100.00', imposto: '0.00', vencimento_darf: null });
    expect(out.text).toContain('o resultado seria de -R$ 100,00 (prejuízo): não há imposto a pagar');
  });
});

describe('simular_ir_venda with the gain stated', () => {
  it('is 20% of it, whatever fund', async () => {
    const out = await simulateSaleTax(noPosition, { lucro: '3500' }, ctx);
    expect(out).toMatchObject({ ticker: null, imposto: '700.00', vencimento_darf: '2026-12-31' });
    expect(out.text).toContain('o imposto de renda é de R$ 700,00 (20%)');
  });
});

describe('simular_ir_venda of a position held', () => {
  // (KNIP11 bought 150 × 104,20 and 30 × 91,77: R$ 18.383,10, an average of 102,12833...)
  const held: WarehouseQuery = {
    query: async () => ({ rows: [{ ticker: 'KNIP11', quantity: 180, avg_price: '102.1283', invested_amt: '18383.10', last_price: '95.00' }] }) as unknown as QueryResult,
  };

  it('costs what the shares cost, not the rounded average times the shares', async () => {
    const out = await simulateSaleTax(held, { ticker: 'KNIP11', preco_venda: '95' }, ctx);
    expect(out).toMatchObject({ lucro: '-1283.10', custo: '18383.10' });
  });
});
