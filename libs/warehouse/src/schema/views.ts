/**
 * One view per catalog entity (view name = entity name). Column names follow the araquem CSV
 * headers where the entity has an araquem counterpart, so templates can rely on them.
 * Order matters: views used by other views come first.
 */
export const WAREHOUSE_VIEWS: Array<[name: string, sql: string]> = [
  [
    'wh_latest_price',
    `SELECT DISTINCT ON (ticker) ticker, traded_at, close_price, source
       FROM wh_prices WHERE close_price IS NOT NULL ORDER BY ticker, traded_at DESC`,
  ],
  [
    'fiis_cadastro',
    `SELECT ticker, fii_cnpj, display_name, b3_name, isin, classification, sector, sub_sector, management_type,
            target_market, is_exclusive, mandate, ipo_date, website_url, admin_name, admin_cnpj, manager_name,
            custodian_name, ifil_weight_pct, ifix_weight_pct, shares_count, shareholders_count, shareholders_source,
            shareholders_as_of, sector_source, source,
            (SELECT d.as_of_date FROM wh_source_dates d WHERE d.source = wh_funds.source) AS as_of_date
       FROM wh_funds`,
  ],
  [
    'fiis_precos',
    `SELECT ticker, traded_at, close_price, adj_close_price, open_price, max_price, min_price, volume,
            daily_variation_pct, frequency, source FROM wh_prices`,
  ],
  ['fiis_dividendos', `SELECT ticker, traded_until_date, ex_date, payment_date, dividend_amt, agreeing_sources, disagreeing_sources, source FROM wh_dividends`],
  [
    'fiis_yield_history',
    `SELECT ticker, ref_month, dividends_sum, price_ref, dy_monthly, round(dy_monthly * 100, 4) AS dy_monthly_pct, source
       FROM wh_yield_history`,
  ],
  [
    'fiis_dividends_yields',
    `SELECT y.ticker, f.display_name, f.sector, y.ref_month, y.month_dividends_amt, y.month_price_ref, y.dy_monthly,
            y.dividends_12m_amt, y.dy_12m_pct, y.last_dividend_amt, y.last_payment_date, y.source
       FROM wh_dividends_yields y LEFT JOIN wh_funds f ON f.ticker = y.ticker`,
  ],
  [
    'fiis_financials_snapshot',
    // (the fund's own vacancy, from the registry, beside its snapshot)
    `SELECT s.ticker, s.ref_date, s.dy_monthly_pct, s.dy_pct, s.sum_anual_dy_amt, s.last_dividend_amt,
            s.last_payment_date, s.market_cap_value, s.enterprise_value, s.price_book_ratio, s.equity_per_share,
            s.revenue_per_share, s.dividend_payout_pct, s.growth_rate, s.cap_rate, s.leverage_ratio, s.equity_value,
            s.total_assets_amt, s.variation_month_ratio, s.variation_year_ratio, s.equity_month_ratio,
            s.dividend_reserve_amt, s.admin_fee_due_amt, s.perf_fee_due_amt, s.total_cash_amt,
            s.expected_revenue_amt, s.liabilities_total_amt, s.dy_from, s.dy_to, s.dy_payments, s.dy_price,
            s.dy_price_date, s.published_dy_pct, s.price_amt, s.price_date, s.price_kind, s.dy_price_kind,
            s.valuation_date, s.source, f.vacancy_ratio AS fund_vacancy_ratio,
            f.vacancy_source AS fund_vacancy_source, f.vacancy_as_of AS fund_vacancy_as_of
       FROM wh_snapshots s LEFT JOIN wh_funds f ON f.ticker = s.ticker`,
  ],
  ['fiis_financials_revenue_schedule', `SELECT * FROM wh_revenue_schedule`],
  [
    // araquem's published metrics win (source precedence); the project's own metrics fill funds it
    // lacks, and are always shown next to them (calc_*: annualised, vs CDI and IFIX, explicit window).
    'fiis_financials_risk',
    `WITH pick AS (
       SELECT DISTINCT ON (ticker) ticker, ref_date, window_start, observations, volatility_ratio, sharpe_ratio,
              treynor_ratio, jensen_alpha, beta_index, sortino_ratio, max_drawdown, r_squared, source
         FROM wh_risk
        ORDER BY ticker, (volatility_ratio IS NULL), CASE source WHEN 'araquem' THEN 0 ELSE 1 END)
     SELECT p.ticker, p.ref_date, p.window_start, p.observations, p.volatility_ratio, p.sharpe_ratio, p.treynor_ratio,
            p.jensen_alpha, p.beta_index, p.sortino_ratio, p.max_drawdown, p.r_squared,
            c.volatility_ratio AS calc_volatility_ratio, c.sharpe_ratio AS calc_sharpe_ratio,
            c.sortino_ratio AS calc_sortino_ratio, c.max_drawdown AS calc_max_drawdown, c.beta_index AS calc_beta_index,
            c.window_start AS calc_window_start, c.ref_date AS calc_window_end,
            CASE WHEN c.ticker IS NOT NULL AND p.source <> 'derived' THEN p.source || ',derived' ELSE p.source END AS source
       FROM pick p LEFT JOIN wh_risk c ON c.ticker = p.ticker AND c.source = 'derived'`,
  ],
  [
    'fiis_imoveis',
    `SELECT p.ticker, p.seq, p.asset_name, p.asset_class, p.asset_address, p.city, p.state, p.total_area, p.units_count, p.vacancy_ratio,
            1 - p.vacancy_ratio AS occupancy_ratio, p.non_compliant_ratio, p.revenue_share_ratio, p.assets_status, p.source,
            (SELECT d.as_of_date FROM wh_source_dates d WHERE d.source = p.source) AS as_of_date,
            f.vacancy_ratio AS fund_vacancy_ratio, f.vacancy_source AS fund_vacancy_source, f.vacancy_as_of AS fund_vacancy_as_of
       FROM wh_properties p LEFT JOIN wh_funds f ON f.ticker = p.ticker`,
  ],
  [
    // A headline filed under one fund often names others ("BRIM11, HGLG11: IFIX fecha em queda"):
    // it is news about each fund its title names, once per fund and article.
    'fiis_noticias',
    `SELECT DISTINCT ON (ticker, url, title) ticker, source, title, tags, description, url, image_url, published_at, data_source
       FROM (SELECT ticker, source, title, tags, description, url, image_url, published_at, data_source FROM wh_news
             UNION ALL
             SELECT m.t[1], n.source, n.title, n.tags, n.description, n.url, n.image_url, n.published_at, n.data_source
               FROM wh_news n CROSS JOIN LATERAL regexp_matches(n.title, '\\m([A-Z]{4}11)\\M', 'g') AS m(t)
              WHERE EXISTS (SELECT 1 FROM wh_funds f WHERE f.ticker = m.t[1])) news`,
  ],
  [
    'fiis_processos',
    `SELECT ticker, process_number, judgment, instance, initiation_date, cause_amt, process_parts, loss_risk_pct,
            main_facts, loss_impact_analysis, source FROM wh_legal`,
  ],
  [
    'fiis_rankings',
    `SELECT k.ticker, f.display_name, f.sector, k.ref_date, k.users_rank_position, k.sirios_rank_position,
            k.ifix_rank_position, k.ifil_rank_position, k.rank_dy_12m, k.rank_dy_monthly, k.rank_dividends_12m,
            k.rank_market_cap, k.rank_equity, k.rank_sharpe, k.rank_sortino, k.rank_low_volatility, k.rank_low_drawdown,
            s.dy_pct AS dy_12m_pct, s.dy_monthly_pct, s.sum_anual_dy_amt AS dividends_12m_amt, s.market_cap_value,
            s.equity_value, r.sharpe_ratio, r.sortino_ratio, r.volatility_ratio, r.max_drawdown,
            f.ifix_weight_pct, f.ifil_weight_pct, k.source
       FROM wh_rankings k
       JOIN wh_funds f ON f.ticker = k.ticker
       LEFT JOIN wh_snapshots s ON s.ticker = k.ticker
       LEFT JOIN fiis_financials_risk r ON r.ticker = k.ticker`,
  ],
  [
    'fii_overview',
    `SELECT f.ticker, f.display_name, f.b3_name, f.fii_cnpj, f.classification, f.sector, f.sub_sector,
            f.management_type, f.target_market, f.admin_name, f.ifil_weight_pct, f.ifix_weight_pct, f.shares_count,
            f.shareholders_count, s.ref_date AS snapshot_date, s.dy_monthly_pct, s.dy_pct AS dy_12m_pct,
            s.sum_anual_dy_amt AS dividends_12m_amt, s.last_dividend_amt, s.last_payment_date, s.market_cap_value,
            s.price_book_ratio, s.equity_per_share, s.equity_value, s.leverage_ratio, r.volatility_ratio,
            r.sharpe_ratio, r.sortino_ratio, r.max_drawdown, r.beta_index, k.ifix_rank_position, k.rank_dy_12m,
            k.rank_sharpe, k.rank_market_cap, p.close_price AS last_price, p.traded_at AS last_price_date,
            s.dy_from, s.dy_to, s.dy_payments, s.dy_price_date,
            -- The price the DY and P/VP rest on, said by kind: a traded close, or the snapshot's reference price.
            CASE WHEN s.dy_price_kind = 'close' THEN s.dy_price_date END AS dy_close_date,
            CASE WHEN s.dy_price_kind = 'reference' THEN s.dy_price_date END AS dy_reference_date,
            CASE WHEN s.price_kind = 'reference' AND s.price_book_ratio > 0 THEN s.price_amt END AS reference_price,
            CASE WHEN s.price_kind = 'reference' AND s.price_book_ratio > 0 THEN s.price_date END AS reference_price_date,
            (SELECT string_agg(DISTINCT x, ',' ORDER BY x)
               FROM regexp_split_to_table(concat_ws(',', f.source, s.source, s.dy_source, r.source, k.source, p.source), ',') AS x) AS source
       FROM wh_funds f
       LEFT JOIN wh_snapshots s ON s.ticker = f.ticker
       LEFT JOIN fiis_financials_risk r ON r.ticker = f.ticker
       LEFT JOIN wh_rankings k ON k.ticker = f.ticker
       LEFT JOIN wh_latest_price p ON p.ticker = f.ticker`,
  ],
  [
    'history_b3_indexes',
    `SELECT index_date,
            max(points) FILTER (WHERE index_name = 'IBOV') AS ibov_points_count,
            max(var_pct) FILTER (WHERE index_name = 'IBOV') AS ibov_var_pct,
            max(points) FILTER (WHERE index_name = 'IFIX') AS ifix_points_count,
            max(var_pct) FILTER (WHERE index_name = 'IFIX') AS ifix_var_pct,
            max(points) FILTER (WHERE index_name = 'IFIL') AS ifil_points_count,
            max(var_pct) FILTER (WHERE index_name = 'IFIL') AS ifil_var_pct,
            string_agg(DISTINCT index_name || ':' || source, ',') AS source
       FROM wh_index_history GROUP BY index_date`,
  ],
  [
    'history_currency_rates',
    `SELECT rate_date,
            max(buy_amt) FILTER (WHERE currency = 'USD') AS usd_buy_amt,
            max(sell_amt) FILTER (WHERE currency = 'USD') AS usd_sell_amt,
            max(var_pct) FILTER (WHERE currency = 'USD') AS usd_var_pct,
            max(buy_amt) FILTER (WHERE currency = 'EUR') AS eur_buy_amt,
            max(sell_amt) FILTER (WHERE currency = 'EUR') AS eur_sell_amt,
            max(var_pct) FILTER (WHERE currency = 'EUR') AS eur_var_pct,
            string_agg(DISTINCT source, ',') AS source
       FROM wh_currency_rates GROUP BY rate_date`,
  ],
  ['history_market_indicators', `SELECT indicator_date, indicator_name, indicator_amt, unit, source FROM wh_market_indicators`],
  ['macro_consolidada', `SELECT * FROM wh_macro_consolidated`],
  [
    // The ledger's trades (and the share changes of splits and reverse splits, side 'split' /
    // 'reverse_split', signed quantities elsewhere), as the portfolio measures read them.
    'wh_client_transactions',
    `SELECT client_id, seq, event_date AS trade_date, ticker, kind AS side, quantity::int AS quantity, price, source AS price_source, is_demo, source, amount
       FROM wh_client_ledger WHERE kind IN ('buy','sell','split','reverse_split')`,
  ],
  [
    // Positions derived from the ledger (wh_client_positions: B3 average price rule) at the last close.
    'client_fiis_positions',
    `SELECT c.client_id, c.ticker, f.display_name, f.sector, c.quantity::int AS quantity,
            round(c.avg_price, 4) AS avg_price,
            round(c.cost_amt, 2) AS invested_amt,
            p.close_price AS last_price, p.traded_at AS last_price_date,
            round(c.quantity * p.close_price, 2) AS market_value,
            round(c.quantity * p.close_price - c.cost_amt, 2) AS gain_amt,
            round((p.close_price / nullif(c.avg_price, 0) - 1) * 100, 2) AS gain_pct,
            -- The fund's share of the client's portfolio at market prices ("peso do HGLG11 na minha carteira").
            round(100 * c.quantity * p.close_price / nullif(sum(c.quantity * p.close_price) OVER (PARTITION BY c.client_id), 0), 2) AS weight_pct,
            c.first_buy_date, c.is_demo,
            concat_ws(',', CASE WHEN c.is_demo THEN 'demo' ELSE 'client' END, p.source) AS source
       FROM wh_client_positions c LEFT JOIN wh_funds f ON f.ticker = c.ticker LEFT JOIN wh_latest_price p ON p.ticker = c.ticker
      WHERE c.quantity > 0`,
  ],
  [
    'client_fiis_enriched_portfolio',
    `SELECT c.client_id, c.ticker, c.display_name, c.sector, f.sub_sector, f.classification, c.quantity, c.avg_price,
            c.invested_amt, c.last_price, c.last_price_date, c.market_value, c.gain_pct, c.gain_amt,
            round(c.market_value / nullif(sum(c.market_value) OVER (PARTITION BY c.client_id), 0) * 100, 2) AS weight_pct,
            round(c.invested_amt / nullif(sum(c.invested_amt) OVER (PARTITION BY c.client_id), 0) * 100, 2) AS cost_weight_pct,
            s.dy_pct AS dy_12m_pct, s.price_book_ratio, s.last_dividend_amt,
            round(c.quantity * s.last_dividend_amt, 2) AS expected_monthly_income_amt,
            r.volatility_ratio, r.sharpe_ratio, s.ref_date AS snapshot_date, s.dy_price_date AS dy_date, c.is_demo,
            (SELECT string_agg(DISTINCT x, ',' ORDER BY x) FROM regexp_split_to_table(concat_ws(',', c.source, s.source, s.dy_source), ',') AS x) AS source
       FROM client_fiis_positions c
       LEFT JOIN wh_funds f ON f.ticker = c.ticker
       LEFT JOIN wh_snapshots s ON s.ticker = c.ticker
       LEFT JOIN fiis_financials_risk r ON r.ticker = c.ticker`,
  ],
  [
    // Dividends received: each dividend times the quantity the client held on its record date.
    'client_fiis_dividends_evolution',
    `SELECT x.client_id, x.ref_month, round(sum(x.amt), 2) AS dividends_amt, count(DISTINCT x.ticker)::int AS paying_tickers,
            bool_and(x.is_demo) AS is_demo,
            concat_ws(',', CASE WHEN bool_and(x.is_demo) THEN 'demo' ELSE 'client' END, string_agg(DISTINCT x.src, ',')) AS source
       FROM (
         SELECT h.client_id, date_trunc('month', COALESCE(d.payment_date, d.traded_until_date))::date AS ref_month,
                d.dividend_amt * h.quantity AS amt, d.ticker, h.is_demo, d.source AS src
           FROM wh_dividends d
           JOIN LATERAL (
             SELECT t.client_id, sum(CASE WHEN t.side IN ('buy','split') THEN t.quantity ELSE -t.quantity END) AS quantity,
                    bool_and(t.is_demo) AS is_demo
               FROM wh_client_transactions t
              WHERE t.ticker = d.ticker AND t.trade_date <= d.traded_until_date
              GROUP BY t.client_id) h ON h.quantity > 0
          WHERE NOT EXISTS (SELECT 1 FROM wh_client_ledger l WHERE l.client_id = h.client_id AND l.ticker = d.ticker AND l.kind = 'income')
         UNION ALL
         -- Income a B3 statement reported (Movimentação "Rendimento"), by payment date: it replaces the estimate for that fund.
         SELECT l.client_id, date_trunc('month', l.event_date)::date, l.amount, l.ticker, l.is_demo, l.source
           FROM wh_client_ledger l WHERE l.kind = 'income') x
      GROUP BY x.client_id, x.ref_month`,
  ],
  [
    // What each client received per fund and record date: shares held at the record date × dividend per share.
    'client_dividends_received',
    `SELECT h.client_id, d.ticker, d.traded_until_date, d.payment_date, round(d.dividend_amt * h.quantity, 2) AS received_amt,
            h.quantity, d.dividend_amt, concat_ws(',', CASE WHEN h.is_demo THEN 'demo' ELSE 'client' END, d.source) AS source,
            -- The day it reached the account: the payment date, or the data-com where no source gives the payment.
            COALESCE(d.payment_date, d.traded_until_date) AS received_on
       FROM wh_dividends d
       JOIN LATERAL (
         SELECT t.client_id, sum(CASE WHEN t.side IN ('buy','split') THEN t.quantity ELSE -t.quantity END) AS quantity, bool_and(t.is_demo) AS is_demo
           FROM wh_client_transactions t
          WHERE t.ticker = d.ticker AND t.trade_date <= d.traded_until_date
          GROUP BY t.client_id) h ON h.quantity > 0
      WHERE NOT EXISTS (SELECT 1 FROM wh_client_ledger l WHERE l.client_id = h.client_id AND l.ticker = d.ticker AND l.kind = 'income')
     UNION ALL
     -- Income a B3 statement reported (Movimentação "Rendimento"), by payment date: it replaces the estimate for that fund.
     SELECT l.client_id, l.ticker, l.event_date, l.event_date, l.amount, l.quantity, l.price,
            concat_ws(',', CASE WHEN l.is_demo THEN 'demo' ELSE 'client' END, l.source), l.event_date
       FROM wh_client_ledger l WHERE l.kind = 'income'`,
  ],
  [
    // Yield on cost of each position: the income received in the 12 months up to its last payment ÷ the position's cost
    // (dated by that payment: the current figure); and each whole calendar year before it, its income by data-com ÷ the
    // same cost, dated 31/12 ("yield on cost em 2024").
    'client_yield_on_cost',
    `SELECT p.client_id, p.ticker, p.invested_amt, i.last_paid AS ref_date, COALESCE(i.income_amt, 0) AS income_amt, '12m' AS income_window,
            round(100 * COALESCE(i.income_amt, 0) / nullif(p.invested_amt, 0), 2) AS yield_on_cost_pct, p.is_demo, p.source
       FROM client_fiis_positions p
       JOIN LATERAL (
         SELECT max(COALESCE(r.payment_date, r.traded_until_date)) AS last_paid,
                sum(r.received_amt) FILTER (WHERE COALESCE(r.payment_date, r.traded_until_date) >
                  (SELECT max(COALESCE(x.payment_date, x.traded_until_date)) FROM client_dividends_received x WHERE x.client_id = p.client_id AND x.ticker = p.ticker) - interval '12 months') AS income_amt
           FROM client_dividends_received r WHERE r.client_id = p.client_id AND r.ticker = p.ticker) i ON i.last_paid IS NOT NULL
     UNION ALL
     SELECT p.client_id, p.ticker, p.invested_amt, make_date(y.yr, 12, 31) AS ref_date, y.income_amt, 'year' AS income_window,
            round(100 * y.income_amt / nullif(p.invested_amt, 0), 2) AS yield_on_cost_pct, p.is_demo, p.source
       FROM client_fiis_positions p
       JOIN LATERAL (
         SELECT extract(year FROM r.traded_until_date)::int AS yr, sum(r.received_amt) AS income_amt
           FROM client_dividends_received r WHERE r.client_id = p.client_id AND r.ticker = p.ticker
          GROUP BY 1) y
         ON y.yr < (SELECT extract(year FROM max(COALESCE(x.payment_date, x.traded_until_date)))::int
                      FROM client_dividends_received x WHERE x.client_id = p.client_id AND x.ticker = p.ticker)`,
  ],
  [
    // What each sale brought in (shares sold × sale price) and made or lost (less the average cost of the moment, B3 rule; wh_client_sales).
    'client_realized_gains',
    `SELECT s.client_id, s.ticker, s.sold_on, s.quantity::int AS quantity, s.sell_price, round(s.avg_cost, 4) AS avg_cost,
            round(s.result_amt, 2) AS result_amt, round((s.sell_price / nullif(s.avg_cost, 0) - 1) * 100, 2) AS result_pct,
            s.is_demo, round(s.quantity * s.sell_price, 2) AS proceeds_amt, concat_ws(',', CASE WHEN s.is_demo THEN 'demo' ELSE 'client' END, s.source) AS source
       FROM wh_client_sales s`,
  ],
  [
    // What each position was worth at each traded close while it was held: the shares held that day × that day's close
    // ("quanto valia minha posição em XPML11 no fim de 2022?"). Driven by the client's funds, so a client's rows are read alone.
    'client_position_values',
    `SELECT h.client_id, p.ticker, p.traded_at::date AS traded_at, x.quantity::int AS quantity, p.close_price,
            round(x.quantity * p.close_price, 2) AS value_amt, x.is_demo,
            concat_ws(',', CASE WHEN x.is_demo THEN 'demo' ELSE 'client' END, p.source) AS source
       FROM (SELECT client_id, ticker, min(trade_date) AS first_trade FROM wh_client_transactions GROUP BY client_id, ticker) h
       JOIN wh_prices p ON p.ticker = h.ticker AND p.traded_at >= h.first_trade AND p.close_price IS NOT NULL
       JOIN LATERAL (
         SELECT sum(CASE WHEN t.side IN ('buy','split') THEN t.quantity ELSE -t.quantity END) AS quantity, bool_and(t.is_demo) AS is_demo
           FROM wh_client_transactions t
          WHERE t.client_id = h.client_id AND t.ticker = h.ticker AND t.trade_date <= p.traded_at) x ON x.quantity > 0`,
  ],
  [
    'client_fiis_performance_vs_benchmark',
    `SELECT client_id, benchmark, ref_month, portfolio_value, portfolio_return_pct, benchmark_return_pct,
            portfolio_cum_return_pct, benchmark_cum_return_pct, excess_return_pct, is_demo, source
       FROM wh_client_performance`,
  ],
  [
    'client_fiis_performance_vs_benchmark_summary',
    `SELECT p.client_id, p.benchmark, a.period_start, p.ref_month AS period_end, a.months_count,
            p.portfolio_cum_return_pct, p.benchmark_cum_return_pct, p.excess_return_pct, a.months_beating_benchmark,
            p.portfolio_value, p.is_demo, p.source
       FROM wh_client_performance p
       JOIN (SELECT client_id, benchmark, min(ref_month) AS period_start, max(ref_month) AS period_end,
                    count(*)::int AS months_count,
                    count(*) FILTER (WHERE portfolio_return_pct > benchmark_return_pct)::int AS months_beating_benchmark
               FROM wh_client_performance GROUP BY client_id, benchmark) a
         ON a.client_id = p.client_id AND a.benchmark = p.benchmark AND a.period_end = p.ref_month`,
  ],
];
