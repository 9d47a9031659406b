import { z, ZodTypeAny } from 'zod';
import { CotaError } from './errors';

/** The seven services; subjects and telemetry are namespaced by them. */
export const SERVICES = ['gateway', 'planner', 'context', 'tool-gate', 'executor', 'rag', 'narrator'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** A request-reply subject: its name, its owner and both payload schemas. */
export interface RpcDef<Req extends ZodTypeAny = ZodTypeAny, Res extends ZodTypeAny = ZodTypeAny> {
  readonly kind: 'rpc';
  readonly subject: string;
  readonly service: ServiceName;
  readonly request: Req;
  readonly response: Res;
  /** Default timeout for callers; overridable per call. A question's deadline shortens it (libs/messaging). */
  readonly timeoutMs: number;
  /**
   * A read with no side effect: a caller may retry it (the gateway does, once, when its target is
   * unavailable). Never set on subjects that write (commit, tool runs, session writes).
   */
  readonly idempotent: boolean;
  /**
   * A write that is safe to repeat and must not be lost (a turn's commit once its answer exists): the
   * gateway tries it again while the question has time left, whatever the transient failure.
   */
  readonly mustLand: boolean;
}

/** A fire-and-forget event subject: telemetry (`defineEvent`), or a broadcast to every replica (`defineBroadcast`). */
export interface EventDef<P extends ZodTypeAny = ZodTypeAny> {
  readonly kind: 'event';
  readonly subject: string;
  readonly service: ServiceName;
  readonly payload: P;
}

export type RequestOf<D extends RpcDef> = z.infer<D['request']>;
/** What a caller may send: fields with defaults may be left out (the schema fills them). */
export type CallRequestOf<D extends RpcDef> = z.input<D['request']>;
export type ResponseOf<D extends RpcDef> = z.infer<D['response']>;
export type PayloadOf<D extends EventDef> = z.infer<D['payload']>;

export function defineRpc<Req extends ZodTypeAny, Res extends ZodTypeAny>(def: {
  subject: string;
  service: ServiceName;
  request: Req;
  response: Res;
  timeoutMs?: number;
  idempotent?: boolean;
  mustLand?: boolean;
}): RpcDef<Req, Res> {
  return { kind: 'rpc', timeoutMs: 5000, idempotent: false, mustLand: false, ...def };
}

export function defineEvent<P extends ZodTypeAny>(def: { service: ServiceName; event: string; payload: P }): EventDef<P> {
  return { kind: 'event', subject: `cota.events.${def.service}.${def.event}.v1`, service: def.service, payload: def.payload };
}

/**
 * A fire-and-forget message every subscribing replica receives (no queue group), outside
 * `cota.events.>`: it is no telemetry, and the event reader does not see it.
 */
export function defineBroadcast<P extends ZodTypeAny>(def: { subject: string; service: ServiceName; payload: P }): EventDef<P> {
  return { kind: 'event', ...def };
}

/** Validates a payload against a schema; the error names the first offending field. */
export function validate<S extends ZodTypeAny>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue.path.join('.') || '(root)';
  throw new CotaError('INVALID_MESSAGE', `${what}: field '${path}' ${issue.message}`, {
    field: path,
    issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/**
 * A per-request stream of messages (e.g. answer deltas for one request): subject `<prefix>.<key>`.
 * Fire-and-forget like events; the key is made a single safe subject token.
 */
export interface StreamDef<P extends ZodTypeAny = ZodTypeAny> {
  readonly kind: 'stream';
  readonly prefix: string;
  readonly service: ServiceName;
  readonly payload: P;
}

export function defineStream<P extends ZodTypeAny>(def: { prefix: string; service: ServiceName; payload: P }): StreamDef<P> {
  return { kind: 'stream', ...def };
}

export function streamSubject(def: StreamDef, key: string): string {
  return `${def.prefix}.${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
