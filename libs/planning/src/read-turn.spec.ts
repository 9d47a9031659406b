import { ConversationState } from '@cota/contracts';
import { loadContextPolicy } from '@cota/dialogue';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { TurnReader } from './read-turn';
import { realPlanner } from './test-helpers';

const reader = new TurnReader(realPlanner(), { context: loadContextPolicy(), tools: loadToolGatePolicy() }, () => new Date('2026-11-27T15:00:00Z'));
const state = (over: Partial<ConversationState>) => ConversationState.parse({ turn_index: 2, last_entity: null, last_tickers: [], last_reference: null, ...over });
const reference = { ticker: 'HGLG11', entity: 'fiis_cadastro', intent: 'fiis_cadastro', updated_at: '2026-11-27T14:59:00Z', turn_index: 1 };

describe('TurnReader', () => {
  it("reads the parts of a compound question after one of a measure family as that family's", async () => {
    const sale = await reader.read('quantas cotas eu vendi de HGCR11 e qual foi o preço?', null);
    expect(sale.question?.measure).toBe('shares_sold');
    expect(sale.parts?.[0].question).toMatchObject({ measure: 'sale_price', subjects: [{ kind: 'fund', id: 'HGCR11' }] });
  });

  it("reads a turn that decides nothing right after a concept, or a tool that has one, as that topic's concept", async () => {
    const afterConcept = await reader.read('e fundo imobiliario tem isso?', state({ last_kind: 'concept', last_asked: 'fii tem come-cotas igual fundo de renda fixa?' }));
    // ("isso" is the topic: what the concept question asked about, its asking words left out)
    expect(afterConcept).toMatchObject({ kind: 'concept', asked: 'e fundo imobiliario tem fii tem come cotas igual fundo de renda fixa' });
    const whatIs = await reader.read('e fundo imobiliario tem isso?', state({ last_kind: 'concept', last_asked: 'o que e come-cotas?' }));
    expect(whatIs.asked).toBe('e fundo imobiliario tem come cotas');
    const afterTax = await reader.read(
      'e se eu tivesse tido prejuízo, pago algo?',
      state({ last_kind: 'tool', last_call: { tool: 'simular_ir_venda', args: { lucro: '300' }, missing: [] }, last_asked: 'vendi com lucro de 300, quanto de IR?' }),
    );
    expect(afterTax).toMatchObject({ kind: 'concept', asked: 'e se eu tivesse tido prejuízo, pago algo? imposto de renda' });
    // (a question of its own is its own: a fund named, or after anything else)
    expect((await reader.read('e o HGLG11 tem isso?', state({ last_kind: 'concept', last_asked: 'fii tem come-cotas?' }))).kind).not.toBe('concept');
    expect((await reader.read('e fundo imobiliario tem isso?', state({ last_kind: 'measure', last_asked: 'dy do hglg11' }))).kind).not.toBe('concept');
  });

  it("decides the turn's fund under the last-reference rule: a written ticker wins, else the reference is inherited", async () => {
    const inherited = await reader.read('Esse fundo tem Sharpe bom?', state({ last_reference: reference, last_entity: 'fiis_cadastro', last_tickers: ['HGLG11'] }));
    expect(inherited.params).toMatchObject({ ticker: 'HGLG11', tickers: ['HGLG11'] });
    expect(inherited.context).toEqual({ last_reference_used: true, reason: 'inherited_last_reference' });
    const written = await reader.read('Sharpe do KNRI11?', state({ last_reference: reference }));
    expect(written.params.ticker).toBe('KNRI11');
    expect(written.context?.reason).toBe('explicit_ticker_in_text');
    const fresh = await reader.read('Esse fundo tem Sharpe bom?', null);
    expect(fresh.params.tickers).toEqual([]);
  });

  it('reads a compound question as its parts, each as if asked alone; one thing asked, or one answer for all, stays whole', async () => {
    const compound = await reader.read('qual o cnpj e o p/vp do gtwr11?', null);
    expect([compound, ...(compound.parts ?? [])].map((p) => [p.entity, p.asked, p.params.tickers])).toEqual([
      ['fiis_cadastro', 'qual o cnpj do gtwr11?', ['GTWR11']],
      ['fiis_financials_snapshot', 'qual o p/vp do gtwr11?', ['GTWR11']],
    ]);
    const measures = await reader.read('me diz o dy e o valor de mercado do rztr11', null);
    expect([measures, ...(measures.parts ?? [])].map((p) => p.question?.measure)).toEqual(['dy', 'market_cap']);
    // The registry answers both: one question.
    expect((await reader.read('qual o cnpj e o administrador do hglg11', null)).parts).toBeUndefined();
    // A screen with two conditions is one question.
    expect((await reader.read('fiis com dy acima de 10 e pvp abaixo de 1', null)).parts).toBeUndefined();
  });

  it('reads an edit right after a compound question as an edit of each thing it asked', async () => {
    const asked = await reader.read('qual o dy e o p/vp do hglg11?', null);
    const [first, second] = [asked, ...(asked.parts ?? [])].map((p) => p.question!);
    const after = state({ last_entity: asked.entity, last_tickers: ['HGLG11'], last_question: first, last_also_questions: [second] });
    const edited = await reader.read('e do knri11?', after);
    expect([edited, ...(edited.parts ?? [])].map((p) => [p.question?.measure, p.question?.subjects])).toEqual([
      ['dy', [{ kind: 'fund', id: 'KNRI11' }]],
      ['pvp', [{ kind: 'fund', id: 'KNRI11' }]],
    ]);
    // (without the other parts remembered, the edit is of the one question)
    expect((await reader.read('e do knri11?', state({ ...after, last_also_questions: [] }))).parts).toBeUndefined();
  });

  it('reads a message that tells its context first by its question, asked of the funds the context names', async () => {
    const told = await reader.read(
      'tava olhando o grafico do knri11 e parece q ele subiu bastante no comeco de 2024 e depois devolveu tudo... qual foi a maior cotacao dele em 2024?',
      null,
    );
    expect(told.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNRI11' }], measure: 'price', agg: 'max' });
    const sheet = await reader.read('boa tarde, to montando uma planilha dos meus fiis e faltou uma coluna: qual o segmento do pvbi11?', null);
    expect([sheet.entity, sheet.params.ticker]).toEqual(['fiis_cadastro', 'PVBI11']);
  });

  it('reads a turn that means nothing alone against the conversation: the client’s positions, what it received', async () => {
    const positions = state({ last_entity: 'client_fiis_positions', last_tickers: [], last_list: ['KNIP11', 'KNHY11', 'HGCR11'] });
    const most = await reader.read('qual tem mais cotas?', positions);
    expect(most.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'shares_held', compare: 'max' });
    const received = state({
      last_entity: 'client_fiis_dividends_evolution',
      last_tickers: ['KNIP11'],
      last_question: {
        subjects: [{ kind: 'fund', id: 'KNIP11' }],
        measure: 'received',
        agg: 'total',
        also: [],
        period: { kind: 'range', from: '2024-04-01', to: '2024-04-30', grain: 'month' },
        group_by: null,
        compare: null,
        condition: null,
      },
    });
    const perShare = await reader.read('quanto foi por cota?', received);
    expect(perShare.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNIP11' }], measure: 'dividend_paid', period: { from: '2024-04-01' } });
    // "dele" after the client's funds compared is the one the comparison picked (listed first)
    const compared = state({
      last_entity: 'client_fiis_positions',
      last_tickers: ['KNIP11'],
      last_listed_tickers: ['KNIP11', 'KNHY11', 'HGCR11'],
      last_question: {
        subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }],
        measure: 'shares_held',
        agg: 'total',
        also: [],
        period: null,
        group_by: null,
        compare: 'max',
        condition: null,
      },
    });
    expect((await reader.read('e qual o preco medio dele?', compared)).question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNIP11' }], measure: 'avg_price' });
    expect((await reader.read('e quanto ela me pagou em outubro de 2024?', compared)).question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNIP11' }], measure: 'received' });
    // "quanto veio do hgru11?" after what the client received: the same question of that fund
    const came = await reader.read('quanto veio do hgru11?', received);
    expect(came.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGRU11' }], measure: 'received', period: { from: '2024-04-01' } });
    // "quanto paguei no total?" right after the client's purchase is what it paid, not a personal expense
    const bought = state({
      last_entity: 'client_fiis_positions',
      last_tickers: ['BTAL11'],
      last_question: { subjects: [{ kind: 'fund', id: 'BTAL11' }], measure: 'shares_bought', agg: 'list', also: [], period: null, group_by: null, compare: null, condition: null },
    });
    expect((await reader.read('quanto paguei no total?', bought)).question).toMatchObject({ subjects: [{ kind: 'fund', id: 'BTAL11' }], measure: 'invested' });
    expect((await reader.read('quanto gastei no mercado em outubro?', bought)).kind).toBe('tool');
    // (nor is "o preço médio que paguei" a transaction to register)
    expect((await reader.read('e o preco medio que paguei?', bought)).question).toMatchObject({ subjects: [{ id: 'BTAL11' }], measure: 'avg_price' });
    expect((await reader.read('gastei 50 reais no mercado hoje', bought)).kind).toBe('tool');
    // (still nothing with nothing to read it against)
    expect((await reader.read('qual tem mais cotas?', null)).kind).not.toBe('measure');
  });

  it("reads a sale's follow-ups in its family, and 'dele' as the one fund the portfolio's answer came from", async () => {
    const sold = state({
      turn_index: 2,
      last_entity: 'client_fiis_positions',
      last_tickers: ['HGCR11'],
      last_question: {
        subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }],
        measure: 'shares_sold',
        agg: 'list',
        also: [],
        period: null,
        group_by: null,
        compare: null,
        condition: null,
      },
    });
    expect((await reader.read('tive lucro ou prejuizo nessa venda?', sold)).question?.measure).toBe('realized');
    expect((await reader.read('e qtas cotas dele sobraram?', sold)).question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGCR11' }], measure: 'shares_held' });
  });

  it('reads a ticker written with a zero-width or full-width character as that fund, not the previous one', async () => {
    const previous = state({ last_reference: reference, last_entity: 'fiis_cadastro', last_tickers: ['HGLG11'] });
    for (const written of ['Sharpe do KNRI\u200b11?', 'Sharpe do ＫＮＲＩ１１?', 'Sharpe do KN\u2060RI11\ufeff?']) {
      const reading = await reader.read(written, previous);
      expect(reading.params.ticker).toBe('KNRI11');
      expect(reading.context?.reason).toBe('explicit_ticker_in_text');
    }
  });

  it('reads an elliptic follow-up as an edit of the previous question, with its filters', async () => {
    const reading = await reader.read('E o do XPML11?', state({ last_entity: 'fiis_financials_snapshot', last_tickers: ['VISC11'], last_kind: 'entity' }));
    expect(reading).toMatchObject({ kind: 'entity', entity: 'fiis_financials_snapshot', params: { ticker: 'XPML11' } });
  });

  it("reads a turn of a conversation about the client's own portfolio in the client's words", async () => {
    // Alone, "quantas cotas de HGLG11?" could be the position or the fund's issued shares: the conversation decides.
    const held = state({ last_entity: 'client_fiis_positions', last_tickers: ['HGLG11', 'KNRI11'], last_listed_tickers: ['HGLG11', 'KNRI11'] });
    expect((await reader.read('quantas cotas de hglg11?', null)).kind).toBe('clarification');
    const shares = await reader.read('quantas cotas de hglg11?', held);
    expect(shares.question).toMatchObject({ measure: 'shares_held', subjects: [{ kind: 'fund', id: 'HGLG11' }] });
    // "preço médio dele" after the position is the price paid, not the average close.
    const paid = await reader.read('preco medio dele?', state({ last_entity: 'client_fiis_positions', last_tickers: ['HGLG11'], last_question: shares.question }));
    expect(paid.question).toMatchObject({ measure: 'avg_price', subjects: [{ kind: 'fund', id: 'HGLG11' }] });
    // Outside such a conversation, with no period, still the price paid (every blind writer read it so); with a period, the market's.
    expect((await reader.read('preco medio do btal11', null)).question).toMatchObject({ measure: 'avg_price' });
    expect((await reader.read('preco medio do btal11 em 2024', null)).question).toMatchObject({ measure: 'price', agg: 'avg' });
    expect(
      (await reader.read('preco medio dele em 2024?', state({ last_entity: 'client_fiis_positions', last_tickers: ['HGLG11'], last_question: shares.question }))).question?.measure,
    ).toBe('price');
  });

  it("edits the measure among a fund's risk metrics: each one the catalog declares", async () => {
    const sharpe = await reader.read('sharpe do knri11', null);
    const after = state({ last_entity: 'fiis_financials_risk', last_tickers: ['KNRI11'], last_question: sharpe.question });
    for (const [asked, measure] of [
      ['e o drawdown maximo?', 'max_drawdown'],
      ['e o beta?', 'beta'],
      ['e a volatilidade?', 'volatility'],
    ] as const) {
      expect((await reader.read(asked, after)).question).toMatchObject({ measure, subjects: [{ kind: 'fund', id: 'KNRI11' }] });
    }
  });

  it('reads words taken as the period or an aggregation as an edit of the previous question, not as a topic they also name', async () => {
    const paid = await reader.read('quanto o afhi11 pagou de dividendo em 2024?', null);
    const after = state({ last_entity: 'fiis_dividendos', last_tickers: ['AFHI11'], last_kind: 'measure', last_question: paid.question });
    // "primeiro" is a ranking's word too.
    const half = await reader.read('e no primeiro semestre de 2025?', after);
    expect(half.question).toMatchObject({ measure: 'dividend', agg: 'total', subjects: [{ kind: 'fund', id: 'AFHI11' }], period: { from: '2025-01-01', to: '2025-06-30' } });
    // So is "maior": alone, it is asked of what the conversation names.
    expect((await reader.read('qual foi o maior do ano?', after)).question).toMatchObject({ measure: 'dividend', agg: 'max', subjects: [{ kind: 'fund', id: 'AFHI11' }] });
  });

  it('edits the previous question by what the follow-up asks of it: its dates, a move, a measure inside a period phrase, every fund', async () => {
    const ask = async (first: string, next: string) => {
      const prev = await reader.read(first, null);
      const after = state({ last_entity: prev.entity, last_tickers: prev.params.tickers, last_kind: 'measure', last_question: prev.question });
      return (await reader.read(next, after)).question;
    };
    // "quando foi pago?" asks the date of the one value answered, not every payment; and is no calendar of what comes next.
    expect(await ask('ultimo dividendo do AFHI11', 'e quando foi pago?')).toMatchObject({ measure: 'dividend', agg: 'last', subjects: [{ id: 'AFHI11' }] });
    // A fund's move, asked after a measure that has none, is its price's.
    expect(await ask('qual o pvp do PVBI11?', 'e quanto ele variou de 09/06/2025 a 25/06/2025?')).toMatchObject({
      measure: 'price',
      agg: 'variation',
      period: { from: '2025-06-09', to: '2025-06-25' },
    });
    // "último fechamento": "fechamento" names the measure, "último" the period.
    expect(await ask('qual o ultimo dividendo do IRDM11?', 'e qual o ultimo fechamento dele?')).toMatchObject({
      measure: 'price',
      subjects: [{ id: 'IRDM11' }],
      period: { kind: 'latest' },
    });
    // "todos os meus fundos" counts the subjects, not the values: the total stays a total.
    expect(await ask('quanto recebi de BTAL11 em 2025?', 'e de todos os meus fundos em 2025?')).toMatchObject({
      measure: 'received',
      agg: 'total',
      subjects: [{ kind: 'portfolio' }],
    });
    // The CDI of a month is what it accumulated there, and a follow-up keeps reading it so.
    expect(await ask('cdi de março de 2023', 'e de abril?')).toMatchObject({ measure: 'annual_rate', agg: 'accumulated', period: { from: '2023-04-01', to: '2023-04-30' } });
  });

  it("reads the client's voice through the conversation and the parts of a compound question", async () => {
    const ask = async (first: string, next: string) => {
      const prev = await reader.read(first, null);
      const after = state({ last_entity: prev.entity, last_tickers: prev.params.tickers, last_kind: 'measure', last_question: prev.question });
      return (await reader.read(next, after)).question;
    };
    // "qual fundo pagou mais?" after what the client received: which of its funds paid it the most.
    expect(await ask('quanto recebi de rendimentos no segundo semestre de 2024', 'qual fundo pagou mais')).toMatchObject({
      measure: 'received',
      subjects: [{ kind: 'portfolio' }],
      compare: 'max',
      period: { from: '2024-07-01', to: '2024-12-31' },
    });
    // "hoje" is no period of its own: the position's value now; a pronoun between the words does not part them.
    expect(await ask('quanto investi no XPML11?', 'quanto vale hj?')).toMatchObject({ measure: 'market_value', subjects: [{ id: 'XPML11' }] });
    expect(await ask('quanto investi no XPML11?', 'e quanto isso vale hoje?')).toMatchObject({ measure: 'market_value' });
    // Each part of a question in the client's voice is the client's: "preço médio" is the average price paid.
    const both = await reader.read('quantas cotas de BTLG11 eu tenho e qual o preco medio', null);
    expect([both, ...(both.parts ?? [])].map((p) => p.question?.measure)).toEqual(['shares_held', 'avg_price']);
    const fund = await reader.read('quantas cotas de HGLG11 eu tenho e qual o dy dele', null);
    expect([fund, ...(fund.parts ?? [])].map((p) => p.question?.measure)).toEqual(['shares_held', 'dy']);
  });

  it("takes the conversation as evidence for a follow-up that leans to the previous answer's entity", async () => {
    const admin = state({ last_entity: 'fiis_cadastro', last_tickers: ['KNSC11'], last_reference: { ...reference, ticker: 'KNSC11' } });
    expect((await reader.read('e quem faz a gestao?', null)).kind).toBe('clarification');
    expect(await reader.read('e quem faz a gestao?', admin)).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', params: { ticker: 'KNSC11' } });
  });

  it("answers a fund's figure asked of its current value at that value, not at a day the previous answer kept", async () => {
    const closes = await reader.read('cotacao do hglg11 e do btlg11 em 20/06/2025', null);
    const after = state({ last_entity: 'fiis_precos', last_tickers: ['HGLG11', 'BTLG11'], last_kind: 'measure', last_question: closes.question });
    expect((await reader.read('e o p/vp dos dois?', after)).question).toMatchObject({ measure: 'pvp', period: null });
    // The registry's figure, not a count of its rows.
    const shares = await reader.read('numero de cotas do knri11', null);
    expect(shares).toMatchObject({ entity: 'fiis_cadastro', params: { agg: 'latest' }, question: { measure: 'shares_issued' } });
  });

  it('reads the latest asked in a follow-up as the latest value, not the previous period or extreme', async () => {
    const largest = await reader.read('qual o maior dividendo do blmg11 em 2023', null);
    const afterLargest = state({ last_entity: 'fiis_dividendos', last_tickers: ['BLMG11'], last_kind: 'measure', last_question: largest.question });
    expect((await reader.read('e qual o ultimo dividendo dele?', afterLargest)).question).toMatchObject({ measure: 'dividend', agg: 'last', period: null });
    // "nesse ano" keeps it.
    expect((await reader.read('e qual o ultimo dividendo dele nesse ano?', afterLargest)).question).toMatchObject({ agg: 'last', period: { kind: 'range', from: '2023-01-01' } });
    const lowest = await reader.read('menor fechamento do visc11', null);
    const afterLowest = state({ last_entity: 'fiis_precos', last_tickers: ['VISC11'], last_kind: 'measure', last_question: lowest.question });
    expect((await reader.read('e o ultimo fechamento disponivel dele?', afterLowest)).question).toMatchObject({ measure: 'price', period: { kind: 'latest' } });
    expect((await reader.read('e o ultimo fechamento disponivel dele?', afterLowest)).question?.agg).not.toBe('min');
  });

  it('reads an ordinal followed by more of the question, and "voltando ao primeiro fundo" among the funds asked one after the other', async () => {
    const top = state({
      last_entity: 'fiis_rankings',
      last_tickers: ['KNCR11', 'KNIP11', 'XPML11'],
      last_listed_tickers: ['KNCR11', 'KNIP11', 'XPML11'],
      last_list: ['KNCR11', 'KNIP11', 'XPML11'],
    });
    expect((await reader.read('e o terceiro, qual o pvp', top)).params.ticker).toBe('XPML11');
    const first = await reader.read('quantos cotistas tinha o mxrf11 em dezembro de 2023', null);
    const second = await reader.read('e o hglg11?', state({ last_entity: 'fiis_cvm_monthly', last_tickers: ['MXRF11'], last_kind: 'measure', last_question: first.question }));
    const back = state({
      last_entity: 'fiis_cvm_monthly',
      last_tickers: ['HGLG11'],
      last_kind: 'measure',
      last_question: second.question,
      earlier_subjects: [{ kind: 'fund', id: 'MXRF11' }],
    });
    expect((await reader.read('voltando ao primeiro fundo, e em junho de 2023?', back)).question).toMatchObject({
      measure: 'shareholders',
      subjects: [{ kind: 'fund', id: 'MXRF11' }],
      period: { kind: 'range', from: '2023-06-01' },
    });
    // Funds asked one after the other are no list: "e o último?" still edits the question (of the fund it is about).
    expect((await reader.read('e o ultimo?', back)).question?.subjects).toEqual([{ kind: 'fund', id: 'HGLG11' }]);
  });

  it('reads the measure the words name beside an extreme or a total return, and a history whose newest value is published elsewhere', async () => {
    // "máxima de fechamento" is the highest close, not the intraday high.
    expect((await reader.read('e a maxima de fechamento do abcp11 em 2024?', null)).question).toMatchObject({ measure: 'price', agg: 'max' });
    expect((await reader.read('maxima do abcp11 em 2024', null)).question).toMatchObject({ measure: 'high_price', agg: 'max' });
    // A return with the distributions reinvested is the price's variation (the adjusted closes).
    expect((await reader.read('quanto o hglg11 rendeu em 2023 com dividendos reinvestidos', null)).question).toMatchObject({ measure: 'price', agg: 'variation' });
    expect((await reader.read('knri11 rentabilidade total em 2023', null)).question).toMatchObject({ measure: 'price', agg: 'variation' });
    // "mensal" in the measure's own name is no grouping; its current value is the snapshot's.
    const monthly = await reader.read('qual o dividend yield mensal do mxrf11', null);
    expect(monthly).toMatchObject({ kind: 'measure', question: { measure: 'dy_monthly', group_by: null } });
  });

  it('reads "qual eu compro" between two funds as a request for a verdict, and "dos dois" after it as those funds', async () => {
    const verdict = await reader.read('hglg11 ou btlg11, qual eu compro?', null);
    expect(verdict.planner.reason).toContain('request for a recommendation');
    const after = state({ last_entity: 'fii_overview', last_tickers: ['HGLG11', 'BTLG11'], last_kind: 'entity' });
    expect((await reader.read('ta, entao me mostra o dy 12m dos dois', after)).question?.subjects.map((x) => x.id).sort()).toEqual(['BTLG11', 'HGLG11']);
  });

  it("reads a day without its month or year as a day of the previous question's month", async () => {
    const close = await reader.read('fechamento do hgre11 em 13/06/2025', null);
    const after = state({ last_entity: 'fiis_precos', last_tickers: ['HGRE11'], last_kind: 'measure', last_question: close.question });
    expect((await reader.read('e no dia 20?', after)).question).toMatchObject({ measure: 'price', period: { kind: 'range', from: '2025-06-20', to: '2025-06-20' } });
    expect((await reader.read('e em 10/06?', after)).question).toMatchObject({ period: { kind: 'range', from: '2025-06-10', to: '2025-06-10' } });
  });

  it('reads "no semestre" after a day as the semester that day is in, and another measure at one day without the previous count', async () => {
    const close = await reader.read('abcp11 fechou quanto em 30/06/2025?', null);
    const afterClose = state({ last_entity: 'fiis_precos', last_tickers: ['ABCP11'], last_kind: 'measure', last_question: close.question });
    expect((await reader.read('e quanto subiu no semestre?', afterClose)).question).toMatchObject({
      agg: 'variation',
      period: { kind: 'range', from: '2025-01-01', to: '2025-06-30', grain: 'semester' },
    });
    // "no ano" after a day of 2025 is 2025, not this calendar year.
    expect((await reader.read('e quanto variou no ano?', afterClose)).question).toMatchObject({ period: { kind: 'range', from: '2025-01-01', to: '2025-12-31', grain: 'year' } });
    expect((await reader.read('quanto o ifix variou no ano?', null)).question?.period).toMatchObject({ kind: 'relative_year', offset: 0 });
    const count = await reader.read('quantos pagamentos o mxrf11 fez em 2024?', null);
    const afterCount = state({ last_entity: 'fiis_dividendos', last_tickers: ['MXRF11'], last_kind: 'measure', last_question: count.question });
    const price = await reader.read('e quanto tava a cotacao dele em 25/06/2025?', afterCount);
    expect(price.question).toMatchObject({ measure: 'price', period: { from: '2025-06-25', to: '2025-06-25' } });
    expect(price.question?.agg).not.toBe('count');
  });

  it('reads "1 bi de mercado" as a condition on the market value', async () => {
    const screen = await reader.read('fiis de papel acima de 1 bi de mercado com o menor p/vp, top 3', null);
    expect(screen.params.conditions).toEqual([{ column: 'market_cap_value', op: 'gt', value: 1e9 }]);
  });

  it('narrows the list just answered with a verb a tool also has; right after the report, the report', async () => {
    const list = ['KNCR11', 'KNIP11', 'XPML11', 'HGLG11', 'BTLG11', 'MXRF11', 'KNRI11', 'TRXF11', 'XPLG11', 'VISC11'];
    const afterList = await reader.read('filtra so os de shopping', state({ last_entity: 'fiis_rankings', last_kind: 'entity', last_list: list, last_listed_tickers: list }));
    expect(afterList).toMatchObject({ kind: 'entity', entity: 'fiis_rankings', params: { filters: { sector: expect.stringMatching(/shopping/i) } } });
    expect(afterList.planner.reason).toMatch(/narrows the previous list/);
    const afterReport = await reader.read('filtra so os de shopping', state({ last_kind: 'tool', last_list: list }));
    expect(afterReport).toMatchObject({ kind: 'tool', tool: { name: 'filtrar_relatorio' } });
  });

  it('completes the call waiting for an argument with what the message states', async () => {
    const pending = { tool: 'calcular_financas', args: { operacao: 'tir' }, missing: ['fluxos'] };
    const reading = await reader.read('-1000, 300, 400 e 500', state({ pending_call: pending }));
    expect(reading).toMatchObject({ kind: 'tool', tool: { name: 'calcular_financas', continuation: 'complete', args: { fluxos: ['-1000', '300', '400', '500'] } } });
  });

  it('edits the last call when the message changes one of its arguments, and reads it anew when it changes nothing', async () => {
    const last = { tool: 'calcular_financas', args: { operacao: 'juros_compostos', valor_inicial: '10000', taxa: '1', prazo_meses: 24 }, missing: [] };
    const edit = await reader.read('e em 36 meses?', state({ last_call: last, last_kind: 'tool' }));
    expect(edit.tool).toMatchObject({ name: 'calcular_financas', continuation: 'edit', args: { prazo_meses: 36 } });
    const other = await reader.read('e o cnpj do HGLG11?', state({ last_call: last, last_kind: 'tool' }));
    expect(other).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro' });
  });

  it('a tool read from the message carries every argument it states, never the text', async () => {
    const reading = await reader.read('quanto rende R$ 10.000 a 1% ao mês por 24 meses?', null);
    expect(reading.tool).toMatchObject({ name: 'calcular_financas', continuation: 'none', args: { valor_inicial: '10000', taxa: '1', prazo_meses: 24 } });
  });
});
