import './register-paths';
import 'reflect-metadata';
import { loadEnv } from '@cota/config';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { IngestProgress, IngestSummary, missingDataMessage, runIngest, warehouseMigrations } from '@cota/warehouse';

export { ensureWarehouse } from '@cota/warehouse';

/** One-line progress bar on stderr (redrawn in place on a terminal, one line per step otherwise). */
export function renderProgress(p: IngestProgress, width = 28): string {
  const frac = p.total ? Math.min(1, p.done / p.total) : 1;
  const filled = Math.round(frac * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.phase.padEnd(9)} ${String(Math.round(frac * 100)).padStart(3)}%  ${p.label}`;
}

export function formatSummary(s: IngestSummary): string {
  const lines: string[] = [];
  const w = Math.max(...s.tables.map((t) => t.table.length));
  lines.push(`${'table'.padEnd(w)}  ${'rows'.padStart(8)}  ${'inserted'.padStart(8)}  ${'updated'.padStart(8)}  ${'deleted'.padStart(8)}`);
  for (const t of s.tables) {
    lines.push(`${t.table.padEnd(w)}  ${String(t.rows).padStart(8)}  ${String(t.inserted).padStart(8)}  ${String(t.updated).padStart(8)}  ${String(t.deleted).padStart(8)}`);
  }
  lines.push(`files read: ${s.files.length}, source rows: ${s.files.reduce((a, f) => a + f.rows, 0)}`);
  lines.push(s.changes === 0 ? 'no changes: the warehouse already matched the data folder' : `changes: ${s.changes}`);
  for (const d of s.disagreements) {
    if (!d.overlap) continue;
    lines.push(
      `disagreement ${d.series} ${d.sources[0]} vs ${d.sources[1]}: ${d.differing} of ${d.overlap} common dates differ` +
        (d.differing ? ` (${d.shifted_one_session} match the previous session: shifted by one day); e.g. ${d.examples.join('; ')}` : ''),
    );
  }
  for (const n of s.notes) lines.push(`note: ${n}`);
  lines.push(`took ${(s.durationMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}

/** `npm run ingest`: migrations, then the ingest of COTA_DATA_DIR into DATABASE_URL. */
export async function main(): Promise<number> {
  const env = loadEnv();
  if (!env.databaseUrl) {
    process.stderr.write('DATABASE_URL não definido: informe o Postgres de destino, ex. DATABASE_URL=postgres://postgres@127.0.0.1:5432/cota npm run ingest\n');
    return 2;
  }
  const missing = missingDataMessage(env.dataDir);
  if (missing) {
    process.stderr.write(`${missing}\n`);
    return 3;
  }
  const ds = await openDatabase({ url: env.databaseUrl, applicationName: 'cota-ingest', statementTimeoutMs: 600000 });
  try {
    await runMigrations(ds, warehouseMigrations);
    const tty = process.stderr.isTTY;
    const summary = await runIngest(ds, {
      dataDir: env.dataDir,
      onProgress: (p) => process.stderr.write(tty ? `\r\x1b[2K${renderProgress(p)}` : `${renderProgress(p)}\n`),
    });
    if (tty) process.stderr.write('\n');
    process.stdout.write(`${formatSummary(summary)}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`\ningest failed, nothing was changed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
