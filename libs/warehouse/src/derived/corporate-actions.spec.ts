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

  it('regression: a split whose price step shows a month before the dividend step (ALZC11, April 2025)', () => {
    // araquem fiis_dividends.csv ALZC11: R$ 1,55 (19/03/2025), R$ 1,10 (15/04/2025), then R$ 0,12 (16/05/2025),
    // 0,12, 0,10; fiis_dividends_yields.csv month closes R$ 79,13 (03/2025), R$ 8,63 (04/2025), R$ 8,65 (05/2025), 8,21.
    const divs = [
      { ticker: 'TEST11', traded_until_date: '2025-03-19', dividend_amt: 1.55 },
      { ticker: 'TEST11', traded_until_date: '2025-04-15', dividend_amt: 1.1 },
      { ticker: 'TEST11', traded_until_date: '2025-05-16', dividend_amt: 0.12 },
      { ticker: 'TEST11', traded_until_date: '2025-06-16', dividend_amt: 0.12 },
      { ticker: 'TEST11', traded_until_date: '2025-07-15', dividend_amt: 0.1 },
    ];
    const [a, ...rest] = detectCorporateActions(
      divs,
      closes([
        ['2025-03-01', 79.13],
        ['2025-04-01', 8.63],
        ['2025-05-01', 8.65],
        ['2025-06-01', 8.21],
      ]),
    );
    expect(rest).toEqual([]);
    // Dividends before 16/05/2025 and closes before April are on the old scale.
    expect(a).toMatchObject({ event_date: '2025-05-16', factor: 10, kind: 'split', prices_from: '2025-04-01' });
  });

  it('regression: a split confirmed by the NAV per share when no close brackets it closely (SARE11, October 2024)', () => {
    // dashbord dividendos.csv SARE11: R$ 0,20 (30/09/2024), then R$ 0,02, 0,02, 0,02, 0,023; closes only in 12/2022
    // (paulo037, R$ 67,89) and 06/2025 (dashbord, R$ 4,61): 14,7×, no usual factor. NAV per share: CVM 12/2023
    // R$ 89,59, araquem's snapshot of 22/11/2025 R$ 7,781: 11,5×, the usual 10.
    const divs = [
      { ticker: 'TEST11', traded_until_date: '2024-08-30', dividend_amt: 0.2 },
      { ticker: 'TEST11', traded_until_date: '2024-09-30', dividend_amt: 0.2 },
      { ticker: 'TEST11', traded_until_date: '2024-10-31', dividend_amt: 0.02 },
      { ticker: 'TEST11', traded_until_date: '2024-11-29', dividend_amt: 0.02 },
      { ticker: 'TEST11', traded_until_date: '2024-12-30', dividend_amt: 0.02 },
    ];
    const prices = closes([
      ['2022-12-01', 67.89],
      ['2025-06-01', 4.61],
    ]);
    expect(detectCorporateActions(divs, prices)).toEqual([]);
    const book = new Map([
      [
        'TEST11',
        new Map([
          ['2023-12-01', 89.59],
          ['2025-11-01', 7.781],
        ]),
      ],
    ]);
    const [a, ...rest] = detectCorporateActions(divs, prices, book);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ event_date: '2024-10-31', factor: 10, kind: 'split', prices_from: '2024-10-01' });
    expect(a.evidence).toContain('valor patrimonial por cota R$ 89,59 (12/2023) → R$ 7,78 (11/2025)');
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
    const action = { ticker: 'TEST11', event_date: '2025-05-16', factor: 10, kind: 'split' as const, evidence: '', prices_from: '2025-05-01' };
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
