import type { InvokeResponse } from '@cota/contracts';
import { measuredPeriod } from './run-tool';

const ran = (result: unknown, status: 'executed' | 'failed' = 'executed'): InvokeResponse => ({
  status: status === 'executed' ? 'ok' : 'error',
  tool: { name: 'rentabilidade_carteira', args: {}, injected: [], status },
  result,
  message: null,
});

describe('the period a tool measured, left for the next turn', () => {
  it('is the dates its result says, as a question with no subject of its own', () => {
    expect(measuredPeriod(ran({ data_inicio: '2023-01-01', data_fim: '2023-12-31', rentabilidade_pct: '22.03' }))).toMatchObject({
      subjects: [],
      measure: null,
      agg: 'variation',
      period: { kind: 'range', from: '2023-01-01', to: '2023-12-31', grain: 'year' },
    });
    expect(measuredPeriod(ran({ data_inicio: '2024-03-01', data_fim: '2024-06-28' }))?.period).toEqual({ kind: 'range', from: '2024-03-01', to: '2024-06-28', grain: 'days' });
  });

  it('is nothing for a tool that did not run, measured no period, or said dates out of order', () => {
    expect(measuredPeriod(ran({ data_inicio: '2023-01-01', data_fim: '2023-12-31' }, 'failed'))).toBeNull();
    expect(measuredPeriod(ran({ text: 'R$ 1.000,00' }))).toBeNull();
    expect(measuredPeriod(ran({ data_inicio: '2024-01-01', data_fim: '2023-12-31' }))).toBeNull();
    expect(measuredPeriod(ran({ data_inicio: '01/01/2023', data_fim: '31/12/2023' }))).toBeNull();
  });
});
