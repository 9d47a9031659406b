import fc from 'fast-check';
import { entitiesOfClass } from '@cota/catalog';
import { REASONS, referenceFromCommit, resolveLastReference, ResolveInput } from './last-reference';
import { loadContextPolicy } from './context-policy';

const policy = loadContextPolicy();
const ref = { ticker: 'HGLG11', entity: 'fiis_cadastro', intent: 'fiis_cadastro', updated_at: '2026-01-01T00:00:00.000Z', turn_index: 1 };
const base: ResolveInput = {
  policy,
  entity: 'fiis_financials_risk',
  tickersInText: [],
  tickerSources: ['text', 'context'],
  reference: ref,
  currentTurn: 2,
};

describe('resolveLastReference', () => {
  it('inherits the fresh reference for an allowed fund entity with a context source', () => {
    expect(resolveLastReference(base)).toEqual({
      ticker: 'HGLG11',
      tickers: ['HGLG11'],
      context: { last_reference_used: true, reason: REASONS.inherited },
    });
  });

  it('lets a ticker written in the question win', () => {
    const r = resolveLastReference({ ...base, tickersInText: ['MXRF11'] });
    expect(r).toEqual({ ticker: 'MXRF11', tickers: ['MXRF11'], context: { last_reference_used: false, reason: REASONS.explicitTicker } });
  });

  it("never puts the conversation's fund in place of a fund written that Cota does not know", () => {
    const r = resolveLastReference({ ...base, unknownInText: ['KNXP11'] });
    expect(r).toEqual({ ticker: null, tickers: [], context: { last_reference_used: false, reason: REASONS.unknownTicker } });
  });

  it('does not pick one of several tickers written in the question', () => {
    const r = resolveLastReference({ ...base, tickersInText: ['MXRF11', 'KNRI11'] });
    expect(r).toEqual({ ticker: null, tickers: ['MXRF11', 'KNRI11'], context: { last_reference_used: false, reason: REASONS.multipleTickers } });
  });

  it.each([
    ['market entity', { entity: 'history_currency_rates' }, REASONS.neverInherits],
    ['macro entity', { entity: 'macro_consolidada' }, REASONS.neverInherits],
    ['client entity', { entity: 'client_fiis_positions' }, REASONS.neverInherits],
    ['no entity', { entity: null }, REASONS.noEntity],
    ['context disabled', { policy: { ...policy, enabled: false } }, REASONS.contextDisabled],
    ['last ticker disabled', { policy: { ...policy, last_reference: { ...policy.last_reference, enable_last_ticker: false } } }, REASONS.lastReferenceDisabled],
    ['entity not in allowed list', { policy: { ...policy, last_reference: { ...policy.last_reference, allowed_entities: ['fiis_cadastro'] } } }, REASONS.entityNotAllowed],
    ['entity without context source', { tickerSources: ['text'] }, REASONS.noContextSource],
    ['no reference yet', { reference: null }, REASONS.noReference],
    ['reference older than max_age_turns', { currentTurn: 5 }, REASONS.expired],
  ] as Array<[string, Partial<ResolveInput>, string]>)('does not inherit: %s', (_, override, reason) => {
    const r = resolveLastReference({ ...base, ...override });
    expect(r.ticker).toBeNull();
    expect(r.tickers).toEqual([]);
    expect(r.context).toEqual({ last_reference_used: false, reason });
  });

  it('still inherits at exactly max_age_turns', () => {
    expect(resolveLastReference({ ...base, currentTurn: 1 + policy.last_reference.max_age_turns }).context.last_reference_used).toBe(true);
  });

  it('reads the entity class from the catalog: an entity classed as market never inherits', () => {
    const reclassed = { ...policy, entity_classes: { ...policy.entity_classes, fiis_financials_risk: 'market' as const } };
    expect(resolveLastReference({ ...base, policy: reclassed }).context.reason).toBe(REASONS.neverInherits);
  });

  it('questions never answered since the reference do not age it; answered ones do', () => {
    const age = policy.last_reference.max_age_turns;
    expect(resolveLastReference({ ...base, currentTurn: 1 + age + 2, unansweredTurns: 2 }).context.last_reference_used).toBe(true);
    expect(resolveLastReference({ ...base, currentTurn: 1 + age + 3, unansweredTurns: 2 }).context.reason).toBe(REASONS.expired);
  });

  const tickerArb = fc.stringMatching(/^[A-Z]{4}11$/);
  const entityArb = fc.oneof(
    fc.constantFrom(...entitiesOfClass(policy.entity_classes, 'fund')),
    fc.constantFrom('history_b3_indexes', 'history_currency_rates', 'history_market_indicators', 'macro_consolidada', 'client_fiis_positions'),
  );
  const inputArb = fc.record({
    entity: fc.option(entityArb, { nil: null }),
    tickersInText: fc.array(tickerArb, { maxLength: 3 }),
    tickerSources: fc.subarray(['text', 'context'] as Array<'text' | 'context'>),
    refTurn: fc.integer({ min: 1, max: 20 }),
    hasRef: fc.boolean(),
    currentTurn: fc.integer({ min: 1, max: 25 }),
  });

  it('property: a single written ticker always wins; inheritance only with all three layers', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const r = resolveLastReference({
          policy,
          entity: i.entity,
          tickersInText: i.tickersInText,
          tickerSources: i.tickerSources,
          reference: i.hasRef ? { ...ref, turn_index: i.refTurn } : null,
          currentTurn: i.currentTurn,
        });
        const distinct = [...new Set(i.tickersInText)];
        if (distinct.length === 1) return r.ticker === distinct[0] && !r.context.last_reference_used;
        if (!r.context.last_reference_used) return r.ticker === null;
        return (
          distinct.length === 0 &&
          i.entity !== null &&
          policy.last_reference.allowed_entities.includes(i.entity) &&
          i.tickerSources.includes('context') &&
          i.hasRef &&
          i.currentTurn - i.refTurn <= policy.last_reference.max_age_turns &&
          r.ticker === ref.ticker
        );
      }),
    );
  });

  it('property: market and client entities never inherit', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom('history_b3_indexes', 'macro_consolidada', 'client_fiis_enriched_portfolio'), (i, entity) => {
        const r = resolveLastReference({ policy, entity, tickersInText: [], tickerSources: ['text', 'context'], reference: ref, currentTurn: i.currentTurn });
        return !r.context.last_reference_used && r.ticker === null;
      }),
    );
  });
});

