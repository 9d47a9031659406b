import type { PlanResponse } from '@cota/contracts';
import { realPlanner } from '../test-helpers';
import { editEntityParams } from './follow-up';

/**
 * Follow-ups are edits of the previous structured question (issue "Answer what was asked"): what
 * the person says wins, what they leave out is kept. Each conversation is planned turn by turn, the
 * way the gateway does it: a follow-up candidate is re-planned with the previous question.
 */
const planner = realPlanner();

function converse(...questions: string[]): PlanResponse[] {
  const out: PlanResponse[] = [];
  let previous: PlanResponse | null = null;
  let earlier: PlanResponse | null = null;
  for (const q of questions) {
    let p = planner.planDeterministic(q);
    if (previous && (p.elliptic || p.follow_up_candidate)) {
      const tickers = previous.question?.subjects.filter((s) => s.kind === 'fund').map((s) => s.id) ?? [];
      p = planner.planDeterministic(q, {
        previousEntity: previous.entity,
        previousQuestion: previous.question,
        previousTickers: tickers,
        earlierSubjects: earlier?.question?.subjects ?? [],
        earlierPeriod: earlier?.question?.period ?? null,
        earlierMeasure: earlier?.question?.measure ?? null,
        previousParams: previous.params,
      });
    }
    out.push(p);
    earlier = previous;
    previous = p;
  }
  return out;
}

