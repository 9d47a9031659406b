import { z } from 'zod';
import { CotaError, InjectedArg, InvokeRequest, InvokeResponse, ToolMeta } from '@cota/contracts';
import { sessionTtl, ToolContract, ToolGatePolicy } from './policy';
import { ConversationRef, SessionStore, ToolRunner, ToolRunResult } from './ports';
import { Injection, isAbsent, resolveArgs } from './resolve-args';

export type GateRequest = z.input<typeof InvokeRequest>;

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
const PENDING_CALL = 'pending_call';
const LAST_CALL = 'last_call';

/** A call waiting for an argument the person was asked for; the next message may complete it. */
export const PendingCall = z.object({
  tool: z.string(),
  args: z.record(z.unknown()),
  missing: z.array(z.string()),
});
export type PendingCall = z.infer<typeof PendingCall>;
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
    const mode = req.tool.continuation ?? 'none';
    const pending = mode === 'complete' ? await this.storedCall(conv, PENDING_CALL) : null;
    const last = mode === 'edit' ? await this.storedCall(conv, LAST_CALL) : null;
    const name = pending?.tool ?? last?.tool ?? req.tool.name;

    const contract = this.policy.tools[name];
    if (!contract) return this.error(null, fillTemplate(this.policy.messages.unknown_tool, { tool: name }));

    // Explicit values: what the message states (read by the planner); in a continuation what was said
    // before stands and the new message fills what was asked for.
    const stated = req.tool.name === name ? req.tool.args : {};
    const explicit: Record<string, unknown> = Object.fromEntries(Object.entries(stated).filter(([, v]) => !isAbsent(v)));
    const added = Object.keys(explicit).filter((k) => isAbsent(pending?.args[k]));
    if (pending) for (const [k, v] of Object.entries(pending.args)) if (!isAbsent(v)) explicit[k] = v;
    if (last) {
      // An edit keeps the last call and changes what the message says. Unless the planner read the
      // message as this tool itself ("e o VPL desses fluxos?"), the kind of calculation stays: a bare
      // "e a 2%?" would otherwise read as a rate conversion.
      for (const [k, v] of Object.entries(last.args)) if (isAbsent(explicit[k]) || (k === 'operacao' && !req.tool.own)) explicit[k] = v;
    }

    const needsSession = Object.values(contract.args).some((a) => a.inject_from.some((k) => this.sessionKeys.includes(k)));
    const session: Record<string, unknown> = needsSession ? await this.session.get(conv, this.sessionKeys) : {};
    if (req.tool.context_ticker) session.last_ticker = req.tool.context_ticker;
    // A message that is a whole request on its own is taken as such, not merged into an earlier call.
    const alone = (pending || last) && req.tool.own ? resolveArgs(contract, stated, session) : null;
    const resolved = alone && alone.missing.length === 0 && alone.invalid.length === 0 ? alone : resolveArgs(contract, explicit, session);
    const meta = (status: ToolMeta['status']): ToolMeta => ({ name, args: resolved.args, injected: resolved.injected, status });

    if (resolved.invalid.length) {
      if (pending) await this.session.set(conv, PENDING_CALL, null, null);
      const first = resolved.invalid[0];
      return this.error(meta('rejected'), fillTemplate(this.policy.messages.invalid_arg, { arg: first.arg, detalhe: first.detail }));
    }
    // A value only the conversation can hold (the active report) cannot be asked for: say what to do instead.
    const unaskable = resolved.missing.find((m) => this.onlyFromSession(contract, m.arg));
    if (unaskable) {
      if (pending) await this.session.set(conv, PENDING_CALL, null, null);
      return this.error(meta('rejected'), unaskable.message);
    }
    const missing = [...resolved.missing];
    if (contract.require_any && contract.require_any.args.every((a) => isAbsent(resolved.args[a]))) {
      missing.push({ arg: contract.require_any.args.join('|'), message: contract.require_any.message });
    }
    if (missing.length) {
      // Ask for exactly the first missing argument; the next message completes this same call.
      const kept = Object.fromEntries(Object.entries(explicit).filter(([, v]) => !isAbsent(v)));
      const call: PendingCall = { tool: name, args: kept, missing: missing.flatMap((m) => m.arg.split('|')) };
      await this.session.set(conv, PENDING_CALL, call, sessionTtl(this.policy, PENDING_CALL));
      const ask = missing[0].message;
      const message = pending && added.length === 0 ? `${this.policy.messages.still_missing} ${ask}` : ask;
      return { status: 'needs_clarification', tool: meta('needs_argument'), result: null, message };
    }
    if (pending) await this.session.set(conv, PENDING_CALL, null, null);

    if (contract.sensitive) return this.askConfirmation(req, conv, name, contract, resolved.args, resolved.injected);
    return this.run(req, conv, name, resolved.args, resolved.injected);
  }

  private onlyFromSession(contract: ToolContract, arg: string): boolean {
    const spec = contract.args[arg];
    return !!spec && spec.inject_from.length > 0 && spec.inject_from.every((k) => this.sessionKeys.includes(k));
  }

  private async storedCall(conv: ConversationRef, key: string): Promise<PendingCall | null> {
    const stored = (await this.session.get(conv, [key]))[key];
    const parsed = PendingCall.safeParse(stored);
    return parsed.success && this.policy.tools[parsed.data.tool] ? parsed.data : null;
  }

  /** Sensitive tools: ask the executor for a preview (nothing happens), store it, ask "sim ou não". */
  private async askConfirmation(
    req: GateRequest,
    conv: ConversationRef,
    name: string,
    contract: ToolContract,
    args: Record<string, unknown>,
    injected: Injection[],
  ): Promise<InvokeResponse> {
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
    try {
      return await this.run(req, conv, pending.tool, args, injected);
    } catch (e) {
      // An outage (503/504: the executor down, a step timed out) must not lose the confirmation: the
      // pending action comes back until it expires, so the next "sim" retries it. Only for tools with an
      // idempotency key, where a run that did happen behind the timeout is not repeated.
      if (idem) {
        const leftSeconds = Math.floor((new Date(pending.expires_at).getTime() - this.now().getTime()) / 1000);
        if (leftSeconds > 0) await this.session.set(conv, PENDING, pending, leftSeconds).catch(() => undefined);
      }
      throw e;
    }
  }

  private async run(req: GateRequest, conv: ConversationRef, name: string, args: Record<string, unknown>, injected: Injection[]): Promise<InvokeResponse> {
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
    const updates = out.session_updates.map((u) => this.session.set(conv, u.key, u.value, u.ttl_seconds ?? this.policy.session.keys[u.key]?.ttl_seconds ?? null));
    // What ran, so that "e a 1% ao mês?" can change one argument of it (only tools declared editable).
    const contract = this.policy.tools[name];
    if (contract?.editable) {
      const kept = Object.fromEntries(Object.entries(args).filter(([k]) => !injected.some((i) => i.arg === k)));
      updates.push(this.session.set(conv, LAST_CALL, { tool: name, args: kept, missing: [] }, sessionTtl(this.policy, LAST_CALL)));
    } else if (contract?.followed_by) {
      // After the briefing, "só logística" is a filter of it.
      updates.push(this.session.set(conv, LAST_CALL, { tool: contract.followed_by, args: {}, missing: [] }, sessionTtl(this.policy, LAST_CALL)));
    } else updates.push(this.session.set(conv, LAST_CALL, null, null));
    await Promise.all(updates);
    return { status: 'ok', tool: { name, args, injected, status: 'executed' }, result: out.result, message: null };
  }

  private runIds(req: GateRequest) {
    return { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
  }

  /** Tool-reported domain failures become an answer; outages propagate (the gateway maps them to 503/504). */
  private toolError(e: unknown, meta: ToolMeta): InvokeResponse {
    // An argument the tool refuses (a confidence of 150%) is rejected; a missing fact (no such position) failed.
    if (CotaError.is(e) && USER_FACING_CODES.has(e.code)) return this.error({ ...meta, status: e.code === 'BAD_REQUEST' ? 'rejected' : 'failed' }, e.message);
    throw e;
  }

  private error(meta: ToolMeta | null, message: string): InvokeResponse {
    return { status: 'error', tool: meta, result: null, message };
  }
}
