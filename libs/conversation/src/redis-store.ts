import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { LastReference, Turn } from '@cota/contracts';
import { ClosedTurn, ContextSnapshot, ContextStore, ConversationKey, FOLDING_WINDOW, HotLimits, HotSeed, IndexedTurn, MemorySummary, OpenedTurn, UnknownTurnError } from './store';

/** A Lua script run by SHA, loaded on first use (NOSCRIPT) so no client-side registration is needed. */
class LuaScript {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
  async run(redis: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (e) {
      if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

// Each script touches one conversation's keys only (same hash tag), so it is atomic across replicas
// and valid on Redis Cluster. Turns are stored as {"i":<turn index>,"t":<turn>}.

/**
 * KEYS: meta, turns. ARGV: turn json, seed turn count ('' = none), keep, ttl ms, previous turns to
 * return (0 = all), seed reference json ('' = none), its turn index, then the seed's turns (encoded).
 * A conversation marked cleared takes the seed's numbering only.
 */
const OPEN = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], 'turns') == 0 then
  if ARGV[2] == '' then return false end
  local cleared = redis.call('HEXISTS', KEYS[1], 'cleared') == 1
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('HSET', KEYS[1], 'turns', ARGV[2])
  if not cleared then
    if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'ref', ARGV[6], 'ref_turn', ARGV[7]) end
    for i = 8, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  end
end
local want = tonumber(ARGV[5])
local prev = redis.call('LRANGE', KEYS[2], want > 0 and -want or 0, -1)
local idx = redis.call('HINCRBY', KEYS[1], 'turns', 1)
redis.call('RPUSH', KEYS[2], '{"i":' .. idx .. ',"t":' .. ARGV[1] .. '}')
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
local st = redis.call('HMGET', KEYS[1], 'ref', 'summary', 'summary_through')
return {idx, prev, st[1] or '', st[2] or '', st[3] or ''}
`);

/**
 * KEYS: meta, turns, session. Drops the hot state and session values, leaving a `cleared` mark for
 * as long as the hot state had left to live. Returns 1 when there was something.
 */
const CLEAR = new LuaScript(`
local had = redis.call('HEXISTS', KEYS[1], 'turns') + redis.call('EXISTS', KEYS[3])
local ttl = redis.call('PTTL', KEYS[1])
local live = redis.call('HEXISTS', KEYS[1], 'turns') == 1 or redis.call('HEXISTS', KEYS[1], 'cleared') == 1
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if live and ttl > 0 then
  redis.call('HSET', KEYS[1], 'cleared', 1)
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return had > 0 and 1 or 0
`);

/**
 * KEYS: meta, turns. ARGV: turn index, turn json, reference json ('' = none), keep, ttl ms, fold after
 * ('' = never hand back), turns per question and slack of the folding window.
 */
const CLOSE = new LuaScript(`
local count = redis.call('HGET', KEYS[1], 'turns')
if not count then return {0, 0, 0, 0} end
count = tonumber(count)
local unsummarised = count - tonumber(redis.call('HGET', KEYS[1], 'summary_through') or '0')
local idx = tonumber(ARGV[1])
if idx > count then return {-1, 0, count, 0} end
-- A retried commit (its first reply was lost) closes the turn once: the answer is kept once.
local entry = '{"i":' .. idx .. ',"t":' .. ARGV[2] .. '}'
local prefix = '{"i":' .. idx .. ',"t":{"role":"assistant"'
for _, kept in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  if string.sub(kept, 1, #prefix) == prefix then return {1, 0, count, unsummarised} end
end
redis.call('RPUSH', KEYS[2], entry)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[4]), -1)
local updated = 0
if ARGV[3] ~= '' then
  local cur = redis.call('HGET', KEYS[1], 'ref_turn')
  if (not cur) or tonumber(cur) <= idx then
    redis.call('HSET', KEYS[1], 'ref', ARGV[3], 'ref_turn', idx)
    updated = 1
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if ARGV[6] == '' or unsummarised <= tonumber(ARGV[6]) then return {1, updated, count, unsummarised} end
-- Folding is due: what it reads, so the caller needs no second round trip (foldingTurns in store.ts).
local st = redis.call('HMGET', KEYS[1], 'ref', 'summary', 'summary_through')
local want = tonumber(ARGV[7]) * unsummarised + tonumber(ARGV[8])
return {1, updated, count, unsummarised, st[1] or '', st[2] or '', st[3] or '', redis.call('LRANGE', KEYS[2], -want, -1)}
`);

/**
 * KEYS: meta, turns. ARGV: newest turns to return (0 = all). One command rather than MULTI/EXEC, so
 * ioredis auto-pipelining sends it in the same write as the session read beside it.
 */
const SNAPSHOT = new LuaScript(`
local st = redis.call('HMGET', KEYS[1], 'turns', 'ref', 'summary', 'summary_through')
if not st[1] then return {'', '', '', '', {}} end
local want = tonumber(ARGV[1])
return {st[1], st[2] or '', st[3] or '', st[4] or '', redis.call('LRANGE', KEYS[2], want > 0 and -want or 0, -1)}
`);

/** KEYS: meta. ARGV: expected through, text, through. */
const SAVE_SUMMARY = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], 'turns') == 0 then return 0 end
local cur = tonumber(redis.call('HGET', KEYS[1], 'summary_through') or '0')
if cur ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'summary', ARGV[2], 'summary_through', ARGV[3])
return 1
`);

