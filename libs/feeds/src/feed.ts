import type { Row } from './rows';

/** The public sources Cota reads on a schedule (the `source` of every row they write). */
export const FEED_NAMES = ['bcb-sgs', 'b3-cotahist', 'cvm-dados', 'fnet'] as const;
export type FeedName = (typeof FEED_NAMES)[number];

/** Where a feed stopped reading: its own JSON shape, stored per source and advanced only with the rows it read. */
export type Watermark = Record<string, unknown>;

/** Rows read in one run, by warehouse table, and where the next run starts. */
export interface FeedBatch {
  tables: Record<string, Row[]>;
  watermark: Watermark;
  /** Newest date the source's data reaches after this run (the lag is counted from it). */
  dataUntil: string | null;
  /** What the run skipped and why (a rejected document, a day not published yet). */
  notes: string[];
}

/** One public source: reads what is new since `watermark`, up to `today` (America/Sao_Paulo). */
export interface Feed {
  readonly name: FeedName;
  read(watermark: Watermark, today: string): Promise<FeedBatch>;
}
