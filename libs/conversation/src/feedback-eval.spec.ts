import type { FeedbackRecord } from '@cota/contracts';
import { feedbackToEvalCase } from './feedback-eval';

const base: FeedbackRecord = {
  client_id: 'cliente-demo-1',
  conversation_id: 'web-1',
  request_id: 'req-abc-123',
  turn_index: 2,
  rating: 'down',
  comment: 'o DY está errado',
  created_at: '2026-11-27T12:00:00.000Z',
  questions: ['CNPJ do HGLG11?', 'e o dy dele?'],
  answer: 'O DY de 12 meses do HGLG11 é 8,25%.',
  meta: {
    entity: 'fiis_financials_snapshot',
    tickers_in_text: [],
    question: { subjects: [{ kind: 'fund', id: 'HGLG11' }], measure: 'dy_12m', period: { kind: 'range', from: '2025-01-01', to: '2025-12-31', grain: 'year' } },
  },
};

describe('feedbackToEvalCase', () => {
  it('replays the conversation up to the rated answer, in the answer-eval format', () => {
    const c = feedbackToEvalCase(base);
    expect(Object.keys(c).sort()).toEqual(['category', 'client_id', 'evidence', 'id', 'turns']);
    expect(c.id).toBe('FB-20261127-reqabc123');
    expect(c.category).toBe('feedback_down');
    expect(c.turns.map((t) => t.q)).toEqual(['CNPJ do HGLG11?', 'e o dy dele?']);
    expect(c.turns[0].expect).toEqual({});
  });

  it('a 👎 expects only what the person wrote, and carries the comment, the answer and its reading as evidence', () => {
    const c = feedbackToEvalCase(base);
    expect(c.turns[1].expect).toEqual({});
    expect(c.evidence).toContain('comentário: "o DY está errado"');
    expect(c.evidence).toContain('resposta dada: "O DY de 12 meses do HGLG11 é 8,25%."');
    expect(c.evidence).toContain('subjects [HGLG11], período 2025-01-01..2025-12-31');
    expect(c.evidence).toContain('falta o valor esperado');
    const named = feedbackToEvalCase({ ...base, meta: { ...base.meta, tickers_in_text: ['KNRI11'] } });
    expect(named.turns[1].expect).toEqual({ subjects: ['KNRI11'] });
  });

  it('a 👍 keeps the reading as the expectation (subjects, period, an answer)', () => {
    const c = feedbackToEvalCase({ ...base, rating: 'up', comment: null });
    expect(c.category).toBe('feedback_up');
    expect(c.turns[1].expect).toEqual({ subjects: ['HGLG11'], period: { from: '2025-01-01', to: '2025-12-31' }, status: 'ok' });
    expect(c.evidence).toContain('sem comentário');
    expect(c.evidence).not.toContain('falta o valor esperado');
  });
});
