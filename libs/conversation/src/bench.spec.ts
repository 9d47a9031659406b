import { conversationBenchmarks } from './bench';

describe('conversationBenchmarks', () => {
  it('exposes named benchmarks whose iterations run', async () => {
    const benches = conversationBenchmarks();
    expect(benches.map((b) => b.name)).toEqual([
      'conversation.resolveLastReference',
      'conversation.buildNarratorMemory(40 turns)',
      'conversation.ContextManager.open+commit(in-memory)',
    ]);
    expect(await benches[0].run()).toMatchObject({ ticker: 'HGLG11', context: { last_reference_used: true } });
    expect(await benches[1].run()).toMatchObject({ summary: 'Pergunta 1: CNPJ do HGLG11?' });
    for (let i = 0; i < 3; i++) await benches[2].run();
  });
});
