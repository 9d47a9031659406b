import { Cron } from 'croner';

/**
 * The slot a schedule is in at `now`: the latest time its cron expression fired (in the policy's time
 * zone). Every replica computes the same slot, so the (source, slot) claim lets one of them run it.
 */
export function currentSlot(pattern: string, timezone: string, now: Date): Date | null {
  const [last] = new Cron(pattern, { timezone, paused: true }).previousRuns(1, now);
  return last ?? null;
}

/** Milliseconds until the schedule next fires after `now`. */
export function msUntilNext(pattern: string, timezone: string, now: Date): number | null {
  const next = new Cron(pattern, { timezone, paused: true }).nextRun(now);
  return next ? Math.max(0, next.getTime() - now.getTime()) : null;
}
