import './register-paths';
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Controller, Module } from '@nestjs/common';
import {
  ALL_RPCS,
  ContextSubjects,
  EventDef,
  Events,
  ExecutorSubjects,
  NarratorSubjects,
  PlannerSubjects,
  RagSubjects,
  RpcDef,
  SERVICES,
  ServiceName,
  ToolGateSubjects,
} from '@cota/contracts';
import { RpcHandler, StepEvent } from '@cota/messaging';
import { runFromEnv, ServiceDefinition } from '@cota/service-kit';
import { cliCommand, commandLineOrExit, oneOf } from './args';

/**
 * A service with its domain work taken out, for the benchmark's framework floor: the same Nest
 * transport strategy, contract validation of every request, bulkhead, deadline, error filter and
 * step event as the real service, but each handler answers a reply recorded from the real one.
 * What the seven processes then cost per question is what the fabric costs before any domain code.
 */

/** The step event each real handler publishes (apps/<service>/*.handlers.ts); subjects without one publish none. */
const STEP_EVENTS = new Map<RpcDef, EventDef>([
  [PlannerSubjects.plan, Events.plannerPlanned],
  [ContextSubjects.open, Events.contextOpened],
  [ContextSubjects.commit, Events.contextCommitted],
  [ExecutorSubjects.query, Events.executorQueried],
  [ExecutorSubjects.measure, Events.executorQueried],
  [RagSubjects.retrieve, Events.ragRetrieved],
  [NarratorSubjects.narrate, Events.narratorNarrated],
  [ToolGateSubjects.invoke, Events.toolGateInvoked],
]);

/** A controller whose decorated methods answer the recorded replies of one service's subjects. */
function cannedController(defs: RpcDef[], replies: Record<string, unknown>): new () => object {
  class CannedHandlers {}
  for (const def of defs) {
    const name = def.subject;
    const descriptor: PropertyDescriptor = { value: () => replies[name], writable: true, configurable: true };
    // As `@RpcHandler(def) @StepEvent(def, event)` written on a method would be applied: the lower one first.
    const event = STEP_EVENTS.get(def);
    if (event) StepEvent(def, event)(CannedHandlers.prototype, name, descriptor);
    RpcHandler(def)(CannedHandlers.prototype, name, descriptor);
    Object.defineProperty(CannedHandlers.prototype, name, descriptor);
  }
  Controller()(CannedHandlers);
  return CannedHandlers;
}

export function cannedService(name: ServiceName, replies: Record<string, unknown>): ServiceDefinition {
  const defs = ALL_RPCS.filter((d) => d.service === name && d.subject in replies);
  const controller = cannedController(defs, replies);
  @Module({ controllers: [controller] })
  class CannedModule {}
  return { name, needsDatabase: false, needsRedis: false, migrations: [], module: () => ({ module: CannedModule }) };
}

/** `node dist/cli/bench-canned.js <service> <replies.json>` (started by bench:load only). */
if (require.main === module) {
  const { args } = commandLineOrExit(
    cliCommand('node dist/cli/bench-canned.js', 'Um serviço que responde respostas gravadas (usado só pelo bench:load).')
      .argument('<serviço>', SERVICES.join(', '), oneOf(SERVICES, 'Serviço'))
      .argument('<respostas.json>', 'as respostas gravadas por assunto'),
  );
  const [name, file] = args;
  void runFromEnv(cannedService(name as ServiceName, JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>));
}
