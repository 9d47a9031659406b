import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { CotaError, EventDef, TelemetryEvent } from '@cota/contracts';
import { emitStep, since } from '../telemetry';
import type { BusContext } from './bus-context';

/** The ids a step event is correlated by (hashed by emitStep, never published raw). */
export interface StepIds {
  request_id?: string;
  client_id?: string;
  conversation_id?: string;
}

type Attributes = TelemetryEvent['attributes'];

/** What one handler's step event says, from its request and its reply (or error). */
export interface StepOptions<Req, Res> {
  attributes?: (request: Req, response: Res) => Attributes;
  /** Default 'ok'. */
  outcome?: (response: Res) => TelemetryEvent['outcome'];
  /** Default { total: ms }. */
  timings?: (ms: number, response: Res | undefined) => Record<string, number>;
  /** Default: outcome 'error', attributes { error_code }. */
  failure?: (request: Req, error: unknown) => { outcome?: TelemetryEvent['outcome']; attributes?: Attributes };
}

/** The error's code, for telemetry: a CotaError's own, INTERNAL otherwise. */
export function errorCode(e: unknown): string {
  return CotaError.is(e) ? e.code : 'INTERNAL';
}

/**
 * Publishes one telemetry event per handled message (`cota.events.<service>.<event>`), without
 * waiting: outcome, duration and the attributes the handler declares; the error's code on failure.
 */
export class StepTelemetryInterceptor<Req extends StepIds, Res> implements NestInterceptor {
  constructor(
    private readonly event: EventDef,
    private readonly options: StepOptions<Req, Res> = {},
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.switchToRpc();
    const request = rpc.getData<Req>();
    const bus = rpc.getContext<BusContext>().getBus();
    const started = performance.now();
    const ids = { request_id: request.request_id ?? 'unknown', client_id: request.client_id, conversation_id: request.conversation_id };
    const o = this.options;
    return next.handle().pipe(
      tap({
        next: (value) => {
          const response = value as Res;
          const ms = since(started);
          emitStep(bus, this.event, {
            ...ids,
            outcome: o.outcome?.(response) ?? 'ok',
            timings_ms: o.timings?.(ms, response) ?? { total: ms },
            attributes: o.attributes?.(request, response) ?? {},
          });
        },
        error: (e) => {
          const failed = o.failure?.(request, e) ?? {};
          emitStep(bus, this.event, {
            ...ids,
            outcome: failed.outcome ?? 'error',
            timings_ms: o.timings?.(since(started), undefined) ?? { total: since(started) },
            attributes: failed.attributes ?? { error_code: errorCode(e) },
          });
        },
      }),
    );
  }
}
