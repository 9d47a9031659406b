import OpenAI from 'openai';
import { CotaEnv } from '@cota/config';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteOptions {
  timeoutMs: number;
  /** Ask for a JSON object answer (structured output). */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  /** Aborts the request (callers enforcing a hard deadline of their own). */
  signal?: AbortSignal;
}

/** The one way Cota talks to a model: any OpenAI-compatible endpoint through the `openai` SDK. */
export interface LlmClient {
  readonly model: string;
  complete(messages: ChatMessage[], opts: CompleteOptions): Promise<string>;
  /** Streams text deltas; the caller owns guarding the final text. */
  stream(messages: ChatMessage[], opts: CompleteOptions): AsyncIterable<string>;
}

export class LlmError extends Error {
  constructor(
    readonly kind: 'timeout' | 'http' | 'empty' | 'network',
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

class OpenAiCompatibleClient implements LlmClient {
  private readonly sdk: OpenAI;

  constructor(
    apiKey: string,
    baseURL: string | null,
    readonly model: string,
    /** Told the tokens each answer used, as the model API reports them (metrics). */
    private readonly onUsage: UsageListener | null = null,
  ) {
    this.sdk = new OpenAI({ apiKey, baseURL: baseURL ?? undefined, maxRetries: 0 });
  }

  async complete(messages: ChatMessage[], opts: CompleteOptions): Promise<string> {
    try {
      const res = await this.sdk.chat.completions.create(
        {
          model: this.model,
          messages,
          temperature: opts.temperature ?? 0,
          max_tokens: opts.maxTokens,
          response_format: opts.json ? { type: 'json_object' } : undefined,
        },
        { timeout: opts.timeoutMs, maxRetries: 0, signal: opts.signal },
      );
      if (res.usage && this.onUsage) this.onUsage({ prompt: res.usage.prompt_tokens ?? 0, completion: res.usage.completion_tokens ?? 0 });
      const text = res.choices?.[0]?.message?.content;
      if (!text) throw new LlmError('empty', 'the model returned no text');
      return text;
    } catch (e) {
      throw toLlmError(e);
    }
  }

  async *stream(messages: ChatMessage[], opts: CompleteOptions): AsyncIterable<string> {
    try {
      const stream = await this.sdk.chat.completions.create(
        { model: this.model, messages, temperature: opts.temperature ?? 0, max_tokens: opts.maxTokens, stream: true },
        { timeout: opts.timeoutMs, maxRetries: 0, signal: opts.signal },
      );
      for await (const chunk of stream) {
        if (chunk.usage && this.onUsage) this.onUsage({ prompt: chunk.usage.prompt_tokens ?? 0, completion: chunk.usage.completion_tokens ?? 0 });
        const delta = chunk.choices?.[0]?.delta?.content;
        if (delta) yield delta;
      }
    } catch (e) {
      throw toLlmError(e);
    }
  }
}

function toLlmError(e: unknown): LlmError {
  if (e instanceof LlmError) return e;
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', 'the model did not answer in time');
  if (e instanceof OpenAI.APIUserAbortError) return new LlmError('timeout', 'the request was aborted by its deadline');
  if (e instanceof OpenAI.APIError && e.status) return new LlmError('http', `the model endpoint answered HTTP ${e.status}`);
  if (e instanceof OpenAI.APIConnectionError) return new LlmError('network', 'the model endpoint is not reachable');
  return new LlmError('network', (e as Error)?.message ?? String(e));
}

/** A client when OPENAI_API_KEY (or OPENAI_BASE_URL for keyless local servers) is configured, else null. */
export function createLlmClient(openai: CotaEnv['openai'], onUsage: UsageListener | null = null): LlmClient | null {
  if (!openai.apiKey && !openai.baseUrl) return null;
  return new OpenAiCompatibleClient(openai.apiKey ?? 'not-needed', openai.baseUrl, openai.model ?? 'gpt-4o-mini', onUsage);
}

/** Tokens of one model answer. */
export type UsageListener = (usage: { prompt: number; completion: number }) => void;
