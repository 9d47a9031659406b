import { Dec } from '@cota/finance';
import { darfDueDateFor, incomeByFundAndMonth, LedgerEntry, LedgerError, monthlyTax, openPositions, replay, Sale, yearlyReport, yearlyReportCsv, yieldOnCostPct } from './index';

// Every expected value below was computed by hand (the arithmetic is written next to it).
const LEDGER: LedgerEntry[] = [
  { kind: 'buy', date: '2024-01-05', ticker: 'KNRI11', quantity: 10, price: 100, amount: 1000 },
  { kind: 'buy', date: '2024-01-10', ticker: 'HGLG11', quantity: 100, price: 150, amount: 15000, fees: 5 },
  { kind: 'buy', date: '2024-02-15', ticker: 'HGLG11', quantity: 50, price: 160, amount: 8000 },
  { kind: 'income', date: '2024-03-14', ticker: 'HGLG11', quantity: 150, price: '1.10', amount: '165.00' },
  { kind: 'sell', date: '2024-03-20', ticker: 'HGLG11', quantity: 60, price: 140, amount: 8400 },
  { kind: 'split', date: '2024-04-10', ticker: 'HGLG11', quantity: 90, price: 0, amount: 0 },
  { kind: 'income', date: '2024-04-15', ticker: 'HGLG11', quantity: 180, price: '0.55', amount: '99.00' },
  { kind: 'income', date: '2024-05-15', ticker: 'HGLG11', quantity: 180, price: '0.55', amount: '99.00' },
  { kind: 'sell', date: '2024-05-20', ticker: 'HGLG11', quantity: 80, price: 90, amount: 7200 },
  { kind: 'reverse_split', date: '2024-06-01', ticker: 'KNRI11', quantity: 9, price: 0, amount: 0 },
];

describe('replay (B3 average price rule)', () => {
  it('weights the average by buys and fees, keeps it on sales, divides it on splits', () => {
    const r = replay(LEDGER);
    const [hglg, knri] = openPositions(r);
    // 100 × 150 + 5 = 15 005; + 50 × 160 = 23 005 for 150 shares (153,3667); a sale of 60 takes 60 × 153,3667 = 9 202,
    // leaving 13 803 for 90; the 1:2 split makes 180 at 76,6833; a sale of 80 takes 6 134,67, leaving 7 668,33 for 100.
    expect(hglg.ticker).toBe('HGLG11');
    expect(hglg.quantity.toNumber()).toBe(100);
    expect(hglg.cost.toFixed(2)).toBe('7668.33');
    expect(hglg.avgPrice!.toFixed(4)).toBe('76.6833');
    expect(hglg.firstBuyDate).toBe('2024-01-10');
    // Reverse split 10 → 1: the cost stays, the average multiplies by 10.
    expect(knri.quantity.toNumber()).toBe(1);
    expect(knri.avgPrice!.toFixed(2)).toBe('1000.00');
  });

  it('gives each sale its result at the average of the moment', () => {
    const { sales } = replay(LEDGER);
    expect(sales.map((s) => [s.date, s.avgPrice.toFixed(4), s.costBasis.toFixed(2), s.proceeds.toFixed(2), s.result.toFixed(2)])).toEqual([
      ['2024-03-20', '153.3667', '9202.00', '8400.00', '-802.00'], // 60 × 140 − 60 × 153,3667
      ['2024-05-20', '76.6833', '6134.67', '7200.00', '1065.33'], // 80 × 90 − 80 × 76,6833
    ]);
  });

  it('stops at a date (positions on 31/12)', () => {
    const r = replay(LEDGER, '2024-02-28');
    expect(r.positions.get('HGLG11')!.quantity.toNumber()).toBe(150);
    expect(r.positions.get('HGLG11')!.cost.toFixed(2)).toBe('23005.00');
    expect(r.sales).toHaveLength(0);
  });

  it('refuses a sale of more shares than held, naming the entry', () => {
    const bad: LedgerEntry[] = [...LEDGER, { kind: 'sell', date: '2024-07-01', ticker: 'HGLG11', quantity: 101, price: 90, amount: 9090 }];
    expect(() => replay(bad)).toThrow(LedgerError);
    try {
      replay(bad);
    } catch (e) {
      expect((e as LedgerError).index).toBe(10);
      expect((e as Error).message).toContain('apenas 100');
    }
  });

  it('lowers the cost by an amortization', () => {
    const r = replay([
      { kind: 'buy', date: '2024-01-02', ticker: 'KNIP11', quantity: 10, price: 100, amount: 1000 },
      { kind: 'amortization', date: '2024-02-02', ticker: 'KNIP11', quantity: 10, price: 5, amount: 50 },
    ]);
    expect(r.positions.get('KNIP11')!.avgPrice!.toFixed(2)).toBe('95.00');
  });
});

describe('income', () => {
  it('sums income per fund and month of payment and gives the yield on cost', () => {
    const rows = incomeByFundAndMonth(LEDGER);
    expect(rows.map((r) => [r.ticker, r.month, r.amount.toFixed(2)])).toEqual([
      ['HGLG11', '2024-03', '165.00'],
      ['HGLG11', '2024-04', '99.00'],
      ['HGLG11', '2024-05', '99.00'],
    ]);
    // 363 received over a cost of 7 668,33 = 4,73%.
    expect(yieldOnCostPct(new Dec('363'), new Dec('7668.33'))!.toFixed(2)).toBe('4.73');
    expect(yieldOnCostPct(new Dec('1'), new Dec(0))).toBeNull();
  });
});

