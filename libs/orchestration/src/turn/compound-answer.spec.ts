import { joinAnswers } from './compound-answer';

const narrated = (answer: string, llm = false) => ({ answer, narrator: { llm_used: llm, reason: llm ? 'llm' : 'llm_disabled', model: null, latency_ms: 3 } });

describe('joinAnswers', () => {
  it('joins the parts in the order asked and says a source line once, at the end', () => {
    const out = joinAnswers([
      narrated('O CNPJ do GTWR11 é 23.740.527/0001-58.\nFonte: CVM, dados até 22/11/2025.'),
      narrated('O P/VP do GTWR11 é 0,77.\nFonte: CVM, dados até 22/11/2025.', true),
    ]);
    expect(out.answer).toBe('O CNPJ do GTWR11 é 23.740.527/0001-58.\n\nO P/VP do GTWR11 é 0,77.\n\nFonte: CVM, dados até 22/11/2025.');
    expect(out.narrator.llm_used).toBe(true);
  });

  it('keeps each source line that differs', () => {
    const out = joinAnswers([narrated('A.\nFonte: CVM.'), narrated('B.\nFonte: B3.')]);
    expect(out.answer).toBe('A.\n\nB.\n\nFonte: CVM.\nFonte: B3.');
  });
});
