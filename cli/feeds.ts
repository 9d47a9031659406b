import './register-paths';
import 'reflect-metadata';
import { loadEnv } from '@cota/config';
import { createFeedsWorker, FEED_NAMES, FeedName, feedsMigrations, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { createLogger, openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';

const USAGE = `uso: npm run feeds -- [--status] [fonte ...]
  sem fonte: roda agora todas as fontes ativas em policies/feeds.yaml (${FEED_NAMES.join(', ')})
  --status: mostra marca d'água, defasagem e últimas execuções de cada fonte, sem rodar nada`;

/** `npm run feeds`: runs live feeds now (outside their schedule) against DATABASE_URL, or shows their state. */
export async function main(argv: string[]): Promise<number> {
  const env = loadEnv();
  if (!env.databaseUrl) {
    process.stderr.write('DATABASE_URL não definido: informe o Postgres do data warehouse (no modo embutido os feeds rodam com COTA_FEEDS=on).\n');
    return 2;
  }
  const unknown = argv.filter((a) => a !== '--status' && !(FEED_NAMES as readonly string[]).includes(a));
  if (unknown.length) {
    process.stderr.write(`fonte desconhecida: ${unknown.join(', ')}\n${USAGE}\n`);
    return 2;
  }
  const policy = withUrlOverrides(loadFeedsPolicy(), process.env);
  const ds = await openDatabase({ url: env.databaseUrl, applicationName: 'cota-feeds', statementTimeoutMs: 600000 });
  try {
    await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
    const worker = createFeedsWorker(ds, policy, { log: createLogger('feeds') });
    if (argv.includes('--status')) {
      process.stdout.write(`${JSON.stringify(await worker.status(), null, 2)}\n`);
      return 0;
    }
    const chosen = (argv.length ? argv : worker.runner.names()) as FeedName[];
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
