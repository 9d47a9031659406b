import { join } from 'node:path';
import { goldenDir, repoRoot } from '@cota/config';
import { evaluateRouting, formatRoutingReport, readLabelledQuestions } from './evaluation';
import { realPlanner } from './test-helpers';

/**
 * Routing quality on labelled questions read in place: the golden file (shipped beside the data)
 * and two sets of our own phrasings (test/planner) the ontology was not written from.
 */
describe('routing quality', () => {
  const planner = realPlanner();
  const check = (file: string, min: number) => {
    const report = evaluateRouting(planner, readLabelledQuestions(file));
    if (report.accuracy < min) throw new Error(`accuracy ${report.accuracy} < ${min}\n${formatRoutingReport(report, true)}`);
    return report;
  };

  it('routes at least 97% of the golden questions to the expected entity', () => {
    const r = check(join(goldenDir(), 'routing_dev.jsonl'), 0.97);
    expect(r.total).toBe(235);
  });

  it('generalises to held-out phrasings (colloquial, no accents, typos): at least 95%', () => {
    const a = check(join(repoRoot(), 'test', 'planner', 'heldout_routing.jsonl'), 0.95);
    const b = check(join(repoRoot(), 'test', 'planner', 'blind_routing.jsonl'), 0.95);
    // At least 5 questions per catalog entity in each set.
    for (const r of [a, b]) {
      expect(Object.keys(r.confusion)).toHaveLength(22);
      for (const row of Object.values(r.confusion)) expect(Object.values(row).reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(5);
    }
  });

  it('reports confusion and misses for a labelled file', () => {
    const r = evaluateRouting(planner, [
      { question: 'Qual o CNPJ do HGLG11?', expected_entity: 'fiis_cadastro' },
      { question: 'Qual o CNPJ do HGLG11?', expected_entity: 'fiis_precos' },
    ]);
    expect(r).toMatchObject({ total: 2, correct: 1, accuracy: 0.5 });
    expect(r.confusion.fiis_precos).toEqual({ fiis_cadastro: 1 });
    expect(r.misses[0]).toMatchObject({ expected: 'fiis_precos', got: 'fiis_cadastro' });
    expect(formatRoutingReport(r)).toMatch(/accuracy \(accepted and correct\): 1\/2 = 50\.0%/);
  });
});
