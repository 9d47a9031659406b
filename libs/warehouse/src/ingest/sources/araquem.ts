import { readCsv } from '../csv';
import { cleanTicker, RawData, Row } from '../model';

const S = 'araquem/samples/';

/** Percent-per-year series versus percent-per-month ones (araquem writes both in `indicator_amt`). */
export const INDICATOR_UNITS: Record<string, string> = {
  SELIC: '% a.a.',
  'META-SELIC': '% a.a.',
  CDI: '% a.a.',
  'CDI-DAILY': '% a.d.',
  POUPANCA: '% a.m.',
  IPCA: '% a.m.',
  'IPCA-15': '% a.m.',
  'IGP-M': '% a.m.',
  'IGP-DI': '% a.m.',
  'INCC-M': '% a.m.',
  INPC: '% a.m.',
};

/** araquem/: one row per ticker (registry, snapshot, risk, rankings, revenue schedule) and capped samples. */
export function readAraquem(dir: string, raw: RawData, progress: (file: string) => void): void {
  const load = (name: string) => {
    const file = `${S}${name}.csv`;
    progress(file);
    const recs = readCsv(dir, file);
    raw.filesRead.push({ file, rows: recs.length });
    return recs;
  };

  for (const r of load('fiis_registrations')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.funds.push({
      ticker,
      source: 'araquem',
      segment: r.str('sector'),
      fields: {
        fii_cnpj: r.str('fii_cnpj'),
        display_name: r.str('display_name'),
        b3_name: r.str('b3_name'),
        isin: r.str('isin'),
        classification: classificationLabel(r.str('classification')),
        sub_sector: r.str('sub_sector'),
        management_type: r.str('management_type'),
        target_market: r.str('target_market'),
        is_exclusive: r.bool('is_exclusive'),
        ipo_date: r.date('ipo_date'),
        website_url: r.str('website_url'),
        admin_name: r.str('admin_name')?.replace(/^\./, '') ?? null,
        admin_cnpj: r.str('admin_cnpj'),
        custodian_name: r.str('custodian_name'),
        ifil_weight_pct: r.num('ifil_weight_pct'),
        ifix_weight_pct: r.num('ifix_weight_pct'),
        shares_count: r.num('shares_count'),
        // araquem's shareholders_count is not a head count (MXRF11: 43,732,529.70, a tenth of its
        // shares): the CVM monthly report's Total_Numero_Cotistas fills this field instead.
      },
    });
  }

  const snapshotNums = [
    'dy_monthly_pct',
    'dy_pct',
    'sum_anual_dy_amt',
    'last_dividend_amt',
    'market_cap_value',
    'enterprise_value',
    'price_book_ratio',
    'equity_per_share',
    'revenue_per_share',
    'dividend_payout_pct',
    'growth_rate',
    'cap_rate',
    'leverage_ratio',
    'equity_value',
    'variation_month_ratio',
    'variation_year_ratio',
    'equity_month_ratio',
    'dividend_reserve_amt',
    'admin_fee_due_amt',
    'perf_fee_due_amt',
    'total_cash_amt',
    'expected_revenue_amt',
    'liabilities_total_amt',
  ];
  for (const r of load('fiis_financials_snapshot')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    const row: Row = { ticker, ref_date: r.date('updated_at'), last_payment_date: r.date('last_payment_date'), total_assets_amt: null, source: 'araquem' };
    for (const c of snapshotNums) row[c] = r.num(c);
    // 0 is araquem's placeholder in these two columns (cap rate 0 for 408 of 415 funds, payout 0 for 412).
    for (const c of ['cap_rate', 'dividend_payout_pct']) if (row[c] === 0) row[c] = null;
    raw.snapshots.push(row);
  }

  for (const r of load('fiis_financials_risk')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    const row: Row = { ticker, source: 'araquem', ref_date: r.date('updated_at'), window_start: null, observations: null };
    for (const c of ['volatility_ratio', 'sharpe_ratio', 'treynor_ratio', 'jensen_alpha', 'beta_index', 'sortino_ratio', 'max_drawdown', 'r_squared']) {
      row[c] = r.num(c);
    }
    raw.risk.push(row);
  }

  for (const r of load('fiis_rankings')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    // 0 means "not ranked" in araquem's positions.
    const pos = (c: string) => {
      const v = r.num(c);
      return v && v > 0 ? v : null;
    };
    raw.rankingPositions.push({
      ticker,
      users_rank_position: pos('users_rank_position'),
      sirios_rank_position: pos('sirios_rank_position'),
      ifix_rank_position: pos('ifix_rank_position'),
      ifil_rank_position: pos('ifil_rank_position'),
    });
  }

  for (const r of load('fiis_financials_revenue_schedule')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    const row: Row = { ticker, ref_date: r.date('updated_at'), source: 'araquem' };
    for (const c of [
      'revenue_due_0_3m_pct',
      'revenue_due_3_6m_pct',
      'revenue_due_6_9m_pct',
      'revenue_due_9_12m_pct',
      'revenue_due_12_15m_pct',
      'revenue_due_15_18m_pct',
      'revenue_due_18_21m_pct',
      'revenue_due_21_24m_pct',
      'revenue_due_24_27m_pct',
      'revenue_due_27_30m_pct',
      'revenue_due_30_33m_pct',
      'revenue_due_33_36m_pct',
      'revenue_due_over_36m_pct',
      'revenue_due_undetermined_pct',
      'revenue_igpm_pct',
      'revenue_inpc_pct',
      'revenue_ipca_pct',
      'revenue_incc_pct',
    ]) {
      row[c] = r.num(c);
    }
    raw.revenueSchedule.push(row);
  }

  for (const r of load('fiis_dividends')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const amt = r.num('dividend_amt');
    if (!ticker || amt === null || amt <= 0) continue;
    raw.dividends.push({
      ticker,
      traded_until_date: r.date('traded_until_date') ?? r.fail('no record date'),
      payment_date: r.date('payment_date'),
      dividend_amt: amt,
      source: 'araquem',
    });
  }

  for (const r of load('fiis_quota_prices')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.prices.push({
      ticker,
      traded_at: r.date('traded_at') ?? r.fail('no trade date'),
      close_price: r.num('close_price'),
      adj_close_price: r.num('adj_close_price'),
      open_price: r.num('open_price'),
      max_price: r.num('max_price'),
      min_price: r.num('min_price'),
      volume: null,
      daily_variation_pct: r.num('daily_variation_pct'),
      frequency: 'daily',
      source: 'araquem',
    });
  }

  for (const r of load('fiis_real_estate')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    if (!ticker) continue;
    raw.properties.push({
      ticker,
      asset_name: r.str('asset_name'),
      asset_class: r.str('asset_class'),
      asset_address: r.str('asset_address'),
      city: null,
      state: /\b([A-Z]{2})\s*$/.exec(r.str('asset_address') ?? '')?.[1] ?? null,
      total_area: r.num('total_area'),
      units_count: r.num('units_count'),
      vacancy_ratio: r.num('vacancy_ratio'),
      non_compliant_ratio: r.num('non_compliant_ratio'),
      revenue_share_ratio: null,
      assets_status: r.str('assets_status'),
      source: 'araquem',
    });
  }

  for (const r of load('fiis_news')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const url = r.str('url');
    if (!ticker || !url) continue;
    raw.news.push({
      ticker,
      url,
      source: r.str('source'),
      title: r.str('title'),
      tags: r.str('tags'),
      description: r.str('description'),
      image_url: r.str('image_url'),
      published_at: r.date('published_at'),
      data_source: 'araquem',
    });
  }

  for (const r of load('fiis_legal_proceedings')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const num = r.str('process_number');
    if (!ticker || !num) continue;
    raw.legal.push({
      ticker,
      process_number: num,
      judgment: r.str('judgment'),
      instance: r.str('instance'),
      initiation_date: r.date('initiation_date'),
      cause_amt: r.num('cause_amt'),
      process_parts: r.str('process_parts'),
      loss_risk_pct: r.str('loss_risk_pct'),
      main_facts: r.str('main_facts'),
      loss_impact_analysis: r.str('loss_impact_analysis'),
      source: 'araquem',
    });
  }

  for (const r of load('fiis_yield_history')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const price = r.num('price_ref');
    if (!ticker || !price) continue;
    raw.yieldHistory.push({
      ticker,
      ref_month: r.date('ref_month'),
      dividends_sum: r.num('dividends_sum'),
      price_ref: price,
      dy_monthly: r.num('dy_monthly'),
      source: 'araquem',
    });
  }

  for (const r of load('fiis_dividends_yields')) {
    const ticker = cleanTicker(r.str('ticker'), raw);
    const price = r.num('month_price_ref');
    if (!ticker || !price) continue;
    raw.dividendsYields.push({
      ticker,
      ref_month: r.date('ref_month'),
      month_dividends_amt: r.num('month_dividends_amt'),
      month_price_ref: price,
      dy_monthly: r.num('dy_monthly'),
      dividends_12m_amt: r.num('dividends_12m_amt'),
      dy_12m_pct: r.num('dy_12m_pct'),
      last_dividend_amt: r.num('last_dividend_amt'),
      last_payment_date: r.date('last_payment_date'),
      source: 'araquem',
    });
  }

  for (const r of load('history_b3_indexes')) {
    const date = r.date('index_date') ?? r.fail('no index date');
    for (const [name, col] of [
      ['IBOV', 'ibov'],
      ['IFIX', 'ifix'],
      ['IFIL', 'ifil'],
    ] as const) {
      const points = r.num(`${col}_points_count`);
      if (points !== null && points > 0) raw.indexes.push({ index_name: name, index_date: date, points, var_pct: r.num(`${col}_var_pct`), source: 'araquem' });
    }
  }

  for (const r of load('history_currency_rates')) {
    const date = r.date('rate_date') ?? r.fail('no rate date');
    for (const [cur, col] of [
      ['USD', 'usd'],
      ['EUR', 'eur'],
    ] as const) {
      // araquem writes 0.00 for days it has no quote (e.g. 2024-03); a currency is never worth R$ 0.
      const buy = positiveOrNull(r.num(`${col}_buy_amt`));
      const sell = positiveOrNull(r.num(`${col}_sell_amt`));
      if (buy === null && sell === null) continue;
      raw.currencies.push({ currency: cur, rate_date: date, buy_amt: buy, sell_amt: sell, var_pct: r.num(`${col}_var_pct`), source: 'araquem' });
    }
  }

  for (const r of load('history_market_indicators')) {
    const name = r.req('indicator_name').toUpperCase();
    const amt = r.num('indicator_amt');
    if (amt === null) continue;
    raw.indicators.push({
      indicator_name: name,
      indicator_date: r.date('indicator_date') ?? r.fail('no indicator date'),
      indicator_amt: amt,
      unit: INDICATOR_UNITS[name] ?? r.fail(`indicator '${name}' has no known unit`),
      source: 'araquem',
    });
  }

  for (const r of load('consolidated_macroeconomic')) {
    const row: Row = { ref_date: r.date('ref_date'), source: 'araquem' };
    for (const c of [
      'ipca',
      'selic',
      'cdi',
      'ifix_points',
      'ifix_var_pct',
      'ibov_points',
      'ibov_var_pct',
      'usd_buy_amt',
      'usd_sell_amt',
      'usd_var_pct',
      'eur_buy_amt',
      'eur_sell_amt',
      'eur_var_pct',
    ]) {
      row[c] = r.num(c);
    }
    // Zero points or a zero exchange rate mean "no quote that day", not a value.
    for (const c of ['ifix_points', 'ibov_points', 'usd_buy_amt', 'usd_sell_amt', 'eur_buy_amt', 'eur_sell_amt']) {
      row[c] = positiveOrNull(row[c] as number | null);
    }
    for (const k of ['ifix', 'ibov', 'usd', 'eur']) {
      const level = k === 'ifix' || k === 'ibov' ? `${k}_points` : `${k}_sell_amt`;
      if (row[level] === null) row[`${k}_var_pct`] = null;
    }
    raw.macro.push(row);
    // The consolidated file carries the monthly IPCA on each month's first day (2024-08 on), months that
    // history_market_indicators (capped at 1,000 rows of mostly daily rates) no longer reaches.
    const ipca = r.num('ipca');
    const refDate = row.ref_date as string | null;
    if (ipca !== null && refDate && refDate.endsWith('-01')) {
      raw.indicators.push({ indicator_name: 'IPCA', indicator_date: refDate, indicator_amt: ipca, unit: INDICATOR_UNITS.IPCA, source: 'araquem' });
    }
  }

  // fiis_overview.csv is araquem's own join of the files above (5 rows); the project builds its overview view instead.
  // tickers/basics_tickers.csv lists araquem's tickers: they must all be in the registry.
  const basics = load('../tickers/basics_tickers');
  for (const r of basics) cleanTicker(r.str('ticker'), raw);
}

/** A price, rate or index level of zero is a placeholder for a missing value. */
export function positiveOrNull(v: number | null): number | null {
  return v !== null && v > 0 ? v : null;
}

/** araquem writes its classifications without accents ("Hibrido") or as a word ("Fof"). */
export function classificationLabel(v: string | null): string | null {
  if (!v) return v;
  const fixed: Record<string, string> = { hibrido: 'Híbrido', fof: 'FoF' };
  return fixed[v.trim().toLowerCase()] ?? v.trim();
}
