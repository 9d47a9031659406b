import { LedgerEntry, LedgerKind, replay } from '@cota/portfolio';

/** Anything that runs SQL: a DataSource, an EntityManager inside a transaction, a QueryRunner. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** A ledger row as stored (wh_client_ledger). */
export interface LedgerRow extends LedgerEntry {
  entry_id: string;
  seq: number;
  institution: string | null;
  import_id: string | null;
  line: number | null;
  is_demo: boolean;
  source: string;
}

/** An entry to add: its content key decides whether it is new. */
export interface NewEntry extends LedgerEntry {
  entry_id: string;
  institution: string | null;
  import_id: string | null;
  line: number | null;
  is_demo: boolean;
  source: string;
}

/** The client's ledger, in the order it took effect (date, then order of entry). */
export async function readLedger(db: Queryable, clientId: string): Promise<LedgerRow[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT entry_id, seq, kind, to_char(event_date, 'YYYY-MM-DD') AS date, ticker, quantity::text AS quantity, price::text AS price,
            amount::text AS amount, fees::text AS fees, institution, import_id, line, is_demo, source
       FROM wh_client_ledger WHERE client_id = $1 ORDER BY event_date, seq`,
    [clientId],
  );
  return rows.map((r) => ({ ...r, kind: r.kind as LedgerKind, seq: Number(r.seq), line: r.line === null ? null : Number(r.line) }) as LedgerRow);
}

/** Content keys of the client's ledger already stored, among `ids`. */
export async function existingIds(db: Queryable, clientId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows: Array<{ entry_id: string }> = await db.query(`SELECT entry_id FROM wh_client_ledger WHERE client_id = $1 AND entry_id = ANY($2::text[])`, [clientId, ids]);
  return new Set(rows.map((r) => r.entry_id));
}

/** Serialises writes to one client's ledger (the next seq, the derived positions) inside the caller's transaction. */
export async function lockClientLedger(db: Queryable, clientId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('wh_client_ledger:' || $1, 0))`, [clientId]);
}

/** Adds entries not yet in the ledger (by content key); returns how many were new. Call inside a transaction, after lockClientLedger. */
export async function appendEntries(db: Queryable, clientId: string, entries: readonly NewEntry[]): Promise<number> {
  if (!entries.length) return 0;
  const [{ next }] = await db.query(`SELECT COALESCE(max(seq), 0) + 1 AS next FROM wh_client_ledger WHERE client_id = $1`, [clientId]);
  let inserted = 0;
  const per = 500;
  for (let i = 0; i < entries.length; i += per) {
    const batch = entries.slice(i, i + per);
    const values: unknown[] = [];
    const tuples = batch.map((e, j) => {
      const row = [
        clientId,
        e.entry_id,
        Number(next) + i + j,
        e.kind,
        e.date,
        e.ticker,
        String(e.quantity),
        String(e.price),
        String(e.amount),
        String(e.fees ?? 0),
        e.institution,
        e.import_id,
        e.line,
        e.is_demo,
        e.source,
      ];
      const ph = row.map((v) => {
        values.push(v);
        return `$${values.length}`;
      });
      return `(${ph.join(', ')})`;
    });
    const res: unknown[] = await db.query(
      `INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, institution, import_id, line, is_demo, source)
       VALUES ${tuples.join(', ')} ON CONFLICT (client_id, entry_id) DO NOTHING RETURNING 1`,
      values,
    );
    inserted += res.length;
  }
  return inserted;
}

/**
 * Rewrites the client's positions and sales (wh_client_positions, wh_client_sales) from the ledger
 * with the average price rule of @cota/portfolio: derived data, never edited on its own. Call in the
 * transaction that changed the ledger.
 */
export async function rebuildDerived(db: Queryable, clientId: string): Promise<void> {
  const ledger = await readLedger(db, clientId);
  const { positions, sales } = replay(ledger);
  const demoOf = (ticker: string) => ledger.filter((e) => e.ticker === ticker).every((e) => e.is_demo);
  await db.query(`DELETE FROM wh_client_positions WHERE client_id = $1`, [clientId]);
  await db.query(`DELETE FROM wh_client_sales WHERE client_id = $1`, [clientId]);
  for (const p of positions.values()) {
    if (p.quantity.lte(0)) continue;
    const demo = demoOf(p.ticker);
    await db.query(`INSERT INTO wh_client_positions (client_id, ticker, quantity, cost_amt, avg_price, first_buy_date, is_demo, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      clientId,
      p.ticker,
      p.quantity.toFixed(),
      p.cost.toFixed(),
      p.avgPrice!.toFixed(),
      p.firstBuyDate,
      demo,
      demo ? 'demo' : 'client',
    ]);
  }
  let seq = 0;
  for (const s of sales) {
    const demo = ledger[s.index].is_demo;
    await db.query(
      `INSERT INTO wh_client_sales (client_id, seq, ticker, sold_on, quantity, sell_price, avg_cost, cost_basis_amt, proceeds_amt, fees_amt, result_amt, is_demo, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        clientId,
        ++seq,
        s.ticker,
        s.date,
        s.quantity.toFixed(),
        s.price.toFixed(),
        s.avgPrice.toFixed(),
        s.costBasis.toFixed(),
        s.proceeds.toFixed(),
        s.fees.toFixed(),
        s.result.toFixed(),
        demo,
        demo ? 'demo' : 'client',
      ],
    );
  }
}
