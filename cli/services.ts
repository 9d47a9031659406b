import { ServiceName } from '@cota/contracts';
import { ServiceDefinition } from '@cota/service-kit';
import { gatewayService } from '../apps/gateway/src/gateway.service';
import { plannerService } from '../apps/planner/src/planner.service';
import { contextService } from '../apps/context/src/context.service';
import { toolGateService } from '../apps/tool-gate/src/tool-gate.service';
import { executorService } from '../apps/executor/src/executor.service';
import { ragService } from '../apps/rag/src/rag.service';
import { narratorService } from '../apps/narrator/src/narrator.service';

/** Every service, in start order: data owners first, the gateway (which takes traffic) last. */
export const SERVICE_DEFINITIONS: Record<ServiceName, ServiceDefinition> = {
  executor: executorService,
  context: contextService,
  rag: ragService,
  narrator: narratorService,
  'tool-gate': toolGateService,
  planner: plannerService,
  gateway: gatewayService,
};
