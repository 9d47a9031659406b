import type { Turn } from '@cota/contracts';
import { ContextStore, ConversationKey, HotLimits, UnknownTurnError } from '../store';

const limits: HotLimits = { keepTurns: 6, stateTtlSeconds: 60 };
const turn = (role: Turn['role'], content: string): Turn => ({ role, content, created_at: new Date().toISOString(), meta: { x: content } });
const ref = (ticker: string, turn_index: number) => ({ ticker, entity: 'fiis_precos', intent: 'fiis_precos', updated_at: new Date().toISOString(), turn_index });

/** The store under test, made once per suite, and a new conversation key per call. */
interface Harness {
  readonly store: ContextStore;
  key(): ConversationKey;
}

/**
 * The behaviour every ContextStore must have, run against the in-memory store (unit) and the
 * Redis store (integration), so embedded mode and production agree.
 */
export function describeContextStoreContract(name: string, make: () => Promise<ContextStore> | ContextStore, cleanup?: () => Promise<void>): void {
  describe(`ContextStore contract: ${name}`, () => {
    let store: ContextStore;
    let n = 0;
    beforeAll(async () => {
      store = await make();
    });
    afterAll(async () => {
      await cleanup?.();
    });
    const h: Harness = {
      get store() {
        return store;
      },
      key: () => ({ clientId: `client-${name}`, conversationId: `conv-${++n}` }),
    };
    openingCases(h);
    readingCases(h);
    summaryCases(h);
    isolationCases(h);
  });
}

/** Opening and numbering turns, seeds and the hot window. */
function openingCases(h: Harness): void {
  it('asks for a seed on a new conversation, then numbers turns from it', async () => {
    const k = h.key();
    expect(await h.store.openTurn(k, turn('user', 'q'), null, limits)).toBeNull();
    const first = await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 7 }, limits);
    expect(first).toMatchObject({ turnIndex: 8, previous: [], reference: null, summary: null });
    const second = await h.store.openTurn(k, turn('user', 'q2'), null, limits);
    expect(second!.turnIndex).toBe(9);
    expect(second!.previous.map((t) => [t.turnIndex, t.turn.role, t.turn.content, t.turn.meta])).toEqual([[8, 'user', 'q1', { x: 'q1' }]]);
  });

  it('starts a conversation it lost from the seed: its turns and its last reference', async () => {
    const k = h.key();
    const seed = {
      turnCount: 4,
      turns: [3, 4].flatMap((i) => [
        { turnIndex: i, turn: turn('user', `q${i}`) },
        { turnIndex: i, turn: turn('assistant', `a${i}`) },
      ]),
      reference: ref('HGLG11', 3),
    };
    const opened = await h.store.openTurn(k, turn('user', 'q5'), seed, limits);
    expect(opened).toMatchObject({ turnIndex: 5, reference: { ticker: 'HGLG11', turn_index: 3 } });
    expect(opened!.previous.map((t) => [t.turnIndex, t.turn.content])).toEqual([
      [3, 'q3'],
      [3, 'a3'],
      [4, 'q4'],
      [4, 'a4'],
    ]);
    // The seeded reference is the one a newer answer replaces, and an older one does not.
    await h.store.closeTurn(k, 2, turn('assistant', 'late'), ref('MXRF11', 2), limits);
    expect((await h.store.snapshot(k)).reference).toMatchObject({ ticker: 'HGLG11' });
    // Once the conversation has hot state, a seed changes nothing.
    expect((await h.store.openTurn(k, turn('user', 'q6'), { turnCount: 99, turns: [], reference: null }, limits))!.turnIndex).toBe(6);
  });

  it('after a clear, a seed brings back the numbering only', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    await h.store.closeTurn(k, 1, turn('assistant', 'a1'), ref('HGLG11', 1), limits);
    expect(await h.store.clear(k)).toBe(true);
    expect(await h.store.openTurn(k, turn('user', 'q2'), null, limits)).toBeNull();
    const seed = { turnCount: 1, turns: [{ turnIndex: 1, turn: turn('user', 'q1') }], reference: ref('HGLG11', 1) };
    expect(await h.store.openTurn(k, turn('user', 'q2'), seed, limits)).toMatchObject({ turnIndex: 2, previous: [], reference: null });
    await h.store.clear(k);
  });

  it('keeps only the last keepTurns turns', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q0'), { turnCount: 0 }, limits);
    for (let i = 1; i < 10; i++) await h.store.openTurn(k, turn('user', `q${i}`), null, limits);
    const snap = await h.store.snapshot(k);
    expect(snap.turnCount).toBe(10);
    expect(snap.turns.map((t) => t.turn.content)).toEqual(['q4', 'q5', 'q6', 'q7', 'q8', 'q9']);
  });
}