/** KEYS: session. ARGV: name, payload ('' = delete), now ms. Prunes expired values; the key lives as long as its longest value. */
const SESSION_SET = new LuaScript(`
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
local now = tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
local maxExp = 0
for i = 1, #all, 2 do
  local ok, d = pcall(cjson.decode, all[i + 1])
  local e = 0
  if ok and type(d) == 'table' and tonumber(d.e) then e = tonumber(d.e) end
  if e <= now then redis.call('HDEL', KEYS[1], all[i]) elseif e > maxExp then maxExp = e end
end
if maxExp > 0 then redis.call('PEXPIREAT', KEYS[1], string.format('%d', maxExp)) end
return 1
`);

export interface RedisContextStoreOptions {
  /** Key namespace; default `cota:ctx:`. */
  prefix?: string;
}

const encodeTurn = ({ turnIndex, turn }: IndexedTurn): string => `{"i":${turnIndex},"t":${JSON.stringify(turn)}}`;

function decodeTurns(raw: string[]): IndexedTurn[] {
  return raw.map((s) => {
    const { i, t } = JSON.parse(s) as { i: number; t: Turn };
    return { turnIndex: i, turn: t };
  });
}

/** A literal for a Redis MATCH pattern (glob): escapes *, ?, [, ] and backslash. */
export const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

const decodeRef = (raw: string | null | undefined): LastReference | null => (raw ? (JSON.parse(raw) as LastReference) : null);
const decodeSummary = (text: string | null | undefined, through: string | null | undefined): MemorySummary | null => (text ? { text, through: Number(through ?? 0) } : null);

/**
 * Hot conversation state on Redis, shared by every replica: turn counter, recent turns, last
 * reference and summary in one hash + one list per conversation, session values in another hash.
 * Every update is one Lua script, so concurrent requests never interleave halfway.
 */
