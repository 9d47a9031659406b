import { loadAlertQuota } from './store';
import { describeRule, ruleFromArgs } from './rule';

describe('alert rules from the chat arguments', () => {
  it('reads a distribution, a fund level and a market level', () => {
    expect(ruleFromArgs({ tipo: 'distribuicao', ticker: 'xpml11' })).toEqual({ kind: 'distribution', ticker: 'XPML11' });
    expect(ruleFromArgs({ ticker: 'XPML11' })).toEqual({ kind: 'distribution', ticker: 'XPML11' });
    expect(ruleFromArgs({ tipo: 'nivel', medida: 'dy', ticker: 'HGLG11', direcao: 'acima', valor: '9' })).toEqual({
      kind: 'level',
      measure: 'dy',
      ticker: 'HGLG11',
      op: 'above',
      value: 9,
    });
    const selic = ruleFromArgs({ medida: 'selic', ticker: 'HGLG11', direcao: 'abaixo', valor: 10 });
    expect(selic).toEqual({ kind: 'level', measure: 'selic', ticker: null, op: 'below', value: 10 });
    expect(describeRule(selic)).toBe('quando a Selic ficar abaixo de 10,00% ao ano');
    expect(describeRule(ruleFromArgs({ medida: 'preco', ticker: 'KNRI11', direcao: 'abaixo', valor: '140.5' }))).toBe('quando a cotação do KNRI11 ficar abaixo de R$ 140,50');
  });

  it('answers a malformed rule with the question that completes it', () => {
    expect(() => ruleFromArgs({ tipo: 'distribuicao' })).toThrow(/De qual fundo devo avisar/);
    expect(() => ruleFromArgs({ medida: 'preco', direcao: 'acima', valor: '150' })).toThrow(/De qual fundo é a cotação\?/);
    expect(() => ruleFromArgs({ medida: 'selic' })).toThrow(/Avisar quando a Selic passar de quanto, ou cair abaixo de quanto\?/);
    expect(() => ruleFromArgs({ medida: 'dy', ticker: 'HGLG11', direcao: 'acima', valor: '900' })).toThrow(/não parece possível/);
    expect(() => ruleFromArgs({})).toThrow(/Não entendi sobre o que avisar\. Sei avisar sobre: .*um provento novo de um fundo\. Por exemplo: /);
    expect(() => ruleFromArgs({ tipo: 'variacao', valor: '3' })).toThrow(/Sei avisar da variação num dia de: a cotação, o IFIX\. De qual\?/);
    expect(() => ruleFromArgs({ tipo: 'variacao', ticker: 'HGLG11' })).toThrow(/Avisar quando a cotação do HGLG11 variar mais de quantos por cento num dia\?/);
    expect(() => ruleFromArgs({ tipo: 'variacao', medida: 'dy', ticker: 'HGLG11', valor: '3' })).toThrow(/Sei avisar da variação num dia de/);
    expect(() => ruleFromArgs({ medida: 'pvp', ticker: 'HGLG11', direcao: 'acima', valor: '50' })).toThrow(/O nível 50,00 não parece possível para o P\/VP/);
  });

  it('reads the kinds policies/alerts.yaml declares: P/VP and IFIX levels, daily moves, monthly reports', () => {
    const pvp = ruleFromArgs({ tipo: 'nivel', medida: 'pvp', ticker: 'HGLG11', direcao: 'abaixo', valor: '0.9' });
    expect(pvp).toEqual({ kind: 'level', measure: 'pvp', ticker: 'HGLG11', op: 'below', value: 0.9 });
    expect(describeRule(pvp)).toBe('quando o P/VP do HGLG11 ficar abaixo de 0,90');
    const ifix = ruleFromArgs({ tipo: 'nivel', medida: 'ifix', direcao: 'acima', valor: '3500' });
    expect(describeRule(ifix)).toBe('quando o IFIX passar de 3.500 pontos');
    // A fund's daily move is its price's.
    const fall = ruleFromArgs({ tipo: 'variacao', ticker: 'HGLG11', direcao: 'abaixo', valor: '3' });
    expect(fall).toEqual({ kind: 'move', measure: 'price', ticker: 'HGLG11', op: 'down', value: 3 });
    expect(describeRule(fall)).toBe('quando a cotação do HGLG11 cair mais de 3,00% num dia');
    expect(describeRule(ruleFromArgs({ tipo: 'variacao', medida: 'ifix', valor: '1.5' }))).toBe('quando o IFIX variar mais de 1,50% num dia');
    expect(describeRule(ruleFromArgs({ tipo: 'informe', ticker: 'knri11' }))).toBe('quando sair o informe mensal do KNRI11');
    expect(describeRule(ruleFromArgs({ tipo: 'informe' }))).toBe('quando sair o informe mensal de um fundo da sua carteira');
  });

  it('reads the per-client limit from policies/quotas.yaml', () => {
    expect(loadAlertQuota().max_rules_per_client).toBeGreaterThan(0);
  });
});
