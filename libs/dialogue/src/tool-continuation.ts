import type { ConversationState, PlanResponse } from '@cota/contracts';
import { fold } from '@cota/text';

type Plan = Pick<PlanResponse, 'kind' | 'tool' | 'elliptic' | 'planner'>;
type Peek = Pick<ConversationState, 'pending_call' | 'last_call' | 'last_kind'>;

export type Continuation = { mode: 'complete' | 'try_complete' | 'edit'; tool: string } | null;

/** How a follow-up that edits the last call usually opens ("e se...", "e a 1%?", "só logística", "agora agro"). */
const FOLLOW_UP_OPENING = /^(e|e se|agora|so|somente|apenas|mostra|mostre|quero ver|filtra|filtre|agrupa|agrupe|ordena|ordene|considera|considere|com|sem|pra|para|de|do|da)\b/i;
const FOLLOW_UP_MAX_WORDS = 10;

/**
 * Whether a message continues a tool call instead of starting something new: it completes the call
 * waiting for an argument ("qual a taxa?" → "1% ao mês"), or it edits the call that just ran ("e a
 * 2% ao mês?", "e em 15 anos?"). A message the planner reads confidently as another question wins.
 */
export function toolContinuation(plan: Plan, peek: Peek | null, question: string): Continuation {
  if (!peek) return null;
  const weak = plan.kind === 'unknown' || plan.kind === 'clarification' || (plan.kind === 'entity' && !plan.planner.accepted);
  const words = question.trim().split(/\s+/).filter(Boolean).length;
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
    const opensFollowUp = FOLLOW_UP_OPENING.test(fold(question).trim()) && words <= FOLLOW_UP_MAX_WORDS;
    const otherTool = plan.kind === 'tool' && !sameTool;
    if (!otherTool && plan.kind !== 'confirmation' && (weak || sameTool || plan.elliptic || opensFollowUp)) return { mode: 'edit', tool: peek.last_call.tool };
  }
  return null;
}
