import type { ChatMessage, CompleteOptions, LlmClient } from '@cota/llm';
import { LlmError } from '@cota/llm';
import { countWords, Cycle, cyclesToSummarise, fitChars, groupCycles } from './memory';
import { IndexedTurn } from './store';
import { ExtractiveSummarizer, LlmSummarizer } from './summarizer';

const at = (ms: number) => new Date(ms).toISOString();
const t = (turnIndex: number, role: 'user' | 'assistant', content: string, ms = 0, meta: Record<string, unknown> = {}): IndexedTurn => ({
  turnIndex,
  turn: { role, content, created_at: at(ms), meta },
});

const cycle = (i: number): Cycle => ({
  turnIndex: i,
  user: { role: 'user', content: `CNPJ do HGLG11 pergunta ${i}?`, created_at: at(0), meta: {} },
  assistant: {
    role: 'assistant',
    content: `O CNPJ do HGLG11 é 11.728.688/0001-47. Mais detalhes abaixo.`,
    created_at: at(0),
    meta: { entity: 'fiis_cadastro', tickers: ['HGLG11'] },
  },
});

class ScriptedLlm implements LlmClient {
  readonly model = 'fake';
  calls: ChatMessage[][] = [];
  constructor(private readonly reply: (m: ChatMessage[]) => Promise<string>) {}
  complete(messages: ChatMessage[], _opts: CompleteOptions): Promise<string> {
    this.calls.push(messages);
    return this.reply(messages);
  }
  async *stream(): AsyncIterable<string> {
    throw new Error('not used by summaries');
  }
}

describe('memory helpers', () => {
  it('groups interleaved turns of concurrent requests into cycles', () => {
    const cycles = groupCycles([t(1, 'user', 'a'), t(2, 'user', 'b'), t(2, 'assistant', 'B'), t(1, 'assistant', 'A')]);
    expect(cycles.map((c) => [c.turnIndex, c.user?.content, c.assistant?.content])).toEqual([
      [1, 'a', 'A'],
      [2, 'b', 'B'],
    ]);
  });

  it('selects old complete cycles, keeps the verbatim window, waits for a pending answer', () => {
    const turns = [1, 2, 3, 4, 5].flatMap((i) => [t(i, 'user', `q${i}`, 1000), t(i, 'assistant', `a${i}`, 1000)]);
    expect(cyclesToSummarise(turns, 0, 2, 2000, 60_000).map((c) => c.turnIndex)).toEqual([1, 2, 3]);
    expect(cyclesToSummarise(turns, 2, 2, 2000, 60_000).map((c) => c.turnIndex)).toEqual([3]);
    const pending = turns.filter((x) => !(x.turnIndex === 2 && x.turn.role === 'assistant'));
    expect(cyclesToSummarise(pending, 0, 2, 2000, 60_000).map((c) => c.turnIndex)).toEqual([1]);
    // Abandoned long ago (a failed request): skipped, folding continues.
    expect(cyclesToSummarise(pending, 0, 2, 120_000, 60_000).map((c) => c.turnIndex)).toEqual([1, 3]);
  });

  it('fits turns to a character budget dropping the oldest first', () => {
    const turns = ['aaaa', 'bbbb', 'cccc'].map((c) => ({ role: 'user' as const, content: c, created_at: at(0), meta: {} }));
    expect(fitChars(turns, 8).map((x) => x.content)).toEqual(['bbbb', 'cccc']);
    expect(fitChars(turns.slice(0, 1), 3)[0].content).toBe('aa…');
  });
});

describe('ExtractiveSummarizer', () => {
  const s = new ExtractiveSummarizer();

  it('writes one line per cycle with question, lead sentence and facts', async () => {
    const text = await s.summarizeCycles([cycle(1), cycle(2)]);
    expect(text.split('\n')).toEqual([
      'Pergunta 1: CNPJ do HGLG11 pergunta 1? → Resposta: O CNPJ do HGLG11 é 11.728.688/0001-47. [fiis_cadastro; HGLG11]',
      'Pergunta 2: CNPJ do HGLG11 pergunta 2? → Resposta: O CNPJ do HGLG11 é 11.728.688/0001-47. [fiis_cadastro; HGLG11]',
    ]);
  });

  it('compresses to the target keeping the newest lines', async () => {
    const text = await s.summarizeCycles(Array.from({ length: 30 }, (_, i) => cycle(i + 1)));
    const out = await s.compress(text, 60);
    expect(countWords(out)).toBeLessThanOrEqual(60 + 10);
    expect(out).toContain('Pergunta 30:');
    expect(out).not.toContain('Pergunta 1:');
    expect(out.split('\n')[0]).toMatch(/ciclo\(s\) mais antigo\(s\) omitido\(s\)/);
  });
});

describe('LlmSummarizer', () => {
  it('uses the model summary when it answers in budget', async () => {
    const llm = new ScriptedLlm(async () => 'Pergunta 1: CNPJ do HGLG11 (11.728.688/0001-47).');
    const s = new LlmSummarizer(llm, new ExtractiveSummarizer(), 1000);
    expect(await s.summarizeCycles([cycle(1)])).toBe('Pergunta 1: CNPJ do HGLG11 (11.728.688/0001-47).');
    expect(llm.calls[0][1].content).toContain('CNPJ do HGLG11 pergunta 1?');
  });

  it.each([
    ['a timeout', () => Promise.reject(new LlmError('timeout', 'the model did not answer in time'))],
    ['an empty reply', () => Promise.resolve('   ')],
    ['an overlong reply', () => Promise.resolve('palavra '.repeat(500))],
  ])('falls back to the extractive summary on %s', async (_, reply) => {
    const failures: string[] = [];
    const s = new LlmSummarizer(new ScriptedLlm(reply), new ExtractiveSummarizer(), 1000, (what) => failures.push(what));
    expect(await s.summarizeCycles([cycle(1)])).toBe(await new ExtractiveSummarizer().summarizeCycles([cycle(1)]));
    expect(failures).toEqual(['summarize']);
  });

  it('falls back to extractive compression when the model fails', async () => {
    const s = new LlmSummarizer(new ScriptedLlm(() => Promise.reject(new LlmError('http', 'HTTP 500'))), new ExtractiveSummarizer(), 1000);
    const long = await new ExtractiveSummarizer().summarizeCycles(Array.from({ length: 30 }, (_, i) => cycle(i + 1)));
    expect(await s.compress(long, 60)).toBe(await new ExtractiveSummarizer().compress(long, 60));
  });
});
