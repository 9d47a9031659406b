import type { DataSource } from 'typeorm';
import { runMigrations } from '@cota/service-kit';
import { IngestSummary, missingDataMessage, runIngest, warehouseIsEmpty } from './ingest/run-ingest';
import { warehouseMigrations } from './schema/migrations';

export interface EnsureLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * For the embedded launcher: applies the warehouse migrations and ingests the data folder only when
 * the warehouse is still empty. A missing data folder is said plainly (with where to get the data)
 * and the warehouse stays empty rather than failing obscurely.
 */
export async function ensureWarehouse(ds: DataSource, opts: { dataDir: string; log: EnsureLog | ((msg: string) => void) }): Promise<IngestSummary | null> {
  const log: EnsureLog =
    typeof opts.log === 'function'
      ? { info: (m, f) => (opts.log as (msg: string) => void)(f ? `${m} ${JSON.stringify(f)}` : m), warn: (m) => (opts.log as (msg: string) => void)(m) }
      : opts.log;
  await runMigrations(ds, warehouseMigrations);
  if (!(await warehouseIsEmpty(ds))) return null;
  const missing = missingDataMessage(opts.dataDir);
  if (missing) {
    log.warn(missing);
    return null;
  }
  log.info('warehouse is empty: ingesting the data folder', { dataDir: opts.dataDir });
  const summary = await runIngest(ds, { dataDir: opts.dataDir });
  log.info('warehouse ingested', { changes: summary.changes, ms: summary.durationMs });
  return summary;
}
