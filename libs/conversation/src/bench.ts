import { ContextManager } from './context-manager';
import { ExtractiveSummarizer } from './summarizer';
import { InMemoryContextStore, InMemoryHistoryStore } from './in-memory-store';
import { SAMPLE_OUTCOME, SAMPLE_READING } from '@cota/contracts';
import { loadContextPolicy, resolveLastReference } from '@cota/dialogue';
import { buildNarratorMemory } from './memory';
import type { IndexedTurn } from './store';

export interface Benchmark {
  name: string;
  /** One iteration; the bench runner loops and times it. */
  run: () => unknown | Promise<unknown>;
}

/**
 * Benchmarks of the context library (run by cli/bench.ts). Targets: inheritance decision well under
 * 10 µs; an open + commit cycle over the in-memory store under 0.5 ms.
 */
export function conversationBenchmarks(): Benchmark[] {
  const policy = loadContextPolicy();
  const reference = { ticker: 'HGLG11', entity: 'fiis_cadastro', intent: 'fiis_cadastro', updated_at: new Date().toISOString(), turn_index: 1 };
  const manager = new ContextManager({
    policy,
    store: new InMemoryContextStore(),
    history: new InMemoryHistoryStore(),
    summarizer: new ExtractiveSummarizer(),
  });
  let n = 0;
  const now = Date.now();
  const turns: IndexedTurn[] = Array.from({ length: 40 }, (_, i) => ({
    turnIndex: Math.floor(i / 2) + 1,
    turn: { role: i % 2 ? 'assistant' : 'user', content: `Texto do turno ${i} sobre HGLG11 com alguns números 1,23%.`, created_at: new Date(now).toISOString(), meta: {} },
  }));
  return [
    {
      name: 'conversation.resolveLastReference',
      run: () => resolveLastReference({ policy, entity: 'fiis_financials_risk', tickersInText: [], tickerSources: ['text', 'context'], reference, currentTurn: 2 }),
    },
    {
      name: 'conversation.buildNarratorMemory(40 turns)',
      run: () => buildNarratorMemory(turns, { text: 'Pergunta 1: CNPJ do HGLG11?', through: 1 }, policy, now),
    },
    {
      name: 'conversation.ContextManager.open+commit(in-memory)',
      run: async () => {
        const caller = { request_id: `bench-${n}`, client_id: 'bench', conversation_id: `conv-${n++ % 100}` };
        const opened = await manager.open({ ...caller, question: 'Qual o CNPJ do HGLG11?' });
        await manager.commit({ ...caller, turn_index: opened.state.turn_index, answer: 'O CNPJ é 11.728.688/0001-47.', reading: SAMPLE_READING, outcome: SAMPLE_OUTCOME });
      },
    },
  ];
}
