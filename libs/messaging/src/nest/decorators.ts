import { applyDecorators, UseFilters, UseInterceptors, UsePipes } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import { EventDef, RequestOf, ResponseOf, RpcDef } from '@cota/contracts';
import { BusExceptionFilter } from './bus-exception.filter';
import { ContractPipe } from './contract.pipe';
import { StepOptions, StepTelemetryInterceptor } from './step-telemetry.interceptor';

/** Where the strategy finds the contract of a pattern (MessagePattern's extras). */
export const CONTRACT_EXTRA = 'cotaContract';

/**
 * A request-reply handler for one contract subject: `@MessagePattern(def.subject)` with the
 * contract's validation pipe and the filter that keeps typed errors. Served by BusServer.
 */
export function RpcHandler(def: RpcDef): MethodDecorator {
  return applyDecorators(
    MessagePattern(def.subject, { [CONTRACT_EXTRA]: def }),
    UsePipes(new ContractPipe(def.request, `request to ${def.subject}`)),
    UseFilters(new BusExceptionFilter()),
  );
}

/** An event handler: `@EventPattern` on a contract event (or a wildcard pattern such as `cota.events.>`), payload validated. */
export function BusEventHandler(defOrPattern: EventDef | string): MethodDecorator {
  if (typeof defOrPattern === 'string') return applyDecorators(EventPattern(defOrPattern), UseFilters(new BusExceptionFilter()));
  return applyDecorators(
    EventPattern(defOrPattern.subject, { [CONTRACT_EXTRA]: defOrPattern }),
    UsePipes(new ContractPipe(defOrPattern.payload, `event ${defOrPattern.subject}`)),
    UseFilters(new BusExceptionFilter()),
  );
}

/** Publishes the handler's step event (the telemetry interceptor), described from its request and reply. */
export function StepEvent<D extends RpcDef>(_def: D, event: EventDef, options: StepOptions<RequestOf<D>, ResponseOf<D>> = {}): MethodDecorator {
  return UseInterceptors(new StepTelemetryInterceptor(event, options as StepOptions<{ request_id?: string }, unknown>));
}
