export { ContextPolicy, ContextPolicySchema, contextPolicyFile, loadContextPolicy, scopeAllowsEntity } from './context-policy';
export { REASONS, ResolveInput, ResolvedIdentifiers, CommitOutcome, TickerSource, referenceFromCommit, resolveLastReference } from './last-reference';
export { Continuation, toolContinuation } from './tool-continuation';
export { TurnLeftBehind, turnLeftBehind } from './turn-left-behind';
