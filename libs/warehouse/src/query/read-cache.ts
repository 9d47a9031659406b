import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { WarehouseEvents, type MeasureResult, type QueryParams, type QueryResult, type StructuredQuestion } from '@cota/contracts';
import type { EntityCatalog, MeasureCatalog } from '@cota/catalog';

/**
 * policies/read_cache.yaml: how many public warehouse answers the executor keeps in memory and for
 * how long. Validated at start-up; a bad value stops the service naming the file and the field.
 */
export const ReadCachePolicy = z
  .object({
    version: z.literal(1),
    /** Off: every question reads the warehouse. */
    enabled: z.boolean(),
    /** Distinct reads kept (least recently used dropped first). */
    max_entries: z.number().int().min(1).max(1_000_000),
    /** How long a kept read is served; a new ingest is seen at most this late. */
    ttl_s: z.number().int().min(1).max(86_400),
  })
  .strict();
export type ReadCachePolicy = z.infer<typeof ReadCachePolicy>;

type Loader<T> = () => Promise<T>;

/** What a warehouse change event changed, as the read cache names it: funds by ticker, series by name. */
export interface WarehouseChange {
  funds: string[];
  series: string[];
}

/** A kept read that names no fund nor series (a ranking, a list across funds) may depend on any change. */
const ANY = '*';
const fundTag = (t: string) => `fund:${t.toUpperCase()}`;
const seriesTag = (s: string) => `series:${s.toUpperCase()}`;
/** The feeds publish CDI's daily rate beside its annualised one: both are the CDI series to a reader. */
const SERIES_ALIASES: Record<string, string> = { 'CDI-DAILY': 'CDI' };

/** The funds and series a warehouse change event (libs/contracts WarehouseEvents) changed; null for another subject. */
export function warehouseChange(subject: string, payload: unknown): WarehouseChange | null {
  const p = (payload ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v ? [v] : []);
  if (subject === WarehouseEvents.distributionAnnounced.subject || subject === WarehouseEvents.priceClosed.subject) return { funds: text(p.ticker), series: [] };
  if (subject === WarehouseEvents.monthlyReportLoaded.subject) return { funds: text(p.ticker), series: [] };
  if (subject === WarehouseEvents.indicatorPublished.subject) {
    const names = text(p.indicator);
    return { funds: [], series: [...names, ...names.map((n) => SERIES_ALIASES[n.toUpperCase()]).filter((n): n is string => !!n)] };
  }
  return null;
}

/**
 * Reads of public data (catalog entities marked `privacy: public`, fund and market measures) are
 * the same for every client until the next ingest, and a few questions make up most of the traffic
 * ("top 10 fiis por dy", "a Selic hoje"). They are kept for `ttl_s`; concurrent identical reads share
 * one query. Anything of a client (client entities, portfolio measures, "meus fundos") is never kept.
 * A failed read is not kept either. Each kept-or-not lookup is reported (`cota_cache_requests_total`):
 * a hit is a read served from memory or joined to the same read in flight.
 */
export class PublicReadCache {
  private readonly cache: LRUCache<string, QueryResult | MeasureResult, Loader<QueryResult | MeasureResult>> | null;
  /** Which kept reads depend on each fund and series (and on anything: ANY), so a change drops just those. */
  private readonly byTag = new Map<string, Set<string>>();
  private readonly tagsOf = new Map<string, string[]>();

  constructor(
    policy: ReadCachePolicy,
    private readonly entities: EntityCatalog,
    private readonly measures: MeasureCatalog,
    private readonly onLookup: ((hit: boolean) => void) | null = null,
  ) {
    this.cache = policy.enabled
      ? new LRUCache({
          max: policy.max_entries,
          ttl: policy.ttl_s * 1000,
          fetchMethod: (_key, _stale, { context }) => context(),
          // An entry evicted, expired or deleted leaves the tag index too (a refreshed one keeps its tags).
          dispose: (_v, key, reason) => {
            if (reason !== 'set') this.untag(key);
          },
        })
      : null;
  }

  /**
   * Drops the kept reads a warehouse change made stale (instead of serving them until their TTL): those
   * naming a changed fund or series, and those naming none (lists and rankings across funds). Returns how many.
   */
  invalidate(change: WarehouseChange): number {
    if (!this.cache) return 0;
    const keys = new Set<string>();
    for (const tag of [...change.funds.map(fundTag), ...change.series.map(seriesTag), ANY]) for (const k of this.byTag.get(tag) ?? []) keys.add(k);
    for (const k of keys) this.cache.delete(k);
    return keys.size;
  }

  private tag(key: string, tags: string[]): void {
    if (this.tagsOf.has(key)) return;
    const all = tags.length ? tags : [ANY];
    this.tagsOf.set(key, all);
    for (const t of all) {
      let set = this.byTag.get(t);
      if (!set) this.byTag.set(t, (set = new Set()));
      set.add(key);
    }
  }

  private untag(key: string): void {
    for (const t of this.tagsOf.get(key) ?? []) {
      const set = this.byTag.get(t);
      set?.delete(key);
      if (set?.size === 0) this.byTag.delete(t);
    }
    this.tagsOf.delete(key);
  }

  /** An entity query, kept when the entity is public. */
  query(req: { entity: string; params: QueryParams }, load: Loader<QueryResult>): Promise<QueryResult> {
    if (this.entities[req.entity]?.privacy !== 'public') return load();
    const funds = [...new Set([req.params.ticker, ...(req.params.tickers ?? [])].filter((t): t is string => !!t))];
    return this.read(`q\u0000${req.entity}\u0000${JSON.stringify(req.params)}`, funds.map(fundTag), load) as Promise<QueryResult>;
  }

  /** A measure, kept when neither the measure nor a subject is the client's. */
  measure(question: StructuredQuestion, load: Loader<MeasureResult>): Promise<MeasureResult> {
    const m = question.measure ? this.measures.measures[question.measure] : null;
    const ofClient = question.subjects.some((s) => s.kind === 'portfolio') || (m !== null && (m.subject === 'portfolio' || !!m.client_column));
    if (ofClient || (question.measure !== null && !m)) return load();
    const tags = question.subjects.map((s) => (s.kind === 'fund' ? fundTag(s.id) : seriesTag(s.id)));
    return this.read(`m\u0000${JSON.stringify(question)}`, tags, load) as Promise<MeasureResult>;
  }

  private async read(key: string, tags: string[], load: Loader<QueryResult | MeasureResult>): Promise<QueryResult | MeasureResult> {
    if (!this.cache) return load();
    this.tag(key, tags);
    let loaded = false;
    let loadFailed = false;
    try {
      const value = await this.cache.fetch(key, {
        context: () => {
          loaded = true;
          return load().catch((e: unknown) => {
            loadFailed = true;
            throw e;
          });
        },
      });
      // fetchMethod never resolves undefined (a load returns a result or throws).
      return value!;
    } catch (e) {
      if (!this.cache.has(key)) this.untag(key);
      if (loadFailed) throw e;
      // A change dropped the read while it was loading (lru-cache aborts that fetch): its result may be stale, read again.
      return load();
    } finally {
      this.onLookup?.(!loaded);
    }
  }
}
