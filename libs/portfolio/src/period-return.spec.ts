import { Close, IncomeReceived, inAdjustedUnits, LedgerEntry, MissingCloseError, modifiedDietz, replay, valueAt } from './index';

// Every expected value below was computed by hand (the arithmetic is written next to it).
const LEDGER: LedgerEntry[] = [
  { kind: 'buy', date: '2023-12-01', ticker: 'HGLG11', quantity: 100, price: 150, amount: 15000, fees: 5 },
  { kind: 'buy', date: '2024-02-15', ticker: 'KNRI11', quantity: 10, price: 100, amount: 1000 },
  { kind: 'sell', date: '2024-03-20', ticker: 'HGLG11', quantity: 40, price: 160, amount: 6400 },
];
const INCOME: IncomeReceived[] = [
  { ticker: 'HGLG11', date: '2023-12-14', amount: '110.00' }, // before the period: not a flow of it
  { ticker: 'HGLG11', date: '2024-02-14', amount: '110.00' },
  { ticker: 'HGLG11', date: '2024-03-14', amount: '110.00' },
  { ticker: 'KNRI11', date: '2024-04-15', amount: '8.00' },
];
const closes = (map: Record<string, Close>) => (ticker: string) => map[ticker];
const INITIAL = closes({ HGLG11: { date: '2023-12-28', price: 155 } });
const FINAL = closes({ HGLG11: { date: '2024-04-30', price: 158 }, KNRI11: { date: '2024-04-30', price: 98 } });

describe('modifiedDietz (money-weighted return of a period)', () => {
  it('weighs each flow by the share of the period it stayed in, income counted as a flow out', () => {
    // January to April 2024: from the close of 31/12/2023 to that of 30/04/2024, 121 days (31 + 29 + 31 + 30).
    const r = modifiedDietz(LEDGER, INCOME, { start: '2023-12-31', end: '2024-04-30' }, { initial: INITIAL, final: FINAL });
    // V0 = 100 × 155 = 15 500; V1 = 60 × 158 + 10 × 98 = 9 480 + 980 = 10 460.
    expect(r.initial.value.toFixed(2)).toBe('15500.00');
    expect(r.final.value.toFixed(2)).toBe('10460.00');
    expect(r.final.positions.map((p) => [p.ticker, p.quantity.toNumber(), p.closeDate])).toEqual([
      ['HGLG11', 60, '2024-04-30'],
      ['KNRI11', 10, '2024-04-30'],
    ]);
    // Flows and the days each stays to 30/04: buy +1 000 (15/02, 75 days), income −110 (14/02, 76), income −110 (14/03, 47),
    // sale −6 400 (20/03, 41), income −8 (15/04, 15).
    expect(r.flows.map((f) => [f.date, f.kind, f.amount.toFixed(2), f.weight.times(121).toFixed(0)])).toEqual([
      ['2024-02-14', 'income', '-110.00', '76'],
      ['2024-02-15', 'buy', '1000.00', '75'],
      ['2024-03-14', 'income', '-110.00', '47'],
      ['2024-03-20', 'sell', '-6400.00', '41'],
      ['2024-04-15', 'income', '-8.00', '15'],
    ]);
    expect([r.bought.toFixed(2), r.sold.toFixed(2), r.income.toFixed(2)]).toEqual(['1000.00', '6400.00', '228.00']);
    // Gain = 10 460 − 15 500 − (1 000 − 110 − 110 − 6 400 − 8) = 10 460 − 15 500 + 5 628 = 588.
    expect(r.gain.toFixed(2)).toBe('588.00');
    // Capital = 15 500 + (1 000×75 − 110×76 − 110×47 − 6 400×41 − 8×15) / 121 = 15 500 − 201 050 / 121 = 13 838,43.
    expect(r.averageCapital.toFixed(2)).toBe('13838.43');
    // R = 588 / 13 838,43 = 4,249%.
    expect(r.returnPct!.toFixed(3)).toBe('4.249');
  });

  it('without flows is the change of the value', () => {
    const r = modifiedDietz(
      LEDGER.slice(0, 1),
      [],
      { start: '2023-12-31', end: '2024-01-31' },
      { initial: INITIAL, final: closes({ HGLG11: { date: '2024-01-31', price: 161.2 } }) },
    );
    // 100 × 161,20 / (100 × 155) − 1 = 16 120 / 15 500 − 1 = 4%.
    expect(r.returnPct!.toFixed(4)).toBe('4.0000');
  });

  it('starts from nothing when the first buy is inside the period; a flow on the last day weighs nothing', () => {
    const ledger: LedgerEntry[] = [
      { kind: 'buy', date: '2024-01-11', ticker: 'HGLG11', quantity: 10, price: 100, amount: 1000 },
      { kind: 'buy', date: '2024-01-31', ticker: 'HGLG11', quantity: 10, price: 110, amount: 1100 },
    ];
    const r = modifiedDietz(ledger, [], { start: '2023-12-31', end: '2024-01-31' }, { initial: () => undefined, final: closes({ HGLG11: { date: '2024-01-31', price: 110 } }) });
    // 31 days; the first buy stays 20 of them, the second none. Gain = 20 × 110 − 2 100 = 100; capital = 1 000 × 20/31 = 645,16.
    expect(r.initial.value.toFixed(2)).toBe('0.00');
    expect(r.flows.map((f) => f.weight.times(31).toFixed(0))).toEqual(['20', '0']);
    expect(r.averageCapital.toFixed(2)).toBe('645.16');
    // 100 / 645,16 = 15,5%.
    expect(r.returnPct!.toFixed(2)).toBe('15.50');
  });

  it('has no return when nothing was invested during the period', () => {
    const r = modifiedDietz(LEDGER, [], { start: '2022-12-31', end: '2023-06-30' }, { initial: () => undefined, final: () => undefined });
    expect(r.returnPct).toBeNull();
  });

  it('names a fund held without a close', () => {
    expect(() =>
      modifiedDietz(LEDGER, [], { start: '2023-12-31', end: '2024-04-30' }, { initial: INITIAL, final: closes({ HGLG11: { date: '2024-04-30', price: 158 } }) }),
    ).toThrow(MissingCloseError);
  });
});

