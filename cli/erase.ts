import './register-paths';
import 'reflect-metadata';
import { CotaError } from '@cota/contracts';
import { CotaEnv, loadEnv } from '@cota/config';
import { Bus, BusClient, NatsTransport } from '@cota/messaging';
import { ClientErasure } from '@cota/orchestration';
import { cliCommand, InvalidArgumentError, parseCommandLine, usageOf } from './args';

/** `--client <id>` (repeatable, or `--client=<id>`). */
function eraseCommand() {
  return cliCommand('npm run erase --', 'Apaga tudo o que a Cota guarda de um cliente (a mesma exclusão de DELETE /me/data).')
    .usage('--client <client_id> [--client <outro>]')
    .option(
      '--client <client_id>',
      'o cliente a apagar (repita para mais de um)',
      (value: string, previous: string[] = []) => {
        if (!value.trim() || value.startsWith('--')) throw new InvalidArgumentError('--client precisa de um client_id.');
        if (value.length > 256 || /[\u0000-\u001f]/.test(value)) throw new InvalidArgumentError('client_id inválido.');
        return [...previous, value.trim()];
      },
      [] as string[],
    );
}

/** The clients to erase, the help (printed), or `{error}` with a pt-BR reason and the usage. */
export function parseEraseArgs(argv: string[]): { clients: string[] } | { help: true } | { error: string } {
  const cmd = eraseCommand();
  const parsed = parseCommandLine<{ client?: string[] }>(cmd, argv);
  if (!('opts' in parsed)) return parsed;
  if (!parsed.opts.client?.length) return { error: usageOf(cmd) };
  return { clients: [...new Set(parsed.opts.client)] };
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
  if ('help' in args) return 0;
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
