export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const QUOTA_POLICY = Symbol('QUOTA_POLICY');
export const ASK_FENCE = Symbol('ASK_FENCE');
