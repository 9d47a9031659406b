import './register-paths';
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { ContextSubjects, CotaError } from '@cota/contracts';
import { CotaEnv, loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { cliCommand, InvalidArgumentError, parseCommandLine } from './args';

export interface FeedbackExportArgs {
  rating: 'up' | 'down' | null;
  since: string | null;
  out: string | null;
}

function feedbackExportCommand() {
  return cliCommand('npm run feedback:export --', 'As avaliações das respostas (👍/👎) como casos de avaliação, um JSON por linha.')
    .usage('[--rating down|up] [--since 2026-11-01] [--out arquivo.jsonl]')
    .option('--rating <down|up>', 'só as avaliações deste tipo', (value: string) => {
      if (value !== 'up' && value !== 'down') throw new InvalidArgumentError("--rating deve ser 'up' ou 'down'.");
      return value;
    })
    .option('--since <data>', 'só as avaliações desde esta data', (value: string) => {
      if (Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('--since deve ser uma data (2026-11-01).');
      return new Date(value).toISOString();
    })
    .option('--out <arquivo>', 'grava neste arquivo em vez da saída padrão');
}

/** `--rating`, `--since`, `--out` (each also as `--name=value`); the help (printed); or `{error}` with a pt-BR reason. */
export function parseFeedbackExportArgs(argv: string[]): FeedbackExportArgs | { help: true } | { error: string } {
  const parsed = parseCommandLine<{ rating?: 'up' | 'down'; since?: string; out?: string }>(feedbackExportCommand(), argv);
  if (!('opts' in parsed)) return parsed;
  const { rating, since, out } = parsed.opts;
  return { rating: rating ?? null, since: since ?? null, out: out ?? null };
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
  if ('help' in args) return 0;
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
