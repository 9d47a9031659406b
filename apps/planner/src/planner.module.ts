import { DynamicModule, Module } from '@nestjs/common';
import { alertCatalog } from '@cota/catalog';
import { createLlmClient } from '@cota/llm';
import { loadContextPolicy } from '@cota/dialogue';
import { Planner, loadPlanningPolicies, PlanningPolicies, TurnReader } from '@cota/planning';
import { HealthProblem, healthChecksProvider, INFRA, Infra } from '@cota/service-kit';
import { DEFAULT_FUND_LIST_OPTIONS, FundListLoader, FundListLoaderOptions } from './fund-list.loader';
import { PlannerHandlers } from './planner.handlers';

export interface PlannerServiceOptions {
  /** Folder holding ontology.yaml and param_inference.yaml (default: the repo's policies/). */
  policiesDir?: string;
  funds?: Partial<FundListLoaderOptions>;
}

const PLANNING_POLICIES = Symbol('PLANNING_POLICIES');

@Module({})
export class PlannerModule {
  static register(infra: Infra, options: PlannerServiceOptions = {}): DynamicModule {
    // policies/alerts.yaml (the words of the alerts told in the chat) is validated here, at start-up.
    alertCatalog();
    return {
      module: PlannerModule,
      providers: [
        { provide: INFRA, useValue: infra },
        // Policies loaded once, here: a bad file stops the service naming file and field.
        { provide: PLANNING_POLICIES, useFactory: () => loadPlanningPolicies(options.policiesDir) },
        {
          provide: Planner,
          inject: [PLANNING_POLICIES],
          // The fund list arrives later from the executor.
          useFactory: (policies: PlanningPolicies) => new Planner({ policies, funds: null, llm: createLlmClient(infra.env.openai, infra.metrics?.llmUsage('planner') ?? null) }),
        },
        {
          provide: TurnReader,
          inject: [Planner, PLANNING_POLICIES],
          // A turn is read under the conversation's rules (context.yaml) and the tools' contracts.
          useFactory: (planner: Planner, policies: PlanningPolicies) => new TurnReader(planner, { context: loadContextPolicy(options.policiesDir), tools: policies.tools! }),
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
