import type { ConversationState, PlanResponse } from '@cota/contracts';

type Plan = Pick<PlanResponse, 'kind' | 'tool' | 'elliptic' | 'planner'>;
type Peek = Pick<ConversationState, 'pending_call' | 'last_call' | 'last_kind'>;

export type Continuation = { mode: 'complete' | 'try_complete' | 'edit'; tool: string } | null;

/**
 * Whether a message continues a tool call instead of starting something new: it completes the call
 * waiting for an argument ("qual a taxa?" → "1% ao mês"), or it edits the call that just ran ("e a
 * 2% ao mês?", "e em 15 anos?"). A message the planner reads confidently as another question wins.
 * `opensEdit`: the message opens like an edit of the last call ("e se...", "só logística"), as the
 * planner read it with the follow-up cues of policies/ontology.yaml.
 */
export function toolContinuation(plan: Plan, peek: Peek | null, opensEdit: boolean): Continuation {
  if (!peek) return null;
  const weak = plan.kind === 'unknown' || plan.kind === 'clarification' || (plan.kind === 'entity' && !plan.planner.accepted);
  if (peek.pending_call) {
    const pendingTool = peek.pending_call.tool;
    // Anything but another tool or a yes/no may be the answer to the question Cota just asked
    // ("volatilidade diária de 1%" after "qual a volatilidade?"); the gate declines it when it holds
    // none of the missing arguments, and the message is then planned as a question of its own.
    const otherTool = plan.kind === 'tool' && plan.tool?.name !== pendingTool;
    if (weak || plan.elliptic || (plan.kind === 'tool' && !otherTool)) return { mode: 'complete', tool: pendingTool };
    if (!otherTool && plan.kind !== 'confirmation' && plan.kind !== 'smalltalk') return { mode: 'try_complete', tool: pendingTool };
  }
  if (peek.last_call && peek.last_kind === 'tool') {
    const sameTool = plan.kind === 'tool' && plan.tool?.name === peek.last_call.tool;
    // "e a 2%?", "agora só logística", "só as notícias": said right after a tool ran. The gate declines
    // an edit that changes nothing, and the message is then planned as a question of its own.
    const otherTool = plan.kind === 'tool' && !sameTool;
    if (!otherTool && plan.kind !== 'confirmation' && (weak || sameTool || plan.elliptic || opensEdit)) return { mode: 'edit', tool: peek.last_call.tool };
  }
  return null;
}
