import type { DataSource } from 'typeorm';
import { ChunkDraft, contentHash } from './knowledge';
import { NEWS_COLLECTION } from './policy';

export interface NewsItem {
  ticker: string;
  source: string | null;
  title: string;
  description: string | null;
  url: string | null;
  published_at: string | null;
}

/** Where the news come from (the warehouse). Wrapped so unit tests use a fake. */
export interface NewsSource {
  /** Cheap summary that changes when the news change (row count, newest date); null when there is no table. */
  fingerprint(): Promise<string | null>;
  load(): Promise<NewsItem[]>;
}

/** Reads the warehouse news relation (columns ticker, source, title, description, url, published_at). */
export class PostgresNewsSource implements NewsSource {
  constructor(
    private readonly ds: DataSource,
    /** Validated by the policy schema as a plain (schema.)identifier. */
    private readonly relation: string,
    private readonly maxPerTicker: number,
  ) {}

  private async exists(): Promise<boolean> {
    const rows: Array<{ r: string | null }> = await this.ds.query('SELECT to_regclass($1)::text AS r', [this.relation]);
    return Boolean(rows[0]?.r);
  }

  async fingerprint(): Promise<string | null> {
    if (!(await this.exists())) return null;
    // Count, newest date and a digest of what is indexed: a re-ingest that edits titles changes it too.
    const rows: Array<{ n: string; newest: string | null; digest: string | null }> = await this.ds.query(
      `SELECT count(*)::text AS n, max(published_at)::text AS newest,
              md5(string_agg(ticker || '|' || coalesce(url, '') || '|' || coalesce(title, '') || '|' || md5(coalesce(description, '')), ','
                  ORDER BY ticker, url, title)) AS digest
         FROM ${this.relation}`,
    );
    return `${rows[0].n}|${rows[0].newest ?? ''}|${rows[0].digest ?? ''}`;
  }

  async load(): Promise<NewsItem[]> {
    if (!(await this.exists())) return [];
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT ticker, source, title, description, url, published_at FROM (
         SELECT ticker::text, source::text, title::text, description::text, url::text,
                left(published_at::text, 10) AS published_at,
                row_number() OVER (PARTITION BY ticker ORDER BY published_at DESC NULLS LAST, url) AS rn
           FROM ${this.relation} WHERE title IS NOT NULL) n
        WHERE rn <= $1 ORDER BY ticker, published_at DESC NULLS LAST, url`,
      [this.maxPerTicker],
    );
    return rows.map((r) => ({
      ticker: String(r.ticker),
      source: (r.source as string | null) ?? null,
      title: String(r.title),
      description: (r.description as string | null) ?? null,
      url: (r.url as string | null) ?? null,
      published_at: (r.published_at as string | null) ?? null,
    }));
  }
}

/** Third-party descriptions can be long; the narrator needs the gist, not the article. */
const MAX_DESCRIPTION = 600;

/** One chunk per news item; the source and url travel with it so the answer can cite them. */
export function newsToChunks(items: NewsItem[]): ChunkDraft[] {
  const seen = new Set<string>();
  const out: ChunkDraft[] = [];
  for (const n of items) {
    const key = contentHash([n.ticker, n.url ?? '', n.title]).slice(0, 16);
    if (seen.has(key)) continue;
    seen.add(key);
    let description = (n.description ?? '').replace(/\s+/g, ' ').trim();
    if (description.length > MAX_DESCRIPTION) description = description.slice(0, MAX_DESCRIPTION).replace(/\s+\S*$/, '') + '…';
    const header = [n.published_at, n.ticker, n.source].filter(Boolean).join(' · ');
    const text = `${header}\n${n.title.trim()}${description ? `\n${description}` : ''}${n.url ? `\nFonte: ${n.source ?? 'link'} (${n.url})` : ''}`;
    out.push({
      chunk_id: `news:${key}`,
      doc_id: `news:${key}`,
      origin: 'news',
      collection: NEWS_COLLECTION,
      title: n.title.trim(),
      text,
      entity: NEWS_COLLECTION,
      source_id: n.url ?? n.source,
      url: n.url,
      tickers: [n.ticker],
      tags: [n.ticker, ...(n.source ? [`fonte:${n.source}`] : []), ...(n.published_at ? [`data:${n.published_at}`] : [])],
      published_at: n.published_at,
    });
  }
  return out;
}
