import type { PlanResponse, StructuredQuestion } from '@cota/contracts';
import { realPlanner } from '../test-helpers';

/**
 * Conversations that work on a list of funds (issue "Understand every turn"): the list stays the
 * conversation's list while answers pick from it; "desses" chooses among it; "só os ..." narrows it;
 * "coloca o X também" adds to what is being compared; a segment named alone lists its funds.
 */
const planner = realPlanner();
const LIST = ['PVBI11', 'HGRE11', 'BRCR11'];
const funds = (q: StructuredQuestion | null) => q?.subjects.map((s) => s.id) ?? [];

function followUp(question: string, previous: PlanResponse, opts: { list?: string[]; tickers?: string[]; earlier?: PlanResponse } = {}): PlanResponse {
  return planner.planDeterministic(question, {
    previousEntity: previous.entity,
    previousQuestion: previous.question,
    previousParams: previous.kind === 'entity' ? previous.params : null,
    previousTickers: opts.tickers ?? funds(previous.question),
    conversationList: opts.list ?? [],
    earlierSubjects: opts.earlier?.question?.subjects ?? [],
  });
}

describe('a fund measure asked with no fund right after a list across funds is asked of the funds it showed', () => {
  const ranking = planner.planDeterministic('top 3 lajes corporativas por valor de mercado');
  const after = (q: string) => followUp(q, ranking, { list: LIST, tickers: LIST });

  it('"e o dy de cada um?" is each listed fund\'s DY; "e o de menor p/vp?" picks the lowest', () => {
    const each = after('e o dy de cada um?');
    expect(each.kind).toBe('measure');
    expect(funds(each.question)).toEqual(LIST);
    const lowest = after('e o de menor p/vp?');
    expect(funds(lowest.question)).toEqual(LIST);
    expect(lowest.question).toMatchObject({ measure: 'pvp', compare: 'min' });
  });

  it('a market series or a fund named keeps its own subject', () => {
    expect(funds(after('e o dy do HGLG11?').question)).toEqual(['HGLG11']);
    expect(after('e a selic?').question?.subjects.map((s) => s.kind)).not.toContain('fund');
  });

  it('a registry field with a fund of its own, after a measure, asks the registry ("e o cnpj do segundo?" after a P/VP)', () => {
    const pvp = planner.planDeterministic('qual o p/vp do BRCR11?');
    const cnpj = followUp('e o cnpj do segundo?', pvp, { list: LIST, tickers: ['BRCR11'] });
    expect(cnpj.entity).toBe('fiis_cadastro');
    expect(cnpj.params.ticker ?? cnpj.params.tickers[0]).toBe('HGRE11');
  });
});

