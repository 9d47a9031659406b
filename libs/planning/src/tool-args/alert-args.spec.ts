import { ConversationState } from '@cota/contracts';
import { loadContextPolicy } from '@cota/dialogue';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { TurnReader } from '../read-turn';
import { realPlanner } from '../test-helpers';
import { extractAlert, extractAlertPick } from './alert-args';

describe('alerts told in the chat', () => {
  it.each([
    ['me avise quando o XPML11 anunciar dividendo', { tipo: 'distribuicao', ticker: 'XPML11' }],
    ['avise se o DY do HGLG11 passar de 9%', { tipo: 'nivel', medida: 'dy', ticker: 'HGLG11', direcao: 'acima', valor: '9' }],
    ['se a selic cair abaixo de 10%', { tipo: 'nivel', medida: 'selic', direcao: 'abaixo', valor: '10' }],
    ['me avisa se a cotação do KNRI11 ficar abaixo de R$ 140,50', { tipo: 'nivel', medida: 'preco', ticker: 'KNRI11', direcao: 'abaixo', valor: '140.5' }],
    ['avise se o IPCA passar de 0,5%', { tipo: 'nivel', medida: 'ipca', direcao: 'acima', valor: '0.5' }],
    ['avise se o DY do HGLG11 mudar', { tipo: 'nivel', medida: 'dy', ticker: 'HGLG11' }],
    ['me avise', {}],
  ])('%s', (q, args) => expect(extractAlert(q)).toEqual(args));

  it('reads which alert a message names', () => {
    expect(extractAlertPick('remover alerta 2')).toEqual({ numero: 2 });
    expect(extractAlertPick('pausa o alerta nº 3')).toEqual({ numero: 3 });
    expect(extractAlertPick('pausar o alerta do HGLG11')).toEqual({ ticker: 'HGLG11' });
    expect(extractAlertPick('apaga meus alertas')).toEqual({});
  });
});

describe('alerts are read as the alert tools', () => {
  const reader = new TurnReader(realPlanner(), { context: loadContextPolicy(), tools: loadToolGatePolicy() }, () => new Date('2026-11-27T15:00:00Z'));
  const state = ConversationState.parse({ turn_index: 2, last_entity: null, last_tickers: [], last_reference: null });

  it.each([
    ['me avise quando o XPML11 anunciar dividendo', 'criar_alerta', { tipo: 'distribuicao', ticker: 'XPML11' }],
    ['avise se o DY do HGLG11 passar de 9%', 'criar_alerta', { tipo: 'nivel', medida: 'dy', ticker: 'HGLG11', direcao: 'acima', valor: '9' }],
    ['se a selic cair abaixo de 10%', 'criar_alerta', { tipo: 'nivel', medida: 'selic', direcao: 'abaixo', valor: '10' }],
    ['quais alertas eu tenho?', 'listar_alertas', {}],
    ['pausar o alerta 2', 'pausar_alerta', { numero: 2 }],
    ['reativar alerta 2', 'reativar_alerta', { numero: 2 }],
    ['remover alerta 1', 'remover_alerta', { numero: 1 }],
  ])('%s', async (q, name, args) => {
    expect(await reader.read(q, state)).toMatchObject({ kind: 'tool', tool: { name, args } });
  });

  it('questions about the Selic or a dividend stay questions', async () => {
    expect((await reader.read('qual a selic hoje?', state)).kind).not.toBe('tool');
    expect((await reader.read('quanto o XPML11 pagou de dividendo em outubro?', state)).kind).not.toBe('tool');
  });
});
