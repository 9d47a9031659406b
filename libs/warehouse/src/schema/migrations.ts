import type { QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';
import { rebuildDerived } from '@cota/ledger';
import { createTableSql, tableSpec, WAREHOUSE_TABLES } from './tables';
import { WAREHOUSE_VIEWS } from './views';

class WarehouseTables implements Migration {
  readonly id = '202611220100-warehouse-tables';
  async up(q: QueryRunner): Promise<void> {
    for (const t of WAREHOUSE_TABLES) for (const sql of createTableSql(t)) await q.query(sql);
  }
  async down(q: QueryRunner): Promise<void> {
    for (const t of [...WAREHOUSE_TABLES].reverse()) await q.query(`DROP TABLE IF EXISTS "${t.name}" CASCADE`);
  }
}

class WarehouseViews implements Migration {
  readonly id: string = '202611220102-warehouse-views';
  async up(q: QueryRunner): Promise<void> {
    for (const [name] of [...WAREHOUSE_VIEWS].reverse()) await q.query(`DROP VIEW IF EXISTS "${name}" CASCADE`);
    for (const [name, sql] of WAREHOUSE_VIEWS) await q.query(`CREATE VIEW "${name}" AS ${sql}`);
  }
  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...WAREHOUSE_VIEWS].reverse()) await q.query(`DROP VIEW IF EXISTS "${name}" CASCADE`);
  }
}

/** Re-creates every view after fiis_noticias learnt to file a headline under each fund it names. */
class WarehouseViewsNewsMentions extends WarehouseViews {
  override readonly id = '202611220103-warehouse-views-news-mentions';
}

/** Re-creates every view with client_dividends_received (dividends each client received, per fund and record date). */
class WarehouseViewsDividendsReceived extends WarehouseViews {
  override readonly id = '202611230100-warehouse-views-dividends-received';
}

/** Re-creates every view with the as-of dates of undated entities (registry, properties, overview, portfolio), the portfolio weights by cost and each sale's result. */
class WarehouseViewsAsOf extends WarehouseViews {
  override readonly id = '202611230104-warehouse-views-as-of';
}

/** Re-creates every view with what each sale brought in (client_realized_gains.proceeds_amt) and each position's weight (client_fiis_positions.weight_pct). */
class WarehouseViewsSaleProceeds extends WarehouseViews {
  override readonly id = '202611240200-warehouse-views-sale-proceeds';
}

/** Re-creates every view with the day each dividend reached the client (client_dividends_received.received_on): "recebi em" goes by it. */
class WarehouseViewsReceivedOn extends WarehouseViews {
  override readonly id = '202611280100-warehouse-views-received-on';
}

