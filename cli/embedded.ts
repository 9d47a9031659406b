import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CotaEnv, repoRoot } from '@cota/config';
import { BusMetrics, EventTap, InProcessTransport, serveEventTap, subjectMatches } from '@cota/messaging';
import { createLogger, openDatabase, RunningService, runMigrations, startEmbeddedPostgres, startService } from '@cota/service-kit';
import { ensureWarehouse, missingDataMessage } from '@cota/warehouse';
import { createFeedsWorker, feedsMigrations, FeedsWorker, loadFeedsPolicy, storedChangeEvents, withUrlOverrides } from '@cota/feeds';
import { embeddedEventsSocket } from './event-socket';
import { SERVICE_DEFINITIONS } from './services';

const log = createLogger('embedded');

export interface EmbeddedCota {
  url: string;
  services: RunningService[];
  stop(): Promise<void>;
}

/**
 * One process with everything: in-process bus, PGlite over a local socket (same pg/TypeORM path
 * as production), in-memory hot state. The warehouse is built on first run and kept in `.cota/`.
 */
export async function startEmbedded(env: CotaEnv, opts: { persistDir?: string | null } = {}): Promise<EmbeddedCota> {
  const missing = missingDataMessage(env.dataDir);
  if (missing) throw new Error(missing);
  // COTA_EMBEDDED_STORE=memory keeps the embedded Postgres in memory (throwaway runs, smoke tests).
  const persistDir = opts.persistDir !== undefined ? opts.persistDir : process.env.COTA_EMBEDDED_STORE === 'memory' ? null : join(repoRoot(), '.cota', 'pgdata');
  const pg = await startEmbeddedPostgres(persistDir);
  // One connection: PGlite runs one query at a time anyway, and its socket server mixes up the
  // extended protocol of concurrent connections under a burst ("unnamed prepared statement does not exist").
  const database = await openDatabase({ url: pg.url, poolSize: 1, applicationName: 'cota-embedded' });
  const transport = new InProcessTransport();
  // One registry for the seven services: the gateway's /metrics serves it (no metrics port when embedded).
  const metrics = new BusMetrics();
  const services: RunningService[] = [];
  let tap: EventTap | null = null;
  let feeds: FeedsWorker | null = null;
  const stop = async () => {
    await feeds?.stop().catch(() => undefined);
    await tap?.close();
    for (const s of [...services].reverse()) await s.stop().catch(() => undefined);
    await transport.drain();
    await database.destroy().catch(() => undefined);
    await pg.stop();
  };
  try {
    await ensureWarehouse(database, { dataDir: env.dataDir, log });
    for (const def of Object.values(SERVICE_DEFINITIONS)) {
      services.push(await startService(def, env, { transport, database, redis: null, metrics }));
    }
    tap = await openEventTap(transport, database, opts.persistDir === undefined);
    feeds = await startEmbeddedFeeds(database, metrics, transport);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `http://localhost:${env.port}`, services, stop };
}

/** Serves the events to `npm run events`; without the socket Cota still runs, with a warning saying why. */
async function openEventTap(transport: InProcessTransport, database: Awaited<ReturnType<typeof openDatabase>>, wanted: boolean): Promise<EventTap | null> {
  if (!wanted) return null; // tests and benchmarks that bring their own store dir do not compete for the socket
  try {
    mkdirSync(dirname(embeddedEventsSocket()), { recursive: true });
    // Replays (`npm run events -- --since 1h`) read the warehouse change events kept in the feed_events outbox.
    const replay = async (since: Date, pattern: string) => (await storedChangeEvents(database, since)).filter((e) => subjectMatches(pattern, e.subject));
    const tap = await serveEventTap(transport, embeddedEventsSocket(), replay);
    log.info({ socket: tap.path }, 'events served to `npm run events`');
    return tap;
  } catch (e) {
    log.warn({ reason: (e as Error).message }, 'events not served to `npm run events`');
    return null;
  }
}

/**
 * The live feeds' timer in embedded mode, opt-in with COTA_FEEDS=on (it reads the public sources over the
 * internet, or the mirrors COTA_FEED_URL_* name): the same schedule, claim and metrics as the ingest worker.
 */
async function startEmbeddedFeeds(database: Awaited<ReturnType<typeof openDatabase>>, metrics: BusMetrics, transport: InProcessTransport): Promise<FeedsWorker | null> {
  if (process.env.COTA_FEEDS !== 'on') return null;
  const policy = withUrlOverrides(loadFeedsPolicy(), process.env);
  await runMigrations(database, feedsMigrations);
  // No JetStream in one process: the outbox (feed_events) is where the change events are kept, and each
  // is published once on the in-process bus, where the executor hears it and `npm run events` sees it.
  const events = { publish: async (subject: string, data: string) => transport.publish(subject, data) };
  const worker = createFeedsWorker(database, policy, { registry: metrics.registry, log, events });
  worker.start();
  log.info('live feeds on (COTA_FEEDS=on): see the runs with npm run feeds -- --status');
  return worker;
}
