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

function main(argv: string[]): number {
  let file: string | null = null;
  let min: number | null = null;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--min') {
      min = Number(argv[++i]);
      if (!Number.isFinite(min) || min < 0 || min > 1) {
        process.stderr.write('--min must be a fraction between 0 and 1 (e.g. 0.97)\n');
        return 2;
      }
    } else if (a === '--verbose' || a === '-v') verbose = true;
    else if (a.startsWith('-')) {
      process.stderr.write(`unknown option ${a}\nusage: eval-routing [file.jsonl] [--min 0.97] [--verbose]\n`);
      return 2;
    } else file = resolve(a);
  }
  const path = file ?? join(goldenDir(), 'routing_dev.jsonl');
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
