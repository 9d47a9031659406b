import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';

/** A spreadsheet as rows of cell values, each with its line number in the file (1-based, header included). */
export interface RawTable {
  /** Name of the sheet read (xlsx) or null (csv). */
  sheet: string | null;
  rows: Array<{ line: number; cells: unknown[] }>;
}

/** A file that is not a readable spreadsheet at all (as opposed to a bad row in a readable one). */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

const isZip = (b: Buffer) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** The sheets B3's investor area names in its exports; any other sheet is read only when it is the only one. */
const STATEMENT_SHEETS = /^(negocia|movimenta)/i;

/** Reads an xlsx (by its zip signature) or a csv (utf-8, or latin-1 when not valid utf-8; `;` or `,`). */
export async function readTable(fileName: string, bytes: Buffer): Promise<RawTable> {
  if (isZip(bytes)) return readXlsx(bytes);
  if (/\.xlsx$/i.test(fileName)) throw new UnreadableFileError('o arquivo tem extensão .xlsx mas não é uma planilha do Excel válida');
  return readCsv(bytes);
}

async function readXlsx(bytes: Buffer): Promise<RawTable> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableFileError('não consegui abrir a planilha (.xlsx corrompido ou protegido)');
  }
  const sheets = wb.worksheets;
  const ws = sheets.find((s) => STATEMENT_SHEETS.test(s.name.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))) ?? (sheets.length === 1 ? sheets[0] : undefined);
  if (!ws) throw new UnreadableFileError(`a planilha não tem a aba "Negociação" nem "Movimentação" (abas: ${sheets.map((s) => s.name).join(', ')})`);
  const rows: RawTable['rows'] = [];
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    const values = (row.values as unknown[]).slice(1).map(cellValue);
    rows.push({ line, cells: values });
  });
  return { sheet: ws.name, rows };
}

/** A cell's plain value: rich text and formulas reduced to what they show. */
function cellValue(v: unknown): unknown {
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const o = v as { richText?: Array<{ text: string }>; result?: unknown; text?: string };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if ('result' in o) return o.result;
    if (typeof o.text === 'string') return o.text;
  }
  return v;
}

function readCsv(bytes: Buffer): RawTable {
  let text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) text = iconv.decode(bytes, 'latin1');
  text = text.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: false, bom: true }) as string[][];
  } catch (e) {
    throw new UnreadableFileError(`o CSV não pôde ser lido (${(e as Error).message.split('\n')[0]})`);
  }
  return { sheet: null, rows: records.map((cells, i) => ({ line: i + 1, cells })).filter((r) => r.cells.some((c) => String(c).trim() !== '')) };
}
