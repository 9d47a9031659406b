import { alertCatalog } from '@cota/catalog';
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
    // The kinds and measures policies/alerts.yaml declares besides those.
    ['avise se o P/VP do HGLG11 cair abaixo de 0,9', { tipo: 'nivel', medida: 'pvp', ticker: 'HGLG11', direcao: 'abaixo', valor: '0.9' }],
    ['me avisa se o preço sobre valor patrimonial do KNRI11 passar de 1,1', { tipo: 'nivel', medida: 'pvp', ticker: 'KNRI11', direcao: 'acima', valor: '1.1' }],
    ['avise se o IFIX passar de 3.500 pontos', { tipo: 'nivel', medida: 'ifix', direcao: 'acima', valor: '3500' }],
    ['me avise se o IFIX cair mais de 2% num dia', { tipo: 'variacao', medida: 'ifix', direcao: 'abaixo', valor: '2' }],
    ['avise se o HGLG11 subir mais de 3,5% em um dia', { tipo: 'variacao', ticker: 'HGLG11', direcao: 'acima', valor: '3.5' }],
    ['me avisa quando o XPML11 variar mais de 4% no dia', { tipo: 'variacao', ticker: 'XPML11', valor: '4' }],
    ['me avise quando sair o informe mensal do KNRI11', { tipo: 'informe', ticker: 'KNRI11' }],
    ['quero ser avisado dos relatórios mensais dos fundos da minha carteira', { tipo: 'informe' }],
  ])('%s', (q, args) => expect(extractAlert(q)).toEqual(args));

  it("reads the tool's arguments as the values policies/tool_gate.yaml accepts", () => {
    const catalog = alertCatalog();
    const args = loadToolGatePolicy().tools.criar_alerta.args as Record<string, { values?: string[] }>;
    expect([...(args.tipo.values ?? [])].sort()).toEqual(catalog.kinds.map((k) => k.arg).sort());
    expect([...(args.medida.values ?? [])].sort()).toEqual(catalog.measures.map((m) => m.arg).sort());
  });

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
    ['me avise se o IFIX cair mais de 2% num dia', 'criar_alerta', { tipo: 'variacao', medida: 'ifix', direcao: 'abaixo', valor: '2' }],
    ['me avise quando sair o informe mensal do KNRI11', 'criar_alerta', { tipo: 'informe', ticker: 'KNRI11' }],
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
