export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const QUOTA_POLICY = Symbol('QUOTA_POLICY');
