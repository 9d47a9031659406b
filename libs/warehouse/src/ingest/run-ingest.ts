import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { IngestError } from './csv';
import { emptyRaw, RawData } from './model';
import { Disagreement, reconcile } from './reconcile';
import { readAraquem } from './sources/araquem';
import { readCvm } from './sources/cvm';
import { readDashbord, readMarket16, readOpbrreit, readPaulo037 } from './sources/others';
import { syncTable, TableChange } from './sync';
import { rebuildDerived } from '@cota/ledger';
import { tableSpec } from '../schema/tables';

export interface IngestProgress {
  phase: 'read' | 'reconcile' | 'write';
  done: number;
  total: number;
  label: string;
}

export interface IngestOptions {
  dataDir: string;
  onProgress?: (p: IngestProgress) => void;
}

export interface IngestSummary {
  tables: TableChange[];
  /** inserted + updated + deleted over every table: 0 on a second run over the same files. */
  changes: number;
  files: Array<{ file: string; rows: number }>;
  disagreements: Disagreement[];
  notes: string[];
  durationMs: number;
}

/** Source folders SOURCES.md describes; all must be present. */
export const SOURCE_FOLDERS = ['araquem', 'cvm', 'market16', 'dashbord', 'paulo037', 'opbrreit'];

/** The plain-language message for a missing data folder (start-up and CLI). */
export function missingDataMessage(dataDir: string): string | null {
  const missing = SOURCE_FOLDERS.filter((f) => !existsSync(join(dataDir, f)));
  if (!missing.length) return null;
  return (
    `Os dados de origem não foram encontrados em ${dataDir} (faltam: ${missing.join(', ')}). ` +
    'Defina COTA_DATA_DIR com a pasta dos dados (padrão: ../shared/data/fii a partir do repositório). ' +
    'Os dados vêm de fontes públicas oficiais: CVM (Informe Mensal de FII, dados.cvm.gov.br), ' +
    'B3 (lista de fundos listados e índice IFIX, b3.com.br) e Banco Central (SELIC/CDI, SGS em dadosabertos.bcb.gov.br); ' +
    'veja SOURCES.md na pasta de dados para a origem de cada arquivo.'
  );
}

const READ_STEPS = 6;

/** Reads every source folder (no database access): errors name the file and the line. */
export async function readSources(dataDir: string, onProgress?: IngestOptions['onProgress']): Promise<RawData> {
  const missing = missingDataMessage(dataDir);
  if (missing) throw new IngestError(dataDir, null, missing);
  const raw = emptyRaw();
  let step = 0;
  const progress = (label: string) => onProgress?.({ phase: 'read', done: step, total: READ_STEPS, label });
  readAraquem(dataDir, raw, progress);
  step++;
  await readCvm(dataDir, raw, progress);
  step++;
  readMarket16(dataDir, raw, progress);
  step++;
  readDashbord(dataDir, raw, progress);
  step++;
  readPaulo037(dataDir, raw, progress);
  step++;
  readOpbrreit(dataDir, raw, progress);
  step++;
  progress('all folders read');
  return raw;
}

/** Table write order (no foreign keys, but the order keeps the summary readable). */
/** Tables the ingest shares with what clients write: it replaces only its own (demo) rows. */
const INGEST_SCOPE: Record<string, string> = { wh_client_ledger: 'is_demo' };

const TABLE_ORDER = [
  'wh_segment_map',
  'wh_funds',
  'wh_cvm_monthly',
  'wh_prices',
  'wh_dividends',
  'wh_corporate_actions',
  'wh_yield_history',
  'wh_dividends_yields',
  'wh_snapshots',
  'wh_revenue_schedule',
  'wh_risk',
  'wh_properties',
  'wh_news',
  'wh_legal',
  'wh_rankings',
  'wh_index_history',
  'wh_currency_rates',
  'wh_market_indicators',
  'wh_macro_consolidated',
  'wh_clients',
  'wh_client_ledger',
  'wh_client_performance',
  'wh_quality_flags',
  'wh_source_dates',
  'wh_quarterly_fundamentals',
  'wh_valuation_history',
];

/**
 * Builds the warehouse from every folder of the data directory. Everything is read and reconciled
 * in memory first (a bad file stops here, naming file and line, before any write); then all tables
 * are synchronised in ONE transaction, so the warehouse is never half-loaded. Idempotent.
 */
export async function runIngest(ds: DataSource, opts: IngestOptions): Promise<IngestSummary> {
  const t0 = performance.now();
  const raw = await readSources(opts.dataDir, opts.onProgress);
  opts.onProgress?.({ phase: 'reconcile', done: 0, total: 1, label: 'reconciling sources and computing derived data' });
  const rec = reconcile(raw);
  opts.onProgress?.({ phase: 'reconcile', done: 1, total: 1, label: 'reconciled' });

  const q = ds.createQueryRunner();
  await q.connect();
  const tables: TableChange[] = [];
  try {
    await q.startTransaction();
    let i = 0;
    for (const name of TABLE_ORDER) {
      opts.onProgress?.({ phase: 'write', done: i, total: TABLE_ORDER.length, label: name });
      tables.push(await syncTable(q, tableSpec(name), rec.tables[name] ?? [], INGEST_SCOPE[name]));
      i++;
    }
    // The demo clients' positions and sales, derived from their ledgers like every client's.
    for (const c of rec.tables.wh_clients ?? []) await rebuildDerived(q, String(c.client_id));
    opts.onProgress?.({ phase: 'write', done: i, total: TABLE_ORDER.length, label: 'committing' });
    const changes = tables.reduce((a, t) => a + t.inserted + t.updated + t.deleted, 0);
    if (changes > 0) {
      await q.query(`INSERT INTO wh_ingest_runs (run_id, finished_at, summary) VALUES ($1, now(), $2::jsonb)`, [
        `${new Date().toISOString()}-${Math.random().toString(36).slice(2, 8)}`,
        JSON.stringify({ tables, disagreements: rec.disagreements }),
      ]);
    }
    await q.commitTransaction();
    return { tables, changes, files: raw.filesRead, disagreements: rec.disagreements, notes: rec.notes, durationMs: Math.round(performance.now() - t0) };
  } catch (e) {
    if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
    throw e;
  } finally {
    await q.release();
  }
}

/** True when the warehouse has no funds yet (embedded start-up ingests only then). */
export async function warehouseIsEmpty(ds: DataSource): Promise<boolean> {
  const r = await ds.query('SELECT EXISTS (SELECT 1 FROM wh_funds) AS has');
  return !r[0].has;
}
