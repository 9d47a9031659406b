import { dataDir, goldenDir } from '@cota/config';
import { join } from 'node:path';
import { readLabelledQuestions } from './evaluation';
import { readFunds } from './fund-list';
import { Planner } from './planner';
import { loadPlanningPolicies } from './policies';

export interface Benchmark {
  name: string;
  /** One iteration; the runner times many. */
  run: () => void | Promise<void>;
  /** Target for the mean of one iteration, in milliseconds. */
  targetMeanMs?: number;
}

/**
 * Planning benchmarks for cli/bench.ts (deterministic path, the fund list read from the data folder):
 * one golden question per iteration, cycling through all of them (target: well under 1 ms each),
 * and the whole golden file per iteration.
 */
export function planningBenchmarks(): Benchmark[] {
  const planner = new Planner({ policies: loadPlanningPolicies(), funds: readFunds(dataDir()) });
  const questions = readLabelledQuestions(join(goldenDir(), 'routing_dev.jsonl')).map((r) => r.question);
  let next = 0;
  return [
    {
      name: 'planner.planDeterministic (one golden question)',
      run: () => {
        planner.planDeterministic(questions[next]);
        next = (next + 1) % questions.length;
      },
      targetMeanMs: 0.5,
    },
    {
      // The gateway's second plan of an elliptic follow-up keeps the previous entity.
      name: 'planner.planDeterministic (elliptic follow-up with the previous entity)',
      run: () => {
        planner.planDeterministic('E o do XPML11 em 2024?', { previousEntity: 'fiis_dividendos' });
      },
      targetMeanMs: 0.5,
    },
    {
      // A follow-up planned as an edit of the previous structured question ("e em abril?").
      name: 'planner.planDeterministic (follow-up editing the previous structured question)',
      run: () => {
        planner.planDeterministic('e em abril?', {
          previousEntity: 'fiis_precos',
          previousQuestion: {
            subjects: [{ kind: 'fund', id: 'XPML11' }],
            measure: 'price',
            agg: 'value',
            also: [],
            group_by: null,
            compare: null,
            condition: null,
            period: { kind: 'range', from: '2024-03-01', to: '2024-03-31', grain: 'month' },
          },
        });
      },
      targetMeanMs: 0.5,
    },
    {
      name: `planner.planDeterministic (all ${questions.length} golden questions)`,
      run: () => {
        for (const q of questions) planner.planDeterministic(q);
      },
      targetMeanMs: questions.length * 0.5,
    },
  ];
}
