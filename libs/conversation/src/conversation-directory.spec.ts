import { decodeCursor, encodeCursor, titleFromQuestion } from './conversation-directory';

describe('conversation list helpers', () => {
  it('titles a conversation by its first question, on one line and cut with an ellipsis', () => {
    expect(titleFromQuestion('  CNPJ do\nHGLG11?  ')).toBe('CNPJ do HGLG11?');
    const long = 'quais os fundos de logística com DY acima de 10% e P/VP abaixo de 1 que pagaram dividendos todo mês em 2024?';
    const t = titleFromQuestion(long);
    expect(t.length).toBeLessThanOrEqual(80);
    expect(t.endsWith('…')).toBe(true);
    expect(titleFromQuestion(null)).toBe('Conversa sem perguntas');
  });

  it('reads back only the cursors it wrote', () => {
    const c = { at: '2026-11-27T10:00:00.000Z', id: 'web-abc' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('bm90LWpzb24')).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify(['ontem', 'x'])).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify({ at: 1 })).toString('base64url'))).toBeNull();
  });
});
