import type { DataSource } from 'typeorm';
import { CotaError, MAX_STATEMENT_BYTES } from '@cota/contracts';
import { LedgerError, LedgerKind, LEDGER_KINDS, replay } from '@cota/portfolio';
import { parseStatement, StatementEntry, RowIssue } from './b3/statement';
import { readTable, UnreadableFileError } from './b3/table';
import { contentHash, entryIds, importId } from './entry-id';
import { errorsText, ImportSummary, previewText } from './preview';
import { appendEntries, existingIds, lockClientLedger, NewEntry, Queryable, readLedger, rebuildDerived } from './store';

/** Largest statement accepted (bytes): years of a busy investor's B3 exports fit in a fraction of it. */
export const MAX_IMPORT_BYTES = MAX_STATEMENT_BYTES;

export type ImportStatus = 'staged' | 'confirmed';

/** An import as the client sees it: the preview before confirming, the receipt after. */
export interface ImportView {
  import_id: string;
  status: ImportStatus;
  file_name: string;
  conversation_id: string | null;
  summary: ImportSummary;
  preview: string;
  added: number | null;
  created_at: string;
  confirmed_at: string | null;
}

/** A file refused as a whole: unreadable, or with rows in error (by line and reason). Nothing is written. */
export class ImportRejected extends CotaError {
  constructor(
    message: string,
    readonly errors: RowIssue[],
  ) {
    super('BAD_REQUEST', message);
  }
}

interface StagedEntry extends StatementEntry {
  entry_id: string;
}

const zeroCounts = (): Record<LedgerKind, number> => Object.fromEntries(LEDGER_KINDS.map((k) => [k, 0])) as Record<LedgerKind, number>;

/**
 * Imports of B3 statements into a client's ledger, in two steps: `stage` reads and checks the
 * file and keeps what it would add (nothing in the ledger yet); `confirm` adds it in one
 * transaction. Everything is keyed by the client: another client's import id is "not found".
 */
export class LedgerImports {
  constructor(private readonly db: DataSource) {}

  async stage(input: { client_id: string; conversation_id: string | null; file_name: string; bytes: Buffer }): Promise<ImportView> {
    if (input.bytes.length === 0) throw new ImportRejected('O arquivo está vazio.', []);
    if (input.bytes.length > MAX_IMPORT_BYTES) throw new ImportRejected(`O arquivo tem ${Math.ceil(input.bytes.length / 1024)} KB; o limite é ${MAX_IMPORT_BYTES / 1024} KB.`, []);
    let parsed;
    try {
      parsed = parseStatement(await readTable(input.file_name, input.bytes));
    } catch (e) {
      if (e instanceof UnreadableFileError)
        throw new ImportRejected(
          `Não consegui ler o arquivo: ${e.message}. Envie o extrato de Negociação ou de Movimentação baixado da área do investidor da B3 (.xlsx ou .csv).`,
          [],
        );
      throw e;
    }
    if (parsed.errors.length) throw new ImportRejected(errorsText(parsed.errors), parsed.errors);
    // The same statement downloaded twice differs in its bytes (a spreadsheet's creation time), not in its rows.
    const id = importId(
      input.client_id,
      Buffer.from(`${parsed.statement}\n${entryIds(parsed.entries).join('\n')}\n${parsed.ignored.map((i) => `${i.line}:${i.reason}`).join('\n')}`),
    );
    const known = await this.get(input.client_id, id);
    if (known) {
      if (known.status === 'staged' && known.conversation_id !== input.conversation_id) {
        await this.db.query(`UPDATE wh_client_imports SET conversation_id = $3 WHERE client_id = $1 AND import_id = $2 AND status = 'staged'`, [
          input.client_id,
          id,
          input.conversation_id,
        ]);
        return (await this.get(input.client_id, id))!;
      }
      return known;
    }

    // Funds Cota does not know (an ETF or a delisted code) are left out and said so.
    const tickers = [...new Set(parsed.entries.map((e) => e.ticker))];
    const knownFunds = new Set<string>(
      tickers.length ? (await this.db.query(`SELECT ticker FROM wh_funds WHERE ticker = ANY($1::text[])`, [tickers])).map((r: { ticker: string }) => r.ticker) : [],
    );
    const ignored = [...parsed.ignored];
    const kept = parsed.entries.filter((e) => {
      if (knownFunds.has(e.ticker)) return true;
      ignored.push({ line: e.line, reason: `${e.ticker} não é um fundo imobiliário listado que o Cota conheça` });
      return false;
    });
    ignored.sort((a, b) => a.line - b.line);
    const ids = entryIds(kept);
    const staged: StagedEntry[] = kept.map((e, i) => ({ ...e, entry_id: ids[i] }));
    const already = await existingIds(this.db, input.client_id, ids);
    const fresh = staged.filter((e) => !already.has(e.entry_id));
    await this.check(this.db, input.client_id, fresh);

    const counts = zeroCounts();
    for (const e of fresh) counts[e.kind] += 1;
    const dates = fresh.map((e) => e.date).sort();
    const summary: ImportSummary = {
      statement: parsed.statement,
      counts,
      funds: [...new Set(fresh.map((e) => e.ticker))].sort(),
      first_date: dates[0] ?? null,
      last_date: dates[dates.length - 1] ?? null,
      already_in_ledger: staged.length - fresh.length,
      ignored,
    };
    await this.db.query(
      `INSERT INTO wh_client_imports (client_id, import_id, file_name, content_sha256, statement, status, conversation_id, entries, summary, created_at, is_demo, source)
       VALUES ($1, $2, $3, $4, $5, 'staged', $6, $7::jsonb, $8::jsonb, now(), false, $9) ON CONFLICT (client_id, import_id) DO NOTHING`,
      [
        input.client_id,
        id,
        input.file_name.slice(0, 200),
        contentHash(input.bytes),
        parsed.statement,
        input.conversation_id,
        JSON.stringify(fresh),
        JSON.stringify(summary),
        `b3_${parsed.statement}`,
      ],
    );
    return (await this.get(input.client_id, id))!;
  }

