import { loadContextPolicy } from '@cota/dialogue';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { TurnReader } from './read-turn';
import { realPlanner } from './test-helpers';

const planner = realPlanner();
const read = (q: string) => planner.planDeterministic(q);

describe('what Cota does not cover is said plainly, not asked back', () => {
  it('another asset: by its B3 share code, or by the word that names it, when no fund is named', () => {
    expect(read('quanto fechou itub4 na sexta?')).toMatchObject({ kind: 'smalltalk', smalltalk: 'out_of_scope', out_of_scope: { reason: 'asset', term: 'ações (ITUB4)' } });
    expect(read('cotação do dogecoin agora')).toMatchObject({ out_of_scope: { reason: 'asset', term: 'criptomoedas (dogecoin)' } });
    // A fund named with it is a fund question ("compare o HGLG11 com a ação da Vale" still names a FII).
    expect(read('dividendos do HGLG11').out_of_scope).toBeNull();
  });

  it('a company measure FIIs do not report, even with a fund named; the longest name wins', () => {
    expect(read('me diz a margem ebitda do BTLG11')).toMatchObject({ kind: 'smalltalk', out_of_scope: { reason: 'measure', term: 'margem EBITDA' } });
    expect(read('lucro por acao do knri11')).toMatchObject({ out_of_scope: { reason: 'measure', term: 'lucro por ação' } });
  });

  it('another topic altogether: nothing of the vocabulary, no fund, no number, nothing it continues', async () => {
    const reader = new TurnReader(planner, { context: loadContextPolicy(), tools: loadToolGatePolicy() });
    expect(await reader.read('qual a previsão do tempo pra amanhã?', null)).toMatchObject({ kind: 'smalltalk', out_of_scope: { reason: 'topic', term: null } });
    // A bare list of numbers may answer a pending call: it is not "another topic".
    expect((await reader.read('-1000, 300 e 400', null)).out_of_scope).toBeNull();
  });

  it('leaves covered questions alone: legal "ações" of a fund, indices, small talk, an unknown fund code', () => {
    expect(read('ações judiciais do XPML11').entity).toBe('fiis_processos');
    expect(read('ibovespa hoje').out_of_scope).toBeNull();
    expect(read('bom dia').smalltalk).toBe('greeting');
    expect(read('qual o preço do ABCD11?').out_of_scope).toBeNull();
  });
});
