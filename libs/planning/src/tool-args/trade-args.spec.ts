import { ConversationState } from '@cota/contracts';
import { loadContextPolicy } from '@cota/dialogue';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { TurnReader } from '../read-turn';
import { realPlanner } from '../test-helpers';
import { extractTrade } from './trade-args';

const TODAY = '2026-11-27';

describe('extractTrade', () => {
  it.each([
    ['comprei 20 HGLG11 a 158,40 hoje', { tipo: 'compra', ticker: 'HGLG11', quantidade: 20, preco: '158.4', data: '2026-11-27' }],
    ['vendi 10 KNRI11 a 140 ontem', { tipo: 'venda', ticker: 'KNRI11', quantidade: 10, preco: '140', data: '2026-11-26' }],
    ['comprei 1.000 cotas de MXRF11 por R$ 10,05 em 03/11/2026', { tipo: 'compra', ticker: 'MXRF11', quantidade: 1000, preco: '10.05', data: '2026-11-03' }],
    ['vendi 5 cotas do XPML11 a R$ 101,5', { tipo: 'venda', ticker: 'XPML11', quantidade: 5, preco: '101.5' }],
  ])('%s', (q, expected) => {
    expect(extractTrade(q, TODAY)).toEqual(expected);
  });

  it('states only what the message says', () => {
    expect(extractTrade('comprei HGLG11', TODAY)).toEqual({ tipo: 'compra', ticker: 'HGLG11' });
  });
});

describe('a trade told in the chat is read as registrar_operacao', () => {
  const reader = new TurnReader(realPlanner(), { context: loadContextPolicy(), tools: loadToolGatePolicy() }, () => new Date('2026-11-27T15:00:00Z'));
  const state = ConversationState.parse({ turn_index: 2, last_entity: null, last_tickers: [], last_reference: null });

  it.each([
    ['comprei 20 HGLG11 a 158,40 hoje', { tipo: 'compra', ticker: 'HGLG11', quantidade: 20, preco: '158.4', data: '2026-11-27' }],
    ['vendi 10 KNRI11 a 140 ontem', { tipo: 'venda', ticker: 'KNRI11', quantidade: 10, preco: '140', data: '2026-11-26' }],
  ])('%s', async (q, args) => {
    const reading = await reader.read(q, state);
    expect(reading).toMatchObject({ kind: 'tool', tool: { name: 'registrar_operacao', args } });
  });

  it('the tax of sales made and the yearly report are read with their period', async () => {
    const darf = await reader.read('qual o DARF das minhas vendas de maio de 2024?', state);
    expect(darf).toMatchObject({ kind: 'tool', tool: { name: 'apurar_ir_vendas', args: { data_inicio: '2024-05-01', data_fim: '2024-05-31' } } });
    const report = await reader.read('relatório para a declaração do imposto de renda de 2024', state);
    expect(report).toMatchObject({ kind: 'tool', tool: { name: 'relatorio_ir_anual', args: { ano: 2024 } } });
  });

  it('a question about a sale still simulates its tax, and an expense is still a transaction', async () => {
    expect((await reader.read('se eu vender 50 cotas de MXRF11 a R$ 10,45, quanto pago de imposto?', state)).tool?.name).toBe('simular_ir_venda');
    expect((await reader.read('qto de darf eu pagaria vendendo 100 btlg11 por 101,35?', state)).tool?.name).toBe('simular_ir_venda');
    expect((await reader.read('quanto de IR eu pagaria se vendesse meus HGLG11 hoje?', state)).tool?.name).toBe('simular_ir_venda');
    expect((await reader.read('gastei 85 na farmácia', state)).tool?.name).toBe('registrar_transacao');
    // Without a fund, a purchase is an everyday expense.
    expect((await reader.read('comprei um tênis de 149,90 dia 8', state)).tool?.name).toBe('registrar_transacao');
    expect((await reader.read('comprei ingresso pro show por 280 reais dia 10', state)).tool?.name).toBe('registrar_transacao');
  });
});
