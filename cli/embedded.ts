import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CotaEnv, repoRoot } from '@cota/config';
import { InProcessTransport } from '@cota/messaging';
import { Logger, openDatabase, RunningService, startEmbeddedPostgres, startService } from '@cota/service-kit';
import { ensureWarehouse } from '@cota/warehouse';
import { SERVICE_DEFINITIONS } from './services';

const log = new Logger('embedded');

export interface EmbeddedCota {
  url: string;
  services: RunningService[];
  stop(): Promise<void>;
}

/** Plain-language guidance when the raw data is not where it should be. */
export function missingDataMessage(dir: string): string {
  return [
    `Pasta de dados não encontrada: ${dir}`,
    'O Cota constrói o seu banco a partir de arquivos públicos (CVM, B3, Banco Central).',
    'Coloque-os ali, ou aponte COTA_DATA_DIR para a pasta que os contém:',
    '  - CVM, Informe Mensal de FII: https://dados.cvm.gov.br/dataset/fii-doc-inf_mensal',
    '  - B3, fundos listados e índices (IFIX): https://www.b3.com.br',
    '  - Banco Central, séries SGS (Selic, CDI, IPCA): https://www3.bcb.gov.br/sgspub',
    'A organização esperada das pastas está descrita em SOURCES.md do conjunto de dados do projeto.',
  ].join('\n');
}

/**
 * One process with everything: in-process bus, PGlite over a local socket (same pg/TypeORM path
 * as production), in-memory hot state. The warehouse is built on first run and kept in `.cota/`.
 */
export async function startEmbedded(env: CotaEnv, opts: { persistDir?: string | null } = {}): Promise<EmbeddedCota> {
  if (!existsSync(env.dataDir)) throw new Error(missingDataMessage(env.dataDir));
  const persistDir = opts.persistDir === undefined ? join(repoRoot(), '.cota', 'pgdata') : opts.persistDir;
  const pg = await startEmbeddedPostgres(persistDir);
  const database = await openDatabase({ url: pg.url, poolSize: 8, applicationName: 'cota-embedded' });
  const transport = new InProcessTransport();
  const services: RunningService[] = [];
  const stop = async () => {
    for (const s of [...services].reverse()) await s.stop().catch(() => undefined);
    await transport.drain();
    await database.destroy().catch(() => undefined);
    await pg.stop();
  };
  try {
    await ensureWarehouse(database, { dataDir: env.dataDir, log: (m: string) => log.info(m) });
    for (const def of Object.values(SERVICE_DEFINITIONS)) {
      services.push(await startService(def, env, { transport, database, redis: null }));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `http://localhost:${env.port}`, services, stop };
}
