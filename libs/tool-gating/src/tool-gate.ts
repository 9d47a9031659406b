import { z } from 'zod';
import { CotaError, InjectedArg, InvokeRequest, InvokeResponse, ToolMeta } from '@cota/contracts';
import { extractArgs } from './extract';
import { sessionTtl, ToolContract, ToolGatePolicy } from './policy';
import { ConversationRef, SessionStore, ToolRunner, ToolRunResult } from './ports';
import { Injection, isAbsent, resolveArgs } from './resolve-args';

export type GateRequest = z.infer<typeof InvokeRequest>;

/** A sensitive call waiting for "sim": exactly what will run, as the person saw it in the preview. */
export const PendingAction = z.object({
  tool: z.string(),
  args: z.record(z.unknown()),
  injected: z.array(InjectedArg),
  preview: z.record(z.unknown()),
  request_id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PendingAction = z.infer<typeof PendingAction>;

const PENDING = 'pending_action';
/** Domain failures a tool reports with a message for the person; anything else is an outage. */
const USER_FACING_CODES = new Set(['BAD_REQUEST', 'NOT_FOUND', 'FORBIDDEN']);

/** Fills `{name}` placeholders; unknown names stay visible rather than vanish. */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (isAbsent(values[name]) ? whole : String(values[name])));
}

/**
 * The tool gate (seed 003): validates a tool call against its contract, reads the arguments the
 * question states, injects missing ones from the session (explicit > session > default), asks for
 * confirmation before sensitive actions, and runs approved calls in the executor, applying the
 * session values the tool sets. It never runs a tool whose required arguments are unresolved.
 */
export class ToolGate {
  private readonly sessionKeys: string[];

  constructor(
    private readonly policy: ToolGatePolicy,
    private readonly session: SessionStore,
    private readonly runner: ToolRunner,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sessionKeys = Object.keys(policy.session.keys);
  }

  async invoke(req: GateRequest): Promise<InvokeResponse> {
    const conv: ConversationRef = { client_id: req.client_id, conversation_id: req.conversation_id };
    if (req.confirmation) return this.answerConfirmation(req, conv, req.confirmation);
    if (!req.tool) return this.error(null, this.policy.messages.no_tool);

    const contract = this.policy.tools[req.tool.name];
    if (!contract) return this.error(null, fillTemplate(this.policy.messages.unknown_tool, { tool: req.tool.name }));

    // Explicit values: the tool call first, then what the question itself states.
    const fromText = extractArgs(req.question, contract.extractors, this.policy);
    const explicit: Record<string, unknown> = { ...fromText };
    for (const [k, v] of Object.entries(req.tool.args)) if (!isAbsent(v)) explicit[k] = v;

    const needsSession = Object.values(contract.args).some((a) => a.inject_from.length > 0);
    const session = needsSession ? await this.session.get(conv, this.sessionKeys) : {};
    const resolved = resolveArgs(contract, explicit, session);
    const meta = (status: ToolMeta['status']): ToolMeta => ({ name: req.tool!.name, args: resolved.args, injected: resolved.injected, status });

    if (resolved.invalid.length) {
      const first = resolved.invalid[0];
      return this.error(meta('rejected'), fillTemplate(this.policy.messages.invalid_arg, { arg: first.arg, detalhe: first.detail }));
    }
    if (resolved.missing.length) return this.error(meta('rejected'), resolved.missing[0].message);
    if (contract.require_any && contract.require_any.args.every((a) => isAbsent(resolved.args[a]))) {
      return this.error(meta('rejected'), contract.require_any.message);
    }

    if (contract.sensitive) return this.askConfirmation(req, conv, contract, resolved.args, resolved.injected);
    return this.run(req, conv, req.tool.name, resolved.args, resolved.injected);
  }

