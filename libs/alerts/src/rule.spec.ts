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
    expect(() => ruleFromArgs({})).toThrow(/Sei avisar quando um fundo anunciar um provento/);
  });

  it('reads the per-client limit from policies/quotas.yaml', () => {
    expect(loadAlertQuota().max_rules_per_client).toBeGreaterThan(0);
  });
});
