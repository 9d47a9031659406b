import './register-paths';
import { HealthSubjects, SERVICES, ServiceName } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';

/** Exec probe for NATS-only services: `node dist/cli/health.js <service>` exits 0 when it reports healthy. */
async function main(): Promise<number> {
  const service = process.argv[2] as ServiceName;
  if (!(SERVICES as readonly string[]).includes(service)) {
    process.stderr.write(`usage: health <${SERVICES.join('|')}>\n`);
    return 2;
  }
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
