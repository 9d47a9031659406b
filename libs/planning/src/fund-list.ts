import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { TICKER_RE } from '@cota/contracts';
import type { NamedFund } from './fund-names';

/**
 * The fund tickers known from the raw data folder (read in place): Araquem's ticker list and the
 * dashboard's fund table. Used by the routing evaluation and tests, which run without services;
 * the planner service gets the same list from the executor (the warehouse).
 */
export function readFundTickers(dataDir: string): string[] {
  return readFunds(dataDir).map((f) => f.ticker);
}

/** The same list with each fund's registered name (Araquem's registrations, else the dashboard's `nome`). */
export function readFunds(dataDir: string): NamedFund[] {
  const files = [join(dataDir, 'araquem', 'tickers', 'basics_tickers.csv'), join(dataDir, 'dashbord', 'fiis.csv')];
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length === files.length) {
    throw new Error(
      `no fund list found in ${dataDir} (expected araquem/tickers/basics_tickers.csv or dashbord/fiis.csv); ` +
        'set COTA_DATA_DIR to the folder with the raw FII data (public sources: CVM, B3, Banco Central)',
    );
  }
  const read = (file: string) =>
    existsSync(file) ? (parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>) : [];
  const registrations = read(join(dataDir, 'araquem', 'samples', 'fiis_registrations.csv'));
  const registered = new Map(registrations.map((r) => [r.ticker?.trim().toUpperCase(), r.display_name?.trim()]));
  const cnpjs = new Map(registrations.map((r) => [r.ticker?.trim().toUpperCase(), r.fii_cnpj?.trim() || null]));
  const funds = new Map<string, string | null>();
  for (const file of files) {
    for (const row of read(file)) {
      const t = (row.ticker ?? '').trim().toUpperCase();
      if (TICKER_RE.test(t)) funds.set(t, registered.get(t) || funds.get(t) || row.nome?.trim() || null);
    }
  }
  return [...funds].map(([ticker, name]) => ({ ticker, name, cnpj: cnpjs.get(ticker) ?? null })).sort((a, b) => a.ticker.localeCompare(b.ticker));
}
