import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { MeasureResult, QueryParams, QueryResult, StructuredQuestion } from '@cota/contracts';
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

  constructor(
    policy: ReadCachePolicy,
    private readonly entities: EntityCatalog,
    private readonly measures: MeasureCatalog,
    private readonly onLookup: ((hit: boolean) => void) | null = null,
  ) {
    this.cache = policy.enabled ? new LRUCache({ max: policy.max_entries, ttl: policy.ttl_s * 1000, fetchMethod: (_key, _stale, { context }) => context() }) : null;
  }

  /** An entity query, kept when the entity is public. */
  query(req: { entity: string; params: QueryParams }, load: Loader<QueryResult>): Promise<QueryResult> {
    if (this.entities[req.entity]?.privacy !== 'public') return load();
    return this.read(`q\u0000${req.entity}\u0000${JSON.stringify(req.params)}`, load) as Promise<QueryResult>;
  }

  /** A measure, kept when neither the measure nor a subject is the client's. */
  measure(question: StructuredQuestion, load: Loader<MeasureResult>): Promise<MeasureResult> {
    const m = question.measure ? this.measures.measures[question.measure] : null;
    const ofClient = question.subjects.some((s) => s.kind === 'portfolio') || (m !== null && (m.subject === 'portfolio' || !!m.client_column));
    if (ofClient || (question.measure !== null && !m)) return load();
    return this.read(`m\u0000${JSON.stringify(question)}`, load) as Promise<MeasureResult>;
  }

  private async read(key: string, load: Loader<QueryResult | MeasureResult>): Promise<QueryResult | MeasureResult> {
    if (!this.cache) return load();
    let loaded = false;
    try {
      const value = await this.cache.fetch(key, {
        context: () => {
          loaded = true;
          return load();
        },
      });
      // fetchMethod never resolves undefined (a load returns a result or throws).
      return value!;
    } finally {
      this.onLookup?.(!loaded);
    }
  }
}
