import { checkSyntax, placeholdersOf, renderText } from './template-text';

const values: Record<string, string | null> = { ticker: 'HGLG11', amt: 'R$ 0,92', com: '31/10/2025', pay: null };
const resolve = (name: string) => values[name] ?? null;

describe('template text', () => {
  it('fills placeholders and drops optional segments with missing values', () => {
    expect(renderText('Último dividendo do {ticker}: {amt} por cota[, com data-com em {com}][ e pagamento em {pay}].', resolve)).toBe(
      'Último dividendo do HGLG11: R$ 0,92 por cota, com data-com em 31/10/2025.',
    );
  });

  it('returns null when a required value is missing', () => {
    expect(renderText('Pagamento em {pay}.', resolve)).toBeNull();
  });

  it('tidies separators left by a dropped leading segment', () => {
    expect(renderText('Índices em {com}: [A {pay}][; B {amt}].', resolve)).toBe('Índices em 31/10/2025: B R$ 0,92.');
  });

  it('lists placeholders and rejects bad syntax', () => {
    expect(placeholdersOf('{a} [{b|month}]')).toEqual(['a', 'b']);
    expect(checkSyntax('[a [b]]')).toMatch(/nested/);
    expect(checkSyntax('a ]')).toMatch(/without/);
    expect(checkSyntax('{a|upper}')).toMatch(/unknown modifier/);
    expect(checkSyntax('[{a}] ok')).toBeNull();
  });
});
