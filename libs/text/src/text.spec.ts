import fc from 'fast-check';
import {
  DEFAULT_FUZZY,
  FuzzyVocabulary,
  codeOf,
  editDistance,
  fold,
  foldWords,
  normalize,
  parseBrNumber,
  readableText,
  scaleFactor,
  stem,
  tokenize,
  unreadableNumbers,
  TICKER_RE,
  tickersIn,
  withoutTickers,
} from './index';

describe('pt-BR numbers', () => {
  it.each([
    ['10.000', '10000'],
    ['10.000,50', '10000.5'],
    ['1,5', '1.5'],
    ['1.5', '1.5'],
    ['1.234.567', '1234567'],
    ['24', '24'],
    ['-100', '-100'],
    ['−1,5', '-1.5'],
    ['+3', '3'],
  ])('%s → %s', (raw, expected) => expect(parseBrNumber(raw)!.toFixed()).toBe(expected));

  it('scales by the one table of scale words, written or folded', () => {
    expect(parseBrNumber('1,5', 'mi')!.toFixed()).toBe('1500000');
    expect(parseBrNumber('-2', 'bilhões')!.toFixed()).toBe('-2000000000');
    expect([scaleFactor('milhoes'), scaleFactor('k'), scaleFactor('tri'), scaleFactor(undefined)]).toEqual([1e6, 1e3, 1e12, 1]);
  });

  it('refuses what pt-BR does not write, and finds numbers in scientific notation whole', () => {
    for (const raw of ['1e300', '10.000.0', '1,2,3', '']) expect(parseBrNumber(raw)).toBeNull();
    expect(unreadableNumbers('juros de 1e300 e 2E-5, mas não o hglg11 nem 3 e 4').map((n) => n.raw)).toEqual(['1e300', '2E-5']);
  });
});

describe('tickers', () => {
  it('finds fund tickers in any case as whole words, once each, and only the fund shape', () => {
    expect(tickersIn('compare hglg11, KNRI11 e HGLG11 com xhglg11, HGLG1 e PETR4')).toEqual(['HGLG11', 'KNRI11']);
    expect(withoutTickers('vender 10 knri11 a 160', ' cotas ')).toBe('vender 10  cotas  a 160');
    expect([TICKER_RE.test('HGLG11'), TICKER_RE.test('HGLG10'), TICKER_RE.test('hglg11')]).toEqual([true, false, false]);
  });
});

describe('readableText', () => {
  it('writes compatibility characters in their plain form and drops invisible ones', () => {
    expect(readableText('ＨＧＬＧ１１')).toBe('HGLG11');
    expect(readableText('HG\u200bLG\u200c11\u200d \u2060e\ufeff o\u00ad KNRI11')).toBe('HGLG11 e o KNRI11');
    expect(readableText('cotação ﬁnal')).toBe('cotação final');
  });
});

describe('fold, foldWords and codeOf', () => {
  it('fold keeps punctuation, foldWords keeps words, codeOf keeps an upper-case code', () => {
    expect(fold('Cotação nº 1/2025 ＨＧＬＧ\u200b11')).toBe('cotacao no 1/2025 hglg11');
    expect(foldWords('  Galpões   Logísticos (SP)! ')).toBe('galpoes logisticos sp');
    expect(codeOf('IPCA-15')).toBe('IPCA15');
    expect(codeOf('igp-m')).toBe('IGPM');
    expect(codeOf('Poupança')).toBe('POUPANCA');
  });
});

describe('normalize', () => {
  it('lowercases, strips accents and turns punctuation into single spaces', () => {
    expect(normalize('  Qual é a COTAÇÃO  do HGLG11?!  ')).toBe('qual e a cotacao do hglg11');
    expect(normalize('Ações, imóveis; vacância...')).toBe('acoes imoveis vacancia');
  });

  it('expands chat abbreviations and keeps ambiguous single letters', () => {
    expect(normalize('vc sabe qto o HGLG11 pagou hj?')).toBe('voce sabe quanto o hglg11 pagou hoje');
    expect(normalize('oq é dy, pq caiu?')).toBe('o que e dy porque caiu');
    expect(normalize('n q c')).toBe('n q c');
  });

  it("reads a compound past of one's own act as its simple past, never the adjective alone", () => {
    expect(normalize('e qto eu tinha pago nele?')).toBe('e quanto eu paguei nele');
    expect(normalize('eu havia comprado 100 cotas')).toBe('eu comprei 100 cotas');
    expect(normalize('o dividendo pago em maio')).toBe('o dividendo pago em maio');
  });

  it('keeps meaningful compounds as one word', () => {
    expect(normalize('P/VP do XPLG11')).toBe('pvp do xplg11');
    expect(normalize('IGP-M e IPCA-15')).toBe('igpm e ipca15');
    expect(normalize('manda por e-mail o D-1')).toBe('manda por email o d1');
    expect(normalize('R$ 10 mil a 1,5% ao mês')).toBe('reais 10 mil a 1.5 por cento ao mes');
  });

  it('reads every spelling of R squared as one word, leaving "R$" and a lone "r" alone', () => {
    for (const s of ['o R² dele', 'o r^2 dele', 'o R-quadrado dele', 'o r quadrado dele', 'o R2 dele']) expect(normalize(s)).toBe('o r2 dele');
    expect(normalize('R$ 5 e r 2')).toBe('reais 5 e r 2');
  });

  it('reads "taxa de adm" as the management fee and a position\'s "PM" as the average price', () => {
    expect(normalize('taxa de adm do LVBI11')).toBe('taxa de administracao do lvbi11');
    expect(normalize('qual o adm do HGLG11')).toBe('qual o administrador do hglg11');
    expect(normalize('meu PM no KNHY11')).toBe('meu preco medio no knhy11');
    expect(normalize('pm')).toBe('pm');
  });

  it('splits dates into numbers (pattern extraction uses fold instead)', () => {
    expect(normalize('em 13/03/2025')).toBe('em 13 03 2025');
    expect(fold('Em 13/03/2025, Março')).toBe('em 13/03/2025, marco');
  });

  it('is idempotent and only emits [a-z0-9.] words separated by single spaces', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const once = normalize(s);
        expect(normalize(once)).toBe(once);
        expect(once).toMatch(/^([a-z0-9.]+( [a-z0-9.]+)*)?$/);
      }),
      // A counterexample found once: "_" is a word character for \b, so "x0" survived the first pass.
      { examples: [['_x0']] },
    );
  });

  it('tokenizes the normalised form', () => {
    expect(tokenize('Últimos dividendos do KNRI11!')).toEqual(['ultimos', 'dividendos', 'do', 'knri11']);
    expect(tokenize('?!')).toEqual([]);
  });
});

