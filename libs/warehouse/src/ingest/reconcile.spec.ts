import { compareSeries, dividendDisagreements, reconcileDividends, withTrailingDy } from './reconcile';
import { chooseSegment } from './segments';
import { parseCsv } from './csv';
import { tickerFromIsin } from './sources/cvm';
import { dailyToAnnualPct } from './sources/others';
import { classificationLabel, positiveOrNull } from './sources/araquem';

describe('source reconciliation', () => {
  it('a lower-precedence dividend within 15 days of a higher-precedence one is dropped', () => {
    const kept = reconcileDividends([
      { ticker: 'KNRI11', traded_until_date: '2024-10-31', payment_date: null, dividend_amt: 1, source: 'dashbord' },
      { ticker: 'KNRI11', traded_until_date: '2024-11-01', payment_date: null, dividend_amt: 1, source: 'market16' },
      { ticker: 'KNRI11', traded_until_date: '2024-11-29', payment_date: null, dividend_amt: 1, source: 'dashbord' },
      { ticker: 'KNRI11', traded_until_date: '2024-12-31', payment_date: null, dividend_amt: 1, source: 'paulo037' },
    ]);
    // market16's ex-dated, adjusted amount gives way to dashbord's amount as paid on the same payment.
    expect(kept.map((d) => `${d.traded_until_date}:${d.source}`).sort()).toEqual(['2024-10-31:dashbord', '2024-11-29:dashbord', '2024-12-31:paulo037']);
  });

  it("regression: paulo037's month is the payment recorded in the next weeks (XPIN11 was counted twice)", () => {
    const kept = reconcileDividends([
      { ticker: 'XPIN11', traded_until_date: '2022-02-07', payment_date: null, dividend_amt: 0.63, source: 'dashbord' },
      { ticker: 'XPIN11', traded_until_date: '2022-03-18', payment_date: null, dividend_amt: 0.61, source: 'dashbord' },
      { ticker: 'XPIN11', traded_until_date: '2022-02-28', payment_date: null, dividend_amt: 0.61, source: 'paulo037' },
      // A month no better source has stays.
      { ticker: 'XPIN11', traded_until_date: '2021-06-30', payment_date: null, dividend_amt: 0.6, source: 'paulo037' },
    ]);
    expect(kept.map((d) => `${d.traded_until_date}:${d.source}`).sort()).toEqual(['2021-06-30:paulo037', '2022-02-07:dashbord', '2022-03-18:dashbord']);
  });

  it('regression: an ex-dated December dividend stays in its record year (HGLG11 2024 had 13 payments)', () => {
    const kept = reconcileDividends([
      { ticker: 'HGLG11', traded_until_date: '2023-12-29', payment_date: null, dividend_amt: 1.1, source: 'dashbord' },
      { ticker: 'HGLG11', traded_until_date: '2024-01-02', payment_date: null, dividend_amt: 1.1, source: 'market16' },
      { ticker: 'HGLG11', traded_until_date: '2024-12-02', payment_date: null, dividend_amt: 1.1, source: 'market16' },
      { ticker: 'HGLG11', traded_until_date: '2024-12-30', payment_date: null, dividend_amt: 1.1, source: 'dashbord' },
      // No other source for this one: the previous weekday stands in for the record date.
      { ticker: 'HGLG11', traded_until_date: '2024-03-04', payment_date: null, dividend_amt: 1.1, source: 'market16' },
    ]);
    expect(kept.map((d) => d.traded_until_date).sort()).toEqual(['2023-12-29', '2024-03-01', '2024-11-29', '2024-12-30']);
    expect(kept.filter((d) => d.traded_until_date.startsWith('2024'))).toHaveLength(3);
  });

  it('one record per distribution: the ex-date kept, the other sources recorded as agreeing or not', () => {
    const input = [
      { ticker: 'HGLG11', traded_until_date: '2023-12-28', payment_date: null, dividend_amt: 1.1, source: 'dashbord' as const },
      { ticker: 'HGLG11', traded_until_date: '2024-01-02', payment_date: null, dividend_amt: 1.1, source: 'market16' as const },
      { ticker: 'XPML11', traded_until_date: '2024-03-18', payment_date: null, dividend_amt: 0.92, source: 'dashbord' as const },
      { ticker: 'XPML11', traded_until_date: '2024-03-19', payment_date: null, dividend_amt: 0.899938, source: 'market16' as const },
    ];
    const kept = reconcileDividends(input);
    expect(kept.map((d) => [d.ticker, d.traded_until_date, d.ex_date, d.agreeing_sources, d.disagreeing_sources])).toEqual([
      ['HGLG11', '2023-12-28', '2024-01-02', 'dashbord,market16', null],
      ['XPML11', '2024-03-18', '2024-03-19', 'dashbord', 'market16 0.899938'],
    ]);
    const report = dividendDisagreements(kept, input);
    expect(report).toEqual([
      {
        series: 'dividends per share',
        sources: ['dashbord', 'market16'],
        overlap: 2,
        differing: 1,
        shifted_one_session: 0,
        examples: ['XPML11 2024-03-18: dashbord 0.92 vs market16 0.899938 on 2024-03-18'],
      },
    ]);
  });

  it("the fund's 12-month DY: its last 12 months of distributions over its one current price, unless they stop a year before", () => {
    // KNRI11: dashbord dividendos.csv rows 12382-12393, 12 data-com of R$ 1,00 from 28/06/2024 to 30/05/2025; its last
    // traded close, dashbord cotacoes.csv row 2923, R$ 143,34 on 25/06/2025; araquem fiis_financials_snapshot.csv row 14
    // (22/11/2025): P/VP 0,9040 × VP por cota 163,254 = R$ 147,58, DY 8,13 = 12,00 / 147,58.
    const knriSnapshot = {
      ticker: 'KNRI11',
      ref_date: '2025-11-22',
      dy_pct: 8.13,
      price_book_ratio: 0.904,
      equity_per_share: 163.254,
      market_cap_value: 4164327540,
      source: 'araquem',
    };
    const twelve = { from: '2024-06-01', to: '2025-05-30', total: 12, payments: 12 };
    const close = { value: 143.34, date: '2025-06-25', kind: 'close' as const };
    const knri = withTrailingDy(knriSnapshot, twelve, close);
    expect([knri.dy_pct, knri.published_dy_pct, knri.dy_from, knri.dy_to, knri.dy_payments, knri.dy_price, knri.dy_price_date, knri.dy_price_kind, knri.dy_source]).toEqual([
      8.13,
      8.13,
      '2024-06-01',
      '2025-05-30',
      12,
      147.58,
      '2025-11-22',
      'reference',
      'derived,araquem',
    ]);
    // The P/VP and market value rest on the same price, of the same date.
    expect([knri.price_amt, knri.price_date, knri.price_kind, knri.price_book_ratio, knri.market_cap_value, knri.valuation_date]).toEqual([
      147.58,
      '2025-11-22',
      'reference',
      0.904,
      4164327540,
      '2025-11-22',
    ]);
    // Without the snapshot's P/VP (araquem publishes 0 for some funds) the last traded close is the price.
    const noPvp = withTrailingDy({ ...knriSnapshot, price_book_ratio: 0 }, twelve, close);
    expect([noPvp.dy_pct, noPvp.dy_price, noPvp.dy_price_date, noPvp.dy_price_kind, noPvp.dy_source, noPvp.valuation_date]).toEqual([
      8.37,
      143.34,
      '2025-06-25',
      'close',
      'derived',
      '2025-11-22',
    ]);
    // MGCR11: paulo037's monthly dividends end in December 2022; araquem's snapshot of 22/11/2025 publishes 0,00.
    const mgcr = withTrailingDy(
      { ticker: 'MGCR11', ref_date: '2025-11-22', dy_pct: 0, source: 'araquem' },
      { from: '2022-01-01', to: '2022-12-31', total: 13.18, payments: 12 },
      { value: 78.11, date: '2022-12-30', kind: 'close' },
    );
    expect([mgcr.dy_pct, mgcr.dy_to, mgcr.dy_source]).toEqual([0, '2025-11-22', 'araquem']);
    // ROOF11: the same snapshot publishes 0,00 but a last dividend paid on 21/11/2025; six distributions up to
    // 01/04/2025 are within the year, so only their dates decide: 153,559 / (1,032 × 374,46 = 386,44).
    const roof = withTrailingDy(
      { ticker: 'ROOF11', ref_date: '2025-11-22', dy_pct: 0, price_book_ratio: 1.032, equity_per_share: 374.46, source: 'araquem' },
      { from: '2024-05-01', to: '2025-04-01', total: 153.559, payments: 6 },
      { value: 386.4, date: '2025-06-09', kind: 'close' },
    );
    expect([roof.dy_pct, roof.published_dy_pct, roof.dy_price, roof.dy_price_kind]).toEqual([39.74, 0, 386.44, 'reference']);
  });

  it('regression: a zero exchange rate or index level is a missing quote, not R$ 0,00', () => {
    expect(positiveOrNull(0)).toBeNull();
    expect(positiveOrNull(null)).toBeNull();
    expect(positiveOrNull(5.3)).toBe(5.3);
  });

  it('regression: araquem classifications read as Portuguese ("Hibrido" -> "Híbrido")', () => {
    expect(classificationLabel('Hibrido')).toBe('Híbrido');
    expect(classificationLabel('Fof')).toBe('FoF');
    expect(classificationLabel('Tijolo')).toBe('Tijolo');
  });

  it("segments: the first source's specific label, else the segment most sources give; on a tie a specific one, in precedence order", () => {
    const tgar = [
      { source: 'araquem', label: 'Desenvolvimento' },
      { source: 'cvm', label: 'Híbrido' },
      { source: 'dashbord', label: 'Hibrido' },
      { source: 'paulo037', label: 'Outros' },
    ];
    expect(chooseSegment(tgar)).toEqual({ segment: 'Desenvolvimento', source: 'araquem' });
    const jsre = [
      { source: 'araquem', label: 'Híbrido' },
      { source: 'dashbord', label: 'Lajes Comerciais' },
      { source: 'paulo037', label: 'Híbrido' },
    ];
    expect(chooseSegment(jsre)).toEqual({ segment: 'Híbrido', source: 'araquem' });
    // A source that describes the fund twice still votes once.
    expect(chooseSegment([...jsre, { source: 'dashbord', label: 'Escritórios' }, { source: 'dashbord', label: 'Lajes Comerciais' }])).toEqual({
      segment: 'Híbrido',
      source: 'araquem',
    });
    expect(
      chooseSegment([
        { source: 'cvm', label: 'Híbrido' },
        { source: 'dashbord', label: 'Logisticos' },
      ]),
    ).toEqual({ segment: 'Logística', source: 'dashbord' });
    expect(
      chooseSegment([
        { source: 'araquem', label: 'Multicategoria' },
        { source: 'cvm', label: 'Outros' },
      ]),
    ).toEqual({ segment: 'Híbrido', source: 'araquem' });
    expect(chooseSegment([{ source: 'x', label: null }])).toBeNull();
  });

  it('detects a one-session shift between two series', () => {
    const a = new Map([
      ['2025-03-12', 3100],
      ['2025-03-13', 3188],
      ['2024-05-02', 3300],
    ]);
    const b = new Map([
      ['2025-03-11', 3050],
      ['2025-03-12', 3188.41],
      ['2025-03-13', 3210],
      ['2024-05-02', 3300.2],
    ]);
    const d = compareSeries('IFIX', ['araquem', a], ['opbrreit', b]);
    expect(d).toMatchObject({ overlap: 3, differing: 2, shifted_one_session: 1 });
  });

  it('CVM ISIN to ticker, SELIC daily to annual', () => {
    expect(tickerFromIsin('BRHGLGCTF004')).toBe('HGLG11');
    expect(tickerFromIsin('0')).toBeNull();
    expect(dailyToAnnualPct(0.055131)).toBe(14.9);
  });

  it('CSV errors name the file and the line', () => {
    const recs = parseCsv('a;b\n1;2\nx;3\n', 'cvm/f.csv', ';');
    expect(recs[0].num('a')).toBe(1);
    expect(() => recs[1].num('a')).toThrow("cvm/f.csv:3: column 'a': 'x' is not a number");
    expect(() => recs[0].str('zz')).toThrow("cvm/f.csv:2: column 'zz' is missing");
    expect(recs[0].str('b')).toBe('2');
    expect(() => parseCsv('a,b\n"1,2\n', 'bad.csv')).toThrow(/^bad\.csv/);
  });
});