describe('the conversation keeps its list while answers pick from it', () => {
  it('an ordinal the question opens with, as its subject, picks from the list ("o segundo é de papel ou tijolo?")', () => {
    const ranking = planner.planDeterministic('top 3 lajes corporativas por valor de mercado');
    const klass = followUp('o segundo é de papel ou tijolo?', ranking, { list: LIST, tickers: LIST });
    expect(klass.params.ticker ?? klass.question?.subjects[0]?.id).toBe('HGRE11');
    expect(klass.entity).toBe('fiis_cadastro');
    const paid = followUp('e o ultimo paga quanto de dividendo?', ranking, { list: LIST, tickers: LIST });
    expect(paid.params.ticker ?? paid.question?.subjects[0]?.id).toBe('BRCR11');
    // ("o segundo semestre" is a period, "o segundo e o terceiro" two of them: neither is one pick)
    expect(followUp('o segundo semestre pagou mais?', ranking, { list: LIST, tickers: LIST }).planner.reason).not.toMatch(/is the fund at that place/);
    expect(followUp('o segundo e o terceiro pagam quanto?', ranking, { list: LIST, tickers: LIST }).planner.reason).not.toMatch(/is the fund at that place/);
  });

  it('"e o p/vp do terceiro?" after "qual o cnpj do segundo?" is the third fund of the list, not the one just picked', () => {
    const picked = planner.planDeterministic('qual o cnpj do HGRE11?');
    const p = followUp('e o p/vp do terceiro?', picked, { list: LIST, tickers: ['HGRE11'] });
    expect(p.params.ticker ?? p.question?.subjects[0]?.id).toBe('BRCR11');
    expect(p.planner.reason).toMatch(/"BRCR11" is the fund at that place/);
  });

  it('"desses tres, qual tem o menor p/vp?" compares the whole list, even after a pick', () => {
    const picked = planner.planDeterministic('p/vp do BRCR11');
    const p = followUp('desses tres, qual tem o menor p/vp?', picked, { list: LIST, tickers: ['BRCR11'] });
    expect(p.kind).toBe('measure');
    expect(funds(p.question).sort()).toEqual([...LIST].sort());
    expect(p.question?.compare).toBe('min');
  });

  it('"desses, qual o de menor p/vp?" reads "menor" as the order asked', () => {
    const ranking = planner.planDeterministic('quais os 3 maiores fofs em valor de mercado?');
    const p = followUp('desses, qual o de menor p/vp?', ranking, { list: ['HFOF11', 'PSEC11', 'RBRF11'], tickers: ['HFOF11', 'PSEC11', 'RBRF11'] });
    expect(p.question).toMatchObject({ measure: 'pvp', compare: 'min' });
    expect(funds(p.question)).toHaveLength(3);
  });

  it('"qual dos dois" after two single-fund answers still compares those two, not an older list', () => {
    const first = planner.planDeterministic('dy do HGLG11');
    const second = followUp('e do KNRI11?', first);
    const p = followUp('qual dos dois tem o maior?', second, { list: LIST, earlier: first });
    expect(funds(p.question).sort()).toEqual(['HGLG11', 'KNRI11']);
  });

  it('"soma os dois pra mim" after one fund\'s figure and then another\'s is both, summed, none picked', () => {
    const first = planner.planDeterministic('quanto o xpml11 me pagou no 2o semestre de 2024?');
    const second = followUp('e o visc11 no mesmo periodo', first, { tickers: ['XPML11'] });
    const both = followUp('soma os dois pra mim', second, { tickers: ['VISC11'], earlier: first });
    expect(both.question).toMatchObject({ measure: 'received', agg: 'total', compare: null });
    expect(funds(both.question).sort()).toEqual(['VISC11', 'XPML11']);
  });

  it('"qual eh maior?", "qual pesa mais?" with nothing else after two answers pick between them', () => {
    const first = planner.planDeterministic('valor de mercado do kncr11');
    const second = followUp('e do knip11?', first, { tickers: ['KNCR11'] });
    for (const q of ['qual eh maior?', 'qual pesa mais?']) {
      const pick = followUp(q, second, { tickers: ['KNIP11'], earlier: first });
      expect(funds(pick.question).sort()).toEqual(['KNCR11', 'KNIP11']);
      expect(pick.question?.compare).toBe('max');
    }
  });

  it('"entre esses dois meses" is a span of dates, not a choice among funds', () => {
    const p = planner.planDeterministic('qual foi a variação entre esses dois meses?');
    expect(p.planner.reason).not.toMatch(/funds of the conversation's list/);
  });

  it('"acumulado desses dois meses" after a rate of one month, then of the next, accumulates both whole', () => {
    const april = planner.planDeterministic('ipca de abril de 2025 foi quanto?');
    const may = planner.planDeterministic('e o de maio?', { previousEntity: april.entity, previousQuestion: april.question, previousTickers: [] });
    const both = planner.planDeterministic('acumulado desses dois meses', {
      previousEntity: may.entity,
      previousQuestion: may.question,
      previousTickers: [],
      earlierSubjects: april.question?.subjects ?? [],
      earlierPeriod: april.question?.period ?? null,
    });
    expect(both.question).toMatchObject({ agg: 'accumulated', period: { kind: 'range', from: '2025-04-01', to: '2025-05-31' } });
  });
});

describe('"só os ..." narrows the list just shown', () => {
  const ranking = planner.planDeterministic('quais os 5 fiis com maior peso no ifix?');
  const top5 = ['KNCR11', 'KNIP11', 'XPML11', 'HGLG11', 'BTLG11'];

  it('"desses, só os de logística" is the list of logistics funds among those shown', () => {
    const p = followUp('desses, so os de logistica', ranking, { list: top5, tickers: top5 });
    expect(p.kind).toBe('entity');
    expect(p.params.filters).toMatchObject({ sector: 'Logística' });
    expect(p.params.tickers).toEqual(top5);
    expect(p.planner.reason).toMatch(/narrows the conversation's list of 5 funds/);
  });

  it('"desses 5 quais são de logística": the size said of the list is the same list', () => {
    const p = followUp('desses 5 quais sao de logistica?', ranking, { list: top5, tickers: top5 });
    expect(p.params.filters).toMatchObject({ sector: 'Logística' });
    expect(p.params.tickers).toEqual(top5);
  });

  it('"só os com p/vp abaixo de 0,8" after a segment\'s list screens that segment by the condition', () => {
    const hotels = planner.planDeterministic('tem fii de hotel? quais?');
    const p = planner.planDeterministic('so os com p/vp abaixo de 0,8', {
      previousEntity: hotels.entity,
      previousParams: hotels.params,
      previousFilters: hotels.params.filters,
      previousTickers: ['HTMX11', 'BTHI11', 'MGHT11'],
    });
    expect(p.kind).toBe('entity');
    expect(p.params.conditions).toEqual([{ column: 'price_book_ratio', op: 'lt', value: 0.8 }]);
    expect(p.params.filters).toMatchObject({ sector: 'Hotelaria' });
  });

  it('without a list, "só os de logística" is not narrowed to anything', () => {
    const p = planner.planDeterministic('so os de logistica');
    expect(p.params.tickers).toEqual([]);
  });
});

describe('"coloca o X também" adds a subject to what is being compared', () => {
  it('to a comparison of two funds', () => {
    const compared = planner.planDeterministic('compara o p/vp do vilg11 com o lvbi11');
    const p = followUp('coloca o brco11 tambem', compared);
    expect(funds(p.question)).toEqual(['VILG11', 'LVBI11', 'BRCO11']);
    expect(p.question?.measure).toBe('pvp');
  });

  it('to the funds asked one after the other', () => {
    const first = planner.planDeterministic('valor de mercado do xpml11?');
    const second = followUp('e do visc11?', first);
    const p = followUp('coloca o hsml11 tambem e ordena do maior pro menor', second, { earlier: first });
    expect(funds(p.question)).toEqual(['XPML11', 'VISC11', 'HSML11']);
    expect(p.question?.compare).toBe('max');
  });
});

describe('an aggregation alone edits the previous question', () => {
  it('"e o menor?" after the IFIX\'s highest close in a month is its lowest close in that month', () => {
    const highest = planner.planDeterministic('qual foi o maior fechamento do ifix em marco de 2024?');
    const p = followUp('e o menor?', highest);
    expect(p.kind).toBe('measure');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'index', id: 'IFIX' }], agg: 'min', period: { from: '2024-03-01', to: '2024-03-31' } });
  });
});

