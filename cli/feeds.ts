import './register-paths';
import 'reflect-metadata';
import { loadEnv } from '@cota/config';
import { createFeedsWorker, FEED_NAMES, FeedName, feedsMigrations, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { createLogger, openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { cliCommand, InvalidArgumentError, parseCommandLine } from './args';

function feedsCommand() {
  return cliCommand('npm run feeds --', 'Roda agora as fontes de dados ao vivo (fora do horário agendado) ou mostra o estado delas.')
    .argument('[fontes...]', `sem fonte: todas as ativas em policies/feeds.yaml (${FEED_NAMES.join(', ')})`, (value: string, previous: FeedName[] = []) => {
      if (!(FEED_NAMES as readonly string[]).includes(value)) throw new InvalidArgumentError(`fonte desconhecida: ${value}.`);
      return [...previous, value as FeedName];
    })
    .option('--status', "mostra marca d'água, defasagem e últimas execuções de cada fonte, sem rodar nada");
}

/** `npm run feeds`: runs live feeds now (outside their schedule) against DATABASE_URL, or shows their state. */
export async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine<{ status?: boolean }>(feedsCommand(), argv);
  if ('help' in parsed) return 0;
  if ('error' in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  const env = loadEnv();
  if (!env.databaseUrl) {
    process.stderr.write('DATABASE_URL não definido: informe o Postgres do data warehouse (no modo embutido os feeds rodam com COTA_FEEDS=on).\n');
    return 2;
  }
  const policy = withUrlOverrides(loadFeedsPolicy(), process.env);
  const ds = await openDatabase({ url: env.databaseUrl, applicationName: 'cota-feeds', statementTimeoutMs: 600000 });
  try {
    await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
    const worker = createFeedsWorker(ds, policy, { log: createLogger('feeds') });
    if (parsed.opts.status) {
      process.stdout.write(`${JSON.stringify(await worker.status(), null, 2)}\n`);
      return 0;
    }
    const chosen = parsed.args.length ? (parsed.args as FeedName[]) : worker.runner.names();
    let failed = 0;
    for (const source of chosen) {
      const r = await worker.runNow(source);
      process.stdout.write(
        r.outcome === 'ok'
          ? `${source}: ${r.rowsAdded} linhas novas, ${r.rowsUpdated} corrigidas (${r.attempts} tentativa(s))${r.notes.length ? `\n  ${r.notes.join('\n  ')}` : ''}\n`
          : `${source}: falhou após ${r.attempts} tentativa(s): ${r.error}\n`,
      );
      if (r.outcome !== 'ok') failed++;
    }
    return failed ? 1 : 0;
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (c) => process.exit(c),
    (e) => {
      process.stderr.write(`Falha nos feeds: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