describe('follow-ups edit the previous structured question', () => {
  it('"quem administra ele?" after funds asks the fund\'s own topic; "ela" after the Selic edits its question', () => {
    const [, p] = converse('qual o p/vp do xpml11 e do visc11?', 'quem administra ele?');
    expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro' });
    const [, q] = converse('selic em 2023', 'e quanto ela rendeu em 2024?');
    expect(q.question).toMatchObject({ subjects: [{ kind: 'indicator', id: 'SELIC' }] });
  });

  it('"reordena pelo sharpe" after a ranking asks it by that column; "e no VISC11?" after one fund\'s position asks that position', () => {
    const [, p] = converse('me lista os fiis de papel com maior valor de mercado, top 3', 'reordena pelo sharpe');
    expect(p).toMatchObject({ entity: 'fiis_rankings', params: { order_by: 'rank_sharpe', limit: 3, filters: { fund_type: 'Papel' } } });
    const [, q] = converse('como ta minha posicao no KNRI11?', 'e no VISC11?');
    expect(q).toMatchObject({ entity: 'client_fiis_positions', params: { ticker: 'VISC11' } });
  });

  it('back to the fund asked before another subject, its measure is asked again', () => {
    const [, , p] = converse('dividendos do kncr11 em 2024, data com no ano, total', 'e o dolar em 14/11/2025?', 'e do kncr11 em 2023?');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNCR11' }], measure: 'dividend', agg: 'total' });
    expect(p.follow_up?.changed).toContain('measure (the one asked of them before)');
    // A fund not asked before gets its own series.
    const [, , q] = converse('dividendos do kncr11 em 2024', 'e o dolar em 14/11/2025?', 'e do hglg11 em 2023?');
    expect(q.question?.measure).not.toBe('dividend');
  });

  it('"e em abril?" changes the period only, in the same year', () => {
    const [, p] = converse('preço do XPML11 em março de 2024', 'e em abril?');
    expect(p.kind).toBe('measure');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'price', period: { from: '2024-04-01', to: '2024-04-30' } });
    expect(p.follow_up).toMatchObject({ applied: true, inherited: expect.arrayContaining(['subjects', 'measure']) });
  });

  it('a question that names its universe ("top 10 fiis por dy") ranks every fund, not the previous answer\'s fund', () => {
    const [, ranking] = converse('últimos 12 dividendos do KNRI11', 'top 10 fiis por dy');
    expect(ranking).toMatchObject({ kind: 'entity', entity: 'fiis_rankings', follow_up: null, follow_up_candidate: false });
    expect(ranking.question?.subjects).toEqual([]);
    // ...while a period alone still edits the previous question.
    const [, again] = converse('dy do KNRI11 em 2024', 'e em 2023?');
    expect(again.question).toMatchObject({ subjects: [{ id: 'KNRI11' }], measure: 'dy', period: { from: '2023-01-01' } });
  });

  it('"e em 2023, máxima e mínima?" keeps the measure and asks both ends of it', () => {
    const [, , both] = converse('qual foi a maxima de fechamento do ifix em 2024?', 'e a minima?', 'e em 2023, maxima e minima?');
    expect(both.question).toMatchObject({ measure: 'index_points', agg: 'max', also: ['min'], period: { from: '2023-01-01', to: '2023-12-31' } });
  });

  it('"quanto subiu no semestre todo?" after the worst month asks the span itself, not another extreme', () => {
    const [, , span] = converse('melhor mês do ifix em 2025?', 'e o pior?', 'no primeiro semestre todo, quanto subiu?');
    expect(span.question).toMatchObject({ agg: 'variation', group_by: null, period: { from: '2025-01-01', to: '2025-06-30' } });
    expect(span.question?.extreme_group).toBeUndefined();
    // (said with no aggregation: "todo" asks the span's own figure)
    const [, , year] = converse('melhor mês do ifix em 2021?', 'e o pior?', 'e no ano todo?');
    expect(year.question).toMatchObject({ agg: 'variation', group_by: null, period: { from: '2021-01-01', to: '2021-12-31' } });
    // ("e o pior?" stays among the months)
    expect(converse('melhor mês do ifix em 2021?', 'e o pior?')[1].question).toMatchObject({ agg: 'min', group_by: 'month', extreme_group: true });
  });

  it('"faz a mesma conta pro XPML11" keeps the close a yield was divided by', () => {
    const [first, again] = converse('DY do HGLG11: soma dos proventos com data com de jun/2024 a mai/2025 dividida pelo fechamento de 25/06/2025', 'e do xpml11?');
    expect(first.question?.price_at).toEqual({ from: '2025-06-25', to: '2025-06-25' });
    expect(again.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'dy', price_at: { from: '2025-06-25', to: '2025-06-25' } });
  });

  it('"de 10/06 até 25/06" after a close of 2025 is that span of 2025', () => {
    const [, span] = converse('mxrf11 fechou quanto em 25/06/2025?', 'quanto variou de 10/06 até 25/06?');
    expect(span.question).toMatchObject({ agg: 'variation', period: { kind: 'range', from: '2025-06-10', to: '2025-06-25', grain: 'days' } });
  });

  it('"e do HGLG11?" changes the subject and keeps measure and period', () => {
    const [, second, third] = converse('dividendos do KNRI11 em 2024', 'e em 2023?', 'e do HGLG11?');
    expect(second.question).toMatchObject({ subjects: [{ id: 'KNRI11' }], measure: 'dividend', agg: 'total', period: { from: '2023-01-01' } });
    expect(third.question).toMatchObject({ subjects: [{ id: 'HGLG11' }], measure: 'dividend', agg: 'total', period: { from: '2023-01-01', to: '2023-12-31' } });
  });

  it('"compara com o XPML11" adds a subject and asks for a winner', () => {
    const [, second] = converse('dy do VISC11 em 2023', 'compara com o XPML11');
    expect(second.kind).toBe('measure');
    expect(second.question?.subjects.map((s) => s.id)).toEqual(['VISC11', 'XPML11']);
    expect(second.question?.compare).toBe('max');
  });

  it('"no mesmo período" keeps the period for another subject', () => {
    const [, second] = converse('quanto o ifix rendeu em 2023?', 'e o ibov no mesmo período?');
    expect(second.question).toMatchObject({ subjects: [{ kind: 'index', id: 'IBOV' }], agg: 'variation', period: { from: '2023-01-01', to: '2023-12-31' } });
  });

  it('"e o cdi?" keeps the measure and period of a market series', () => {
    const [, second] = converse('selic em 2024', 'e o cdi?');
    expect(second.question).toMatchObject({ subjects: [{ id: 'CDI' }], measure: 'annual_rate', period: { from: '2024-01-01' } });
  });

  it('"e no ano anterior?" counts from the previous question\'s year', () => {
    const [, second] = converse('ifix em 2023', 'e no ano anterior?');
    expect(second.question?.period).toMatchObject({ from: '2022-01-01', to: '2022-12-31' });
  });

  it('"e no mês seguinte?", "e no trimestre seguinte?", "e no dia seguinte?" move the previous period', () => {
    const [, month, year] = converse('quanto o PQAG11 pagou no 1t24?', 'e no mês seguinte?', 'e no ano todo?');
    expect(month.question).toMatchObject({ subjects: [{ id: 'PQAG11' }], measure: 'dividend', period: { from: '2024-04-01', to: '2024-04-30' } });
    expect(year.question?.period).toMatchObject({ from: '2024-01-01', to: '2024-12-31' });
    const [, quarter] = converse('ipca do 4º tri de 2024', 'e no trimestre seguinte?');
    expect(quarter.question).toMatchObject({ subjects: [{ id: 'IPCA' }], period: { from: '2025-01-01', to: '2025-03-31' } });
    const [, , day] = converse('cotação do dolar em 23/09/2025', 'e o euro?', 'e no dia seguinte?');
    expect(day.question).toMatchObject({ subjects: [{ id: 'EUR' }], period: { from: '2025-09-24', to: '2025-09-24' } });
  });

  it('"e o maior valor de mercado?" after "qual tem o menor p/vp" changes the measure and the order', () => {
    const [first, second] = converse('qual tem o menor p/vp: HGLG11, XPML11 ou BTLG11?', 'e o maior valor de mercado?');
    expect(first.question).toMatchObject({ measure: 'pvp', compare: 'min' });
    expect(second.question).toMatchObject({ measure: 'market_cap', compare: 'max' });
    expect(second.question?.subjects.map((s) => s.id)).toEqual(['HGLG11', 'XPML11', 'BTLG11']);
  });

  it('"qual dos dois caiu menos?" picks the smaller fall', () => {
    const [, , third] = converse('quanto o ibov caiu em junho de 2022?', 'e o ifix no mesmo periodo?', 'qual dos dois caiu menos?');
    expect(third.question).toMatchObject({ agg: 'variation', compare: 'max' });
  });

  it('two dates in one question read a level at each ("cotistas em dez/2020 e em dez/2023")', () => {
    const [p] = converse('knip11: qtos cotistas tinha em dez/2020 e quantos em dez/2023?');
    expect(p.question).toMatchObject({ measure: 'shareholders', agg: 'first', also: ['last'], period: { from: '2020-12-01', to: '2023-12-31' } });
  });

  it('"qual deles" ranks the previous answer\'s funds', () => {
    const [, second] = converse('quanto HGLG11, BTAL11 e XPIN11 pagaram por cota em 2024?', 'qual deles pagou mais?');
    expect(second.kind).toBe('measure');
    expect(second.question).toMatchObject({ measure: 'dividend', compare: 'max', period: { from: '2024-01-01' } });
    expect(second.question?.subjects.map((s) => s.id)).toEqual(['HGLG11', 'BTAL11', 'XPIN11']);
  });

  it('a fund measure after a market question leaves the fund to the last reference (never the index)', () => {
    const [, second] = converse('selic hoje', 'e o dy dele?');
    expect(second.question?.measure).toBe('dy');
    expect(second.question?.subjects).toEqual([]);
    expect(second.ticker_sources).toContain('context');
  });

  it('a question with its own subject, measure and period is not an edit', () => {
    const [, second] = converse('dividendos do KNRI11 em 2024', 'qual o CNPJ do HGLG11?');
    expect(second.kind).toBe('entity');
    expect(second.entity).toBe('fiis_cadastro');
  });

  it('"qual dos dois" compares the subjects of the last two answers', () => {
    const [, , p] = converse('quanto o ifix subiu em novembro de 2023?', 'e o ibov no mesmo período?', 'qual dos dois subiu mais?');
    expect(p.kind).toBe('measure');
    expect(p.question).toMatchObject({
      subjects: [
        { kind: 'index', id: 'IFIX' },
        { kind: 'index', id: 'IBOV' },
      ],
      measure: 'index_points',
      agg: 'variation',
      compare: 'max',
      period: { from: '2023-11-01', to: '2023-11-30' },
    });
  });

  it('"qual dos dois pagou mais nesse ano?" compares the payments asked by payment date by the same dating', () => {
    const [, , third, fourth] = converse('quanto o BCRI11 pagou em 2023?', 'e o BBRC11?', 'qual dos dois pagou mais nesse ano?', 'e qual distribuiu mais em 2024?');
    expect(third.question).toMatchObject({
      subjects: [
        { kind: 'fund', id: 'BCRI11' },
        { kind: 'fund', id: 'BBRC11' },
      ],
      measure: 'dividend_paid',
      compare: 'max',
      period: { from: '2023-01-01', to: '2023-12-31' },
    });
    // A new period said with another word of the same facts reads as said: by data-com.
    expect(fourth.question).toMatchObject({ measure: 'dividend', period: { from: '2024-01-01', to: '2024-12-31' } });
  });

  it('"qual deles tem o menor" compares by the smallest value', () => {
    const p = planner.planDeterministic('qual deles tem o menor p/vp?', { previousQuestion: null, previousTickers: ['BNFS11', 'TVRI11', 'CXAG11'] });
    expect(p.question?.compare).toBe('min');
  });

  it('"dele" after a fund compared with another added to it is the fund the conversation was about', () => {
    const [, , p] = converse('qual foi o dy do HGLG11 em 2024?', 'compara com o XPML11', 'e o p/vp desse fundo hoje?');
    expect(p.question?.subjects).toEqual([{ kind: 'fund', id: 'HGLG11' }]);
  });

  it('the client’s own measure of one fund keeps the period ("e só do XPML11?" after what I received)', () => {
    const [, p, q] = converse('quanto recebi de proventos no 1º tri de 2025?', 'e só do XPML11?', 'e em abril?');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'received', period: { from: '2025-01-01', to: '2025-03-31' } });
    expect(q.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'received', period: { from: '2025-04-01', to: '2025-04-30' } });
  });
});