/** What the store reads back, and closing turns once and in order. */
function readingCases(h: Harness): void {
  it('reads only the newest turns when asked: a snapshot of the last n, an opened turn with previousTurns', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    for (let i = 2; i <= 5; i++) await h.store.openTurn(k, turn('user', `q${i}`), null, limits);
    expect((await h.store.snapshot(k, 2)).turns.map((t) => t.turn.content)).toEqual(['q4', 'q5']);
    expect((await h.store.snapshot(k, 2)).turnCount).toBe(5);
    expect((await h.store.snapshot(k, 50)).turns.map((t) => t.turn.content)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    const opened = await h.store.openTurn(k, turn('user', 'q6'), null, { ...limits, previousTurns: 3 });
    expect(opened!.previous.map((t) => [t.turnIndex, t.turn.content])).toEqual([
      [3, 'q3'],
      [4, 'q4'],
      [5, 'q5'],
    ]);
  });

  it('keeps what it stored when the caller changes its objects afterwards', async () => {
    const k = h.key();
    const q = turn('user', 'q1');
    await h.store.openTurn(k, q, { turnCount: 0 }, limits);
    q.content = 'changed';
    (q.meta as Record<string, unknown>).x = 'changed';
    const snap = await h.store.snapshot(k);
    expect(snap.turns.map((t) => [t.turn.content, t.turn.meta.x])).toEqual([['q1', 'q1']]);
  });

  it('closes a turn, refuses an unknown one, and never lets an older turn overwrite a newer reference', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    await h.store.openTurn(k, turn('user', 'q2'), null, limits);
    expect(await h.store.closeTurn(k, 2, turn('assistant', 'a2'), ref('MXRF11', 2), limits)).toEqual({ known: true, referenceUpdated: true, unsummarised: 2 });
    expect(await h.store.closeTurn(k, 1, turn('assistant', 'a1'), ref('HGLG11', 1), limits)).toEqual({ known: true, referenceUpdated: false, unsummarised: 2 });
    await expect(h.store.closeTurn(k, 3, turn('assistant', 'a3'), null, limits)).rejects.toBeInstanceOf(UnknownTurnError);
    const snap = await h.store.snapshot(k);
    expect(snap.reference).toMatchObject({ ticker: 'MXRF11', turn_index: 2 });
    expect(snap.turns.map((t) => [t.turnIndex, t.turn.role])).toEqual([
      [1, 'user'],
      [2, 'user'],
      [2, 'assistant'],
      [1, 'assistant'],
    ]);
    expect(await h.store.closeTurn(h.key(), 1, turn('assistant', 'x'), null, limits)).toEqual({ known: false, referenceUpdated: false, unsummarised: 0 });
  });

  it('closes a turn once when its commit is retried', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    expect(await h.store.closeTurn(k, 1, turn('assistant', 'a1'), ref('HGLG11', 1), limits)).toEqual({ known: true, referenceUpdated: true, unsummarised: 1 });
    expect(await h.store.closeTurn(k, 1, turn('assistant', 'a1'), ref('HGLG11', 1), limits)).toEqual({ known: true, referenceUpdated: false, unsummarised: 1 });
    const snap = await h.store.snapshot(k);
    expect(snap.turns.map((t) => [t.turnIndex, t.turn.role])).toEqual([
      [1, 'user'],
      [1, 'assistant'],
    ]);
  });
}

/** The summary compare-and-set and memory folding. */
function summaryCases(h: Harness): void {
  it('saves a summary only when nobody else moved it (compare-and-set)', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    expect(await h.store.saveSummary(k, 0, { text: 'Pergunta 1', through: 1 }, limits)).toBe(true);
    expect(await h.store.saveSummary(k, 0, { text: 'outra', through: 1 }, limits)).toBe(false);
    expect((await h.store.snapshot(k)).summary).toEqual({ text: 'Pergunta 1', through: 1 });
    const next = await h.store.openTurn(k, turn('user', 'q2'), null, limits);
    expect(next!.summary).toEqual({ text: 'Pergunta 1', through: 1 });
    // What the summary has not folded yet: turn 2 only.
    expect(await h.store.closeTurn(k, 2, turn('assistant', 'a2'), null, limits)).toMatchObject({ unsummarised: 1 });
  });

  it('hands back what memory folding reads when the answer makes folding due (foldAfter), and only then', async () => {
    const k = h.key();
    const folding = { ...limits, keepTurns: 20, foldAfter: 2 };
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, folding);
    await h.store.saveSummary(k, 0, { text: 'nada ainda', through: 0 }, folding);
    for (let i = 1; i <= 4; i++) {
      if (i > 1) await h.store.openTurn(k, turn('user', `q${i}`), null, folding);
      const closed = await h.store.closeTurn(k, i, turn('assistant', `a${i}`), ref('HGLG11', i), folding);
      expect(closed.unsummarised).toBe(i);
      if (i <= 2) {
        expect(closed.forFolding).toBeUndefined();
        continue;
      }
      // The newest foldingTurns(i) = 2i + 2 turns (all of them here), this answer included, and the summary.
      expect(closed.forFolding).toEqual({
        turnCount: i,
        reference: expect.objectContaining({ ticker: 'HGLG11', turn_index: i }),
        turns: (await h.store.snapshot(k)).turns,
        summary: { text: 'nada ainda', through: 0 },
      });
      expect(closed.forFolding!.turns.at(-1)).toMatchObject({ turnIndex: i, turn: { role: 'assistant', content: `a${i}` } });
    }
    // Without foldAfter nothing is handed back.
    await h.store.openTurn(k, turn('user', 'q5'), null, folding);
    expect((await h.store.closeTurn(k, 5, turn('assistant', 'a5'), null, limits)).forFolding).toBeUndefined();
    // The newest turns only, when there are more than the window.
    await h.store.saveSummary(k, 0, { text: 'até 3', through: 3 }, folding);
    for (let i = 6; i <= 7; i++) {
      await h.store.openTurn(k, turn('user', `q${i}`), null, folding);
      await h.store.closeTurn(k, i, turn('assistant', `a${i}`), null, { ...folding, foldAfter: 99 });
    }
    await h.store.openTurn(k, turn('user', 'q8'), null, folding);
    const late = await h.store.closeTurn(k, 8, turn('assistant', 'a8'), null, folding);
    expect(late.unsummarised).toBe(5);
    expect(late.forFolding!.turns.map((t) => t.turn.content)).toEqual(['q3', 'a3', 'q4', 'a4', 'q5', 'a5', 'q6', 'a6', 'q7', 'a7', 'q8', 'a8']);
  });
}

