import { adjustPerShare, detectCorporateActions, niceFactor } from './corporate-actions';

const monthly = (from: string, n: number, div: number) =>
  Array.from({ length: n }, (_, i) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() + i);
    return { ticker: 'TEST11', traded_until_date: d.toISOString().slice(0, 10), dividend_amt: div };
  });
const closes = (entries: Array<[string, number]>) => new Map([['TEST11', new Map(entries)]]);

describe('corporate actions from the data', () => {
  it('finds a 1:10 split that dividends and price show together, with its evidence', () => {
    const divs = [...monthly('2025-01-16', 4, 0.82), ...monthly('2025-05-16', 3, 0.082)];
    const [a, ...rest] = detectCorporateActions(
      divs,
      closes([
        ['2025-03-01', 100],
        ['2025-05-01', 10.2],
        ['2025-06-01', 10],
      ]),
    );
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ ticker: 'TEST11', event_date: '2025-05-16', factor: 10, kind: 'split' });
    expect(a.evidence).toContain('R$ 0,8200');
  });

  it('leaves a payout change alone when the price does not move with it', () => {
    const divs = [...monthly('2024-01-15', 4, 1.2), ...monthly('2024-05-15', 3, 0.1)];
    expect(
      detectCorporateActions(
        divs,
        closes([
          ['2024-03-01', 95],
          ['2024-06-01', 93],
        ]),
      ),
    ).toEqual([]);
    // No price at all: dividends alone are no evidence.
    expect(detectCorporateActions(divs, new Map())).toEqual([]);
  });

  it('does not read a 3x fall of a distressed fund as a split', () => {
    const divs = [...monthly('2024-01-15', 4, 0.9), ...monthly('2024-05-15', 3, 0.3)];
    expect(
      detectCorporateActions(
        divs,
        closes([
          ['2024-03-01', 60],
          ['2024-06-01', 20],
        ]),
      ),
    ).toEqual([]);
    expect(niceFactor(3)).toBeNull();
    expect(niceFactor(9.2)).toBe(10);
    expect(niceFactor(1 / 10.5)).toBe(1 / 10);
  });

  it('puts per-share history before the event on the scale after it', () => {
    const action = { ticker: 'TEST11', event_date: '2025-05-16', factor: 10, kind: 'split' as const, evidence: '' };
    const rows = [...monthly('2025-04-16', 1, 0.82), ...monthly('2025-05-16', 1, 0.08)];
    const adjusted = adjustPerShare(
      rows,
      [action],
      (r) => r.ticker,
      (r) => r.traded_until_date,
      (r, f) => ({ ...r, dividend_amt: r.dividend_amt / f }),
    );
    expect(adjusted.map((r) => r.dividend_amt)).toEqual([expect.closeTo(0.082, 9), 0.08]);
  });
});
