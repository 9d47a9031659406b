import type { DataSource } from 'typeorm';
import { CATALOG_ENTITIES } from '@cota/contracts';
import { dataDir } from '@cota/config';
import { createNarrator, loadCatalogColumns, Narrator } from '@cota/narration';
import { loadPlanningPolicies, Planner, readFundTickers } from '@cota/planning';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { ensureWarehouse, EntityQueryService, loadEntityCatalog, PgSqlRunner } from '@cota/warehouse';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * One answer per catalog entity, from question to text, over the real warehouse (ingested from
 * the shared data into a fresh Postgres database): the planner reads the question, the warehouse
 * answers it, the deterministic narrator writes it. Snapshots are reviewed for correctness,
 * language and pt-BR formatting; a change in any of the three shows up here. Walking every entity,
 * it also checks that each answer carries its as-of date.
 */
const QUESTIONS: Record<(typeof CATALOG_ENTITIES)[number], string> = {
  fiis_cadastro: 'Qual o CNPJ do HGLG11?',
  fiis_precos: 'Qual a última cotação do KNRI11?',
  fiis_dividendos: 'Quais foram os últimos 6 dividendos do MXRF11?',
  fiis_yield_history: 'Como foi o dividend yield mensal do HGLG11 nos últimos 6 meses?',
  fiis_dividends_yields: 'Quanto o KNRI11 pagou de dividendos nos últimos 12 meses e qual o DY?',
  fiis_financials_snapshot: 'Qual o P/VP do VISC11?',
  fiis_financials_revenue_schedule: 'Quando vencem os contratos do HGLG11 e quais os indexadores?',
  fiis_financials_risk: 'Qual o índice de Sharpe do XPML11?',
  fiis_imoveis: 'Quais imóveis o HGLG11 tem?',
  fiis_noticias: 'Quais as últimas notícias do HGLG11?',
  fiis_processos: 'O HGRE11 tem processos judiciais?',
  fii_overview: 'Me dá um panorama geral do XPML11',
  fiis_rankings: 'top 5 fiis por dividend yield',
  history_b3_indexes: 'Quanto fechou o IFIX em 13/03/2025?',
  history_currency_rates: 'Qual era o dólar em 14/11/2025?',
  history_market_indicators: 'Qual era a Selic em 15/06/2023?',
  macro_consolidada: 'Me mostra o panorama macro mais recente: Selic, IPCA, IFIX e dólar',
  client_fiis_positions: 'Quais são as minhas posições em FIIs?',
  client_fiis_enriched_portfolio: 'Quanto valem meus FIIs hoje e qual o peso de cada um?',
  client_fiis_dividends_evolution: 'Quanto minha carteira recebeu de dividendos em cada mês?',
  client_fiis_performance_vs_benchmark: 'Como foi minha carteira versus o IFIX mês a mês?',
  client_fiis_performance_vs_benchmark_summary: 'Resumo da minha carteira contra o CDI',
};

let db: TestDatabase;
let ds: DataSource;
let planner: Planner;
let warehouse: EntityQueryService;
let narrator: Narrator;

beforeAll(async () => {
  db = await createTestDatabase('answers');
  ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: dataDir(), log: silentLogger() });
  planner = new Planner({ policies: loadPlanningPolicies(), funds: readFundTickers(dataDir()) });
  warehouse = new EntityQueryService(loadEntityCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
}, 300_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe.each(Object.entries(QUESTIONS))('%s', (entity, question) => {
  it(`answers "${question}"`, async () => {
    const plan = planner.planDeterministic(question);
    expect({ question, entity: plan.entity, accepted: plan.planner.accepted }).toEqual({ question, entity, accepted: true });
    const data = await warehouse.query({ client_id: 'cliente-demo-1', entity, params: plan.params });
    expect(data.row_count).toBeGreaterThan(0);
    const req = narrateRequest({ request_id: `snap-${entity}`, question, intent: entity, entity, params: data.params, data });
    const answer = (await narrator.narrate(req)).answer;
    // Nothing a person reads may be a raw column name or an unformatted ISO date.
    expect(answer).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(answer).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    // Every answer with a value says the date of its values (a day, or a month for monthly series).
    expect(answer).toMatch(/dados até (\d{2}\/\d{2}\/\d{4}|[a-zç]+ de \d{4})/);
    expect(answer).toMatchSnapshot();
  });
});
