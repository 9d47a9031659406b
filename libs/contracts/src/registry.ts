import { EventDef, RpcDef } from './define';
import { Events } from './subjects/events';
import { PlannerSubjects } from './subjects/planner';
import { ContextSubjects } from './subjects/context';
import { ExecutorBroadcasts, ExecutorSubjects } from './subjects/executor';
import { ToolGateSubjects } from './subjects/tool-gate';
import { RagSubjects } from './subjects/rag';
import { NarratorSubjects } from './subjects/narrator';
import { HealthSubjects } from './subjects/health';
import { PrivacySubjects } from './subjects/privacy';
import { AccessBroadcasts } from './subjects/access';
import { WarehouseEvents } from './subjects/warehouse-events';

/** Every request-reply subject, for contract tests and the AsyncAPI document. */
export const ALL_RPCS: RpcDef[] = [
  ...Object.values(PlannerSubjects),
  ...Object.values(ContextSubjects),
  ...Object.values(ExecutorSubjects),
  ...Object.values(ToolGateSubjects),
  ...Object.values(RagSubjects),
  ...Object.values(NarratorSubjects),
  ...Object.values(HealthSubjects),
  ...Object.values(PrivacySubjects),
];

/** Every telemetry event, for listeners that validate what they receive and the AsyncAPI document. */
export const ALL_EVENTS: EventDef[] = Object.values(Events);

/** Every broadcast (each subscribing replica receives it), for the permissions and the AsyncAPI document. */
export const ALL_BROADCASTS: EventDef[] = [...Object.values(AccessBroadcasts), ...Object.values(ExecutorBroadcasts)];

/** Every warehouse change event (kept in the WAREHOUSE_STREAM), for the AsyncAPI document and the samples. */
export const ALL_WAREHOUSE_EVENTS = Object.values(WarehouseEvents);
