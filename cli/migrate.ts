import './register-paths';
import { loadEnv } from '@cota/config';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { SERVICE_DEFINITIONS } from './services';

/** `npm run migrate`: applies every service's migrations to DATABASE_URL (services also do it at start). */
async function main(): Promise<number> {
  const env = loadEnv();
  if (!env.databaseUrl) {
    process.stderr.write('DATABASE_URL não definido: nada a migrar (no modo embutido o `npm start` migra sozinho).\n');
    return 1;
  }
  const ds = await openDatabase({ url: env.databaseUrl, applicationName: 'cota-migrate' });
  try {
    const all = Object.values(SERVICE_DEFINITIONS).flatMap((d) => d.migrations);
    const unique = [...new Map(all.map((m) => [m.id, m])).values()];
    const applied = await runMigrations(ds, unique);
    process.stdout.write(applied.length ? `Migrações aplicadas: ${applied.join(', ')}\n` : 'Banco já atualizado.\n');
    return 0;
  } finally {
    await ds.destroy();
  }
}

main().then(
  (c) => process.exit(c),
  (e) => {
    process.stderr.write(`Falha ao migrar: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
