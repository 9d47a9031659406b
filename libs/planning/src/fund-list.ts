import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { TICKER_RE } from '@cota/contracts';

/**
 * The fund tickers known from the raw data folder (read in place): Araquem's ticker list and the
 * dashboard's fund table. Used by the routing evaluation and tests, which run without services;
 * the planner service gets the same list from the executor (the warehouse).
 */
export function readFundTickers(dataDir: string): string[] {
  const files = [join(dataDir, 'araquem', 'tickers', 'basics_tickers.csv'), join(dataDir, 'dashbord', 'fiis.csv')];
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length === files.length) {
    throw new Error(
      `no fund list found in ${dataDir} (expected araquem/tickers/basics_tickers.csv or dashbord/fiis.csv); ` +
        'set COTA_DATA_DIR to the folder with the raw FII data (public sources: CVM, B3, Banco Central)',
    );
  }
  const out = new Set<string>();
  for (const file of files) {
    if (!existsSync(file)) continue;
    const rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
    for (const row of rows) {
      const t = (row.ticker ?? '').trim().toUpperCase();
      if (TICKER_RE.test(t)) out.add(t);
    }
  }
  return [...out].sort();
}