describe('stem', () => {
  const same = (...words: string[]) => expect(new Set(words.map(stem)).size).toBe(1);

  it('makes inflections of one word meet', () => {
    same('dividendo', 'dividendos');
    same('pagou', 'pagar', 'pagamento', 'pagamentos', 'pago');
    same('ultimo', 'ultima', 'ultimos', 'ultimas');
    same('imovel', 'imoveis');
    same('posicao', 'posicoes');
    same('volatilidade', 'volatil');
    same('noticia', 'noticias');
    same('indexadas', 'indexado');
  });

  it('keeps apart words whose meaning differs', () => {
    expect(stem('cota')).not.toBe(stem('cotacao'));
    expect(stem('quanto')).not.toBe(stem('quantos'));
    expect(stem('fii')).not.toBe(stem('fiis'));
    expect(stem('recebiveis')).not.toBe(stem('recebo'));
    expect(stem('dividida')).not.toBe(stem('dividendo'));
    expect(stem('balanca')).not.toBe(stem('balanco'));
    expect(stem('coloco')).not.toBe(stem('colocado'));
  });

  it('leaves short words and numbers alone', () => {
    expect(stem('dy')).toBe('dy');
    expect(stem('mes')).toBe('mes');
    expect(stem('hglg11')).toBe('hglg11');
    expect(stem('2024')).toBe('2024');
  });
});

describe('fuzzy matching', () => {
  it('measures edits, counting an adjacent swap as one', () => {
    expect(editDistance('dividendos', 'dividendos')).toBe(0);
    expect(editDistance('dividnedos', 'dividendos')).toBe(1);
    expect(editDistance('cotacao', 'cotaco')).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });

  it('corrects misspellings to a known word, refusing short words and ties', () => {
    const v = new FuzzyVocabulary(['dividendos', 'cotacao', 'vacancia', 'preco', 'prego', 'noticias']);
    expect(v.correct('dividnedos')).toBe('dividendos');
    expect(v.correct('divdendos')).toBe('dividendos');
    expect(v.correct('cotaçao'.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))).toBe('cotacao');
    expect(v.correct('vacanca')).toBe('vacancia');
    expect(v.correct('preso')).toBeNull(); // preco and prego are both one edit away
    expect(v.correct('dy')).toBeNull();
    expect(v.correct('xyzxyzxyz')).toBeNull();
    expect(v.correct('noticias')).toBe('noticias');
  });

  it('keeps the first letter: a word that starts otherwise is another word, unless its first two letters were swapped', () => {
    const v = new FuzzyVocabulary(['minha', 'dividendos']);
    expect(v.correct('tinha')).toBeNull();
    expect(v.correct('idvidendos')).toBe('dividendos');
  });

  it('accepts a tie between spellings of one meaning when given a key', () => {
    const words = ['dividendo', 'dividendos'];
    expect(new FuzzyVocabulary(words).correct('dividendso')).toBeNull();
    expect(new FuzzyVocabulary(words, DEFAULT_FUZZY, stem).correct('dividendso')).toMatch(/^dividendos?$/);
  });
});

describe('readableText on plain text', () => {
  it('returns ASCII and precomposed Portuguese text as it is, and still normalises what is not plain', () => {
    const plain = 'Ações do HGLG11 em março, até R$ 1.000?';
    expect(readableText(plain)).toBe(plain);
    expect(readableText('Ac\u0327o\u0303es')).toBe('Ações');
    expect(readableText('1º lugar')).toBe('1o lugar');
  });
});
