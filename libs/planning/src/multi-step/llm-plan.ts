import { ExecutionPlan, validatePlan } from '@cota/contracts';
import type { LlmClient } from '@cota/llm';

export interface LlmPlanOutcome {
  plan: ExecutionPlan | null;
  /** Why the model's plan was not used, when it was not. */
  failure: string | null;
}

/**
 * Asks the model to write the execution plan for a multi-step request, given the deterministic
 * plan as the example of the format and of the facts available. The answer is parsed, checked
 * against the plan schema and validated (known measures and tools, no cycles, inputs from
 * dependencies); anything else leaves the deterministic plan in place.
 */
export async function writePlanWithLlm(
  llm: LlmClient,
  question: string,
  example: ExecutionPlan,
  known: { tools: ReadonlySet<string>; measures: ReadonlySet<string> },
  opts: { timeoutMs: number },
): Promise<LlmPlanOutcome> {
  const system =
    'Você planeja respostas de várias etapas sobre fundos imobiliários (FIIs). Escreva um plano de execução em JSON ' +
    'no MESMO formato do exemplo: etapas "measure" (uma pergunta estruturada ao banco de dados) ou "tool" (uma ferramenta), ' +
    'com "depends_on" e "inputs" para usar resultados anteriores, e a "synthesis". Não invente números: as etapas buscam os dados. ' +
    `Medidas disponíveis: ${[...known.measures].join(', ')}. Ferramentas: ${[...known.tools].join(', ')}. ` +
    'Responda apenas com o JSON do plano.\n' +
    `Exemplo para esta pergunta:\n${JSON.stringify({ ...example, source: 'llm' })}`;
  let raw: string;
  try {
    raw = await llm.complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
      { timeoutMs: opts.timeoutMs, json: true, temperature: 0, maxTokens: 1200 },
    );
  } catch (e) {
    return { plan: null, failure: `model call failed: ${(e as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { plan: null, failure: 'model plan is not JSON' };
  }
  const shaped = ExecutionPlan.safeParse({ ...(parsed as object), source: 'llm' });
  if (!shaped.success) {
    const issue = shaped.error.issues[0];
    return { plan: null, failure: `model plan does not fit the schema (${issue.path.join('.') || '(root)'}: ${issue.message})` };
  }
  const problems = validatePlan(shaped.data, known);
  if (problems.length) return { plan: null, failure: `model plan is invalid (${problems[0].path}: ${problems[0].message})` };
  return { plan: shaped.data, failure: null };
}