describe("a measure's family and the positions held now", () => {
  it('a sale\'s follow-ups read in its family: "a que preço?" is the sale\'s price, "lucro ou prejuízo" its result', () => {
    const [sold, price, result] = converse('vendi quantas cotas de HGCR11?', 'a que preço?', 'e deu lucro ou prejuízo?');
    expect(sold.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGCR11' }], measure: 'shares_sold' });
    expect(price.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGCR11' }], measure: 'sale_price' });
    expect(result.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGCR11' }], measure: 'realized' });
  });

  it("the family's words give way to a measure named by other words", () => {
    const [, p] = converse('quanto lucrei na venda do XPIN11?', 'e quanto recebi de dividendos do BTAL11 em 2024?');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'BTAL11' }], measure: 'received' });
  });

  it('a position held now does not take the period of the question before it', () => {
    const [, p] = converse('quanto o BTAL11 me pagou em 2024?', 'e quantas cotas dele eu tenho?');
    expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'BTAL11' }], measure: 'shares_held', period: null });
  });
});

describe('the best or worst month (year) of a period', () => {
  it.each([
    ['qual foi o melhor mes do ifix em 2023?', 'max'],
    ['em que mês o IFIX mais caiu em 2022?', 'min'],
    ['pior mes do ifix em 2024', 'min'],
  ])('%s picks among the months', (q, agg) => {
    const p = planner.planDeterministic(q);
    expect(p.question).toMatchObject({ subjects: [{ kind: 'index', id: 'IFIX' }], measure: 'index_points', agg, group_by: 'month', extreme_group: true });
  });

  it('"e o melhor?" after the worst month picks the other end of the same months', () => {
    const [, p] = converse('qual foi o pior mês do IFIX em 2024?', 'e o melhor?');
    expect(p.question).toMatchObject({ measure: 'index_points', agg: 'max', group_by: 'month', extreme_group: true, period: { from: '2024-01-01', to: '2024-12-31' } });
  });

  it('a month named is no group asked: "o maior fechamento do IFIX em março de 2024"', () => {
    const p = planner.planDeterministic('qual o maior fechamento do IFIX em março de 2024?');
    expect(p.question?.extreme_group).toBeUndefined();
  });
});

