/**
 * Errors that cross the wire. Every failure a service reports is one of these codes,
 * so callers (and finally the gateway) can map it to a status without parsing text.
 */
export const ERROR_CODES = [
  'INVALID_MESSAGE', // payload failed contract validation
  'BAD_REQUEST', // valid shape, unusable content
  'NOT_FOUND',
  'FORBIDDEN',
  'RATE_LIMITED',
  'UNAVAILABLE', // no service answered (down, no responders)
  'TIMEOUT', // the service did not answer in time
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface WireError {
  code: ErrorCode;
  message: string;
  /** The service that raised it, when known. */
  service?: string;
  details?: Record<string, unknown>;
}

export class CotaError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly service?: string,
  ) {
    super(message);
    this.name = 'CotaError';
  }

  toWire(): WireError {
    return { code: this.code, message: this.message, service: this.service, details: this.details };
  }

  static fromWire(e: WireError): CotaError {
    return new CotaError(e.code, e.message, e.details, e.service);
  }

  static is(e: unknown, code?: ErrorCode): e is CotaError {
    return e instanceof CotaError && (code === undefined || e.code === code);
  }
}
