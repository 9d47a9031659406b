import type { NarrateRequest, NarratorMeta } from '@cota/contracts';
import { ChatMessage, LlmClient, LlmError } from '@cota/llm';
import { AllowedFacts, collectAllowedFacts, guardLlmText } from './guard';
import type { NarratorPolicy } from './policy';
import { relevantChunks } from './render-messages';
import type { DeterministicAnswer } from './deterministic-narrator';

/**
 * The optional model narrator: rephrases the deterministic answer with the rows, recent history
 * and knowledge chunks at hand. Its text is used only when it arrives within the policy's time
 * limit, reads as prose, fits the length limit and passes the guard; otherwise the deterministic
 * answer stands and `meta.narrator.reason` says why.
 */

export interface NarrationOutcome {
  answer: string;
  meta: NarratorMeta;
}

export interface LlmNarrationInput {
  request: NarrateRequest;
  deterministic: DeterministicAnswer;
}

const SOURCE_LINE_RE = /^\s*\**fonte\**\s*:/i;

export class LlmNarrator {
  constructor(
    private readonly client: LlmClient,
    private readonly policy: NarratorPolicy,
  ) {}

  get model(): string {
    return this.client.model;
  }

  /** One request to the model, bounded by `llm.timeout_ms` however the endpoint behaves. */
  async rephrase(input: LlmNarrationInput): Promise<NarrationOutcome> {
    const started = performance.now();
    const controller = new AbortController();
    const timeoutMs = this.policy.llm.timeout_ms;
    let timer: NodeJS.Timeout | undefined;
    try {
      const call = this.client.complete(this.buildMessages(input), {
        timeoutMs,
        temperature: this.policy.llm.temperature,
        maxTokens: Math.ceil(this.policy.llm.max_chars / 2),
        signal: controller.signal,
      });
      call.catch(() => undefined); // settled by the race below; never an unhandled rejection
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new LlmError('timeout', `no answer in ${timeoutMs} ms`));
        }, timeoutMs);
      });
      const text = await Promise.race([call, deadline]);
      return this.judge(text, input, started);
    } catch (e) {
      return this.fallback(input, started, e instanceof LlmError && e.kind === 'timeout' ? 'llm_timeout' : 'llm_error');
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Streaming variant for the chat page. The model's text is released one complete sentence at a
   * time, and only after that sentence passes the guard, so an invented number never reaches the
   * page. The first rejected sentence stops the stream; the returned answer is then the
   * deterministic one, and the page replaces what it showed with it.
   */
  async rephraseStream(input: LlmNarrationInput, onDelta: (delta: string) => void): Promise<NarrationOutcome> {
    const started = performance.now();
    const controller = new AbortController();
    const timeoutMs = this.policy.llm.timeout_ms;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const allowed = this.allowedFacts(input);
    let text = '';
    let released = 0;
    let rejected: string | null = null;
    const release = (final: boolean) => {
      const pending = text.slice(released);
      const cut = final ? pending.length : lastSentenceEnd(pending);
      if (cut <= 0 || !pending.slice(0, cut).trim()) return;
      const piece = pending.slice(0, cut);
      const verdict = guardLlmText(piece, allowed);
      if (!verdict.ok) {
        rejected = verdict.token;
        return;
      }
      released += cut;
      onDelta(piece);
    };
    try {
      for await (const delta of this.client.stream(this.buildMessages(input), {
        timeoutMs,
        temperature: this.policy.llm.temperature,
        maxTokens: Math.ceil(this.policy.llm.max_chars / 2),
        signal: controller.signal,
      })) {
        if (controller.signal.aborted) throw new LlmError('timeout', `no answer in ${timeoutMs} ms`);
        text += delta;
        if (text.length > this.policy.llm.max_chars * 2) return this.fallback(input, started, 'llm_too_long');
        release(false);
        if (rejected) return this.fallback(input, started, `guard_rejected:${rejected}`);
      }
      if (controller.signal.aborted) throw new LlmError('timeout', `no answer in ${timeoutMs} ms`);
      release(true);
      if (rejected) return this.fallback(input, started, `guard_rejected:${rejected}`);
      return this.judge(text, input, started);
    } catch (e) {
      return this.fallback(input, started, e instanceof LlmError && e.kind === 'timeout' ? 'llm_timeout' : 'llm_error');
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  /** What the model's text must be backed by. */
  allowedFacts(input: LlmNarrationInput): AllowedFacts {
    const req = input.request;
    // The question is not a source of facts: a number the person wrote may be wrong.
    const texts = [input.deterministic.answer];
    if (req.kind === 'concept') texts.push(...relevantChunks(req.rag, this.policy.concept).map((c) => c.text));
    if (req.tool?.result !== undefined && req.tool?.result !== null) texts.push(JSON.stringify(req.tool.result));
    if (req.tool?.message) texts.push(req.tool.message);
    const numbers: number[] = [];
    if (req.data) {
      numbers.push(req.data.rows.length, req.data.row_count);
      const n = /^(rows|months|days):(\d+)$/.exec(req.data.params.window ?? '');
      if (n) numbers.push(Number(n[2]));
      if (req.data.params.limit) numbers.push(req.data.params.limit);
    }
    if (req.measure) {
      for (const v of req.measure.values) {
        for (const n of [v.value, v.start?.value, v.end?.value, v.count, ...v.extra.map((e) => e.value), ...v.rows.map((r) => r.value)]) if (typeof n === 'number') numbers.push(n);
      }
    }
    return collectAllowedFacts({ rows: req.data?.rows ?? [], columns: req.data?.columns ?? [], texts, numbers });
  }

  /** Checks the model's text; the deterministic answer stands unless every check passes. */
  judge(raw: string, input: LlmNarrationInput, started: number): NarrationOutcome {
    const text = cleanModelText(raw);
    if (!looksLikeProse(text)) return this.fallback(input, started, 'llm_garbage');
    if (text.length > this.policy.llm.max_chars) return this.fallback(input, started, 'llm_too_long');
    const verdict = guardLlmText(text, this.allowedFacts(input));
    if (!verdict.ok) return this.fallback(input, started, `guard_rejected:${verdict.token}`);
    const source = input.deterministic.sourceLine;
    return {
      answer: source ? `${text}\n\n${source}` : text,
      meta: { llm_used: true, reason: 'llm_ok', model: this.client.model, latency_ms: elapsed(started) },
    };
  }

  private fallback(input: LlmNarrationInput, started: number, reason: string): NarrationOutcome {
    return {
      answer: input.deterministic.answer,
      meta: { llm_used: false, reason, model: this.client.model, latency_ms: elapsed(started) },
    };
  }

  buildMessages(input: LlmNarrationInput): ChatMessage[] {
    const req = input.request;
    const { llm } = this.policy;
    const parts: string[] = [];
    parts.push(`Pergunta do cliente: ${req.question}`);
    parts.push(
      input.deterministic.nicknameUsed
        ? `Apelido do cliente: ${req.nickname.trim()} (chame o cliente pelo apelido uma vez, no começo).`
        : 'Não use o apelido do cliente nesta resposta.',
    );
    const recent = req.memory.recent.slice(-llm.max_history_turns);
    if (recent.length) {
      parts.push(`Conversa recente:\n${recent.map((t) => `- ${t.role === 'user' ? 'cliente' : 'Cota'}: ${t.content.slice(0, 400)}`).join('\n')}`);
    }
    if (req.memory.summary) parts.push(`Resumo da conversa: ${req.memory.summary}`);
    parts.push(`Resposta correta, que você deve reescrever sem mudar nenhum número, data ou código:\n<<<\n${input.deterministic.body}\n>>>`);
    if (req.data && req.data.rows.length) {
      const rows = req.data.rows.slice(0, llm.max_rows_in_prompt);
      parts.push(
        `Dados da consulta (${rows.length} de ${req.data.rows.length} linhas; colunas: ${req.data.columns.map((c) => `${c.name} = ${c.label}`).join('; ')}):\n${JSON.stringify(rows)}`,
      );
    }
    const chunks = relevantChunks(req.rag, this.policy.concept).slice(0, llm.max_rag_chunks);
    if (chunks.length) parts.push(`Trechos da base de conhecimento:\n${chunks.map((c) => `- ${c.text.slice(0, 1200)}`).join('\n')}`);
    parts.push(`Escreva no máximo ${llm.max_chars} caracteres. Não inclua a linha de fonte: ela é acrescentada depois.`);
    return [
      { role: 'system', content: this.policy.style.system_prompt },
      { role: 'user', content: parts.join('\n\n') },
    ];
  }
}

/** Removes wrappers models like to add (code fences, quotes) and any source line of their own. */
export function cleanModelText(raw: string): string {
  let text = raw.trim();
  const fence = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  if (fence) text = fence[1].trim();
  if (/^".*"$/s.test(text)) text = text.slice(1, -1).trim();
  return text
    .split('\n')
    .filter((l) => !SOURCE_LINE_RE.test(l))
    .join('\n')
    .trim();
}

/** Prose has words; JSON, HTML or a bare error dump does not read as an answer. */
export function looksLikeProse(text: string): boolean {
  if (text.length < 2) return false;
  if (/^[[{<]/.test(text)) return false;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return letters / text.length > 0.2 && /\p{L}{2,}/u.test(text);
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/**
 * Length of the longest prefix of `text` made of complete sentences: up to the last `.`, `!`, `?`
 * or `:` followed by white space, or the last line break. Decimal points ("1.234,56") never end a
 * sentence because no space follows them.
 */
export function lastSentenceEnd(text: string): number {
  let end = 0;
  const re = /[.!?:](?=\s)|\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + 1;
  return end;
}
