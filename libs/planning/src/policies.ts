import { loadPolicy, policiesDir } from '@cota/config';
import { Ontology } from './ontology';
import { OntologySchema } from './ontology.schema';
import { ParamInference } from './params';
import { ParamPolicySchema } from './param-policy.schema';

export interface PlanningPolicies {
  ontology: Ontology;
  params: ParamInference;
}

/**
 * Loads and compiles policies/ontology.yaml and policies/param_inference.yaml once, at start-up.
 * A bad file throws PolicyError naming the file and the field; entities of one file missing from
 * the other are refused too, so the two can never drift apart silently.
 */
export function loadPlanningPolicies(dir = policiesDir()): PlanningPolicies {
  const ontology = new Ontology(loadPolicy('ontology', OntologySchema, dir));
  const params = new ParamInference(loadPolicy('param_inference', ParamPolicySchema, dir));
  checkConsistency(ontology, params);
  return { ontology, params };
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
}
