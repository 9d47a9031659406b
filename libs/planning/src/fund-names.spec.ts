import { FundNameIndex } from './fund-names';
import { realPlanner } from './test-helpers';

describe('funds named by their name', () => {
  const vocabulary = new Set(['renda', 'imobiliaria', 'logistica', 'corporativa', 'fundos']);
  const index = new FundNameIndex(
    [
      { ticker: 'RCRB11', name: 'Fundo Investimento Imobiliario Rio Bravo Renda Corporativa' },
      { ticker: 'VTLT11', name: 'Fundo Investimento Imobiliario Votorantim Logistica' },
      { ticker: 'KFOF11', name: 'Kinea Fundo de Fundos FII' },
      { ticker: 'AAAA11', name: 'Renda Imobiliaria FII' },
      { ticker: 'XPML11', name: 'XP Malls Fundo Investimento Imobiliario FII' },
      { ticker: 'XPMX11', name: 'XP Malls FII' },
    ],
    (w) => vocabulary.has(w),
  );

  it('finds the distinctive words of a registered name, in any case and accents', () => {
    expect(index.find('qual o ticker do fundo Rio Bravo Renda Corporativa?')).toEqual({ ticker: 'RCRB11', phrase: 'rio bravo renda corporativa' });
    expect(index.find('qual o codigo do fii Votorantim Logística?')?.ticker).toBe('VTLT11');
  });

  it('names no fund with one word, ordinary words only, or a name two funds share', () => {
    expect(index.find('e o p/vp do fundo da kinea?')).toBeNull();
    expect(index.find('fundos de renda imobiliária pagam bem?')).toBeNull();
    expect(index.find('dy do xp malls')).toBeNull();
  });

  it('the planner reads a fund named by its name as its ticker', () => {
    const plan = realPlanner().planDeterministic('qual o ticker do fundo Rio Bravo Renda Corporativa?');
    expect(plan.params.tickers).toEqual(['RCRB11']);
    expect(plan.planner.reason).toContain('fund named by its name');
  });
});
