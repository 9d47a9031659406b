import { SAMPLE_PERIOD_QUESTION, type Turn } from '@cota/contracts';
import { conversationState } from './conversation-state';

const at = '2026-11-27T12:00:00.000Z';
const user = (content: string): Turn => ({ role: 'user', content, created_at: at, meta: {} });
const answer = (meta: Record<string, unknown>): Turn => ({ role: 'assistant', content: '...', created_at: at, meta: { status: 'ok', entity: 'fiis_rankings', ...meta } });

describe('the conversation state a turn is read against', () => {
  it('keeps the newest list of funds while later answers pick one fund from it', () => {
    const recent = [
      user('quais os 3 maiores fiis de lajes?'),
      answer({ listed: ['PVBI11', 'HGRE11', 'BRCR11'], tickers: [] }),
      user('qual o cnpj do segundo?'),
      answer({ entity: 'fiis_cadastro', listed: ['HGRE11'], tickers: ['HGRE11'] }),
    ];
    const state = conversationState(recent, {}, null, 3, []);
    expect(state.last_listed_tickers).toEqual(['HGRE11']);
    expect(state.last_list).toEqual(['PVBI11', 'HGRE11', 'BRCR11']);
  });

  it("keeps the person's words the newest answer answered", () => {
    const recent = [user('fii tem come-cotas?'), answer({ entity: null, kind: 'concept' })];
    expect(conversationState(recent, {}, null, 2, [])).toMatchObject({ last_kind: 'concept', last_asked: 'fii tem come-cotas?' });
    expect(conversationState([], {}, null, 1, []).last_asked).toBeNull();
  });

  it('a newer list replaces it; a failed answer does not', () => {
    const recent = [answer({ listed: ['PVBI11', 'HGRE11', 'BRCR11'] }), answer({ listed: ['HGLG11', 'BTLG11'] }), answer({ status: 'error', listed: ['XPML11', 'VISC11'] })];
    expect(conversationState(recent, {}, null, 4, []).last_list).toEqual(['HGLG11', 'BTLG11']);
  });

  it('points at a question asked of a fund Cota does not know, so "e do ABCP11?" asks it again', () => {
    const recent = [
      answer({ entity: 'fiis_cadastro', tickers: ['HGLG11'] }),
      user('quais os dividendos do xyzw11'),
      answer({ status: 'error', problem: 'unknown_ticker', entity: 'fiis_dividendos', question: null }),
    ];
    expect(conversationState(recent, {}, null, 3, []).last_entity).toBe('fiis_dividendos');
    // Any other failure leaves the answered question the one pointed at.
    recent[2] = answer({ status: 'error', problem: 'generic', entity: 'fiis_dividendos' });
    expect(conversationState(recent, {}, null, 3, []).last_entity).toBe('fiis_cadastro');
  });

  it("points at a tool's answer that left the period it measured, and past one that left nothing", () => {
    const measured = SAMPLE_PERIOD_QUESTION;
    const data = answer({ entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const portfolioReturn = answer({ entity: null, kind: 'tool', question: measured });
    expect(conversationState([data, user('minha carteira rendeu quanto em 2023?'), portfolioReturn], {}, null, 3, []).last_question).toEqual(measured);
    const calculator = answer({ entity: null, kind: 'tool' });
    expect(conversationState([data, user('quanto é 1% ao mês ao ano?'), calculator], {}, null, 3, []).last_entity).toBe('fiis_cadastro');
  });

  it('keeps the funds of the answer before the last, a measure-less entity answer too ("cnpj do IRDM11" → "e do RBRF11?")', () => {
    const recent = [
      user('cnpj do irdm11'),
      answer({ entity: 'fiis_cadastro', tickers: ['IRDM11'] }),
      user('e do rbrf11?'),
      answer({ entity: 'fiis_cadastro', tickers: ['RBRF11'] }),
    ];
    expect(conversationState(recent, {}, null, 3, [])).toMatchObject({ last_tickers: ['RBRF11'], earlier_subjects: [{ kind: 'fund', id: 'IRDM11' }] });
  });

  it('is empty when no answer listed two or more funds', () => {
    expect(conversationState([answer({ listed: ['HGLG11'] })], {}, null, 2, []).last_list).toEqual([]);
  });
});
