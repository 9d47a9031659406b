import './register-paths';
import { loadEnv } from '@cota/config';
import { Bus, natsServerAndCredentials, NatsTransport } from '@cota/messaging';

/** `npm run events`: prints the live telemetry stream (`cota.events.>`) of a running system. */
async function main(): Promise<void> {
  const env = loadEnv();
  const url = env.natsUrl ?? 'nats://127.0.0.1:4222';
  const pattern = process.argv[2] ?? 'cota.events.>';
  const transport = await NatsTransport.connect({ url, user: env.natsUser, pass: env.natsPassword, name: 'cota-events-tail' });
  const bus = new Bus(transport, 'events-cli');
  process.stderr.write(`Ouvindo ${pattern} em ${natsServerAndCredentials(url).server} (Ctrl+C para sair)\n`);
  bus.listen(pattern, (subject, payload) => {
    process.stdout.write(JSON.stringify({ subject, ...(payload as object) }) + '\n');
  });
  const stop = async () => {
    await transport.drain();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((e) => {
  process.stderr.write(`Não foi possível conectar ao NATS: ${(e as Error).message}\n`);
  process.exit(1);
});
