import type { DataSource } from 'typeorm';
import { CotaError } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { LedgerError, replay } from '@cota/portfolio';
import { appendEntries, lockClientLedger, readLedger, rebuildDerived } from './store';

export interface ChatTrade {
  kind: 'buy' | 'sell';
  ticker: string;
  quantity: number;
  price: string;
  date: string;
  /** The confirmation's id: a "sim" that arrives twice records the trade once. */
  key: string;
}

/** Trades told in the chat ("comprei 20 HGLG11 a 158,40 hoje"), written to the same ledger as the imports. */
export class LedgerTrades {
  constructor(private readonly db: DataSource) {}

  /** Checks a trade against the ledger without writing it: a sale needs the shares. */
  async check(clientId: string, t: Omit<ChatTrade, 'key'>): Promise<void> {
    this.replayWith(await readLedger(this.db, clientId), t);
  }

  /** Records the trade once per key; returns whether it was new. */
  async record(clientId: string, t: ChatTrade): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockClientLedger(tx, clientId);
      this.replayWith(await readLedger(tx, clientId), t);
      const added = await appendEntries(tx, clientId, [
        {
          entry_id: `chat_${t.key}`,
          kind: t.kind,
          date: t.date,
          ticker: t.ticker,
          quantity: t.quantity,
          price: t.price,
          amount: new Dec(t.quantity).times(t.price).toFixed(2),
          fees: 0,
          institution: null,
          import_id: null,
          line: null,
          is_demo: false,
          source: 'chat',
        },
      ]);
      if (added) await rebuildDerived(tx, clientId);
      return added > 0;
    });
  }

  private replayWith(ledger: Awaited<ReturnType<typeof readLedger>>, t: Omit<ChatTrade, 'key'>): void {
    try {
      replay([...ledger, { kind: t.kind, date: t.date, ticker: t.ticker, quantity: t.quantity, price: t.price, amount: 0 }]);
    } catch (e) {
      if (e instanceof LedgerError) throw new CotaError('BAD_REQUEST', `Não dá para registrar: ${e.message}.`);
      throw e;
    }
  }
}