describe('referenceFromCommit', () => {
  const ok = { status: 'ok' as const, accepted: true, entity: 'fiis_cadastro', intent: 'fiis_cadastro', tickers: ['HGLG11'], turnIndex: 4 };
  const now = new Date('2026-02-03T04:05:06.000Z');

  it('records an accepted ok answer about exactly one ticker', () => {
    expect(referenceFromCommit(policy, ok, now)).toEqual({
      ticker: 'HGLG11',
      entity: 'fiis_cadastro',
      intent: 'fiis_cadastro',
      updated_at: '2026-02-03T04:05:06.000Z',
      turn_index: 4,
    });
  });

  it.each([
    ['not accepted', { accepted: false }],
    ['an error', { status: 'error' as const }],
    ['a clarification', { status: 'needs_clarification' as const }],
    ['no ticker', { tickers: [] }],
    ['two tickers', { tickers: ['HGLG11', 'MXRF11'] }],
    ['a market entity', { entity: 'history_currency_rates', tickers: [] }],
    ['a client answer about several funds', { entity: 'client_fiis_positions', tickers: ['HGLG11', 'KNRI11'] }],
    ['a client answer about no fund', { entity: 'client_fiis_enriched_portfolio', tickers: [] }],
  ])('leaves the reference alone for %s', (_, override) => {
    expect(referenceFromCommit(policy, { ...ok, ...override }, now)).toBeNull();
  });

  it("records the fund of the client's own figure of one fund ('quanto investi no KNHY11?' → 'qual o CNPJ dele?')", () => {
    const r = referenceFromCommit(policy, { ...ok, entity: 'client_fiis_positions', intent: 'client_fiis_positions', tickers: ['KNHY11'] }, now);
    expect(r?.ticker).toBe('KNHY11');
  });
});