/** Ids that look alike, clearing, erasing a client, expiry. */
function isolationCases(h: Harness): void {
  it('does not mix ids that look alike when joined', async () => {
    const a = { clientId: 'a:b', conversationId: 'c' };
    const b = { clientId: 'a', conversationId: 'b:c' };
    await h.store.openTurn(a, turn('user', 'from a'), { turnCount: 0 }, limits);
    expect(await h.store.openTurn(b, turn('user', 'from b'), null, limits)).toBeNull();
    expect((await h.store.snapshot(b)).turns).toEqual([]);
    await h.store.clear(a);
  });

  it('clears hot state and session values', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
    await h.store.sessionSet(k, 'active_report_id', 'rel_1', 60, Date.now());
    expect(await h.store.clear(k)).toBe(true);
    expect(await h.store.snapshot(k)).toEqual({ turnCount: 0, reference: null, turns: [], summary: null });
    expect(await h.store.sessionGet(k, undefined, Date.now())).toEqual({});
    expect(await h.store.clear(k)).toBe(false);
  });

  it('erases every conversation of one client, and nothing of a client whose id merely extends it', async () => {
    const mine = [
      { clientId: 'erase-me', conversationId: 'c1' },
      { clientId: 'erase-me', conversationId: 'c2:x' },
      { clientId: 'erase-me', conversationId: '*' },
    ];
    const others = [
      { clientId: 'erase-me:2', conversationId: 'c1' },
      { clientId: 'erase-mex', conversationId: 'c1' },
      { clientId: 'erase*', conversationId: 'c1' },
    ];
    for (const k of [...mine, ...others]) {
      await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, limits);
      await h.store.sessionSet(k, 'active_report_id', 'rel_1', 60, Date.now());
    }
    const erased = await h.store.eraseClient('erase-me');
    expect(erased).toBeGreaterThanOrEqual(mine.length);
    for (const k of mine) {
      expect(await h.store.snapshot(k)).toEqual({ turnCount: 0, reference: null, turns: [], summary: null });
      expect(await h.store.sessionGet(k, undefined, Date.now())).toEqual({});
    }
    for (const k of others) {
      expect((await h.store.snapshot(k)).turnCount).toBe(1);
      expect(await h.store.sessionGet(k, undefined, Date.now())).toEqual({ active_report_id: 'rel_1' });
    }
    expect(await h.store.eraseClient('erase-me')).toBe(0);
    expect(await h.store.eraseClient('erase*')).toBeGreaterThan(0);
    expect((await h.store.snapshot(others[0])).turnCount).toBe(1);
    for (const k of others) await h.store.clear(k);
  });

  it('session values expire on their own TTL and can be filtered and deleted', async () => {
    const k = h.key();
    const now = Date.now();
    await h.store.sessionSet(k, 'pending_action', { tool: 'x', args: [1, 'dois'] }, 1, now);
    await h.store.sessionSet(k, 'active_report_id', 'rel_1', 60, now);
    expect(await h.store.sessionGet(k, undefined, now)).toEqual({ pending_action: { tool: 'x', args: [1, 'dois'] }, active_report_id: 'rel_1' });
    expect(await h.store.sessionGet(k, ['active_report_id', 'missing'], now)).toEqual({ active_report_id: 'rel_1' });
    expect(await h.store.sessionGet(k, undefined, now + 1500)).toEqual({ active_report_id: 'rel_1' });
    await h.store.sessionSet(k, 'active_report_id', null, 60, now + 1500);
    expect(await h.store.sessionGet(k, undefined, now + 1500)).toEqual({});
  });

  it('forgets an idle conversation after stateTtlSeconds', async () => {
    const k = h.key();
    await h.store.openTurn(k, turn('user', 'q1'), { turnCount: 0 }, { keepTurns: 6, stateTtlSeconds: 1 });
    expect((await h.store.snapshot(k)).turnCount).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await h.store.snapshot(k)).turnCount).toBe(0);
    expect(await h.store.openTurn(k, turn('user', 'q2'), null, limits)).toBeNull();
  });
}
