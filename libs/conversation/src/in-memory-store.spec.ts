import { InMemoryContextStore, InMemoryHistoryStore } from './in-memory-store';
import { describeContextStoreContract } from './testing/store-contract';

describeContextStoreContract('in-memory', () => new InMemoryContextStore());

describe('InMemoryHistoryStore', () => {
  it('lists the last turns in turn order and reports the last index', async () => {
    const h = new InMemoryHistoryStore();
    const k = { clientId: 'c', conversationId: 'x' };
    const t = (role: 'user' | 'assistant', content: string) => ({ role, content, created_at: '2026-01-01T00:00:00.000Z', meta: {} });
    await h.append(k, 1, t('user', 'q1'));
    await h.append(k, 2, t('user', 'q2'));
    await h.append(k, 1, t('assistant', 'a1'));
    expect((await h.list(k, 10)).map((x) => x.content)).toEqual(['q1', 'a1', 'q2']);
    expect((await h.list(k, 2)).map((x) => x.content)).toEqual(['a1', 'q2']);
    expect(await h.lastTurnIndex(k)).toBe(2);
    expect(await h.lastTurnIndex({ clientId: 'c', conversationId: 'y' })).toBe(0);
  });
});
