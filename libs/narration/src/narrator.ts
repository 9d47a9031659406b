import { loadMeasureCatalog } from '@cota/catalog';
import { PolicyError } from '@cota/config';
import type { NarrateRequest, NarrateResponse } from '@cota/contracts';
import { ContextPolicy, loadContextPolicy, scopeAllowsEntity } from '@cota/dialogue';
import type { LlmClient } from '@cota/llm';
import { DeterministicNarrator } from './deterministic-narrator';
import { LlmNarrator } from './llm-narrator';
import type { MeasureWords } from './render-measure';
import { llmAllowsEntity, loadNarratorPolicy, NarratorPolicy } from './policy';
import { checkSyntax } from './template-text';
import { CatalogColumns, loadTemplates, TemplateSet, validateTemplates } from './templates';

/**
 * The narrator the service runs: the deterministic answer always, the model's rephrasing only
 * when configured, allowed for this answer, and passing every check.
 */
export class Narrator {
  readonly deterministic: DeterministicNarrator;
  readonly llm: LlmNarrator | null;

  constructor(
    readonly policy: NarratorPolicy,
    readonly templates: TemplateSet,
    /** How answers name the measures: the measure catalog's vocabulary. */
    readonly measures: MeasureWords,
    client: LlmClient | null,
    /** The narrator block of policies/context.yaml: which answers may see the conversation's memory (null: all). */
    private readonly memoryScope: ContextPolicy['narrator'] | null = null,
  ) {
    this.deterministic = new DeterministicNarrator(policy, templates, measures);
    this.llm = client ? new LlmNarrator(client, policy) : null;
  }

  /** Why the model is not asked for this answer, or null when it may be. */
  llmSkipReason(req: NarrateRequest): string | null {
    if (!this.policy.llm.enabled) return 'llm_disabled';
    if (!this.llm) return 'llm_not_configured';
    if (req.status !== 'ok' || req.problem) return 'status_not_ok';
    if (!this.policy.llm.kinds.includes(req.kind)) return 'kind_not_allowed';
    if (req.kind === 'entity' && !llmAllowsEntity(this.policy, req.entity)) return 'entity_not_allowed';
    return null;
  }

  /** `onDelta` receives guarded pieces of the model's text when the request asks to stream. */
  async narrate(asked: NarrateRequest, onDelta?: (delta: string) => void): Promise<NarrateResponse> {
    const started = performance.now();
    // The memory reaches only answers the context policy lets the narrator see history for.
    const req = !this.memoryScope || scopeAllowsEntity(this.memoryScope, asked.entity) ? asked : { ...asked, memory: { recent: [], summary: null } };
    const deterministic = this.deterministic.narrate(req);
    const skip = this.llmSkipReason(req);
    if (skip || !this.llm) {
      return {
        answer: deterministic.answer,
        narrator: {
          llm_used: false,
          reason: skip ?? 'llm_not_configured',
          model: this.llm?.model ?? null,
          latency_ms: Math.round((performance.now() - started) * 100) / 100,
        },
      };
    }
    const outcome = req.stream && onDelta ? await this.llm.rephraseStream({ request: req, deterministic }, onDelta) : await this.llm.rephrase({ request: req, deterministic });
    return { answer: outcome.answer, narrator: outcome.meta };
  }
}

export interface NarratorSetup {
  /** Folder holding narrator.yaml, templates/, measures.yaml and context.yaml (default: the repo's policies). */
  policiesDir?: string;
  llm: LlmClient | null;
  /** Column names per entity from the entity catalog; templates are checked against it. */
  catalog?: CatalogColumns;
}

/**
 * Loads and validates everything once, at start-up: narrator.yaml, every template, the
 * templates against the catalog, the policy's entity allow list, and the measure catalog whose
 * names the answers use. Throws PolicyError.
 */
export function createNarrator(setup: NarratorSetup): Narrator {
  const policy = loadNarratorPolicy(setup.policiesDir);
  const templates = loadTemplates(setup.policiesDir);
  validateMessages(policy);
  if (setup.catalog) validateTemplates(templates, setup.catalog, { requireAll: true });
  policy.llm.entities.forEach((e, i) => {
    if (e !== '*' && !templates[e]) throw new PolicyError('policies/narrator.yaml', `llm.entities.${i}`, `'${e}' is not an entity with a template`);
  });
  return new Narrator(policy, templates, loadMeasureCatalog(setup.policiesDir).measures, setup.llm, loadContextPolicy(setup.policiesDir).narrator);
}

function validateMessages(policy: NarratorPolicy): void {
  const check = (path: string, text: string) => {
    const problem = checkSyntax(text);
    if (problem) throw new PolicyError('policies/narrator.yaml', path, problem);
  };
  const walk = (path: string, value: unknown) => {
    if (typeof value === 'string') check(path, value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(path ? `${path}.${k}` : k, v);
  };
  walk('messages', policy.messages);
}

/** Column names per entity from a catalog shaped like libs/warehouse's (`{columns: [{name}]}`). */
export function catalogColumns(catalog: Record<string, { columns: Array<{ name: string }> }>): CatalogColumns {
  return Object.fromEntries(Object.entries(catalog).map(([entity, def]) => [entity, def.columns.map((c) => c.name)]));
}