export class RedisContextStore implements ContextStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    opts: RedisContextStoreOptions = {},
  ) {
    this.prefix = opts.prefix ?? 'cota:ctx:';
  }

  /** Waits until the connection is ready (commands fail fast while it is not). */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        reject(new Error(`Redis not ready after ${timeoutMs} ms (status ${this.redis.status})`));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once('ready', onReady);
    });
  }

  /** Keys of one conversation; the hash tag keeps them in one cluster slot, ids are escaped so no two pairs collide. */
  keys(key: ConversationKey): { meta: string; turns: string; session: string } {
    const tag = `{${encodeURIComponent(key.clientId)}:${encodeURIComponent(key.conversationId)}}`;
    return { meta: `${this.prefix}${tag}:meta`, turns: `${this.prefix}${tag}:turns`, session: `${this.prefix}${tag}:session` };
  }

  async openTurn(key: ConversationKey, turn: Turn, seed: HotSeed | null, limits: HotLimits): Promise<OpenedTurn | null> {
    const k = this.keys(key);
    const seedRef = seed?.reference ?? null;
    const res = (await OPEN.run(
      this.redis,
      [k.meta, k.turns],
      [
        JSON.stringify(turn),
        seed === null ? '' : String(seed.turnCount),
        limits.keepTurns,
        limits.stateTtlSeconds * 1000,
        limits.previousTurns ?? 0,
        seedRef ? JSON.stringify(seedRef) : '',
        seedRef ? seedRef.turn_index : 0,
        ...(seed?.turns ?? []).slice(-limits.keepTurns).map(encodeTurn),
      ],
    )) as [number, string[], string, string, string] | null;
    if (!res) return null;
    const [idx, prev, ref, summary, through] = res;
    return { turnIndex: Number(idx), previous: decodeTurns(prev), reference: decodeRef(ref), summary: decodeSummary(summary, through) };
  }

  async closeTurn(key: ConversationKey, turnIndex: number, turn: Turn, reference: LastReference | null, limits: HotLimits): Promise<ClosedTurn> {
    const k = this.keys(key);
    const [state, updated, count, unsummarised, ref, summary, through, turns] = (await CLOSE.run(
      this.redis,
      [k.meta, k.turns],
      [
        turnIndex,
        JSON.stringify(turn),
        reference ? JSON.stringify(reference) : '',
        limits.keepTurns,
        limits.stateTtlSeconds * 1000,
        limits.foldAfter ?? '',
        FOLDING_WINDOW.turnsPerQuestion,
        FOLDING_WINDOW.slack,
      ],
    )) as [number, number, number, number, string?, string?, string?, string[]?];
    if (state === -1) throw new UnknownTurnError(turnIndex, Number(count));
    const closed: ClosedTurn = { known: state === 1, referenceUpdated: updated === 1, unsummarised: Number(unsummarised) };
    if (turns === undefined) return closed;
    return { ...closed, forFolding: { turnCount: Number(count), reference: decodeRef(ref!), turns: decodeTurns(turns), summary: decodeSummary(summary!, through) } };
  }

  async snapshot(key: ConversationKey, lastTurns?: number): Promise<ContextSnapshot> {
    const k = this.keys(key);
    const [count, ref, summary, through, turns] = (await SNAPSHOT.run(this.redis, [k.meta, k.turns], [lastTurns !== undefined && lastTurns > 0 ? lastTurns : 0])) as [
      string,
      string,
      string,
      string,
      string[],
    ];
    if (count === '') return { turnCount: 0, reference: null, turns: [], summary: null };
    return { turnCount: Number(count), reference: decodeRef(ref), turns: decodeTurns(turns), summary: decodeSummary(summary, through) };
  }

  async saveSummary(key: ConversationKey, expectedThrough: number, next: MemorySummary): Promise<boolean> {
    const k = this.keys(key);
    return (await SAVE_SUMMARY.run(this.redis, [k.meta], [expectedThrough, next.text, next.through])) === 1;
  }

  async clear(key: ConversationKey): Promise<boolean> {
    const k = this.keys(key);
    return (await CLEAR.run(this.redis, [k.meta, k.turns, k.session], [])) === 1;
  }

  /**
   * Every key of every conversation of one client: they all start with `<prefix>{<client>:`, the
   * client id being URI-encoded (so it holds no ':' and no other client's id can extend it). SCAN,
   * never KEYS, so a large Redis is not blocked; deleted in batches.
   */
  async eraseClient(clientId: string): Promise<number> {
    const pattern = `${globEscape(this.prefix)}{${globEscape(encodeURIComponent(clientId))}:*`;
    let cursor = '0';
    let erased = 0;
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (found.length) erased += await this.redis.del(...found);
    } while (cursor !== '0');
    return erased;
  }

  async sessionGet(key: ConversationKey, names: string[] | undefined, nowMs: number): Promise<Record<string, unknown>> {
    const k = this.keys(key);
    let entries: Array<[string, string | null]>;
    if (names) {
      if (names.length === 0) return {};
      const vals = await this.redis.hmget(k.session, ...names);
      entries = names.map((n, i) => [n, vals[i]]);
    } else {
      entries = Object.entries(await this.redis.hgetall(k.session));
    }
    const out: Record<string, unknown> = {};
    for (const [name, raw] of entries) {
      if (!raw) continue;
      const { e, v } = JSON.parse(raw) as { e: number; v: unknown };
      // Expired values are ignored here and pruned by the next write.
      if (e > nowMs) out[name] = v;
    }
    return out;
  }

  async sessionSet(key: ConversationKey, name: string, value: unknown, ttlSeconds: number, nowMs: number): Promise<void> {
    const k = this.keys(key);
    const payload = value === null || value === undefined ? '' : JSON.stringify({ e: nowMs + ttlSeconds * 1000, v: value });
    await SESSION_SET.run(this.redis, [k.session], [name, payload, nowMs]);
  }
}
