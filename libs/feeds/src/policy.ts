import { Cron } from 'croner';
import { z } from 'zod';
import { loadPolicy } from '@cota/config';
import { FEED_NAMES, type Feed, type FeedName } from './feed';
import { SgsFeed } from './connectors/sgs';
import { CotahistFeed } from './connectors/cotahist';
import { CvmMonthlyFeed } from './connectors/cvm-monthly';
import { FnetFeed } from './connectors/fnet';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
const cron = z.string().refine((p) => {
  try {
    new Cron(p, { paused: true });
    return true;
  } catch {
    return false;
  }
}, 'not a cron expression');
const common = { enabled: z.boolean(), base_url: z.string().url(), schedule: cron, max_lag_days: z.number().int().positive() };

const SgsSeries = z.union([
  z.object({ code: z.number().int().positive(), indicator: z.string().min(1), kind: z.enum(['daily_rate', 'monthly_pct']) }).strict(),
  z.object({ code: z.number().int().positive(), currency: z.string().length(3), side: z.enum(['buy', 'sell']) }).strict(),
]);

export const FeedsPolicySchema = z
  .object({
    timezone: z.string().min(1),
    http_timeout_ms: z.number().int().positive(),
    retry: z.object({ attempts: z.number().int().min(1).max(10), initial_delay_ms: z.number().int().positive(), max_delay_ms: z.number().int().positive() }).strict(),
    lease_s: z.number().int().positive(),
    /** The change events' JetStream stream and the outbox publisher. */
    events: z
      .object({
        /** Events older than this leave the stream (limits retention); replays reach this far back. */
        max_age_days: z.number().int().min(1).max(3650),
        /** The stream's size cap; the oldest events leave first. */
        max_bytes: z.number().int().min(1_048_576),
        /** A message id seen within this window is stored once (a publisher that retries after a crash). */
        duplicate_window_s: z
          .number()
          .int()
          .min(1)
          .max(7 * 86_400),
        /** How often the outbox is swept for events a failed publish left behind (each run publishes its own at once). */
        sweep_every_s: z.number().int().min(1).max(3600),
      })
      .strict(),
    sources: z
      .object({
        'bcb-sgs': z.object({ ...common, start: isoDate, series: z.array(SgsSeries).min(1) }).strict(),
        'b3-cotahist': z.object({ ...common, start: isoDate, max_days_per_run: z.number().int().positive() }).strict(),
        'cvm-dados': z.object({ ...common, years_back: z.number().int().min(0).max(10) }).strict(),
        fnet: z.object({ ...common, page_size: z.number().int().positive().max(200), max_pages: z.number().int().positive() }).strict(),
      })
      .strict(),
  })
  .strict();
export type FeedsPolicy = z.infer<typeof FeedsPolicySchema>;

export function loadFeedsPolicy(dir?: string): FeedsPolicy {
  return loadPolicy('feeds', FeedsPolicySchema, dir);
}

/** `COTA_FEED_URL_BCB_SGS`-style overrides of the base URLs (a mirror, or the tests' recorded files). */
export function withUrlOverrides(policy: FeedsPolicy, env: NodeJS.ProcessEnv): FeedsPolicy {
  const sources = { ...policy.sources };
  for (const name of FEED_NAMES) {
    const url = env[`COTA_FEED_URL_${name.replace(/-/g, '_').toUpperCase()}`];
    if (url) (sources[name] as { base_url: string }).base_url = z.string().url().parse(url);
  }
  return { ...policy, sources };
}

/** The enabled feeds of a policy. */
export function buildFeeds(policy: FeedsPolicy): Feed[] {
  const s = policy.sources;
  const timeoutMs = policy.http_timeout_ms;
  const all: Record<FeedName, () => Feed> = {
    'bcb-sgs': () => new SgsFeed({ baseUrl: s['bcb-sgs'].base_url, series: s['bcb-sgs'].series, start: s['bcb-sgs'].start, timeoutMs }),
    'b3-cotahist': () => new CotahistFeed({ baseUrl: s['b3-cotahist'].base_url, start: s['b3-cotahist'].start, maxDaysPerRun: s['b3-cotahist'].max_days_per_run, timeoutMs }),
    'cvm-dados': () => new CvmMonthlyFeed({ baseUrl: s['cvm-dados'].base_url, yearsBack: s['cvm-dados'].years_back, timeoutMs }),
    fnet: () => new FnetFeed({ baseUrl: s.fnet.base_url, pageSize: s.fnet.page_size, maxPages: s.fnet.max_pages, timeoutMs }),
  };
  return FEED_NAMES.filter((n) => s[n].enabled).map((n) => all[n]());
}