describe('monthly FII tax', () => {
  const sale = (date: string, result: string): Sale => ({
    date,
    ticker: 'HGLG11',
    quantity: new Dec(1),
    price: new Dec(1),
    proceeds: new Dec(1000),
    fees: new Dec(0),
    avgPrice: new Dec(1),
    costBasis: new Dec(1),
    result: new Dec(result),
    index: 0,
  });

  it('carries losses forward, taxes 20% of the rest and carries a DARF under R$ 10', () => {
    const months = monthlyTax([sale('2024-01-15', '-500'), sale('2024-02-10', '300'), sale('2024-03-05', '1000'), sale('2024-04-05', '40'), sale('2024-05-06', '30')]);
    expect(
      months.map((m) => [m.month, m.result.toFixed(2), m.taxableBase.toFixed(2), m.lossCarriedOut.toFixed(2), m.taxDue.toFixed(2), m.darfAmount.toFixed(2), m.darfDueDate]),
    ).toEqual([
      ['2024-01', '-500.00', '0.00', '500.00', '0.00', '0.00', '2024-02-29'],
      ['2024-02', '300.00', '0.00', '200.00', '0.00', '0.00', '2024-03-28'], // 29/03/2024 is Good Friday
      ['2024-03', '1000.00', '800.00', '0.00', '160.00', '160.00', '2024-04-30'],
      ['2024-04', '40.00', '40.00', '0.00', '8.00', '0.00', '2024-05-31'], // R$ 8 < R$ 10: carried
      ['2024-05', '30.00', '30.00', '0.00', '6.00', '14.00', '2024-06-28'], // 6 + 8 carried
    ]);
    expect(months.every((m) => m.darfCode === '6015')).toBe(true);
  });

  it('taxes the ledger sale after the earlier loss (1 065,33 − 802 = 263,33; 20% = 52,67)', () => {
    const [march, may] = monthlyTax(replay(LEDGER).sales);
    expect(march.lossCarriedOut.toFixed(2)).toBe('802.00');
    expect(may.taxableBase.toFixed(2)).toBe('263.33');
    expect(may.taxDue.toFixed(2)).toBe('52.67');
    expect(may.darfDueDate).toBe('2024-06-28');
  });

  it('due dates skip weekends and national holidays', () => {
    expect(darfDueDateFor('2025-08')).toBe('2025-09-30');
    expect(darfDueDateFor('2025-10')).toBe('2025-11-28'); // 30/11/2025 is a Sunday
  });
});

describe('yearly report', () => {
  const funds = new Map([
    ['HGLG11', { cnpj: '11.728.688/0001-47', name: 'CSHG LOGÍSTICA FII' }],
    ['KNRI11', { cnpj: '12.005.956/0001-65', name: 'KINEA RENDA IMOBILIÁRIA FII' }],
  ]);

  it('lists positions at cost on 31/12, exempt income per paying fund and the months of sales', () => {
    const r = yearlyReport(LEDGER, 2024, funds);
    expect(r.bens.map((b) => [b.grupo, b.codigo, b.ticker, b.cnpj, b.situacaoAnterior.toFixed(2), b.situacao.toFixed(2)])).toEqual([
      ['07', '03', 'HGLG11', '11.728.688/0001-47', '0.00', '7668.33'],
      ['07', '03', 'KNRI11', '12.005.956/0001-65', '0.00', '1000.00'],
    ]);
    expect(r.rendimentosIsentos.map((i) => [i.tipo, i.ticker, i.cnpjFontePagadora, i.valor.toFixed(2)])).toEqual([['99', 'HGLG11', '11.728.688/0001-47', '363.00']]);
    expect(r.rendaVariavelFii.map((m) => [m.month, m.taxDue.toFixed(2)])).toEqual([
      ['2024-03', '0.00'],
      ['2024-05', '52.67'],
    ]);
    expect(r.totalImpostoDevido.toFixed(2)).toBe('52.67');
    expect(r.prejuizoACompensar.toFixed(2)).toBe('0.00');
  });

  it('carries an earlier year loss into the year and keeps last year position', () => {
    const entries: LedgerEntry[] = [
      { kind: 'buy', date: '2023-05-02', ticker: 'HGLG11', quantity: 10, price: 100, amount: 1000 },
      { kind: 'sell', date: '2023-06-01', ticker: 'HGLG11', quantity: 5, price: 80, amount: 400 }, // −100
      { kind: 'sell', date: '2024-02-01', ticker: 'HGLG11', quantity: 5, price: 130, amount: 650 }, // +150, 50 taxable
    ];
    const r = yearlyReport(entries, 2024, funds);
    expect(r.bens.map((b) => [b.ticker, b.situacaoAnterior.toFixed(2), b.situacao.toFixed(2)])).toEqual([['HGLG11', '500.00', '0.00']]);
    expect(r.rendaVariavelFii[0].lossCarriedIn.toFixed(2)).toBe('100.00');
    expect(r.rendaVariavelFii[0].taxDue.toFixed(2)).toBe('10.00');
    const csv = yearlyReportCsv(r);
    expect(csv).toContain('"07";"03";"HGLG11";"11.728.688/0001-47"');
    expect(csv).toContain('500,00;0,00');
    expect(csv).toContain('"2024-02";150,00;0,00;50,00;10,00;10,00;"6015";"2024-03-28"');
  });
});