describe('comparisons without a comparison phrase', () => {
  it('"qual dos meus fundos caiu mais" compares each fund’s price variation, the smallest first', () => {
    expect(planner.planDeterministic('qual dos meus fundos caiu mais em 2024?').question).toMatchObject({
      subjects: [{ kind: 'portfolio' }],
      measure: 'price',
      agg: 'variation',
      compare: 'min',
    });
  });

  it('"em qual fii eu coloquei mais dinheiro" compares the client’s invested amount per fund', () => {
    expect(planner.planDeterministic('em qual fii eu coloquei mais dinheiro?').question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'invested', compare: 'max' });
  });

  it('two series no one measure serves, asked how they did over a period, compare their returns', () => {
    const p = planner.planDeterministic('o ifix rendeu mais que a selic em 2018?');
    expect(p).toMatchObject({ kind: 'measure', entity: 'macro_consolidada' });
    expect(p.question).toMatchObject({ measure: null, agg: 'variation', compare: 'max', period: { from: '2018-01-01', to: '2018-12-31' } });
    // At one date it stays a panel of values.
    expect(planner.planDeterministic('selic e ifix hoje').question?.agg ?? 'value').toBe('value');
  });

  it('a return kept across kinds of series: the Selic compounds, the IFIX varies; "qual foi melhor?" compares the two', () => {
    const [, ifix, best] = converse('selic acumulada em 2023', 'e o ifix no mesmo ano?', 'qual foi melhor?');
    expect(ifix.question).toMatchObject({ subjects: [{ id: 'IFIX' }], measure: 'index_points', agg: 'variation', period: { from: '2023-01-01', to: '2023-12-31' } });
    expect(best.kind).toBe('measure');
    expect(best.question).toMatchObject({ subjects: [{ id: 'SELIC' }, { id: 'IFIX' }], measure: null, agg: 'variation', compare: 'max' });
  });

  it('"e o BTLG11 no mesmo ano?" after returns compared asks the new fund\'s return', () => {
    const [, , third] = converse('quanto o xpin11 subiu em 2023?', 'compara com o ifix', 'e o btlg11 no mesmo ano?');
    expect(third.question).toMatchObject({ subjects: [{ id: 'BTLG11' }], measure: 'price', agg: 'variation', period: { from: '2023-01-01', to: '2023-12-31', grain: 'year' } });
  });

  it('"qual foi a variação nesse intervalo?" spans the last two answers\' dates', () => {
    const [, , third] = converse('VP por cota do HGRE11 em dez/2021', 'e em dez/2023?', 'qual foi a variação nesse intervalo?');
    // A monthly report's variation starts at the period's first report: December 2021's.
    expect(third.question).toMatchObject({ subjects: [{ id: 'HGRE11' }], agg: 'variation', period: { kind: 'range', from: '2021-12-01', to: '2023-12-31' } });
    // A daily close's starts from the close before the period: the span starts the day after the earlier date.
    const [, , price] = converse('fechamento do abcp11 em 30/09/2024', 'e em 31/10/2025?', 'quanto variou nesse intervalo?');
    expect(price.question).toMatchObject({ agg: 'variation', period: { kind: 'range', from: '2024-10-01', to: '2025-10-31' } });
  });

  it('"e a mínima desse mês?" after a day widens to that day\'s month', () => {
    const [, , third] = converse('qual foi o fechamento do abcp11 em 30/09/2024?', 'e em 31/10/2025?', 'e a mínima desse mês?');
    expect(third.question).toMatchObject({ subjects: [{ id: 'ABCP11' }], agg: 'min', period: { from: '2025-10-01', to: '2025-10-31' } });
  });
});

