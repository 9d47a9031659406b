import { DynamicModule, Module } from '@nestjs/common';
import { createLlmClient } from '@cota/llm';
import { createNarrator, loadCatalogColumns, Narrator } from '@cota/narration';
import { HealthProblem, healthChecksProvider, INFRA, Infra, createLogger } from '@cota/service-kit';
import { NarratorHandlers } from './narrator.handlers';

export interface NarratorServiceOptions {
  /** Folder holding narrator.yaml, templates/ and entities/ (default: the repo's policies/). */
  policiesDir?: string;
}

const log = createLogger('narrator');

@Module({})
export class NarratorModule {
  static register(infra: Infra, options: NarratorServiceOptions = {}): DynamicModule {
    return {
      module: NarratorModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: Narrator,
          useFactory: () => {
            // Loaded once, here: a bad narrator.yaml or template stops the service naming file and field.
            const catalog = loadCatalogColumns(options.policiesDir);
            if (!catalog) log.warn('entity catalog not found: templates are not checked against it');
            const llm = createLlmClient(infra.env.openai, infra.metrics?.llmUsage('narrator') ?? null);
            const narrator = createNarrator({ policiesDir: options.policiesDir, llm, catalog: catalog ?? undefined });
            log.info(
              {
                templates: Object.keys(narrator.templates).length,
                llm: llm ? llm.model : null,
                llm_enabled: narrator.policy.llm.enabled,
              },
              'narrator ready',
            );
            return narrator;
          },
        },
        healthChecksProvider([Narrator], (narrator: Narrator) => ({
          templates: async () => {
            if (Object.keys(narrator.templates).length === 0) throw new HealthProblem('nenhum modelo de resposta carregado');
          },
        })),
      ],
      controllers: [NarratorHandlers],
    };
  }
}
