import { PlanResponse, queryParams, SAMPLE_OUTCOME, SAMPLE_PERIOD_QUESTION, SAMPLE_READING, StructuredQuestion, TurnOutcome } from '@cota/contracts';
import { loadEntityClasses } from '@cota/catalog';
import { turnLeftBehind as leftBehind } from './turn-left-behind';

const classes = loadEntityClasses();
const turnLeftBehind = (r: PlanResponse, o: TurnOutcome) => leftBehind(r, o, classes);

const reading = (over: Partial<PlanResponse> = {}): PlanResponse => ({ ...SAMPLE_READING, ...over });
const outcome = (over: Partial<TurnOutcome>): TurnOutcome => ({ ...SAMPLE_OUTCOME, ...over });
const fund = (id: string) => ({ kind: 'fund' as const, id });

describe('turnLeftBehind', () => {
  it('an accepted answer about one fund leaves that fund, its filters and its parameters', () => {
    const left = turnLeftBehind(reading(), outcome({}));
    expect(left).toMatchObject({ accepted: true, tickers: ['HGLG11'], listed: ['HGLG11'], params: { ticker: 'HGLG11' } });
  });

  it('a tool that measured a period leaves it, and nothing else; one that failed leaves nothing', () => {
    const question = SAMPLE_PERIOD_QUESTION;
    const tool = reading({ kind: 'tool', entity: null });
    expect(turnLeftBehind(tool, outcome({ question, params: null, row_tickers: [] }))).toMatchObject({ accepted: false, question, tickers: [], listed: [] });
    expect(turnLeftBehind(tool, outcome({ status: 'error', question, params: null, row_tickers: [] })).question).toBeNull();
  });

  it("a compound question's other parts are left with it, for an edit of each; a failed answer leaves none", () => {
    const part = (measure: string): StructuredQuestion => ({ ...SAMPLE_PERIOD_QUESTION, subjects: [fund('HGLG11')], measure, agg: 'value', period: null });
    const measureReading = reading({ kind: 'measure', entity: 'fiis_dividends_yields' });
    const left = turnLeftBehind(measureReading, outcome({ question: part('dy'), also_questions: [part('pvp')] }));
    expect(left.also_questions).toEqual([part('pvp')]);
    expect(turnLeftBehind(measureReading, outcome({ status: 'error', question: part('dy'), also_questions: [part('pvp')] })).also_questions).toEqual([]);
  });

  it('an entity answer that named a measure is about the market series its filters chose, when no fund', () => {
    const question: StructuredQuestion = { ...SAMPLE_PERIOD_QUESTION, subjects: [], measure: 'index_points', agg: 'value', period: null };
    const params = queryParams({ filters: { index: 'IFIX' } });
    const left = turnLeftBehind(reading({ entity: 'history_b3_indexes' }), outcome({ question, params, row_tickers: [] }));
    expect(left.question?.subjects).toEqual([{ kind: 'index', id: 'IFIX' }]);
  });

  it('a list across funds that came down to one fund is about that fund', () => {
    const params = queryParams({ order_by: 'sharpe_ratio', limit: 1 });
    expect(turnLeftBehind(reading(), outcome({ params, row_tickers: ['CNES11'] }))).toMatchObject({ accepted: true, tickers: ['CNES11'], listed: ['CNES11'] });
    // The client's own funds are not "the fund" of the conversation.
    expect(turnLeftBehind(reading({ entity: 'client_fiis_positions' }), outcome({ params, row_tickers: ['CNES11'] })).tickers).toEqual([]);
    // (unless one row of it was asked for: "qual a minha maior posição?")
    expect(turnLeftBehind(reading({ entity: 'client_fiis_positions' }), outcome({ params: { ...params, limit_asked: 1 }, row_tickers: ['CNES11'] })).tickers).toEqual(['CNES11']);
  });

  it("a client's figure over the whole portfolio that one fund made is about that fund ('eu vendi algum fii?')", () => {
    const question: StructuredQuestion = {
      subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }],
      measure: 'shares_sold',
      agg: 'list',
      also: [],
      period: null,
      group_by: null,
      compare: null,
      condition: null,
    };
    const measureReading = reading({ kind: 'measure', entity: 'client_fiis_positions' });
    expect(turnLeftBehind(measureReading, outcome({ question, params: null, row_tickers: ['HGCR11'] })).tickers).toEqual(['HGCR11']);
    expect(turnLeftBehind(measureReading, outcome({ question, params: null, row_tickers: ['HGCR11', 'XPIN11'] })).tickers).toEqual([]);
  });

  it('leaves nothing to inherit when the answer found no data or was not accepted', () => {
    expect(turnLeftBehind(reading(), outcome({ problem: 'no_data' }))).toMatchObject({ accepted: false, tickers: [], listed: [] });
    // (but the query that found nothing stays editable: "algum com risco provável?" → none → "e de risco possível?")
    expect(turnLeftBehind(reading(), outcome({ problem: 'no_data' })).params).toMatchObject({ ticker: 'HGLG11' });
    expect(turnLeftBehind(reading(), outcome({ status: 'error', problem: 'generic' })).params).toBeNull();
    expect(turnLeftBehind(reading({ planner: { ...SAMPLE_READING.planner, accepted: false } }), outcome({})).accepted).toBe(false);
  });

  it('keeps a question with no data for its period, so the next turn can change the period; the reference stays', () => {
    const question: StructuredQuestion = {
      subjects: [fund('HGLG11')],
      measure: 'dividend',
      agg: 'total',
      also: [],
      period: { kind: 'range', from: '2026-01-01', to: '2026-12-31', grain: 'year' },
      group_by: null,
      compare: null,
      condition: null,
    };
    const left = turnLeftBehind(reading({ kind: 'measure' }), outcome({ problem: 'no_data', question }));
    expect(left).toMatchObject({ accepted: false, tickers: [], question });
    // Without a period there is nothing to edit.
    expect(turnLeftBehind(reading({ kind: 'measure' }), outcome({ problem: 'no_data', question: { ...question, period: null } })).question).toBeNull();
  });

  it('a comparison lists its funds best first and is about the winner', () => {
    const question = {
      subjects: [fund('HGLG11'), fund('KNRI11'), fund('XPML11')],
      measure: 'dy_12m',
      agg: 'value' as const,
      period: null,
      group_by: null,
      compare: 'max' as const,
      condition: null,
      also: [],
    };
    const values = [
      { subject: fund('HGLG11'), value: 8.1, date: null },
      { subject: fund('KNRI11'), value: 9.2, date: null },
      { subject: fund('XPML11'), value: null, date: null },
    ];
    const left = turnLeftBehind(reading({ kind: 'measure', entity: 'fiis_dividends' }), outcome({ question, values, winner: fund('KNRI11') }));
    expect(left).toMatchObject({ accepted: true, tickers: ['KNRI11'], listed: ['KNRI11', 'HGLG11', 'XPML11'], question, params: null, answered_date: null });
  });

  it('leaves the date of the one value a measure answer found ("o pior mês foi novembro"), for "nesse mês"', () => {
    const question = StructuredQuestion.parse({
      subjects: [{ kind: 'index', id: 'IFIX' }],
      measure: 'index_points',
      agg: 'min',
      period: null,
      group_by: 'month',
      compare: null,
      condition: null,
      also: [],
    });
    const found = [{ subject: { kind: 'index' as const, id: 'IFIX' }, value: -4.15, date: '2022-11-30' }];
    expect(turnLeftBehind(reading({ kind: 'measure' }), outcome({ question, values: found })).answered_date).toBe('2022-11-30');
    // (several values found, or an entity answer: no one date)
    const two = [...found, { subject: { kind: 'index' as const, id: 'IBOV' }, value: 1, date: '2022-11-30' }];
    expect(turnLeftBehind(reading({ kind: 'measure' }), outcome({ question, values: two })).answered_date).toBeNull();
  });

  it('a question waiting for its fund is kept so the next message can complete it', () => {
    const question = StructuredQuestion.parse({ subjects: [], measure: 'dy_12m', agg: 'value', period: null, group_by: null, compare: null, condition: null, also: [] });
    const left = turnLeftBehind(reading({ kind: 'measure' }), outcome({ status: 'needs_clarification', problem: 'ticker_required', question }));
    expect(left).toMatchObject({ accepted: false, question });
    // So is one asked of a fund Cota does not know: "e do ABCP11?" asks it of another; no fund is left behind.
    const unknown = turnLeftBehind(reading({ kind: 'entity' }), outcome({ status: 'error', problem: 'unknown_ticker', question: { ...question, measure: 'dividend' } }));
    expect(unknown).toMatchObject({ accepted: false, tickers: [], question: { measure: 'dividend' } });
  });
});
