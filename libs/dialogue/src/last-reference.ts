import type { ContextMeta, LastReference } from '@cota/contracts';
import type { EntityClasses } from '@cota/catalog';
import type { ContextPolicy } from './context-policy';

export type TickerSource = 'text' | 'context';

/** Machine-friendly reasons that go to meta.context.reason. */
export const REASONS = {
  explicitTicker: 'explicit_ticker_in_text',
  multipleTickers: 'multiple_tickers_in_text',
  unknownTicker: 'unknown_ticker_in_text',
  inherited: 'inherited_last_reference',
  noEntity: 'no_entity',
  contextDisabled: 'context_disabled',
  lastReferenceDisabled: 'last_reference_disabled',
  neverInherits: 'entity_never_inherits',
  entityNotAllowed: 'entity_not_allowed',
  noContextSource: 'entity_has_no_context_source',
  noReference: 'no_last_reference',
  expired: 'last_reference_expired',
} as const;

export interface ResolveInput {
  policy: Pick<ContextPolicy, 'enabled' | 'last_reference' | 'entity_classes'>;
  entity: string | null;
  tickersInText: string[];
  /** Ticker-shaped words of the question that name no fund Cota knows ("KNXP11"). */
  unknownInText?: string[];
  /** From the entity's parameter declaration (param_inference.yaml), computed by the planner. */
  tickerSources: TickerSource[];
  reference: LastReference | null;
  /** The turn being resolved (number of user turns including this one). */
  currentTurn: number;
  /** Questions since the reference whose answer never came: they do not age it. */
  unansweredTurns?: number;
}

export interface ResolvedIdentifiers {
  ticker: string | null;
  tickers: string[];
  context: ContextMeta;
}

/** An entity of a class other than fund (market, client) is never about the conversation's fund. */
const neverInherits = (classes: EntityClasses, entity: string) => classes[entity] !== undefined && classes[entity] !== 'fund';

const decided = (ticker: string | null, tickers: string[], used: boolean, reason: string): ResolvedIdentifiers => ({
  ticker,
  tickers,
  context: { last_reference_used: used, reason },
});

/**
 * The only place ticker inheritance is decided (CONTRACT, three layers):
 * a ticker written in the question always wins (one Cota does not know leaves the turn without a fund); otherwise the last reference is inherited only when
 * the policy allows it for this entity, the reference is fresh, and the entity declares `context`
 * as a ticker source. Market and client entities (as the catalog classes them) never inherit,
 * whatever the policy file says.
 */
export function resolveLastReference(input: ResolveInput): ResolvedIdentifiers {
  const inText = [...new Set(input.tickersInText)];
  if (inText.length === 1) return decided(inText[0], inText, false, REASONS.explicitTicker);
  // Several tickers: the question names them all, there is nothing to pick from context.
  if (inText.length > 1) return decided(null, inText, false, REASONS.multipleTickers);
  // A fund written that Cota does not know is still the fund asked about: never the conversation's.
  if (input.unknownInText?.length) return decided(null, [], false, REASONS.unknownTicker);

  const { entity, policy } = input;
  if (!entity) return decided(null, [], false, REASONS.noEntity);
  if (!policy.enabled) return decided(null, [], false, REASONS.contextDisabled);
  if (!policy.last_reference.enable_last_ticker) return decided(null, [], false, REASONS.lastReferenceDisabled);
  if (neverInherits(policy.entity_classes, entity)) return decided(null, [], false, REASONS.neverInherits);
  if (!policy.last_reference.allowed_entities.includes(entity)) return decided(null, [], false, REASONS.entityNotAllowed);
  if (!input.tickerSources.includes('context')) return decided(null, [], false, REASONS.noContextSource);

  const ref = input.reference;
  if (!ref) return decided(null, [], false, REASONS.noReference);
  if (input.currentTurn - ref.turn_index - (input.unansweredTurns ?? 0) > policy.last_reference.max_age_turns) {
    return decided(null, [], false, REASONS.expired);
  }
  return decided(ref.ticker, [ref.ticker], true, REASONS.inherited);
}

export interface CommitOutcome {
  status: 'ok' | 'needs_clarification' | 'confirmation_required' | 'error';
  accepted: boolean;
  entity: string | null;
  intent: string;
  tickers: string[];
  turnIndex: number;
}

/**
 * The reference a finished turn leaves behind, or null when it must not touch it: only an accepted,
 * successful answer about exactly one ticker, for an entity allowed to carry a reference or for the
 * client's own figure of one fund ("quanto investi no KNHY11?": "qual o CNPJ dele?" is about KNHY11;
 * a client entity still never inherits one). A market question neither inherits nor erases the reference.
 */
export function referenceFromCommit(policy: Pick<ContextPolicy, 'enabled' | 'last_reference' | 'entity_classes'>, outcome: CommitOutcome, now: Date): LastReference | null {
  if (!policy.enabled || !policy.last_reference.enable_last_ticker) return null;
  if (!outcome.accepted || outcome.status !== 'ok') return null;
  const tickers = [...new Set(outcome.tickers)];
  if (tickers.length !== 1) return null;
  const entity = outcome.entity;
  if (!entity || !(policy.last_reference.allowed_entities.includes(entity) || policy.entity_classes[entity] === 'client')) return null;
  return {
    ticker: tickers[0],
    entity,
    intent: outcome.intent,
    updated_at: now.toISOString(),
    turn_index: outcome.turnIndex,
  };
}
