import type { DataSource } from 'typeorm';
import type { PlanResponse } from '@cota/contracts';
import { dataDir } from '@cota/config';
import { createNarrator, loadCatalogColumns, Narrator } from '@cota/narration';
import { loadPlanningPolicies, Planner, readFunds } from '@cota/planning';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { EntityQueryService, IngestSummary, loadEntityCatalog, loadMeasureCatalog, MeasureQueryService, PgSqlRunner, runIngest, warehouseMigrations } from '@cota/warehouse';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * "One number per fact" (issue 26) over the real warehouse ingested from the shared data: one record
 * per distribution, windows that mean what they say, one DY per fund, each value with its own source
 * and date, and "ontem" said honestly when the data is older than the calendar (today: 27/11/2026).
 */
let db: TestDatabase;
let ds: DataSource;
let summary: IngestSummary;
let planner: Planner;
let measures: MeasureQueryService;
let entities: EntityQueryService;
let narrator: Narrator;
const TODAY = '2026-11-27';
const NICKNAMES = /araquem|dashbord|fii-orchestrator|opbrreit|Dados-FIIs|paulo037|market16/i;

beforeAll(async () => {
  db = await createTestDatabase('facts');
  ds = await openDatabase({ url: db.url });
  await runMigrations(ds, warehouseMigrations);
  summary = await runIngest(ds, { dataDir: dataDir() });
  planner = new Planner({ policies: loadPlanningPolicies(), funds: readFunds(dataDir()) });
  measures = new MeasureQueryService(loadMeasureCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000, today: () => TODAY });
  entities = new EntityQueryService(loadEntityCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
}, 900_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

async function answer(question: string, client = 'cliente-demo-1'): Promise<{ plan: PlanResponse; text: string; rows: Array<Record<string, unknown>> }> {
  const plan = planner.planDeterministic(question);
  if (plan.kind === 'measure') {
    const result = await measures.compute(plan.question!, client);
    const text = (await narrator.narrate(narrateRequest({ question, kind: 'measure', entity: plan.entity, measure: result, question_spec: plan.question }))).answer;
    return { plan, text, rows: [] };
  }
  const data = await entities.query({ client_id: client, entity: plan.entity!, params: plan.params });
  const text = (await narrator.narrate(narrateRequest({ question, intent: plan.entity!, entity: plan.entity, params: data.params, data }))).answer;
  return { plan, text, rows: data.rows as Array<Record<string, unknown>> };
}

describe('twelve months are twelve months', () => {
  // dashbord dividendos.csv: HGLG11 R$ 1,10 on every data-com from 28/06/2024 to 30/05/2025 (and on 31/05/2024,
  // which a day-exact window starting 31/05/2024 counted as a 13th payment); MXRF11 0,10/0,09 over the same months.
  it.each([
    ['HGLG11', 'R$ 13,20'],
    ['MXRF11', 'R$ 1,14'],
  ])('%s: three phrasings and the overview give the same total of 12 payments', async (ticker, total) => {
    for (const q of [`quanto o ${ticker} pagou nos últimos 12 meses?`, `dividendos do ${ticker} nos últimos doze meses`, `soma dos proventos do ${ticker} no último ano`]) {
      const { text } = await answer(q);
      expect({ q, total: text.includes(total), count: text.includes('(12 pagamentos)'), window: text.includes('de 01/06/2024 a 30/05/2025') }).toEqual({
        q,
        total: true,
        count: true,
        window: true,
      });
      expect(text).not.toMatch(NICKNAMES);
    }
    const overview = await answer(`me dá um panorama do ${ticker}`);
    expect(overview.text).toContain(`Nos últimos 12 meses, distribuiu ${total} por cota (data-com de junho de 2024 a maio de 2025)`);
    expect(overview.text).not.toMatch(NICKNAMES);
  });

  it('a year by data-com counts what the fund distributed; by payment date what was paid', async () => {
    // HGLG11 2024: twelve data-com of R$ 1,10 (dashbord), January's ex-dated copy from market16 not counted again.
    const year = await answer('quanto o HGLG11 pagou em 2024?');
    expect(year.text).toContain('R$ 13,20 (12 pagamentos)');
    // araquem fiis_dividends.csv APTO11: data-com 30/06/2025 paid 18/07/2025 (R$ 0,10).
    const paid = await answer('qto o apto11 pagou em julho de 2025 pela data de pagamento?');
    expect(paid.text).toContain('R$ 0,10');
    const byRecord: Array<{ n: number }> = await ds.query(
      `SELECT count(*)::int AS n FROM wh_dividends WHERE ticker = 'APTO11' AND payment_date >= '2025-07-01' AND payment_date < '2025-08-01' AND traded_until_date < '2025-07-01'`,
    );
    expect(byRecord[0].n).toBeGreaterThan(0);
  });
});

describe('"pagou em" and "recebi em" go by the payment date', () => {
  // araquem fiis_dividends.csv BBFO11: data-com 30/09/2025 paid 14/10/2025 (R$ 0,73); data-com 31/10/2025 paid 14/11/2025 (R$ 0,70).
  it('what a fund paid in a month is the payment made in it; what it distributed, the data-com in it', async () => {
    const paid = await answer('quanto o BBFO11 pagou em outubro de 2025?');
    expect(paid.plan.question?.measure).toBe('dividend_paid');
    expect(paid.text).toContain('R$ 0,73');
    expect(paid.text).not.toContain('R$ 0,70');
    const distributed = await answer('quanto o BBFO11 distribuiu em outubro de 2025?');
    expect(distributed.text).toContain('R$ 0,70');
  });

  it('a fund whose payment dates no source gives: its distributions by data-com, and the answer says so', async () => {
    // dashbord dividendos.csv has no payment date: HGLG11's 12 data-com of 2024 at R$ 1,10.
    const { text } = await answer('quanto o HGLG11 pagou em 2024?');
    expect(text).toContain('R$ 13,20 (12 pagamentos)');
    expect(text).toContain('a base não tem a data de pagamento desses dividendos; somei pela data-com');
  });

  it('what a client received in a month is what was paid to the account in it', async () => {
    // 100 shares of BBFO11 held since 02/01/2025: October 2025 brought the R$ 0,73 paid on 14/10/2025, R$ 73,00.
    await ds.query(
      `INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, is_demo, source)
       VALUES ('cliente-pagamentos', 'b1', 1, 'buy', '2025-01-02', 'BBFO11', 100, 60, 6000, 0, true, 'demo')`,
    );
    const { plan, text } = await answer('quanto recebi do BBFO11 em outubro de 2025?', 'cliente-pagamentos');
    expect(plan.question?.measure).toBe('received');
    expect(text).toContain('R$ 73,00');
  });
});

describe('a level crossed', () => {
  it('the first close of the IFIX above 3.500 points, searched over the whole series', async () => {
    // opbrreit/ifix.csv line 3643: 05/09/2025 at 3.500,33; every earlier close since 30/12/2010 is below 3.500.
    const { plan, text } = await answer('quando foi a primeira vez que o ifix fechou acima dos 3500 pontos?');
    expect(plan.question).toMatchObject({ agg: 'first', condition: { op: 'gt', value: 3500 } });
    expect(text).toContain('A primeira vez que o IFIX ficou acima de 3.500,00 pontos foi em 05/09/2025, com 3.500,33 pontos');
  });
});

describe("the client's yield on cost", () => {
  it("of a past whole year: its dividends by data-com over the position's cost; today, the last 12 months", async () => {
    // cliente-demo-1 holds 120 HGLG11 at R$ 169,53 (demo-clients.ts); HGLG11's 12 data-com of 2024 at R$ 1,10 (dashbord
    // dividendos.csv): 120 × 13,20 = 1.584,00 ÷ 20.343,60 = 7,79%.
    const year = await answer('qual o yield on cost do meu HGLG11 em 2024?');
    expect(year.plan.question).toMatchObject({ measure: 'yield_on_cost', period: { from: '2024-01-01', to: '2024-12-31' } });
    expect(year.text).toContain('7,79%');
    const now = await answer('qual o yield on cost do meu HGLG11?');
    expect(now.text).not.toContain('7,79%');
  });
});

describe('one record per distribution', () => {
  it("HGLG11's December 2023 distribution, dated 28/12/2023 by dashbord and 02/01/2024 (its ex-date) by market16, is one record", async () => {
    // dashbord/dividendos.csv "HGLG11,2023-12-28,1.1"; market16/dividends.csv "2024-01-02,1.1,HGLG11" (ex-dated).
    const rows: Array<Record<string, string | null>> = await ds.query(
      `SELECT traded_until_date::text AS d, ex_date::text AS ex, source, agreeing_sources, disagreeing_sources
         FROM wh_dividends WHERE ticker = 'HGLG11' AND traded_until_date BETWEEN '2023-12-15' AND '2024-01-15'`,
    );
    expect(rows).toEqual([{ d: '2023-12-28', ex: '2024-01-02', source: 'dashbord', agreeing_sources: 'dashbord,market16', disagreeing_sources: null }]);
    // The reconciliation report counts what each pair of sources reported in common, and where they differ.
    const pair = summary.disagreements.find((d) => d.series === 'dividends per share' && d.sources[0] === 'dashbord' && d.sources[1] === 'market16');
    expect(pair?.overlap).toBeGreaterThan(100);
    // market16 publishes some amounts adjusted (XPML11 March 2024: 0,899938 against 0,92 paid): kept apart, not counted.
    const xpml: Array<{ n: number }> = await ds.query(
      `SELECT count(*)::int AS n FROM wh_dividends WHERE ticker = 'XPML11' AND traded_until_date BETWEEN '2024-03-01' AND '2024-03-31'`,
    );
    expect(xpml[0].n).toBe(1);
  });
});

describe('one DY per fund', () => {
  it('the DY answer, overview, ranking, comparison and portfolio show the same number, from the same distributions', async () => {
    const dy = async (t: string) => (await measures.compute(planner.planDeterministic(`qual o dy do ${t}?`).question!, 'c')).values[0];
    const [hglg, knri] = [await dy('HGLG11'), await dy('KNRI11')];
    // 12 payments of R$ 1,10 (dashbord dividendos.csv, data-com 28/06/2024..30/05/2025) over the fund's one current price:
    // araquem's reference price of 22/11/2025, P/VP 0,9860 × VP por cota 162,221 = R$ 159,95 (newer than the close of
    // 25/06/2025, R$ 157,60): 8,25%, the DY araquem publishes.
    expect({ value: hglg.value, count: hglg.count, end: hglg.end, kind: hglg.price_kind }).toEqual({
      value: 8.25,
      count: 12,
      end: { date: '2025-11-22', value: 159.95 },
      kind: 'reference',
    });
    const overview: Array<{ ticker: string; dy: string }> = await ds.query(`SELECT ticker, dy_12m_pct AS dy FROM fii_overview WHERE ticker IN ('HGLG11', 'KNRI11')`);
    const ranking: Array<{ ticker: string; dy: string }> = await ds.query(`SELECT ticker, dy_12m_pct AS dy FROM fiis_rankings WHERE ticker IN ('HGLG11', 'KNRI11')`);
    const portfolio: Array<{ ticker: string; dy: string }> = await ds.query(
      `SELECT ticker, dy_12m_pct AS dy FROM client_fiis_enriched_portfolio WHERE client_id = 'cliente-demo-1' AND ticker = 'HGLG11'`,
    );
    const compare = await measures.compute(planner.planDeterministic('compare o dy do HGLG11 e do KNRI11').question!, 'c');
    const want = { HGLG11: hglg.value, KNRI11: knri.value };
    expect(Object.fromEntries(overview.map((r) => [r.ticker, Number(r.dy)]))).toEqual(want);
    expect(Object.fromEntries(ranking.map((r) => [r.ticker, Number(r.dy)]))).toEqual(want);
    expect(Number(portfolio[0].dy)).toBe(hglg.value);
    expect(Object.fromEntries(compare.values.map((v) => [v.subject.id, v.value]))).toEqual(want);
    const text = (await answer('qual o dy do HGLG11?')).text;
    expect(text).toContain('8,25%');
    expect(text).toContain('R$ 13,20');
    expect(text).toContain('preço de referência de R$ 159,95 publicado em 22/11/2025');
  });
});

describe('splits inside the twelve months', () => {
  it('a 1:10 split between the distributions is on one scale (ALZC11 April 2025, SARE11 October 2024)', async () => {
    // araquem fiis_dividends.csv ALZC11, data-com 18/11/2024..15/10/2025: 1,20 1,20 1,27 0,39 1,55 1,10 (old scale,
    // /10) and 0,12 0,12 0,10 0,11 0,11 0,10 = R$ 1,331, over araquem's reference price of 22/11/2025 (P/VP 0,8030 ×
    // VP por cota 9,438 = R$ 7,58) = 17,56%.
    // dashbord dividendos.csv SARE11, 28/06/2024..30/05/2025: 0,30 0,25 0,20 0,20 (/10) and 0,02 ×3, 0,023, 0,026 ×4
    // = R$ 0,282, over araquem's reference price of 22/11/2025 (0,6100 × 7,781 = R$ 4,75) = 5,94%.
    const rows: Array<{ ticker: string; dy: string; n: number }> = await ds.query(
      `SELECT ticker, dy_pct AS dy, dy_payments AS n FROM wh_snapshots WHERE ticker IN ('ALZC11', 'SARE11') ORDER BY ticker`,
    );
    expect(rows.map((r) => [r.ticker, Number(r.dy), r.n])).toEqual([
      ['ALZC11', 17.56, 12],
      ['SARE11', 5.94, 12],
    ]);
    expect(summary.notes.some((n) => n.startsWith('corporate action: SARE11 split ×10 on 2024-10-31'))).toBe(true);
  });
});

describe('exclusions said where they happen', () => {
  it('a day dropped for a corrupted rate is said by the answer whose period covers it', async () => {
    // araquem history_currency_rates.csv rows 194 and 193: USD sell 0,16 on 27/12/2024 and 31/12/2024 (buy 6,18 and 6,16), dropped at ingest.
    const { text } = await answer('qual foi a menor cotação do dólar em dezembro de 2024?');
    expect(text).toContain('Os dias 27/12/2024 e 31/12/2024 ficaram de fora da série do dólar (USD) (a fonte publicou 0,16, um valor corrompido).');
    const november = await answer('qual foi a menor cotação do dólar em novembro de 2024?');
    expect(november.text).not.toContain('ficaram de fora');
  });

  it('a DY ranking says how many funds it left out for an implausible yield', async () => {
    const { text } = await answer('top 5 fiis por dividend yield');
    expect(text).toMatch(/\d+ fundo\(s\) ficaram de fora por terem DY 12 meses \(%\) implausível na fonte/);
    expect(text).not.toContain('LFTT11');
  });
});

describe('each value with its own source and date', () => {
  it("the head count is CVM's December 2023 report, said as such", async () => {
    const { text } = await answer('quantos cotistas tem o MXRF11?');
    expect(text).toContain('O MXRF11 tem 1.022.791 cotistas (segundo CVM (Informe Mensal de FII), dezembro de 2023).');
    // The source line is the figure's own too, not the registry snapshot's date.
    expect(text).toMatch(/Fonte: CVM \(Informe Mensal de FII\), dados de dezembro de 2023\.$/);
    expect(text).not.toMatch(NICKNAMES);
  });

  it('CVM history and market answers name the publisher, never a nickname', async () => {
    const pl = await answer('qual era o PL do KNRI11 em dezembro de 2022?');
    expect(pl.text).toContain('CVM (Informe Mensal de FII)');
    const ifix = await answer('quanto fechou o IFIX em 13/03/2025?');
    expect(ifix.text).toMatch(/Fonte: B3/);
    for (const t of [pl.text, ifix.text]) expect(t).not.toMatch(NICKNAMES);
  });
});

describe('derived history', () => {
  it("a past P/VP and market value from the month's close and the same month's CVM NAV per share", async () => {
    // paulo037 dados_historicos.csv KNRI11 2022-06 close 131,48; CVM complemento 2022-06: NAV per share
    // 159,781472749174, 24.157.121 shares. 131,48 / 159,78 = 0,82; 131,48 × 24.157.121 = R$ 3,18 bilhões.
    const pvp = await answer('qual era o P/VP do KNRI11 em junho de 2022?');
    expect(pvp.text).toContain('0,82');
    expect(pvp.text).toContain('30/06/2022');
    expect(pvp.text).toContain('valor patrimonial por cota do Informe Mensal da CVM do mesmo mês');
    const cap = await answer('qual era o valor de mercado do KNRI11 em junho de 2022?');
    expect(cap.text).toContain('R$ 3,18 bilhões');
    // "Hoje" is still the published snapshot.
    const now = await answer('qual o P/VP do KNRI11?');
    expect(now.text).not.toContain('30/06/2022');
  });
});

describe('the calendar, honestly', () => {
  it('"ontem" when the data ends on 23/12/2025 and today is 27/11/2026: the latest close, and the dates said', async () => {
    const { text } = await answer('quanto fechou o ifix ontem?');
    // market16 ifix_daily.csv: the newest IFIX close loaded is 23/12/2025 (opbrreit ends 19/12/2025).
    expect(text).toContain('23/12/2025');
    expect(text).toContain('Os dados vão até 23/12/2025 e hoje é 27/11/2026: não há dados de ontem');
    expect(text).not.toContain('22/12/2025');
  });

  it('a P/VP "ontem" or over the last 12 months past the history: the snapshot of 22/11/2025, with its date', async () => {
    // araquem fiis_financials_snapshot.csv (updated 22/11/2025): ABCP11 price_book_ratio 0,6960, RBRP11 0,6730;
    // the P/VP history from closes and CVM reports ends with CVM's December 2023 (RBRP11's closes with 2022).
    const ontem = await answer('qual o p/vp do ABCP11 ontem?');
    expect(ontem.text).toContain('0,70');
    expect(ontem.text).toContain('Os dados vão até 22/11/2025 e hoje é 27/11/2026');
    expect(ontem.text).not.toContain('2023');
    const trailing = await answer('p/vp do RBRP11 nos últimos 12 meses');
    expect(trailing.text).toContain('0,67');
    expect(trailing.text).toContain('22/11/2025');
    expect(trailing.text).not.toContain('2022');
  });
});
