import type { DataSource } from 'typeorm';
import { createLogger, Logger, runMigrations } from '@cota/service-kit';
import { IngestSummary, missingDataMessage, runIngest, warehouseIsEmpty } from './ingest/run-ingest';
import { warehouseMigrations } from './schema/migrations';

/**
 * For the embedded launcher: applies the warehouse migrations and ingests the data folder only when
 * the warehouse is still empty. A missing data folder is said plainly (with where to get the data)
 * and the warehouse stays empty rather than failing obscurely.
 */
export async function ensureWarehouse(ds: DataSource, opts: { dataDir: string; log?: Pick<Logger, 'info' | 'warn'> }): Promise<IngestSummary | null> {
  const log = opts.log ?? createLogger('warehouse');
  await runMigrations(ds, warehouseMigrations);
  if (!(await warehouseIsEmpty(ds))) return null;
  const missing = missingDataMessage(opts.dataDir);
  if (missing) {
    log.warn(missing);
    return null;
  }
  log.info({ dataDir: opts.dataDir }, 'warehouse is empty: ingesting the data folder');
  const summary = await runIngest(ds, { dataDir: opts.dataDir });
  log.info({ changes: summary.changes, ms: summary.durationMs }, 'warehouse ingested');
  return summary;
}
