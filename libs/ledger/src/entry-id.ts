import { createHash } from 'node:crypto';
import type { StatementEntry } from './b3/statement';

/**
 * Content keys of statement entries: the same row in two exports (the same file uploaded twice, or
 * two overlapping periods) gets the same key and is stored once. Identical rows within one file
 * (two equal buys on a day) are told apart by their order of appearance.
 */
export function entryIds(entries: readonly StatementEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const content = [e.kind, e.date, e.ticker, e.quantity, e.price, e.amount, e.fees ?? 0, e.institution ?? ''].map(String).join('|');
    const n = (seen.get(content) ?? 0) + 1;
    seen.set(content, n);
    return `b3_${createHash('sha256').update(`${content}|${n}`).digest('hex').slice(0, 32)}`;
  });
}

/** The key of a statement's content for one client: the same rows imported again are the same import. */
export function importId(clientId: string, bytes: Buffer): string {
  const content = createHash('sha256').update(bytes).digest('hex');
  return `imp_${createHash('sha256').update(`${clientId}\u0000${content}`).digest('hex').slice(0, 24)}`;
}

export function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
