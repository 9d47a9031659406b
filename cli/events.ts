import './register-paths';
import { relative } from 'node:path';
import { loadEnv, repoRoot } from '@cota/config';
import { Bus, natsServerAndCredentials, NatsTransport, readEventTap, requestTapReplay, subjectMatches, WarehouseStream } from '@cota/messaging';
import { WAREHOUSE_STREAM } from '@cota/contracts';
import { embeddedEventsSocket } from './event-socket';
import { EventsArgs, parseEventsArgs } from './events-args';

const USAGE = `uso: npm run events -- [padrão] [--since 1h|30m|2d|<data ISO>] [--subject <padrão>] [--follow]
  sem --since: mostra ao vivo os eventos (cota.events.>) de um Cota rodando
  com --since: repete os eventos de mudança do warehouse (cota.events.warehouse.>) guardados desde então`;

/**
 * `npm run events`: prints the live events (`cota.events.>`) of a running system, or with `--since` replays
 * the warehouse change events kept since then: from NATS (the JetStream stream) when `NATS_URL` is set, else
 * from the embedded Cota that `npm start` runs in this checkout (which keeps them in its feed_events outbox).
 */
async function main(): Promise<void> {
  const env = loadEnv();
  let args: EventsArgs;
  try {
    args = parseEventsArgs(process.argv.slice(2));
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${USAGE}`);
  }
  if (env.natsUrl) await fromNats(env.natsUrl, env.natsUser ?? null, env.natsPassword ?? null, args);
  else await fromEmbedded(args);
}

const print = (subject: string, payload: unknown) => process.stdout.write(JSON.stringify({ subject, ...(payload as object) }) + '\n');

async function fromNats(url: string, user: string | null, pass: string | null, args: EventsArgs): Promise<void> {
  const server = natsServerAndCredentials(url).server;
  const transport = await NatsTransport.connect({ url, user, pass, name: 'cota-events-tail' }).catch((e: Error) => {
    throw new Error(`Não foi possível conectar ao NATS em ${server}: ${e.message}`);
  });
  onStop(() => transport.drain());
  if (args.since) {
    const stream = WarehouseStream.of(transport)!;
    const info = await stream.info().catch((e: Error) => {
      throw new Error(`O NATS em ${server} não respondeu pelo JetStream (${e.message}): os eventos de mudança ficam no stream ${WAREHOUSE_STREAM}, criado pelo ingest-worker.`);
    });
    if (!info) throw new Error(`O stream ${WAREHOUSE_STREAM} ainda não existe no NATS em ${server}: ele é criado quando o ingest-worker inicia.`);
    process.stderr.write(`Repetindo ${args.pattern} desde ${args.since.toISOString()} do stream ${WAREHOUSE_STREAM} (${info.state.messages} eventos guardados)\n`);
    const n = await stream.replay(args.pattern, args.since, (e) => print(e.subject, JSON.parse(e.data)), { follow: args.follow });
    process.stderr.write(`${n} evento(s).\n`);
    await transport.drain();
    process.exit(0);
  }
  const bus = new Bus(transport, 'events-cli');
  process.stderr.write(`Ouvindo ${args.pattern} no NATS ${server} (Ctrl+C para sair)\n`);
  bus.listen(args.pattern, print);
}

async function fromEmbedded(args: EventsArgs): Promise<void> {
  const socket = embeddedEventsSocket();
  const shown = relative(process.cwd(), socket) || socket;
  let replaying = args.since !== null;
  const reader = await readEventTap(socket, (line) => {
    const event = JSON.parse(line) as { subject?: string; replay_done?: number; stored?: boolean };
    if (event.replay_done !== undefined) {
      process.stderr.write(`${event.replay_done} evento(s).\n`);
      replaying = false;
      if (!args.follow) process.exit(0);
      process.stderr.write(`Ouvindo ${args.pattern} do Cota embutido (Ctrl+C para sair)\n`);
      return;
    }
    if (event.subject && subjectMatches(args.pattern, event.subject)) process.stdout.write(line + '\n');
  }).catch(() => {
    throw new Error(
      `Modo embutido (NATS_URL não definido): os eventos ficam dentro do processo do \`npm start\` e saem por ${shown}, ` +
        `mas nenhum Cota embutido está rodando em ${repoRoot()}. Inicie \`npm start\` em outro terminal, ` +
        'ou defina NATS_URL para ouvir os serviços distribuídos.' +
        (args.since
          ? ' Sem JetStream, os eventos de mudança do warehouse ficam na tabela feed_events do Postgres embutido (.cota/pgdata), ' +
            'gravados quando os feeds rodam (COTA_FEEDS=on); com o Cota embutido rodando, --since os repete de lá.'
          : ''),
    );
  });
  if (args.since) {
    process.stderr.write(
      `Modo embutido: sem JetStream, os eventos de mudança do warehouse ficam na tabela feed_events do Postgres embutido (.cota/pgdata); ` +
        `repetindo ${args.pattern} desde ${args.since.toISOString()} pelo Cota embutido em ${shown}\n`,
    );
    requestTapReplay(reader, args.since, args.pattern);
  } else process.stderr.write(`Ouvindo ${args.pattern} do Cota embutido (npm start) por ${shown} (Ctrl+C para sair)\n`);
  reader.on('close', () => {
    process.stderr.write(replaying ? 'O Cota embutido parou antes de terminar a repetição.\n' : 'O Cota embutido parou; fim dos eventos.\n');
    process.exit(replaying ? 1 : 0);
  });
  onStop(async () => void reader.destroy());
}

function onStop(stop: () => Promise<void>): void {
  const end = async () => {
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void end());
  process.once('SIGTERM', () => void end());
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
