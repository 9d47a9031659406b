import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/** A source file that cannot be loaded: the whole ingest rolls back, naming file and line. */
export class IngestError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    detail: string,
  ) {
    super(`${file}${line ? `:${line}` : ''}: ${detail}`);
    this.name = 'IngestError';
  }
}

/** One CSV record with typed accessors whose errors name the file and the line. */
export class Rec {
  constructor(
    readonly file: string,
    readonly line: number,
    private readonly values: Record<string, string>,
  ) {}

  /** Trimmed text; '', 'NULL', 'nan' and missing columns are null. */
  str(col: string): string | null {
    const v = this.values[col];
    if (v === undefined) throw new IngestError(this.file, this.line, `column '${col}' is missing`);
    const t = v.trim();
    return t === '' || t === 'NULL' || t.toLowerCase() === 'nan' ? null : t;
  }

  req(col: string): string {
    const v = this.str(col);
    if (v === null) throw new IngestError(this.file, this.line, `column '${col}' is empty`);
    return v;
  }

  num(col: string): number | null {
    const v = this.str(col);
    if (v === null) return null;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new IngestError(this.file, this.line, `column '${col}': '${v.slice(0, 30)}' is not a number`);
    return n;
  }

  /** 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS' (or with T) -> 'YYYY-MM-DD'. */
  date(col: string): string | null {
    const v = this.str(col);
    if (v === null) return null;
    const m = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.exec(v);
    if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`))) {
      throw new IngestError(this.file, this.line, `column '${col}': '${v.slice(0, 30)}' is not a date`);
    }
    return m[1];
  }

  bool(col: string): boolean | null {
    const v = this.str(col);
    if (v === null) return null;
    if (/^(true|s|sim|1)$/i.test(v)) return true;
    if (/^(false|n|nao|não|0)$/i.test(v)) return false;
    throw new IngestError(this.file, this.line, `column '${col}': '${v.slice(0, 30)}' is not a boolean`);
  }

  fail(detail: string): never {
    throw new IngestError(this.file, this.line, detail);
  }
}

/** Parses CSV text with a header row; `file` is the path shown in errors (relative to the data folder). */
export function parseCsv(text: string, file: string, delimiter = ','): Rec[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, delimiter, bom: true, info: true, skip_empty_lines: true, relax_quotes: true });
  } catch (e) {
    const err = e as Error & { lines?: number };
    throw new IngestError(file, err.lines ?? null, `invalid CSV: ${err.message.split('\n')[0]}`);
  }
  return records.map((r) => new Rec(file, r.info.lines, r.record));
}

/** Reads `<dataDir>/<file>` (UTF-8) and parses it. */
export function readCsv(dataDir: string, file: string, delimiter = ','): Rec[] {
  let text: string;
  try {
    text = readFileSync(join(dataDir, file), 'utf8');
  } catch (e) {
    throw new IngestError(file, null, `cannot be read: ${(e as Error).message}`);
  }
  return parseCsv(text, file, delimiter);
}