describe('inAdjustedUnits (lots grown from their cost with income reinvested)', () => {
  const buy = (date: string, ticker: string, quantity: number, price: number): LedgerEntry => ({ kind: 'buy', date, ticker, quantity, price, amount: quantity * price });
  const sell = (date: string, ticker: string, quantity: number, price: number): LedgerEntry => ({ kind: 'sell', date, ticker, quantity, price, amount: quantity * price });
  // An adjusted series at half the traded level in February and at 80% of it in June (income paid in between).
  const adjusted: Record<string, number> = { '2022-02-25': 50, '2022-06-30': 80, '2022-12-29': 90 };
  const at = (_t: string, d: string) => adjusted[d];

  it('holds each buy as what it cost over that day adjusted close, so each lot grows from its cost', () => {
    const units = inAdjustedUnits([buy('2022-02-25', 'AAAA11', 10, 100), buy('2022-06-30', 'AAAA11', 10, 100)], at)!;
    expect(units.map((e) => [Number(e.quantity), Number(e.price)])).toEqual([
      [20, 50],
      [12.5, 80],
    ]);
    // valued at the December adjusted close: 20 × 90 + 12,5 × 90 = 2.925 (each lot's cost × its own growth)
    const value = valueAt(units, '2022-12-29', () => ({ date: '2022-12-29', price: 90 })).value;
    expect(value.toNumber()).toBeCloseTo(1000 * (90 / 50) + 1000 * (90 / 80), 8);
  });

  it('takes out the share of the units that the shares sold are of the shares held, every unit on a full sale', () => {
    const units = inAdjustedUnits([buy('2022-02-25', 'AAAA11', 10, 100), sell('2022-06-30', 'AAAA11', 4, 120), sell('2022-12-29', 'AAAA11', 6, 130)], at)!;
    expect(units.map((e) => Number(e.quantity))).toEqual([20, 8, 12]);
    expect(replay(units).positions.get('AAAA11')!.quantity.isZero()).toBe(true);
  });

  it('leaves splits and income out and says when a trade day has no adjusted close', () => {
    const split: LedgerEntry = { kind: 'split', date: '2022-03-01', ticker: 'AAAA11', quantity: 10, price: 0, amount: 0 };
    const income: LedgerEntry = { kind: 'income', date: '2022-03-15', ticker: 'AAAA11', quantity: 20, price: 1, amount: 20 };
    const units = inAdjustedUnits([buy('2022-02-25', 'AAAA11', 10, 100), split, income, sell('2022-06-30', 'AAAA11', 20, 60)], at)!;
    // (after the split 20 shares are held: selling all 20 takes all 20 units)
    expect(units.map((e) => [e.kind, Number(e.quantity)])).toEqual([
      ['buy', 20],
      ['sell', 20],
    ]);
    expect(inAdjustedUnits([buy('2022-01-31', 'AAAA11', 10, 100)], at)).toBeNull();
  });
});
