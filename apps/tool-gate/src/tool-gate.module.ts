import { DynamicModule, Module } from '@nestjs/common';
import { BusSessionStore, BusToolRunner, loadToolGatePolicy, ToolGate } from '@cota/tool-gating';
import { INFRA, Infra } from '@cota/service-kit';
import { ToolGateHandlers } from './tool-gate.handlers';

export interface ToolGateServiceOptions {
  /** Folder holding tool_gate.yaml (default: the repo's policies/). */
  policiesDir?: string;
}

@Module({})
export class ToolGateModule {
  static register(infra: Infra, options: ToolGateServiceOptions = {}): DynamicModule {
    return {
      module: ToolGateModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: ToolGate,
          // Policy loaded once, here: a bad tool_gate.yaml stops the service naming file and field.
          useFactory: () => new ToolGate(loadToolGatePolicy(options.policiesDir), new BusSessionStore(infra.bus), new BusToolRunner(infra.bus)),
        },
      ],
      controllers: [ToolGateHandlers],
    };
  }
}