describe("follow-ups about the client's own figures and the conversation's subject", () => {
  it('"e quanto entrou com essa venda?" keeps the fund of the sale; a position keeps no period it was not asked', () => {
    const [, proceeds] = converse('quanto lucrei vendendo xpin11?', 'e quanto entrou de dinheiro com essa venda?');
    expect(proceeds.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPIN11' }], measure: 'sale_proceeds' });
    const [, avg] = converse('quanto recebi de dividendos do HGLG11 em 2024?', 'e qual meu preço medio nele?');
    expect(avg.question).toMatchObject({ subjects: [{ id: 'HGLG11' }], measure: 'avg_price', period: null });
    // What was received is a flow: "nesse período" keeps it.
    const [, , got] = converse('quais fundos eu tenho?', 'qual deles pagou mais por cota no 1º tri de 2025?', 'e quanto eu recebi dele nesse periodo?');
    expect(got.question).toMatchObject({ measure: 'received', period: { from: '2025-01-01', to: '2025-03-31' } });
  });

  it('"quanto ele variou de julho a setembro?" is about the subject the conversation is on, an "um ano depois" the same month', () => {
    const [, , euro] = converse('cotação do dólar em 31/07/2024', 'e o euro?', 'quanto ele variou de julho a setembro de 2024?');
    expect(euro.question).toMatchObject({ subjects: [{ kind: 'currency', id: 'EUR' }], agg: 'variation', period: { from: '2024-07-01', to: '2024-09-30' } });
    const [, later] = converse('pl do KNRI11 em dez/2022', 'e um ano depois?');
    expect(later.question).toMatchObject({ period: { from: '2023-12-01', to: '2023-12-31', grain: 'month' } });
  });
});

describe('a follow-up of an entity answer edits its parameters', () => {
  const base = { ticker: null, tickers: [], agg: 'list' as const, window: null, limit: null, order: null, order_by: null, filters: {} };

  it('keeps what the previous answer filtered on, its size and order', () => {
    const prev = { ...base, limit: 5, order: 'asc' as const, order_by: 'rank_dy_12m' };
    expect(editEntityParams(prev, { indicator: 'IPCA' }, { ...base, window: 'year:2023' })).toMatchObject({
      limit: 5,
      order_by: 'rank_dy_12m',
      window: 'year:2023',
      filters: { indicator: 'IPCA' },
    });
  });

  it('a new kind of fund replaces the previous one ("e os de logística?" after "fundos de papel")', () => {
    const out = editEntityParams({ ...base, limit: 5 }, { fund_type: 'Papel' }, { ...base, filters: { sector: 'Logística' } });
    expect(out.filters).toEqual({ sector: 'Logística' });
    expect(editEntityParams(null, { sector: 'Shoppings' }, { ...base, filters: { fund_type: 'Tijolo' } }).filters).toEqual({ fund_type: 'Tijolo' });
  });
});

describe('the client’s own figures, fund by fund', () => {
  it('"quanto recebi de cada fii" is one total per fund held, kept by "e em 2023?", and "qual pagou mais?" picks among them', () => {
    const [each, year, which, fund] = converse('quanto recebi de cada fii no segundo semestre de 2024?', 'e em 2023?', 'qual pagou mais?', 'e o XPML11, quanto foi?');
    expect(each.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'received', agg: 'total', each_fund: true, compare: null });
    expect(year.question).toMatchObject({ measure: 'received', each_fund: true, period: { from: '2023-01-01', to: '2023-12-31' } });
    expect(which.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'received', compare: 'max' });
    expect(fund.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'received', agg: 'total' });
  });

  it('"por fundo" says the same; a fund measure or a named fund is no per-fund reading of the client', () => {
    expect(planner.planDeterministic('quanto investi por fundo?').question).toMatchObject({ measure: 'invested', each_fund: true });
    expect(planner.planDeterministic('quanto recebi de dividendos em 2024?').question?.each_fund).toBeUndefined();
    expect(planner.planDeterministic('quanto recebi do HGLG11 em 2024?').question?.each_fund).toBeUndefined();
  });

  it('"em qual coloquei mais dinheiro?" and "qual fundo pagou mais nesse mês?" pick among the client’s funds', () => {
    const [, which] = converse('quanto recebi de dividendos em 2024?', 'em qual coloquei mais dinheiro?');
    expect(which.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'invested', compare: 'max' });
    const [, , month] = converse('quanto recebi de dividendos em dezembro de 2024?', 'e em janeiro de 2025?', 'qual fundo pagou mais nesse mes?');
    expect(month.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'received', compare: 'max', period: { from: '2025-01-01', to: '2025-01-31' } });
    // (which month, not which fund)
    const [, months] = converse('quanto recebi de dividendos em 2024?', 'em qual mes recebi mais?');
    expect(months.question?.compare ?? null).toBeNull();
  });
});

