import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadPolicy, loadPolicyFolder, policiesDir } from '@cota/config';
import {
  EntityClasses,
  entityClasses,
  heldFilters,
  loadEntityCatalog,
  loadEntityClasses,
  loadMeasureCatalog,
  MeasureCatalog,
  OrderableColumn,
  orderableColumns,
} from '@cota/catalog';
import { loadToolGatePolicy, ToolGatePolicy } from '@cota/tool-gating';
import { Ontology } from './ontology';
import { PlansPolicy, PlansPolicySchema } from './multi-step/policy';
import { OntologySchema, OntologySpec } from './ontology.schema';
import { FocusKeywords, withFieldWords } from './field-words';
import { ParamInference } from './params';
import { ParamPolicySchema } from './param-policy.schema';

export interface PlanningPolicies {
  ontology: Ontology;
  params: ParamInference;
  /** The measure catalog (policies/measures.yaml): structured questions are read with its words. */
  measures: MeasureCatalog;
  /** Each entity's class (policies/entities/*.yaml): fund, market or client. */
  entities: EntityClasses;
  /** The entities that can be asked of the client's funds, with their `held` filter (catalog). */
  held?: Readonly<Record<string, string>>;
  /** The columns each entity's rows can be ordered by, with their labels (catalog `orderings`): "o de maior valor" picks by one. */
  orderings?: Readonly<Record<string, ReadonlyArray<OrderableColumn>>>;
  /** The tool contracts (policies/tool_gate.yaml): tools are also recognised by their arguments. */
  tools?: ToolGatePolicy;
  /** The shapes of multi-step answers (policies/plans.yaml). */
  plans?: PlansPolicy;
}

/**
 * Loads and compiles policies/ontology.yaml and policies/param_inference.yaml once, at start-up.
 * A bad file throws PolicyError naming the file and the field; entities of one file missing from
 * the other are refused too, so the two can never drift apart silently.
 */
export function loadPlanningPolicies(dir = policiesDir()): PlanningPolicies {
  const spec = loadPolicy('ontology', OntologySchema, dir);
  const measures = loadMeasureCatalog(dir);
  // The narrator's field words name their entities too (field-words.ts); a folder without templates has none.
  const withFields = existsSync(join(dir, 'templates')) ? withFieldWords(spec, loadPolicyFolder('templates', FocusKeywords, dir), loadEntityClasses(dir)) : spec;
  const ontology = new Ontology(withMeasureWords(withFields, measures));
  const params = new ParamInference(loadPolicy('param_inference', ParamPolicySchema, dir));
  checkConsistency(ontology, params);
  checkRuleFamilies(ontology, measures);
  checkRankingRedirects(params, dir);
  checkConditions(params, dir);
  const catalog = loadEntityCatalog(dir);
  return {
    ontology,
    params,
    measures,
    entities: entityClasses(catalog),
    held: heldFilters(catalog),
    orderings: orderableColumns(catalog),
    tools: loadToolGatePolicy(dir),
    plans: loadPolicy('plans', PlansPolicySchema, dir),
  };
}

/**
 * The measure catalog's words are words of the reading too: a misspelling is corrected towards them, and a
 * measure declared in measures.yaml alone ("ativo total") is never "corrected" into another entity's word.
 */
function withMeasureWords(spec: OntologySpec, catalog: MeasureCatalog): OntologySpec {
  const words = Object.values(catalog.measures).flatMap((m) => [...m.words, ...m.client_words, ...m.family_words, ...(m.words_apart ?? []).flat()]);
  // (and the words of aggregations and comparisons: "acumulou" is no typo of "acumulo")
  const asked = [...Object.values(catalog.aggregations).flat(), ...catalog.compare.max, ...catalog.compare.min, ...catalog.group_extreme.max, ...catalog.group_extreme.min];
  return { ...spec, known_words: [...spec.known_words, ...words, ...asked] };
}

/** A tool rule said right after a measure family (`after_family`) names a family the measure catalog has. */
export function checkRuleFamilies(ontology: Ontology, catalog: MeasureCatalog): void {
  const families = new Set(Object.values(catalog.measures).flatMap((m) => (m.family ? [m.family] : [])));
  for (const tool of ontology.tools)
    for (const rule of tool.rules)
      if (rule.afterFamily !== null && !families.has(rule.afterFamily))
        throw new Error(`ontology.yaml: tools.${tool.name}: after_family ${rule.afterFamily} is not a family of measures.yaml`);
}

/**
 * A ranking redirect orders another entity across funds: its column must be one the executor may
 * order that entity by, or the question would fail at query time instead of at start-up.
 */
export function checkRankingRedirects(params: ParamInference, dir = policiesDir()): void {
  const entities = params.spec.ranking.redirects.length ? loadEntityCatalog(dir) : {};
  params.spec.ranking.redirects.forEach((r, i) => {
    const catalog = entities[r.entity];
    if (!catalog) throw new Error(`param_inference.yaml: ranking.redirects.${i}.entity: ${r.entity} is not a catalog entity`);
    const where = `param_inference.yaml: ranking.redirects.${i}`;
    if (!catalog.orderings.includes(r.order_by)) throw new Error(`${where}.order_by: ${r.order_by} is not in the orderings of entities/${r.entity}.yaml`);
    if (!catalog.aggregations.includes('list')) throw new Error(`${where}.entity: entities/${r.entity}.yaml does not offer the list aggregation`);
  });
}

/** A condition column must be a numeric column of its entity and have words that name it. */
export function checkConditions(params: ParamInference, dir = policiesDir()): void {
  const screened = Object.entries(params.spec.entities).filter(([, e]) => e.conditions.length);
  const entities = screened.length ? loadEntityCatalog(dir) : {};
  for (const [name, e] of screened) {
    for (const column of e.conditions) {
      const where = `param_inference.yaml: entities.${name}.conditions`;
      const col = entities[name]?.columns.find((c) => c.name === column);
      if (!col || !['integer', 'number', 'money', 'percent', 'ratio'].includes(col.type)) throw new Error(`${where}: ${column} is not a numeric column of entities/${name}.yaml`);
      if (!params.spec.condition_words[column]) throw new Error(`${where}: ${column} has no condition_words`);
    }
  }
}

export function checkConsistency(ontology: Ontology, params: ParamInference): void {
  const a = new Set(ontology.entityNames());
  const b = new Set(Object.keys(params.spec.entities));
  const onlyOntology = [...a].filter((e) => !b.has(e));
  const onlyParams = [...b].filter((e) => !a.has(e));
  if (onlyOntology.length || onlyParams.length) {
    throw new Error(
      `planning policies disagree: ` +
        (onlyOntology.length ? `param_inference.yaml lacks ${onlyOntology.join(', ')}; ` : '') +
        (onlyParams.length ? `ontology.yaml lacks ${onlyParams.join(', ')}` : ''),
    );
  }
  for (const [name, e] of Object.entries(ontology.spec.entities)) {
    const unknown = e.broader_than.filter((other) => !a.has(other) || other === name);
    if (unknown.length) throw new Error(`ontology.yaml: entities.${name}.broader_than: ${unknown.join(', ')} is not another entity`);
  }
}
