import type { LlmClient } from '@cota/llm';
import { countWords, Cycle, isComplete } from './memory';

/** Folds old cycles into text and compresses a summary that grew past its budget (seed 004). */
export interface Summarizer {
  readonly kind: 'llm' | 'extractive';
  summarizeCycles(cycles: Cycle[]): Promise<string>;
  compress(summary: string, targetWords: number): Promise<string>;
}

function firstWords(text: string, max: number): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  return words.length <= max ? words.join(' ') : words.slice(0, max).join(' ') + '…';
}

/** The first sentence (answers lead with the fact asked for), bounded in words. */
function leadSentence(text: string, maxWords: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = flat.match(/^.*?[.!?](\s|$)/);
  return firstWords(m ? m[0] : flat, maxWords);
}

function cycleFacts(c: Cycle): string {
  const meta = c.assistant?.meta ?? {};
  const facts: string[] = [];
  if (typeof meta.entity === 'string') facts.push(meta.entity);
  if (Array.isArray(meta.tickers) && meta.tickers.length) facts.push(meta.tickers.join(', '));
  return facts.length ? ` [${facts.join('; ')}]` : '';
}

/**
 * Deterministic extractive summary: one line per cycle with the question, the lead sentence of the
 * answer, and the entity/tickers it was about. Compression keeps the newest lines that fit.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly kind = 'extractive' as const;

  async summarizeCycles(cycles: Cycle[]): Promise<string> {
    return cycles
      .filter(isComplete)
      .map((c) => `Pergunta ${c.turnIndex}: ${firstWords(c.user.content, 30)} → Resposta: ${leadSentence(c.assistant.content, 40)}${cycleFacts(c)}`)
      .join('\n');
  }

  async compress(summary: string, targetWords: number): Promise<string> {
    const lines = summary.split('\n').filter((l) => l.trim());
    const kept: string[] = [];
    let words = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const w = countWords(lines[i]);
      if (words + w > targetWords) break;
      kept.unshift(lines[i]);
      words += w;
    }
    if (kept.length === 0 && lines.length) kept.push(firstWords(lines[lines.length - 1], targetWords));
    const dropped = lines.length - kept.length;
    return dropped > 0 ? [`(${dropped} ciclo(s) mais antigo(s) omitido(s) do resumo)`, ...kept].join('\n') : kept.join('\n');
  }
}

/**
 * Summaries by the configured model, within a timeout; any failure (timeout, HTTP error, empty or
 * overlong reply) falls back to the extractive summary so memory never blocks or breaks a turn.
 */
export class LlmSummarizer implements Summarizer {
  readonly kind = 'llm' as const;

  constructor(
    private readonly llm: LlmClient,
    private readonly fallback: Summarizer,
    private readonly timeoutMs: number,
    private readonly onFallback: (what: string, error: unknown) => void = () => undefined,
  ) {}

  async summarizeCycles(cycles: Cycle[]): Promise<string> {
    const done = cycles.filter(isComplete);
    if (done.length === 0) return '';
    const transcript = done.map((c) => `Pergunta ${c.turnIndex}: ${c.user.content}\nResposta: ${c.assistant.content}`).join('\n\n');
    const limit = 40 * done.length;
    return this.ask(
      'summarize',
      'Você resume conversas sobre fundos imobiliários. Escreva em português do Brasil, uma linha por pergunta, ' +
        'começando com "Pergunta N:". Preserve tickers, números e datas exatamente como aparecem; não acrescente nada que não esteja no texto.',
      `Resuma em no máximo ${limit} palavras:\n\n${transcript}`,
      limit * 2,
      () => this.fallback.summarizeCycles(cycles),
    );
  }

  async compress(summary: string, targetWords: number): Promise<string> {
    return this.ask(
      'compress',
      'Você compacta resumos de conversas sobre fundos imobiliários, em português do Brasil. Mantenha tickers, números e datas ' +
        'exatamente como estão, priorize o que é mais recente e não invente nada.',
      `Compacte para no máximo ${targetWords} palavras:\n\n${summary}`,
      targetWords,
      () => this.fallback.compress(summary, targetWords),
    );
  }

  /** One bounded model call; any failure (timeout, error, empty or overlong text) takes the fallback. */
  private async ask(what: string, system: string, user: string, maxWords: number, fallback: () => Promise<string>): Promise<string> {
    try {
      const text = await this.llm.complete(
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        { timeoutMs: this.timeoutMs, temperature: 0 },
      );
      return this.bounded(text, maxWords);
    } catch (e) {
      this.onFallback(what, e);
      return fallback();
    }
  }

  private bounded(text: string, maxWords: number): string {
    const t = text.trim();
    if (!t) throw new Error('empty summary');
    if (countWords(t) > maxWords) throw new Error(`summary of ${countWords(t)} words exceeds ${maxWords}`);
    return t;
  }
}
