import { FeedError } from './errors';

export interface FetchedBody {
  status: 200;
  body: Buffer;
  etag: string | null;
  lastModified: string | null;
}

export interface Fetched304 {
  status: 304;
}

export interface Fetched404 {
  status: 404;
}

export interface GetOptions {
  timeoutMs: number;
  /** Conditional GET: the validators of the copy already read. */
  etag?: string | null;
  lastModified?: string | null;
}

/**
 * GET with a timeout. 404 (not published yet) and 304 (unchanged) are answers, not errors;
 * 5xx, 429 and network failures are transient `FeedError`s (the run retries them); other statuses are not.
 */
export async function httpGet(url: string, opts: GetOptions): Promise<FetchedBody | Fetched304 | Fetched404> {
  const headers: Record<string, string> = { 'user-agent': 'cota-feeds/1 (+https://github.com/cota)' };
  if (opts.etag) headers['if-none-match'] = opts.etag;
  if (opts.lastModified) headers['if-modified-since'] = opts.lastModified;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(opts.timeoutMs), redirect: 'follow' });
  } catch (e) {
    // undici says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, ...) is in its cause.
    const cause = (e as Error & { cause?: { code?: string; message?: string } }).cause;
    const reason = (e as Error).name === 'TimeoutError' ? `no answer in ${opts.timeoutMs} ms` : [(e as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
    throw new FeedError(`${url}: ${reason}`, true);
  }
  if (res.status === 304) return { status: 304 };
  if (res.status === 404) {
    await res.arrayBuffer().catch(() => undefined);
    return { status: 404 };
  }
  if (!res.ok) {
    await res.arrayBuffer().catch(() => undefined);
    throw new FeedError(`${url}: HTTP ${res.status}`, res.status >= 500 || res.status === 429);
  }
  let body: Buffer;
  try {
    body = Buffer.from(await res.arrayBuffer());
  } catch (e) {
    throw new FeedError(`${url}: body cut short (${(e as Error).message})`, true);
  }
  return { status: 200, body, etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
}

/** Joins a configured base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