/** A table added to the warehouse after its first schema (the id names it). */
class CreateWarehouseTable implements Migration {
  constructor(
    readonly id: string,
    private readonly table: string,
  ) {}
  async up(q: QueryRunner): Promise<void> {
    for (const sql of createTableSql(tableSpec(this.table))) await q.query(sql);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "${this.table}"`);
  }
}

/** Columns added to existing tables after their first schema (types from the table spec). */
class AddWarehouseColumns implements Migration {
  constructor(
    readonly id: string,
    private readonly columns: Array<[table: string, column: string]>,
  ) {}
  async up(q: QueryRunner): Promise<void> {
    for (const [table, column] of this.columns) {
      const type = tableSpec(table).columns.find(([c]) => c === column)![1];
      await q.query(`ALTER TABLE "${table}" ADD COLUMN IF NOT EXISTS "${column}" ${type}`);
    }
  }
  async down(q: QueryRunner): Promise<void> {
    for (const [table, column] of this.columns) await q.query(`ALTER TABLE "${table}" DROP COLUMN IF EXISTS "${column}"`);
  }
}

/**
 * The client ledger replaces the trades table: its rows become ledger entries (the same dates,
 * quantities and prices), the table becomes a view of the ledger's trades, every view is
 * re-created, and each client's positions and sales are derived from the ledger.
 */
class LedgerReplacesTransactions extends WarehouseViews {
  override readonly id = '202611270105-warehouse-ledger-replaces-transactions';
  override async up(q: QueryRunner): Promise<void> {
    const [{ kind }] = await q.query(`SELECT (SELECT relkind FROM pg_class WHERE oid = to_regclass('wh_client_transactions'))::text AS kind`);
    if (kind === 'r') {
      await q.query(
        `INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, institution, import_id, line, is_demo, source)
         SELECT client_id, 'legacy_' || seq, seq, side, trade_date, ticker, quantity, price, round(quantity * price, 2), 0, NULL, NULL, NULL, is_demo, source
           FROM wh_client_transactions ON CONFLICT DO NOTHING`,
      );
      await q.query(`DROP TABLE wh_client_transactions CASCADE`);
    }
    await super.up(q);
    const clients: Array<{ client_id: string }> = await q.query(`SELECT DISTINCT client_id FROM wh_client_ledger`);
    for (const c of clients) await rebuildDerived(q, c.client_id);
  }
}

/** Re-creates every view with each position's gain in reais in the portfolio's consolidated view (client_fiis_enriched_portfolio.gain_amt). */
class WarehouseViewsPortfolioGain extends WarehouseViews {
  override readonly id = '202611280101-warehouse-views-portfolio-gain';
}

/** Re-creates every view with the fund's one current price (the overview's P/VP and DY say which price they rest on). */
class WarehouseViewsCurrentPrice extends WarehouseViews {
  override readonly id = '202611280201-warehouse-views-current-price';
}

/** Re-creates every view with each position's yield on cost of every whole calendar year (client_yield_on_cost by year). */
class WarehouseViewsYearlyYieldOnCost extends WarehouseViews {
  override readonly id = '202611280301-warehouse-views-yearly-yield-on-cost';
}

/** Re-creates every view with each trade's amount in reais (what the client paid for a fund sold since). */
class WarehouseViewsTradeAmount extends WarehouseViews {
  override readonly id = '202611281800-warehouse-views-trade-amount';
}

/** Re-creates every view with what each position was worth at each close while held (client_position_values). */
class WarehouseViewsPositionValues extends WarehouseViews {
  override readonly id = '202611290100-warehouse-views-position-values';
}

/** Re-creates every view with a property's occupancy and the fund's own vacancy beside its properties (fiis_imoveis). */
class WarehouseViewsFundVacancy extends WarehouseViews {
  override readonly id = '202611290201-warehouse-views-fund-vacancy';
}

/** Schema of the warehouse: base tables, then one view per catalog entity. */
export const warehouseMigrations: Migration[] = [
  new WarehouseTables(),
  new WarehouseViews(),
  new WarehouseViewsNewsMentions(),
  new WarehouseViewsDividendsReceived(),
  // Splits and inplits detected at ingest; what the plausibility checks flagged.
  new CreateWarehouseTable('202611230101-warehouse-corporate-actions', 'wh_corporate_actions'),
  new CreateWarehouseTable('202611230102-warehouse-quality-flags', 'wh_quality_flags'),
  new CreateWarehouseTable('202611230103-warehouse-source-dates', 'wh_source_dates'),
  new CreateWarehouseTable('202611230105-warehouse-quarterly-fundamentals', 'wh_quarterly_fundamentals'),
  new WarehouseViewsAsOf(),
  new WarehouseViewsSaleProceeds(),
  // One record per distribution, one DY per fund with its window, each value's own source.
  new AddWarehouseColumns('202611270100-warehouse-provenance-columns', [
    ['wh_dividends', 'ex_date'],
    ['wh_dividends', 'agreeing_sources'],
    ['wh_dividends', 'disagreeing_sources'],
    ['wh_dividends_yields', 'payments_12m'],
    ['wh_snapshots', 'dy_from'],
    ['wh_snapshots', 'dy_to'],
    ['wh_snapshots', 'dy_payments'],
    ['wh_snapshots', 'dy_price'],
    ['wh_snapshots', 'dy_price_date'],
    ['wh_snapshots', 'dy_source'],
    ['wh_snapshots', 'published_dy_pct'],
    ['wh_funds', 'shareholders_source'],
    ['wh_funds', 'shareholders_as_of'],
  ]),
  new CreateWarehouseTable('202611270101-warehouse-valuation-history', 'wh_valuation_history'),
  // One ledger per client (trades, income, splits), its imports, and the positions and sales derived from it.
  new CreateWarehouseTable('202611270101-warehouse-client-ledger', 'wh_client_ledger'),
  new CreateWarehouseTable('202611270102-warehouse-client-imports', 'wh_client_imports'),
  new CreateWarehouseTable('202611270103-warehouse-client-positions', 'wh_client_positions'),
  new CreateWarehouseTable('202611270104-warehouse-client-sales', 'wh_client_sales'),
  new LedgerReplacesTransactions(),
  new WarehouseViewsReceivedOn(),
  new WarehouseViewsPortfolioGain(),
  // One current price per fund behind its DY, P/VP and market value.
  new AddWarehouseColumns('202611280200-warehouse-current-price-columns', [
    ['wh_snapshots', 'price_amt'],
    ['wh_snapshots', 'price_date'],
    ['wh_snapshots', 'price_kind'],
    ['wh_snapshots', 'dy_price_kind'],
    ['wh_snapshots', 'valuation_date'],
  ]),
  new WarehouseViewsCurrentPrice(),
  new WarehouseViewsYearlyYieldOnCost(),
  new WarehouseViewsTradeAmount(),
  new WarehouseViewsPositionValues(),
  new AddWarehouseColumns('202611290200-warehouse-fund-vacancy', [
    ['wh_funds', 'vacancy_ratio'],
    ['wh_funds', 'vacancy_source'],
    ['wh_funds', 'vacancy_as_of'],
  ]),
  new WarehouseViewsFundVacancy(),
];
