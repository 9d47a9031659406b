import './register-paths';
import { HealthSubjects, SERVICES, ServiceName } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { cliCommand, commandLineOrExit, oneOf } from './args';

/** Exec probe for NATS-only services: `node dist/cli/health.js <service>` exits 0 when it reports healthy. */
async function main(): Promise<number> {
  const { args } = commandLineOrExit(
    cliCommand('node dist/cli/health.js', 'Sonda de execução de um serviço só de NATS: sai com 0 quando ele se diz saudável.').argument(
      '<serviço>',
      SERVICES.join(', '),
      oneOf(SERVICES, 'Serviço'),
    ),
  );
  const service = args[0] as ServiceName;
  const env = loadEnv();
  if (!env.natsUrl) {
    process.stderr.write('NATS_URL is not set\n');
    return 1;
  }
  const transport = await NatsTransport.connect({ url: env.natsUrl, user: env.natsUser, pass: env.natsPassword, name: `cota-health-${service}` });
  try {
    const h = await new Bus(transport, 'health-cli').call(HealthSubjects[service], {}, { timeoutMs: 2000 });
    process.stdout.write(JSON.stringify(h) + '\n');
    return h.ok ? 0 : 1;
  } catch (e) {
    process.stderr.write(`${service}: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await transport.drain();
  }
}

main().then(
  (code) => process.exit(code),
  () => process.exit(1),
);