describe('between two answers', () => {
  it('"entre essas duas datas" after a day and a year’s end spans from the one close to the other (the base is the last close before the span)', () => {
    const [, , between] = converse('ifix em 30/06/2025', 'e no fim de 2024?', 'quanto subiu entre essas duas datas?');
    expect(between.question).toMatchObject({ subjects: [{ id: 'IFIX' }], agg: 'variation', period: { kind: 'range', from: '2025-01-01', to: '2025-06-30' } });
    // ("no fim do ano" is the year's last month: its last close)
    const [, , later] = converse('ifix fechou em quanto em 28/06/2024?', 'e no fim do ano?', 'quanto variou entre essas duas datas?');
    expect(later.question).toMatchObject({ agg: 'variation', period: { kind: 'range', from: '2024-06-29', to: '2024-12-31' } });
  });
});

describe('what a follow-up says of its own', () => {
  it('"e o cdi de julho de 2023?" after the Selic of a day is what the CDI accumulated there, not the day’s rate kept', () => {
    const [, , cdi] = converse('selic hoje ta em quanto?', 'e em 15/06/2023?', 'e o cdi de julho de 2023?');
    expect(cdi.question).toMatchObject({ subjects: [{ id: 'CDI' }], agg: 'accumulated', period: { from: '2023-07-01', to: '2023-07-31' } });
  });

  it('"e a selic no fim desse mês?" after what the CDI accumulated is the rate at the month’s end', () => {
    const [, selic] = converse('quanto rendeu o cdi em agosto de 2023?', 'e a selic no fim desse mes?');
    expect(selic.question).toMatchObject({ subjects: [{ id: 'SELIC' }], agg: 'value', period: { from: '2023-08-01', to: '2023-08-31' } });
  });

  it('the client’s trades: "a quanto comprei", and "essa venda" is the sale the conversation is about, not a personal income', () => {
    expect(planner.planDeterministic('a quanto comprei visc11?').question).toMatchObject({ measure: 'buy_price' });
    expect(planner.planDeterministic('a quanto vendi o xpin11?').question).toMatchObject({ measure: 'sale_price' });
    const [, gain] = converse('por quanto eu vendi meu xpin11?', 'entao qto ganhei no total com essa venda?');
    expect(gain.question).toMatchObject({ subjects: [{ id: 'XPIN11' }], measure: 'realized' });
  });
});

