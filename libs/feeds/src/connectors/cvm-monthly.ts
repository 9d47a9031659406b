import { createHash } from 'node:crypto';
import { cvmMonthlyRowsFromZip, IngestError, readZipBuffer } from '@cota/warehouse';
import { FeedError } from '../errors';
import { httpGet, joinUrl } from '../http';
import type { Feed, FeedBatch, Watermark } from '../feed';
import type { Row } from '../rows';

export interface CvmMonthlyOptions {
  baseUrl: string;
  /** Years read each run: the current one and this many before it (CVM re-publishes late deliveries and new versions). */
  yearsBack: number;
  timeoutMs: number;
}

/** What was read of one yearly zip: the HTTP validators and the content hash. */
interface YearCopy {
  etag: string | null;
  lastModified: string | null;
  sha256: string;
}

/**
 * CVM's open-data monthly FII reports (`inf_mensal_fii_AAAA.zip`, `;` CSVs in latin-1), re-fetched when
 * they change: a conditional GET with the last copy's validators, and a content hash for servers that
 * send none. Rows are whole fund-months, so a re-delivered month simply replaces its row.
 */
export class CvmMonthlyFeed implements Feed {
  readonly name = 'cvm-dados' as const;
  constructor(private readonly opts: CvmMonthlyOptions) {}

  async read(watermark: Watermark, today: string): Promise<FeedBatch> {
    const copies = { ...(watermark as Record<string, YearCopy>) };
    const rows: Row[] = [];
    const notes: string[] = [];
    const year = Number(today.slice(0, 4));
    // Download every year first, then parse: parsing takes seconds, and a connection left idle that long may be closed by the server.
    const fresh: Array<{ y: number; url: string; body: Buffer; copy: YearCopy }> = [];
    for (let y = year - this.opts.yearsBack; y <= year; y++) {
      const file = `inf_mensal_fii_${y}.zip`;
      const url = joinUrl(this.opts.baseUrl, file);
      const prev = copies[String(y)];
      const res = await httpGet(url, { timeoutMs: this.opts.timeoutMs, etag: prev?.etag, lastModified: prev?.lastModified });
      if (res.status === 404) {
        notes.push(`${file}: não publicado`);
        continue;
      }
      if (res.status === 304) continue;
      const sha256 = createHash('sha256').update(res.body).digest('hex');
      if (prev?.sha256 === sha256) continue;
      fresh.push({ y, url, body: res.body, copy: { etag: res.etag, lastModified: res.lastModified, sha256 } });
    }
    for (const { y, url, body, copy } of fresh) {
      let monthly: Row[];
      try {
        monthly = cvmMonthlyRowsFromZip(await readZipBuffer(body, url), url);
      } catch (e) {
        throw new FeedError(e instanceof IngestError ? e.message : `${url}: ${(e as Error).message}`, false);
      }
      for (const r of monthly) rows.push({ ...r, source: this.name });
      copies[String(y)] = copy;
    }
    const months = rows.map((r) => String(r.ref_date)).sort();
    return { tables: { wh_cvm_monthly: rows }, watermark: copies, dataUntil: months[months.length - 1] ?? null, notes };
  }
}
