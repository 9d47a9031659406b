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

  it('erases one client and deletes turns older than a cutoff, at most `limit` at a time', async () => {
    const h = new InMemoryHistoryStore();
    const t = (content: string, at: string) => ({ role: 'user' as const, content, created_at: at, meta: {} });
    await h.append({ clientId: 'a', conversationId: 'x' }, 1, t('old a', '2025-01-01T00:00:00.000Z'));
    await h.append({ clientId: 'a', conversationId: 'y' }, 1, t('new a', '2026-01-01T00:00:00.000Z'));
    await h.append({ clientId: 'b', conversationId: 'x' }, 1, t('old b', '2025-01-01T00:00:00.000Z'));
    await h.append({ clientId: 'b', conversationId: 'x' }, 2, t('older b', '2024-01-01T00:00:00.000Z'));
    const cutoff = new Date('2025-06-01T00:00:00.000Z');
    expect(await h.deleteOlderThan(cutoff, 2)).toBe(2);
    expect(await h.deleteOlderThan(cutoff, 2)).toBe(1);
    expect(await h.deleteOlderThan(cutoff, 2)).toBe(0);
    expect((await h.list({ clientId: 'a', conversationId: 'y' }, 10)).map((x) => x.content)).toEqual(['new a']);
    expect(await h.eraseClient('a')).toBe(1);
    expect(await h.eraseClient('a')).toBe(0);
    expect(await h.list({ clientId: 'a', conversationId: 'y' }, 10)).toEqual([]);
  });
});
