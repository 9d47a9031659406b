/**
 * Routing quality: `npm run eval:routing -- [file.jsonl] [--min 0.97] [--verbose]`.
 * Plans every labelled question with the policies of this repo and the fund list read from the
 * data folder (no services needed); prints accuracy, per-entity confusion and the misses, and
 * exits non-zero when accuracy is below --min.
 */
import './register-paths';
import { join, resolve } from 'node:path';
import { dataDir, goldenDir } from '@cota/config';
import { Planner, evaluateRouting, formatRoutingReport, loadPlanningPolicies, readFunds, readLabelledQuestions } from '@cota/planning';
import { cliCommand, fraction, parseCommandLine } from './args';

function main(argv: string[]): number {
  const cmd = cliCommand('npm run eval:routing --', 'Avalia o roteamento do planner nas perguntas rotuladas.')
    .argument('[arquivo]', 'perguntas rotuladas em JSONL (padrão: routing_dev.jsonl do golden)')
    .option('--min <fração>', 'falha se a acurácia ficar abaixo desta fração (0 a 1)', fraction)
    .option('-v, --verbose', 'mostra cada pergunta');
  const parsed = parseCommandLine<{ min?: number; verbose?: boolean }>(cmd, argv);
  if ('help' in parsed) return 0;
  if ('error' in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  const min = parsed.opts.min ?? null;
  const verbose = Boolean(parsed.opts.verbose);
  const path = parsed.args[0] ? resolve(parsed.args[0]) : join(goldenDir(), 'routing_dev.jsonl');
  const planner = new Planner({ policies: loadPlanningPolicies(), funds: readFunds(dataDir()) });
  const report = evaluateRouting(planner, readLabelledQuestions(path));
  process.stdout.write(`routing evaluation of ${path}\n${formatRoutingReport(report, verbose)}\n`);
  if (min !== null && report.accuracy < min) {
    process.stdout.write(`FAIL: accuracy ${(report.accuracy * 100).toFixed(1)}% is below ${(min * 100).toFixed(1)}%\n`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`eval-routing: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