describe('from the previous answer on', () => {
  it('"de lá até 25/06" after the close of 09/06 spans from that day to this one, kept by the next fund', () => {
    const [, since, other] = converse('qual foi o fechamento do kncr11 em 09/06/2025?', 'e o maior fechamento dele de la ate 25/06?', 'e o do mxrf11 no mesmo periodo?');
    expect(since.question).toMatchObject({ agg: 'max', period: { kind: 'range', from: '2025-06-09', to: '2025-06-25' } });
    expect(other.question).toMatchObject({ subjects: [{ id: 'MXRF11' }], period: { from: '2025-06-09', to: '2025-06-25' } });
  });
});

describe('the dating said in a follow-up', () => {
  it('"e se eu considerar a data com em vez da data de pagamento?" asks the same payments by data-com', () => {
    const [, byRecord] = converse('quanto o ABCP11 pagou em 2024 pela data de pagamento?', 'e se eu considerar a data com em vez da data de pagamento?');
    expect(byRecord.question).toMatchObject({ measure: 'dividend', period: { from: '2024-01-01', to: '2024-12-31' }, subjects: [{ id: 'ABCP11' }] });
  });
});

describe('the whole history', () => {
  it('"o maior que ele já pagou" after a year asks over all the years, not the year asked before', () => {
    const [, ever] = converse('quanto o AFHI11 pagou de dividendos em 2023?', 'qual foi o maior dividendo por cota que ele ja pagou?');
    expect(ever.question).toMatchObject({ agg: 'max', period: null, subjects: [{ id: 'AFHI11' }] });
    expect(ever.follow_up?.changed).toContain('period (the whole history: "já", "de todos os tempos")');
  });
});

describe('the client’s purchases, its funds in order, and the one a comparison picked', () => {
  it('what all the purchases cost, in a month too ("somando todas as compras", "fiz umas compras ... quanto gastei")', () => {
    expect(planner.planDeterministic('somando todas as compras que ja fiz, quanto investi?').question).toMatchObject({ measure: 'bought_amount', agg: 'total' });
    expect(planner.planDeterministic('em fevereiro de 2022 eu fiz umas compras de fii, quanto gastei no total naquele mes?').question).toMatchObject({
      measure: 'bought_amount',
      period: { from: '2022-02-01', to: '2022-02-28' },
    });
    expect(planner.planDeterministic('vendi meu xpin11 por quanto? valor total').question).toMatchObject({ measure: 'sale_proceeds' });
    expect(planner.planDeterministic('fiz alguma compra em junho de 2022? de que?').question).toMatchObject({ measure: 'shares_bought' });
  });

  it('"do maior pro menor" lists the client’s funds in the measure’s order; its words name no aggregation', () => {
    expect(planner.planDeterministic('ordena meus fundos pelo que cada um me pagou em outubro de 2024, do maior pro menor').question).toMatchObject({
      subjects: [{ kind: 'portfolio' }],
      measure: 'received',
      agg: 'total',
      compare: 'max',
    });
    expect(planner.planDeterministic('qual o maior dividendo do hglg11 em 2024').question).toMatchObject({ agg: 'max', compare: null });
  });

  it('"e a menor?" and "ela" after the client’s largest position: the other end, and the one picked', () => {
    const [, other] = converse('em qual fii coloquei mais dinheiro?', 'e a menor?');
    expect(other.question).toMatchObject({ subjects: [{ kind: 'portfolio' }], measure: 'invested', compare: 'min' });
  });
});
