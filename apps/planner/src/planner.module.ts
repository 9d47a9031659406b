import { DynamicModule, Module } from '@nestjs/common';
import { createLlmClient } from '@cota/llm';
import { Planner, loadPlanningPolicies } from '@cota/planning';
import { HealthProblem, healthChecksProvider, INFRA, Infra } from '@cota/service-kit';
import { DEFAULT_FUND_LIST_OPTIONS, FundListLoader, FundListLoaderOptions } from './fund-list.loader';
import { PlannerHandlers } from './planner.handlers';

export interface PlannerServiceOptions {
  /** Folder holding ontology.yaml and param_inference.yaml (default: the repo's policies/). */
  policiesDir?: string;
  funds?: Partial<FundListLoaderOptions>;
}

@Module({})
export class PlannerModule {
  static register(infra: Infra, options: PlannerServiceOptions = {}): DynamicModule {
    return {
      module: PlannerModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: Planner,
          // Policies loaded once, here: a bad ontology.yaml or param_inference.yaml stops the service
          // naming file and field. The fund list arrives later from the executor.
          useFactory: () =>
            new Planner({ policies: loadPlanningPolicies(options.policiesDir), funds: null, llm: createLlmClient(infra.env.openai, infra.metrics?.llmUsage('planner') ?? null) }),
        },
        {
          provide: FundListLoader,
          inject: [Planner],
          useFactory: (planner: Planner) => new FundListLoader(infra.bus, planner, { ...DEFAULT_FUND_LIST_OPTIONS, ...options.funds }),
        },
        healthChecksProvider([FundListLoader], (funds: FundListLoader) => ({
          funds: async () => {
            if (!funds.loaded) throw new HealthProblem('lista de fundos ainda não carregada (tickers reconhecidos só pelo formato)');
          },
        })),
      ],
      controllers: [PlannerHandlers],
    };
  }
}
