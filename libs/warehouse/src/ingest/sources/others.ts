import { isBusinessDay } from '@cota/text';
import { readCsv, Rec } from '../csv';
import { cleanTicker, FundFact, monthEnd, monthStart, RawData } from '../model';

type Progress = (file: string) => void;

function load(dir: string, raw: RawData, progress: Progress, file: string, delimiter = ','): Rec[] {
  progress(file);
  const recs = readCsv(dir, file, delimiter);
  raw.filesRead.push({ file, rows: recs.length });
  return recs;
}

/** A daily rate in % per day, as an annual rate in % (252 business days), rounded to 2 decimals like BCB publishes it. */
export function dailyToAnnualPct(dailyPct: number): number {
  return Math.round((Math.pow(1 + dailyPct / 100, 252) - 1) * 10000) / 100;
}

/** market16/: daily adjusted closes for 16 funds, their dividends, IFIX daily and daily macro series. */
export function readMarket16(dir: string, raw: RawData, progress: Progress): void {
  // (one fund record each; its vacancy, constant over the file, is of the day the fund's series ends)
  const seen = new Map<string, FundFact>();
  for (const r of load(dir, raw, progress, 'market16/prices_daily.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    const day = r.date('data') ?? r.fail('no date');
    raw.prices.push({
      ticker,
      traded_at: day,
      close_price: null, // only the adjusted close is published here
      adj_close_price: r.num('preco_ajustado'),
      open_price: null,
      max_price: null,
      min_price: null,
      volume: r.num('volume'),
      daily_variation_pct: null,
      frequency: 'daily',
      source: 'market16',
    });
    const fund = seen.get(ticker);
    if (!fund) {
      const fields = { fii_cnpj: r.str('cnpj'), display_name: r.str('nome'), management_type: r.str('tipo_gestao'), vacancy_ratio: r.num('vacancia') };
      const fact: FundFact = { ticker, source: 'market16', segment: null, fields, as_of: day };
      seen.set(ticker, fact);
      raw.funds.push(fact);
    } else if ((fund.as_of ?? '') < day) fund.as_of = day;
  }
  for (const r of load(dir, raw, progress, 'market16/dividends.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const amt = r.num('dividendo');
    if (!ticker || !amt || amt <= 0) continue;
    raw.dividends.push({ ticker, traded_until_date: r.date('data') ?? r.fail('no date'), payment_date: null, dividend_amt: amt, source: 'market16' });
  }
  for (const r of load(dir, raw, progress, 'market16/ifix_daily.csv')) {
    const points = r.num('fechamento');
    if (points) raw.indexes.push({ index_name: 'IFIX', index_date: r.date('data') ?? r.fail('no date'), points, var_pct: null, source: 'market16' });
  }
  // IPCA and IGP-M are monthly rates forward-filled on every day with the last figure released. A
  // release is a change point: the value that appears in month M is the rate of month M-1 (released
  // mid-month, checked against paulo037). Months without a change point get no value from this file
  // (forward-filled repeats are not new facts; the first rows are back-filled, so they are skipped).
  const previous: Record<'ipca' | 'igpm', number | null | undefined> = { ipca: undefined, igpm: undefined };
  for (const r of load(dir, raw, progress, 'market16/macro_daily.csv')) {
    const date = r.date('data') ?? r.fail('no date');
    const cdi = r.num('cdi');
    // The file has a row on every weekday, holidays included (the previous rate repeated); the CDI
    // accrues on business days only, so a holiday's row would be compounded as one more day.
    if (cdi !== null && isBusinessDay(date)) {
      raw.indicators.push({ indicator_name: 'CDI', indicator_date: date, indicator_amt: dailyToAnnualPct(cdi), unit: '% a.a.', source: 'market16' });
      raw.indicators.push({ indicator_name: 'CDI-DAILY', indicator_date: date, indicator_amt: cdi, unit: '% a.d.', source: 'market16' });
    }
    for (const [col, name] of [
      ['ipca', 'IPCA'],
      ['igpm', 'IGP-M'],
    ] as const) {
      const v = r.num(col);
      if (previous[col] !== undefined && v !== null && v !== previous[col]) {
        raw.indicators.push({ indicator_name: name, indicator_date: previousMonth(monthStart(date)), indicator_amt: v, unit: '% a.m.', source: 'market16' });
      }
      previous[col] = v;
    }
  }
  // Quarterly fundamentals: the cash revenue, cash profit and delinquency the CVM monthly reports lack
  // (their equity and assets repeat the CVM's, which stays the source of those).
  for (const r of load(dir, raw, progress, 'market16/fundamentals_quarterly.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.quarterly.push({
      ticker,
      ref_date: r.date('data_referencia') ?? r.fail('no reference date'),
      cash_revenue_amt: r.num('Receita_Caixa'),
      cash_profit_amt: r.num('Lucro_Caixa_Trimestral'),
      delinquency_pct: r.num('Percentual_Inadimplencia') === null ? null : Math.round((r.num('Percentual_Inadimplencia') as number) * 1e6) / 1e4,
      source: 'market16',
    });
  }
}

/** dashbord/: fund list with sector, dividends by record date, properties, a few recent sessions. */
export function readDashbord(dir: string, raw: RawData, progress: Progress): void {
  for (const r of load(dir, raw, progress, 'dashbord/fiis.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.funds.push({
      ticker,
      source: 'dashbord',
      segment: r.str('setor'),
      fields: { display_name: r.str('nome'), manager_name: r.str('gestao'), admin_name: r.str('administrador') },
    });
  }
  for (const r of load(dir, raw, progress, 'dashbord/dividendos.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const amt = r.num('valor_por_cota');
    if (!ticker || !amt || amt <= 0) continue;
    raw.dividends.push({ ticker, traded_until_date: r.date('data_com') ?? r.fail('no record date'), payment_date: null, dividend_amt: amt, source: 'dashbord' });
  }
  for (const r of load(dir, raw, progress, 'dashbord/cotacoes.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.prices.push({
      ticker,
      traded_at: r.date('data') ?? r.fail('no date'),
      close_price: r.num('fechamento'),
      adj_close_price: null,
      open_price: r.num('abertura'),
      max_price: r.num('maxima'),
      min_price: r.num('minima'),
      volume: r.num('quantidade'),
      daily_variation_pct: null,
      frequency: 'daily',
      source: 'dashbord',
    });
  }
  for (const r of load(dir, raw, progress, 'dashbord/imoveis.csv')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    const occupancy = r.num('tx_ocupacao_pct');
    const address = r.str('endereco');
    raw.properties.push({
      ticker,
      asset_name: r.str('nome_imovel'),
      asset_class: null,
      asset_address: address,
      city: null,
      state: /\b([A-Z]{2})\b(?:,\s*CEP.*)?\s*$/.exec(address ?? '')?.[1] ?? null,
      total_area: r.num('area_m2'),
      units_count: r.num('num_unidades'),
      // Percentages in this file; the warehouse keeps fractions.
      vacancy_ratio: occupancy === null ? null : round6((100 - occupancy) / 100),
      non_compliant_ratio: pctToRatio(r.num('tx_inadimplencia_pct')),
      revenue_share_ratio: pctToRatio(r.num('pct_receitas')),
      assets_status: null,
      source: 'dashbord',
    });
  }
}

