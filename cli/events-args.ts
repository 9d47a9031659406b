/** `npm run events` arguments: `[pattern] [--since 1h|30m|2d|<ISO time>] [--subject <filter>] [--follow]`. */
export interface EventsArgs {
  /** Subjects to show (NATS wildcards). */
  pattern: string;
  /** Replay the stored warehouse change events from this time; null: live only. */
  since: Date | null;
  /** After a replay, keep printing new events. */
  follow: boolean;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1h`, `90m`, `2d`, `45s` before `now`, or an ISO date/time. */
export function parseSince(text: string, now: Date = new Date()): Date {
  const m = /^(\d+)\s*([smhd])$/i.exec(text.trim());
  if (m) return new Date(now.getTime() - Number(m[1]) * UNITS[m[2].toLowerCase()]);
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const d = new Date(text.trim());
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new Error(`--since: '${text}' não é uma duração (30m, 1h, 2d) nem uma data (2026-11-27 ou 2026-11-27T10:00:00Z)`);
}

export function parseEventsArgs(argv: string[], now: Date = new Date()): EventsArgs {
  let pattern: string | null = null;
  let since: Date | null = null;
  let follow = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} precisa de um valor`);
      return v;
    };
    if (a === '--since') since = parseSince(value(), now);
    else if (a === '--subject') pattern = value();
    else if (a === '--follow' || a === '-f') follow = true;
    else if (a.startsWith('--')) throw new Error(`opção desconhecida: ${a}`);
    else pattern = a;
  }
  // A replay reads the warehouse change events (the only ones kept); the live tail shows every event.
  return { pattern: pattern ?? (since ? 'cota.events.warehouse.>' : 'cota.events.>'), since, follow };
}