  async get(clientId: string, id: string): Promise<ImportView | null> {
    const rows = await this.db.query(
      `SELECT import_id, status, file_name, conversation_id, summary, added, created_at, confirmed_at FROM wh_client_imports WHERE client_id = $1 AND import_id = $2`,
      [clientId, id],
    );
    const r = rows[0];
    if (!r) return null;
    const summary = r.summary as ImportSummary;
    return {
      import_id: r.import_id,
      status: r.status,
      file_name: r.file_name,
      conversation_id: r.conversation_id,
      summary,
      preview: r.status === 'confirmed' ? `Este arquivo já foi importado (${r.added ?? 0} lançamentos adicionados); importá-lo de novo não muda nada.` : previewText(summary),
      added: r.added === null ? null : Number(r.added),
      created_at: new Date(r.created_at).toISOString(),
      confirmed_at: r.confirmed_at ? new Date(r.confirmed_at).toISOString() : null,
    };
  }

  /** Adds a staged import to the ledger, all or nothing; a second confirmation adds nothing. */
  async confirm(clientId: string, id: string): Promise<ImportView> {
    await this.db.transaction(async (tx) => {
      await lockClientLedger(tx, clientId);
      const rows = await tx.query(`SELECT status, statement, entries FROM wh_client_imports WHERE client_id = $1 AND import_id = $2 FOR UPDATE`, [clientId, id]);
      if (!rows[0]) throw new CotaError('NOT_FOUND', 'Não encontrei essa importação (ela é de outro cliente ou não existe). Envie o arquivo de novo.');
      if (rows[0].status === 'confirmed') return;
      const entries = rows[0].entries as StagedEntry[];
      await this.check(tx, clientId, entries);
      const added = await appendEntries(
        tx,
        clientId,
        entries.map((e): NewEntry => ({ ...e, import_id: id, is_demo: false, source: `b3_${rows[0].statement}` })),
      );
      await rebuildDerived(tx, clientId);
      await tx.query(`UPDATE wh_client_imports SET status = 'confirmed', confirmed_at = now(), added = $3 WHERE client_id = $1 AND import_id = $2`, [clientId, id, added]);
    });
    return (await this.get(clientId, id))!;
  }

  /** The ledger with these entries must replay: no sale of shares the client did not have. */
  private async check(db: Queryable, clientId: string, entries: readonly StagedEntry[]): Promise<void> {
    const ledger = await readLedger(db, clientId);
    const all = [...ledger, ...entries];
    try {
      replay(all);
    } catch (e) {
      if (!(e instanceof LedgerError)) throw e;
      const bad = all[e.index] as Partial<StagedEntry>;
      const issue = { line: bad.line ?? 0, reason: `${e.message}; importe antes o extrato com as compras desse fundo` };
      throw new ImportRejected(errorsText([issue]), [issue]);
    }
  }
}
