import './register-paths';
import 'reflect-metadata';
import { CotaError } from '@cota/contracts';
import { CotaEnv, loadEnv } from '@cota/config';
import { Bus, BusClient, NatsTransport } from '@cota/messaging';
import { ClientErasure } from '@cota/orchestration';

const USAGE = 'Uso: npm run erase -- --client <client_id> [--client <outro>]';

/** `--client <id>` (repeatable, or `--client=<id>`); `{error}` with a pt-BR reason when the arguments are wrong. */
export function parseEraseArgs(argv: string[]): { clients: string[] } | { error: string } {
  const clients: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let value: string | undefined;
    if (a === '--client') value = argv[++i];
    else if (a.startsWith('--client=')) value = a.slice('--client='.length);
    else return { error: `argumento desconhecido '${a}'. ${USAGE}` };
    if (!value || !value.trim() || value.startsWith('--')) return { error: `--client precisa de um client_id. ${USAGE}` };
    if (value.length > 256 || /[\u0000-\u001f]/.test(value)) return { error: `client_id inválido. ${USAGE}` };
    clients.push(value.trim());
  }
  if (!clients.length) return { error: USAGE };
  return { clients: [...new Set(clients)] };
}

/**
 * `npm run erase -- --client <id>`: the operator's erasure of a client (issue 11), the same
 * orchestration as `DELETE /me/data` and `POST /ops/erase`, over the running services' NATS. Prints one
 * JSON receipt per client on stdout. Exit 0 when every erasure completed; 1 when one failed (rerun: idempotent).
 */
export async function runErase(
  argv: string[],
  env: CotaEnv,
  out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
  err: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Promise<number> {
  const args = parseEraseArgs(argv);
  if ('error' in args) {
    err(args.error);
    return 2;
  }
  if (!env.natsUrl) {
    err(
      'NATS_URL não definido: a exclusão fala com os serviços em execução (context, executor, gateway) pelo NATS. ' +
        'No modo embutido (um processo), use POST /ops/erase com COTA_OPS_TOKEN, ou o próprio cliente DELETE /me/data.',
    );
    return 2;
  }
  const transport = await NatsTransport.connect({ url: env.natsUrl, user: env.natsUser, pass: env.natsPassword, name: 'cota-erase' });
  try {
    const erasure = new ClientErasure(new BusClient(new Bus(transport, 'gateway')));
    let code = 0;
    for (const clientId of args.clients) {
      try {
        out(JSON.stringify(await erasure.erase(clientId, 'ops'), null, 2));
      } catch (e) {
        const why = CotaError.is(e) ? `${e.code}${e.service ? ` (${e.service})` : ''}: ${e.message}` : (e as Error).message;
        err(`Falha ao apagar os dados de '${clientId}': ${why}. Nada impede repetir o comando (a exclusão é idempotente).`);
        code = 1;
      }
    }
    return code;
  } finally {
    await transport.drain();
  }
}

if (require.main === module) {
  runErase(process.argv.slice(2), loadEnv()).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`Não foi possível apagar: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
