import './register-paths';
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { ContextSubjects, CotaError } from '@cota/contracts';
import { CotaEnv, loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';

const USAGE = 'Uso: npm run feedback:export -- [--rating down|up] [--since 2026-11-01] [--out arquivo.jsonl]';

export interface FeedbackExportArgs {
  rating: 'up' | 'down' | null;
  since: string | null;
  out: string | null;
}

/** `--rating`, `--since`, `--out` (each also as `--name=value`); `{error}` with a pt-BR reason when the arguments are wrong. */
export function parseFeedbackExportArgs(argv: string[]): FeedbackExportArgs | { error: string } {
  const args: FeedbackExportArgs = { rating: null, since: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = inline ?? argv[++i];
    if (!['--rating', '--since', '--out'].includes(flag)) return { error: `argumento desconhecido '${argv[i]}'. ${USAGE}` };
    if (!value || value.startsWith('--')) return { error: `${flag} precisa de um valor. ${USAGE}` };
    if (flag === '--rating') {
      if (value !== 'up' && value !== 'down') return { error: `--rating deve ser 'up' ou 'down'. ${USAGE}` };
      args.rating = value;
    } else if (flag === '--since') {
      if (Number.isNaN(Date.parse(value))) return { error: `--since deve ser uma data (2026-11-01). ${USAGE}` };
      args.since = new Date(value).toISOString();
    } else args.out = value;
  }
  return args;
}

/**
 * `npm run feedback:export`: the verdicts people gave on answers (👍/👎 on the chat page) as
 * answer-eval cases, one JSON per line (test/eval/answers/README.md "Format"), from the running
 * services over NATS; on stdout or into `--out`. In embedded mode the same is `GET /ops/feedback_export`.
 */
export async function runFeedbackExport(
  argv: string[],
  env: CotaEnv,
  out: (text: string) => void = (t) => process.stdout.write(t),
  err: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Promise<number> {
  const args = parseFeedbackExportArgs(argv);
  if ('error' in args) {
    err(args.error);
    return 2;
  }
  if (!env.natsUrl) {
    err(
      'NATS_URL não definido: a exportação pede as avaliações ao serviço de contexto pelo NATS. No modo embutido (um processo), use GET /ops/feedback_export com COTA_OPS_TOKEN.',
    );
    return 2;
  }
  const transport = await NatsTransport.connect({ url: env.natsUrl, user: env.natsUser, pass: env.natsPassword, name: 'cota-feedback-export' });
  try {
    const { cases } = await new Bus(transport, 'gateway').call(ContextSubjects.feedbackExport, { rating: args.rating, since: args.since, limit: 10_000 });
    const jsonl = cases.map((c) => JSON.stringify(c) + '\n').join('');
    if (args.out) {
      writeFileSync(args.out, jsonl);
      err(`${cases.length} caso(s) gravado(s) em ${args.out}`);
    } else out(jsonl);
    return 0;
  } catch (e) {
    err(`Falha ao exportar as avaliações: ${CotaError.is(e) ? `${e.code}: ${e.message}` : (e as Error).message}`);
    return 1;
  } finally {
    await transport.drain();
  }
}

if (require.main === module) {
  runFeedbackExport(process.argv.slice(2), loadEnv()).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`Não foi possível exportar: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
