import { spawn } from 'node:child_process';
import { connect, StringCodec } from 'nats';

/**
 * The fabric's floor: what the messaging alone costs per question, with no HTTP, JSON parsing,
 * validation, framework or handler. A responder process echoes fixed-size replies; this process
 * runs "skeleton questions" (the calls and events of one real question, same hop structure) at
 * 32 in flight. Their CPU per question, summed over requester, responder and NATS server, is a
 * lower bound no service code can go under on this machine.
 */
export interface FloorResult {
  /** Skeleton questions per second at 32 in flight. */
  questions_per_s: number;
  /** CPU ms per skeleton question: requester + responder + nats-server. */
  cpu_ms_per_question: number;
  /** Round trips and events in one skeleton question. */
  calls: number;
  events: number;
}

/** The calls of the mix's typical question, in its sequential waves ([plan ‖ peek] → resolve → [query ‖ rag] → narrate → commit). */
const WAVES: number[][] = [[700, 1800], [900], [600, 2500], [6000], [900]];
const REPLY_BYTES = 1500;
/** One step event per handler plus the gateway's. */
const EVENTS = 7;
const EVENT_BYTES = 400;

const RESPONDER = `
const { connect } = require(${JSON.stringify(require.resolve('nats'))});
(async () => {
  const nc = await connect({ servers: process.argv[1] });
  const reply = new Uint8Array(${REPLY_BYTES}).fill(120);
  nc.subscribe('bench.floor.call', { queue: 'floor', callback: (_e, m) => m.respond(reply) });
  await nc.flush();
  process.stdout.write('ready\\n');
})();
`;

export async function fabricFloor(natsUrl: string, natsPid: number, cpuOf: (pid: number) => number, seconds = 5, inFlight = 32): Promise<FloorResult> {
  const responder = spawn(process.execPath, ['-e', RESPONDER, natsUrl], { stdio: ['ignore', 'pipe', 'inherit'], cwd: process.cwd() });
  await new Promise<void>((resolve, reject) => {
    responder.stdout!.once('data', () => resolve());
    responder.once('exit', () => reject(new Error('the floor responder exited')));
  });
  const nc = await connect({ servers: natsUrl });
  const sc = StringCodec();
  const payloads = WAVES.map((wave) => wave.map((bytes) => sc.encode('x'.repeat(bytes))));
  const event = sc.encode('e'.repeat(EVENT_BYTES));
  const question = async () => {
    for (const wave of payloads) await Promise.all(wave.map((p) => nc.request('bench.floor.call', p, { timeout: 5000 })));
    for (let i = 0; i < EVENTS; i++) nc.publish('bench.floor.event', event);
  };
  try {
    for (let i = 0; i < 200; i++) await question(); // warm-up
    const pids = [process.pid, responder.pid!, natsPid];
    const before = pids.map(cpuOf);
    const until = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (Date.now() < until) {
          await question();
          done++;
        }
      }),
    );
    const spent = pids.map((p, i) => cpuOf(p) - before[i]).reduce((a, b) => a + b, 0);
    return {
      questions_per_s: Math.round(done / seconds),
      cpu_ms_per_question: Math.round((spent / Math.max(1, done)) * 1000) / 1000,
      calls: WAVES.flat().length,
      events: EVENTS,
    };
  } finally {
    await nc.drain();
    responder.kill('SIGTERM');
  }
}

/**
 * The replies of the services to one question, recorded on the wire (a listener on requests and
 * on reply inboxes) while `ask` runs: the canned services of the framework floor answer with them.
 * Throws when a subject the question called gave no successful reply.
 */
export async function recordReplies(natsUrl: string, ask: () => Promise<void>): Promise<Record<string, unknown>> {
  const nc = await connect({ servers: natsUrl, name: 'cota-bench-recorder' });
  const sc = StringCodec();
  const asked = new Map<string, string>();
  const replies: Record<string, unknown> = {};
  nc.subscribe('cota.>', { callback: (_e, m) => m.reply && !m.subject.includes('.health.') && asked.set(m.reply, m.subject) });
  nc.subscribe('_INBOX.>', {
    callback: (_e, m) => {
      const subject = asked.get(m.subject);
      if (!subject) return;
      // The bus's reply envelope: { ok: true, data } or { ok: false, error }.
      const reply = JSON.parse(sc.decode(m.data)) as { ok: boolean; data?: unknown };
      if (reply.ok) replies[subject] = reply.data;
    },
  });
  try {
    await nc.flush();
    await ask();
    await nc.flush();
    // Every subject the question called must have answered, or a canned service would leave it unanswered.
    const missing = [...new Set(asked.values())].filter((subject) => !(subject in replies));
    if (missing.length) throw new Error(`no reply recorded for ${missing.join(', ')}`);
    return replies;
  } finally {
    await nc.drain();
  }
}