  /** Sensitive tools: ask the executor for a preview (nothing happens), store it, ask "sim ou não". */
  private async askConfirmation(
    req: GateRequest,
    conv: ConversationRef,
    contract: ToolContract,
    args: Record<string, unknown>,
    injected: Injection[],
  ): Promise<InvokeResponse> {
    const name = req.tool!.name;
    const confirmation = contract.confirmation!;
    let preview: ToolRunResult;
    try {
      preview = await this.runner.run({ ...this.runIds(req), name, args: { ...args, [confirmation.preview_arg]: true } });
    } catch (e) {
      return this.toolError(e, { name, args, injected, status: 'failed' });
    }
    const details = (preview.result ?? {}) as Record<string, unknown>;
    // What the person confirms is what runs: resolved values from the preview (e.g. the recipient) are kept.
    const finalArgs = { ...args };
    for (const k of Object.keys(contract.args)) if (isAbsent(finalArgs[k]) && !isAbsent(details[k])) finalArgs[k] = details[k];

    const ttl = sessionTtl(this.policy, PENDING);
    const created = this.now();
    const pending: PendingAction = {
      tool: name,
      args: finalArgs,
      injected,
      preview: details,
      request_id: req.request_id,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + ttl * 1000).toISOString(),
    };
    await this.session.set(conv, PENDING, pending, ttl);
    const message = fillTemplate(confirmation.prompt, { ...details, ...finalArgs });
    return {
      status: 'confirmation_required',
      tool: { name, args: finalArgs, injected, status: 'confirmation_required' },
      result: { ...details, text: message, expira_em: pending.expires_at },
      message,
    };
  }

  private async answerConfirmation(req: GateRequest, conv: ConversationRef, answer: 'yes' | 'no'): Promise<InvokeResponse> {
    const stored = (await this.session.get(conv, [PENDING]))[PENDING];
    const parsed = PendingAction.safeParse(stored);
    const pending = parsed.success && new Date(parsed.data.expires_at) > this.now() ? parsed.data : null;
    if (stored !== undefined && stored !== null) await this.session.set(conv, PENDING, null, null);
    if (!pending) return this.error(null, this.policy.messages.no_pending_action);

    const contract = this.policy.tools[pending.tool];
    if (!contract) return this.error(null, fillTemplate(this.policy.messages.unknown_tool, { tool: pending.tool }));
    if (answer === 'no') {
      const message = fillTemplate(this.policy.messages.cancelled, { acao: contract.confirmation?.action ?? pending.tool });
      return {
        status: 'ok',
        tool: { name: pending.tool, args: pending.args, injected: pending.injected, status: 'cancelled' },
        result: { cancelled: true, text: message },
        message,
      };
    }
    const injected: Injection[] = pending.injected.map((i) => ({ arg: i.arg, value: i.value, source: i.source }));
    const idem = contract.confirmation?.idempotency_arg;
    const args = idem ? { ...pending.args, [idem]: pending.request_id } : pending.args;
    return this.run(req, conv, pending.tool, args, injected);
  }

  private async run(
    req: GateRequest,
    conv: ConversationRef,
    name: string,
    args: Record<string, unknown>,
    injected: Injection[],
  ): Promise<InvokeResponse> {
    let out: ToolRunResult;
    try {
      out = await this.runner.run({ ...this.runIds(req), name, args });
    } catch (e) {
      return this.toolError(e, { name, args, injected, status: 'failed' });
    }
    if (!out.ok) {
      const msg = (out.result as { message?: unknown } | null)?.message;
      return this.error({ name, args, injected, status: 'failed' }, typeof msg === 'string' && msg ? msg : this.policy.messages.tool_failed);
    }
    for (const u of out.session_updates) {
      await this.session.set(conv, u.key, u.value, u.ttl_seconds ?? (this.policy.session.keys[u.key]?.ttl_seconds ?? null));
    }
    return { status: 'ok', tool: { name, args, injected, status: 'executed' }, result: out.result, message: null };
  }

  private runIds(req: GateRequest) {
    return { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
  }

  /** Tool-reported domain failures become an answer; outages propagate (the gateway maps them to 503/504). */
  private toolError(e: unknown, meta: ToolMeta): InvokeResponse {
    if (CotaError.is(e) && USER_FACING_CODES.has(e.code)) return this.error(meta, e.message);
    throw e;
  }

  private error(meta: ToolMeta | null, message: string): InvokeResponse {
    return { status: 'error', tool: meta, result: null, message };
  }
}
