import './register-paths';
import { relative } from 'node:path';
import { loadEnv, repoRoot } from '@cota/config';
import { Bus, natsServerAndCredentials, NatsTransport, readEventTap, subjectMatches } from '@cota/messaging';
import { embeddedEventsSocket } from './event-socket';
import { cliCommand, commandLineOrExit } from './args';

/**
 * `npm run events [pattern]`: prints the live telemetry stream (`cota.events.>`) of a running system:
 * from NATS when `NATS_URL` is set, else from the embedded Cota that `npm start` runs in this checkout.
 */
async function main(): Promise<void> {
  const env = loadEnv();
  const { args } = commandLineOrExit(
    cliCommand('npm run events --', 'Mostra ao vivo os eventos de telemetria de uma Cota em execução (NATS_URL, ou a Cota embutida deste diretório).').argument(
      '[padrão]',
      'assuntos NATS a seguir',
      'cota.events.>',
    ),
  );
  const pattern = args[0] ?? 'cota.events.>';
  if (env.natsUrl) await fromNats(env.natsUrl, env.natsUser ?? null, env.natsPassword ?? null, pattern);
  else await fromEmbedded(pattern);
}

async function fromNats(url: string, user: string | null, pass: string | null, pattern: string): Promise<void> {
  const transport = await NatsTransport.connect({ url, user, pass, name: 'cota-events-tail' }).catch((e: Error) => {
    throw new Error(`Não foi possível conectar ao NATS em ${natsServerAndCredentials(url).server}: ${e.message}`);
  });
  const bus = new Bus(transport, 'events-cli');
  process.stderr.write(`Ouvindo ${pattern} no NATS ${natsServerAndCredentials(url).server} (Ctrl+C para sair)\n`);
  bus.listen(pattern, (subject, payload) => {
    process.stdout.write(JSON.stringify({ subject, ...(payload as object) }) + '\n');
  });
  onStop(() => transport.drain());
}

async function fromEmbedded(pattern: string): Promise<void> {
  const socket = embeddedEventsSocket();
  const shown = relative(process.cwd(), socket) || socket;
  const reader = await readEventTap(socket, (line) => {
    const subject = (JSON.parse(line) as { subject: string }).subject;
    if (subjectMatches(pattern, subject)) process.stdout.write(line + '\n');
  }).catch(() => {
    throw new Error(
      `Modo embutido (NATS_URL não definido): os eventos ficam dentro do processo do \`npm start\` e saem por ${shown}, ` +
        `mas nenhum Cota embutido está rodando em ${repoRoot()}. Inicie \`npm start\` em outro terminal, ` +
        'ou defina NATS_URL para ouvir os serviços distribuídos.',
    );
  });
  process.stderr.write(`Ouvindo ${pattern} do Cota embutido (npm start) por ${shown} (Ctrl+C para sair)\n`);
  reader.on('close', () => {
    process.stderr.write('O Cota embutido parou; fim dos eventos.\n');
    process.exit(0);
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
