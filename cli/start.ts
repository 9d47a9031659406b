import './register-paths';
// Before anything loads pg, ioredis or express: they are instrumented as they load (when tracing is on).
import '../libs/service-kit/src/instrument';
import 'reflect-metadata';
import { SERVICES, ServiceName } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { createLogger, runFromEnv, RunningService, startService, stopOnSignals, withDefaultMetricsPort } from '@cota/service-kit';
import { startEmbedded } from './embedded';
import { cliCommand, commandLineOrExit, oneOf } from './args';
import { SERVICE_DEFINITIONS } from './services';

const log = createLogger('start');

/**
 * `npm start`                  → embedded (no NATS_URL/DATABASE_URL/REDIS_URL) or all seven services, each its own NATS client
 * `npm run start:<service>`    → that service alone (production shape)
 */
async function main(): Promise<void> {
  const { args } = commandLineOrExit(
    cliCommand('npm start --', 'Sobe a Cota: modo embutido (sem NATS_URL, DATABASE_URL e REDIS_URL), os sete serviços, ou um só.').argument(
      '[serviço]',
      `um serviço sozinho (${SERVICES.join(', ')}) ou all`,
      oneOf([...SERVICES, 'all'], 'Serviço'),
    ),
  );
  const which = args[0] as ServiceName | 'all' | undefined;
  if (which && which !== 'all') {
    await runFromEnv(SERVICE_DEFINITIONS[which]);
    return;
  }
  const env = loadEnv();
  const running = env.embedded
    ? await startEmbedded(env)
    : await (async () => {
        const services: RunningService[] = [];
        // Each service on its own default metrics port (COTA_METRICS_PORT would give all seven the same one).
        for (const def of Object.values(SERVICE_DEFINITIONS)) services.push(await startService(def, withDefaultMetricsPort({ ...env, metricsPort: null }, def.name)));
        return {
          url: `http://localhost:${env.port}`,
          services,
          stop: async () => {
            for (const s of services.reverse()) await s.stop();
          },
        };
      })();
  process.stdout.write(
    `\nCota pronta (${env.embedded ? 'modo embutido: um processo, Postgres embutido, memória local' : 'modo distribuído'}).\n` +
      `  Chat:      ${running.url}/\n` +
      `  Pergunta:  curl -s ${running.url}/ask -H 'Authorization: Bearer <chave>' -H 'content-type: application/json' \\\n` +
      `               -d '{"question":"Qual o CNPJ do HGLG11?","conversation_id":"c1","nickname":"Ana","client_id":"<client_id>"}'\n` +
      `  Saúde:     ${running.url}/health/ready\n\n`,
  );
  stopOnSignals(running.stop, log);
}

main().catch((e) => {
  process.stderr.write(`\nO Cota não pôde iniciar: ${(e as Error).message}\n`);
  process.exit(1);
});