describe("a segment named with no measure lists the segment's funds", () => {
  it.each([
    ['tem fii de hotel? quais?', 'Hotelaria'],
    ['quais fiis de agencias bancarias existem?', 'Agências Bancárias'],
    ['quais fiis de logistica existem?', 'Logística'],
  ])('%s', (q, sector) => {
    const p = planner.planDeterministic(q);
    expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_rankings', params: { agg: 'list', order_by: 'rank_market_cap', filters: { sector } } });
  });

  it('a measure asked of a segment stays that measure', () => {
    expect(planner.planDeterministic('qual o dy medio dos fiis de logistica?').params.order_by).not.toBe('rank_market_cap');
  });

  it.each([
    ['fiis hospitalares por dy', 'Hospitalar', 'rank_dy_12m'],
    ['me lista os fiis hospitalares ordenados por dy', 'Hospitalar', 'rank_dy_12m'],
  ])('a segment "por" a measure is that segment ranked by it: %s', (q, sector, order_by) => {
    expect(planner.planDeterministic(q)).toMatchObject({ kind: 'entity', entity: 'fiis_rankings', params: { agg: 'list', order_by, filters: { sector } } });
  });

  it.each([
    ['qual fii de hotel paga o maior dividend yield', 'Hotelaria'],
    ['fii de logistica que paga o maior dy', 'Logística'],
  ])('which fund of a segment is at an end of a measure ranks the segment by it (ontology extreme_of_funds): %s', (q, sector) => {
    expect(planner.planDeterministic(q)).toMatchObject({ entity: 'fiis_rankings', params: { order_by: 'rank_dy_12m', filters: { sector } } });
  });

  it('the fund the conversation is about stays its own ("desse fii", "pelo fundo")', () => {
    expect(planner.planDeterministic('qual foi o maior dividendo desse fii em 2024?').question).toMatchObject({ measure: 'dividend', agg: 'max' });
    expect(planner.planDeterministic('qual foi o maior dividendo pago pelo fundo em 2024?').entity).not.toBe('fiis_rankings');
  });
});