function previousMonth(monthStartIso: string): string {
  const [y, m] = monthStartIso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
const pctToRatio = (v: number | null) => (v === null ? null : round6(v / 100));

/** paulo037/: monthly close and dividend (2020-02..2022-12), monthly indices, sectors, properties. */
export function readPaulo037(dir: string, raw: RawData, progress: Progress): void {
  for (const r of load(dir, raw, progress, 'paulo037/dados_historicos.csv')) {
    const ticker = cleanTicker(r.str('Ticker'), raw);
    const month = r.req('Datetime');
    if (!/^\d{4}-\d{2}$/.test(month)) r.fail(`column 'Datetime': '${month}' is not YYYY-MM`);
    if (!ticker) continue;
    const close = r.num('Close');
    if (close && close > 0) {
      raw.prices.push({
        ticker,
        traded_at: monthEnd(month), // placed on the month's last session when a daily source has one (reconcile)
        close_price: close,
        adj_close_price: null,
        open_price: null,
        max_price: null,
        min_price: null,
        volume: null,
        daily_variation_pct: null,
        frequency: 'monthly',
        source: 'paulo037',
      });
    }
    const div = r.num('Dividends');
    if (div && div > 0) raw.dividends.push({ ticker, traded_until_date: monthEnd(month), payment_date: null, dividend_amt: div, source: 'paulo037' });
  }
  const series: Array<[string, string]> = [
    ['ipca', 'IPCA'],
    ['igp-m', 'IGP-M'],
    ['igp-di', 'IGP-DI'],
    ['incc-m', 'INCC-M'],
  ];
  for (const r of load(dir, raw, progress, 'paulo037/indices.csv')) {
    const month = r.req('Timestamp');
    if (!/^\d{4}-\d{2}$/.test(month)) r.fail(`column 'Timestamp': '${month}' is not YYYY-MM`);
    for (const [col, name] of series) {
      const v = r.num(col);
      if (v !== null) raw.indicators.push({ indicator_name: name, indicator_date: `${month}-01`, indicator_amt: v, unit: '% a.m.', source: 'paulo037' });
    }
    // The monthly IFIX and SELIC columns are covered daily by opbrreit/ (B3 and BCB); not loaded twice.
  }
  for (const r of load(dir, raw, progress, 'paulo037/names_fiis.csv')) {
    const ticker = cleanTicker(r.str('Ticker'), raw);
    if (ticker) raw.funds.push({ ticker, source: 'paulo037', segment: r.str('Setor'), fields: {} });
  }
  for (const r of load(dir, raw, progress, 'paulo037/addresses.csv')) {
    const ticker = cleanTicker(r.str('Ticker'), raw);
    if (!ticker) continue;
    raw.properties.push({
      ticker,
      asset_name: r.str('Nome'),
      asset_class: r.str('Tipo'),
      asset_address: r.str('Endereco'),
      city: r.str('Cidade'),
      state: r.str('Estado'),
      total_area: r.num('ValorAreaBrutaLocavel'),
      units_count: null,
      vacancy_ratio: pctToRatio(r.num('PecentualVacancia')),
      non_compliant_ratio: pctToRatio(r.num('PercentualInadimplencia90Dias')),
      revenue_share_ratio: pctToRatio(r.num('PercentualFii')),
      assets_status: null,
      source: 'paulo037',
    });
  }
}

/** opbrreit/: IFIX daily close (B3) and SELIC daily rate (BCB SGS 11, % per day). */
export function readOpbrreit(dir: string, raw: RawData, progress: Progress): void {
  for (const r of load(dir, raw, progress, 'opbrreit/ifix.csv')) {
    const points = r.num('IFIX');
    if (points) raw.indexes.push({ index_name: 'IFIX', index_date: r.date('Date') ?? r.fail('no date'), points, var_pct: null, source: 'opbrreit' });
  }
  for (const r of load(dir, raw, progress, 'opbrreit/selic_daily.csv')) {
    const d = r.num('SELIC');
    if (d === null) continue;
    raw.indicators.push({ indicator_name: 'SELIC', indicator_date: r.date('Date') ?? r.fail('no date'), indicator_amt: dailyToAnnualPct(d), unit: '% a.a.', source: 'opbrreit' });
  }
}