describe('a count of moves is read as such', () => {
  it.each([
    ['quantas vezes a selic mudou em 2022?', 'changes'],
    ['qtas alteracoes na taxa selic teve em 2023?', 'changes'],
    ['quantas vezes a selic subiu em 2024?', 'rises'],
    ['quantas vezes a selic caiu em 2024?', 'falls'],
  ])('%s', (q, agg) => expect(planner.planDeterministic(q).question).toMatchObject({ subjects: [{ kind: 'indicator', id: 'SELIC' }], agg }));

  it('a rise without a count is still a variation', () => {
    expect(planner.planDeterministic('quanto o ifix subiu em 2024?').question?.agg).toBe('variation');
  });
});

describe('narrowing without pointing at the funds shown edits the list query', () => {
  it('"e só os de papel?" after a ranking by IFIX weight keeps that order and size', () => {
    const ranking = planner.planDeterministic('top 5 fiis por peso no ifix');
    const p = planner.planDeterministic('e só os de papel?', {
      previousEntity: ranking.entity,
      previousParams: ranking.params,
      previousTickers: ['KNCR11', 'KNIP11', 'XPML11', 'HGLG11', 'BTLG11'],
    });
    expect(p.params).toMatchObject({ order_by: 'ifix_rank_position', limit: 5, filters: { fund_type: 'Papel' }, tickers: [] });
  });

  it('a threshold after a list of a size asked keeps the funds shown: "top 5 ..." → "só os com p/vp abaixo de 1"', () => {
    const ranking = planner.planDeterministic('top 5 fiis de papel com mais peso no ifix');
    const shown = ['KNCR11', 'KNIP11', 'MXRF11', 'KNHY11', 'CPTS11'];
    const p = planner.planDeterministic('agora so os que tem p/vp abaixo de 1', { previousEntity: ranking.entity, previousParams: ranking.params, previousTickers: shown });
    expect(p.params).toMatchObject({ tickers: shown, conditions: [{ column: 'price_book_ratio', op: 'lt', value: 1 }] });
  });
});

describe('"mostre todos" after a list cut at its size is the same list, all of it', () => {
  const screen = planner.planDeterministic('fiis de papel com pvp abaixo de 1');
  const edit = (q: string) =>
    planner.planDeterministic(q, { previousEntity: screen.entity, previousQuestion: screen.question, previousParams: screen.params, previousFilters: screen.params.filters });

  it.each(['mostre todos', 'e o resto?', 'quero ver todos por favor', 'lista completa'])('%s', (q) => {
    const p = edit(q);
    expect(p).toMatchObject({
      kind: 'entity',
      entity: screen.entity,
      params: { filters: screen.params.filters, conditions: screen.params.conditions, order_by: screen.params.order_by },
    });
    expect(p.params.limit).toBeGreaterThan(screen.params.limit!);
  });

  it('a message that says more is read as itself; without a list there is nothing to show', () => {
    expect(edit('todos os fiis de logistica').params.filters).toMatchObject({ sector: 'Logística' });
    expect(planner.planDeterministic('mostre todos').kind).not.toBe('entity');
  });
});

describe('a ranking asked again by another column', () => {
  it('"e por sortino?" after the top 3 by Sharpe is the top 3 by Sortino, not the Sortino of those three', () => {
    const ranking = planner.planDeterministic('top 3 fiis por indice de sharpe');
    const p = planner.planDeterministic('e por sortino?', {
      previousEntity: ranking.entity,
      previousParams: ranking.params,
      previousQuestion: ranking.question,
      previousTickers: ['FPNG11', 'RBRI11', 'VPPR11'],
    });
    expect([p.entity, p.params.order_by, p.params.limit, p.params.tickers]).toEqual(['fiis_rankings', 'rank_sortino', 3, []]);
  });

  it("the client's funds are listed when asked how many there are: the list says how many and which", () => {
    const p = planner.planDeterministic('quantos fiis eu tenho hoje?');
    expect([p.kind, p.params.agg]).toEqual(['entity', 'list']);
  });
});
