import type { DataSource } from 'typeorm';
import type { PlanResponse } from '@cota/contracts';
import { dataDir } from '@cota/config';
import { createNarrator, loadCatalogColumns, Narrator } from '@cota/narration';
import { loadPlanningPolicies, Planner, readFunds } from '@cota/planning';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { ensureWarehouse, EntityQueryService, loadEntityCatalog, loadMeasureCatalog, MeasureQueryService, PgSqlRunner } from '@cota/warehouse';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * The examples of the issue "Answer what was asked", from question to text over the real warehouse
 * (ingested from the shared data into a fresh Postgres database): planner → measure query → narrator.
 * Each answer must carry the value the raw files give, its period and its subject.
 */
let db: TestDatabase;
let ds: DataSource;
let planner: Planner;
let measures: MeasureQueryService;
let entities: EntityQueryService;
let narrator: Narrator;

beforeAll(async () => {
  db = await createTestDatabase('measures');
  ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: dataDir(), log: silentLogger() });
  planner = new Planner({ policies: loadPlanningPolicies(), funds: readFunds(dataDir()) });
  measures = new MeasureQueryService(loadMeasureCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  entities = new EntityQueryService(loadEntityCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10_000 });
  narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
}, 300_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

async function answer(question: string, previous: PlanResponse | null = null, client = 'cliente-demo-1'): Promise<{ plan: PlanResponse; text: string }> {
  let plan = planner.planDeterministic(question);
  if (previous && (plan.elliptic || plan.follow_up_candidate)) {
    const tickers = previous.question?.subjects.filter((s) => s.kind === 'fund').map((s) => s.id) ?? [];
    plan = planner.planDeterministic(question, { previousEntity: previous.entity, previousQuestion: previous.question, previousTickers: tickers });
  }
  expect({ question, kind: plan.kind }).toEqual({ question, kind: 'measure' });
  const result = await measures.compute(plan.question!, client);
  const req = narrateRequest({ question, kind: 'measure', entity: plan.entity, measure: result, question_spec: plan.question });
  return { plan, text: (await narrator.narrate(req)).answer };
}

describe("the issue's examples", () => {
  it.each([
    ['quanto o ifix rendeu em 2024?', ['-5,89%', '3.311,43', '3.116,28', 'em 2024']],
    ['quanto o IFIX subiu de janeiro a junho de 2025?', ['+11,79%', '1º semestre de 2025 (janeiro a junho)']],
    ['qual foi a máxima do HGLG11 em junho de 2025?', ['R$ 159,15', '13/06/2025', 'junho de 2025']],
    ['quanto o XPML11 pagou em março de 2024?', ['XPML11', 'março de 2024', 'R$ 0,90']],
    ['IPCA acumulado em 12 meses', ['4,68%', 'de novembro de 2024 a outubro de 2025']],
    ['qual era o PL do KNRI11 em dezembro de 2022?', ['R$ 3,86 bilhões', 'dezembro de 2022']],
    ['dy do KNRI11 em 2023', ['KNRI11', 'em 2023', '%']],
    ['quanto o IBOV variou em outubro de 2025?', ['IBOV', 'outubro de 2025', '%']],
    ['quanto o MXRF11 pagou no total em 2024?', ['MXRF11', 'em 2024', 'somam']],
    // The CVM monthly reports as reported (inf_mensal_fii_*_2023.csv): XPML11 Valor_Ativo 4.260.759.153,35 in 2023-12;
    // HGLG11 Rendimentos_Distribuir 37.166.332,50 in 2023-12; VISC11 Percentual_Rentabilidade_Efetiva_Mes 0,003719 in 2023-03.
    ['ativo total do xpml11 no fim de 2023 (informe de dezembro)', ['XPML11', 'R$ 4,26 bilhões']],
    ['quanto o hglg11 tinha de rendimentos a distribuir no balanco de dez/23 da cvm', ['HGLG11', 'R$ 37,17 milhões', 'dezembro de 2023']],
    ['qual foi a rentabilidade efetiva do visc11 em marco 2023 no informe da cvm?', ['VISC11', '0,37%', 'março de 2023']],
    // dashbord cotacoes.csv: VISC11 on 10/06/2025 opened at 100,68.
    ['preco de abertura do visc11 em 10/06/2025', ['VISC11', 'R$ 100,68']],
    // A yield in its own words: HGLG11's 12 data-com of R$ 1,10 from jun/2024 to may/2025 (R$ 13,20) over the close of
    // 25/06/2025 (R$ 157,60) = 8,38%; ABCP11's payments made in 2024 (R$ 7,10) over the close of 30/12/2024 = 9,46%.
    [
      'Somando os dividendos do HGLG11 com data com entre junho de 2024 e maio de 2025 e dividindo pelo fechamento de 25/06/2025, qual é o dividend yield?',
      ['8,38%', 'R$ 13,20', 'R$ 157,60 em 25/06/2025'],
    ],
    ['dy do abcp11 em 2024: proventos pagos em 2024 / fechamento de 30/12/2024', ['9,46%', 'R$ 7,10', '30/12/2024']],
  ])('%s', async (question, parts) => {
    const { text } = await answer(question);
    for (const p of parts) expect(text).toContain(p);
    // Nothing internal reaches the person.
    expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  });

  it("the best and the worst month of a year: each month's own variation, then the extreme (market16 ifix_daily.csv)", async () => {
    // May 2023: 3.013,46 (31/05) over 2.858,23 (28/04) = +5,43%; October 2024: 3.204,84 over 3.305,97 = -3,06%.
    const best = await answer('qual foi o melhor mes do ifix em 2023?');
    expect(best.text).toContain('O melhor mês do IFIX em 2023 foi maio de 2023: +5,43% (de 2.858,23 pontos em 28/04/2023 para 3.013,46 pontos em 31/05/2023).');
    const worst = await answer('em que mês o IFIX mais caiu em 2024?');
    expect(worst.text).toContain('O pior mês do IFIX em 2024 foi outubro de 2024: -3,06%');
    const other = await answer('e o melhor?', worst.plan);
    expect(other.text).toContain('O melhor mês do IFIX em 2024 foi março de 2024: +1,43%');
    // HGLG11 paid R$ 1,10 every month of 2024: no month stands out, and the answer says so.
    const tie = await answer('em qual mes o hglg11 mais pagou dividendos em 2024?');
    expect(tie.text).toContain('R$ 1,10 em todos os 12 meses, sem um mês de maior valor');
  });

  it("the best and the worst day of a year: each day's move from the close before it, over the whole year (opbrreit ifix.csv)", async () => {
    // 05/12/2024: 2.965,49 over 3.023,45 (04/12) = -1,92%; 23/12/2024: 3.020,57 over 2.946,66 (20/12) = +2,51%.
    const worst = await answer('qual o dia que o ifix mais caiu em 2024?');
    expect(worst.text).toContain('O pior dia do IFIX em 2024 foi 05/12/2024: -1,92% (de 3.023,45 pontos em 04/12/2024 para 2.965,49 pontos em 05/12/2024).');
    const best = await answer('e o melhor?', worst.plan);
    expect(best.text).toContain('O melhor dia do IFIX em 2024 foi 23/12/2024: +2,51%');
    // (a day's move is no month's: "a maior alta diária" reads the days)
    const daily = await answer('qual foi a maior alta diaria do ifix em 2024?');
    expect(daily.text).toContain('23/12/2024');
  });

  it('follow-ups edit the previous question: "e em abril?", "e do HGLG11?"', async () => {
    const march = await answer('preço do XPML11 em março de 2024');
    const april = await answer('e em abril?', march.plan);
    expect(april.text).toContain('abril de 2024');
    expect(april.text).toContain('XPML11');
    const knri = await answer('dividendos do KNRI11 em 2024');
    const y2023 = await answer('e em 2023?', knri.plan);
    const hglg = await answer('e do HGLG11?', y2023.plan);
    expect(hglg.text).toMatch(/HGLG11 em 2023/);
  });

  it('counts the moves of a series: Copom decisions read in the daily Selic (opbrreit selic_daily.csv)', async () => {
    // 2022: five hikes (02/03, 03/17, 05/05, 06/17, 08/04); 2023: four cuts; 2024: three cuts then three hikes.
    expect((await answer('quantas vezes a selic mudou em 2022?')).text).toContain('Selic mudou 5 vezes em 2022');
    const cuts = await answer('em 2023 o copom mexeu na selic quantas vezes?');
    expect(cuts.text).toContain('mudou 4 vezes em 2023');
    expect((await answer('quantas vezes a selic subiu em 2024?')).text).toContain('subiu 3 vezes em 2024');
    expect((await answer('quantas vezes a selic caiu em 2024?')).text).toContain('caiu 3 vezes em 2024');
  });

  it("answers about the client's own portfolio, scoped to the client", async () => {
    const { text } = await answer('quanto recebi do XPML11 em 2024?');
    expect(text).toMatch(/dividendos recebidos do XPML11 em 2024 somam R\$ [\d.]+,\d{2}/);
    const dy = await answer('qual o dy médio da minha carteira?');
    expect(dy.text).toMatch(/médio da sua carteira, ponderado pelo valor de mercado/);
    // Another client's portfolio has other funds.
    const other = await measures.compute(dy.plan.question!, 'cliente-demo-2');
    expect(other.values.map((v) => v.subject.id).sort()).toEqual(['HGCR11', 'KNHY11', 'KNIP11']);
  });
});

describe('periods, bases and groupings the raw files decide', () => {
  it.each([
    // market16/macro_daily.csv repeats the rate on holidays (15/11, 20/11, 25/12/2024): 63 business days, not 66.
    ['quanto rendeu o cdi no 4º trimestre de 2024?', ['2,68%', '63 dias úteis']],
    // araquem fiis_dividends.csv APTO11: paid 18/07/2025 R$ 0,10 (data-com 30/06); by data-com July is R$ 0,09.
    ['qto o apto11 pagou em julho de 2025 pela data de pagamento?', ['R$ 0,10', 'julho de 2025']],
    // market16 prices_daily.csv XPML11 2022 (adjusted only, daily): 03/01 67,3246 and 29/12 71,2509.
    ['primeiro e ultimo fechamento do xpml11 em 2022', ['R$ 67,32', 'R$ 71,25', '29/12/2022']],
    // market16 ifix_daily.csv 22/12/2025 3.735,09 → 23/12/2025 3.755,15: "ontem" (26/11/2026 or later) is not in
    // the data, so the latest session's change is given and the dates are said (issue 26; was 19/12 → 22/12).
    ['quanto o ifix variou ontem?', ['+0,54%', '22/12/2025', '23/12/2025', 'Os dados vão até 23/12/2025 e hoje é']],
    // market16 prices_daily.csv adjusted KNRI11 105,9606 (30/12/2021) → 110,7009 (29/12/2022); opbrreit IFIX 2022 +2,22%.
    ['o knri11 bateu o ifix em 2022?', ['+4,47%', '+2,22%', 'o maior rendimento no período é o do KNRI11', 'ajustados']],
    // Adjusted closes 30/12/2020 → 30/12/2021: HGRU11 91,3214 → 83,4906, KNRI11 121,2173 → 105,9606.
    ['knri11 x hgru11, qual se saiu melhor em 2021?', ['-8,57%', '-12,59%', 'HGRU11']],
    // "esse ano" is the calendar's (2026), which no series reaches: said so, and answered with the latest year the data has
    // (market16 ifix_daily.csv 30/12/2024 3.116,28 → 23/12/2025 3.755,15).
    ['quanto o ifix subiu esse ano?', ['+20,50% em 2025', 'Os dados vão até 23/12/2025 e hoje é', 'a resposta acima é de 2025, o ano mais recente da base']],
    // "mês passado" is the calendar's too (October 2026 or later): araquem history_market_indicators.csv IPCA of 2025-10-01
    // is 0,09%, the latest month the data has, said so.
    ['ipca do mes passado', ['0,09%', 'outubro de 2025', 'a resposta acima é de outubro de 2025, o mês mais recente da base']],
  ])('%s', async (question, parts) => {
    const { text } = await answer(question);
    for (const p of parts) expect(text).toContain(p);
  });

  it('"e no mês seguinte?", "e no trimestre seguinte?" move the previous period', async () => {
    // dashbord dividendos.csv PQAG11: Q1/2024 0,45 + 0,46 + 0,46; April 2024 0,46.
    const q1 = await answer('quanto o PQAG11 pagou no 1t24?');
    expect(q1.text).toContain('R$ 1,37');
    const april = await answer('e no mês seguinte?', q1.plan);
    expect(april.text).toMatch(/abril de 2024[^]*R\$ 0,46/);
    // araquem consolidated_macroeconomic.csv IPCA Jan-Mar 2025: 0,16, 1,31, 0,56 compounded.
    const q4 = await answer('ipca do 4º tri de 2024');
    const next = await answer('e no trimestre seguinte?', q4.plan);
    expect(next.text).toContain('2,04%');
  });

  it("the client's sales and positions: what a sale brought in, the shares held", async () => {
    // Demo trades: cliente-demo-2 sold 40 HGCR11 in 2022-09 at paulo037's close R$ 104,71.
    const sale = await answer('quanto entrou na minha conta quando vendi as cotas de HGCR11?', null, 'cliente-demo-2');
    expect(sale.text).toContain('R$ 4.188,40');
    // Demo-1 at the latest closes: HGLG11 120 × 157,60 of R$ 52.540,00.
    const weight = await entities.query({
      client_id: 'cliente-demo-1',
      entity: 'client_fiis_positions',
      params: { ...planner.planDeterministic('qual o peso do HGLG11 na minha carteira?').params },
    });
    expect(Number(weight.rows[0].weight_pct)).toBe(36);
    const held = await answer('quantas cotas de fii eu tenho no total?');
    expect(held.text).toContain('400');
    // cliente-demo-3 sold all 70 XPIN11 in 2022-08: none held, and the answer says what was sold.
    const sold = await answer('eu ainda tenho XPIN11?', null, 'cliente-demo-3');
    expect(sold.text).toBe(
      'As cotas vendidas do XPIN11 somam 70 (1 venda, a R$ 86,70 por cota) (você não tem mais cotas desse fundo em carteira).\n\nFonte: carteira de demonstração da Cota, dados até 31/08/2022.',
    );
    const listed = await answer('me lista meus fiis com a quantidade de cotas', null, 'cliente-demo-3');
    for (const line of ['60 cotas do BTLG11', '50 cotas do HGRU11', '40 cotas do BTAL11']) expect(listed.text).toContain(line);
  });

  it("a sale's follow-ups read in the sale's family: how many, at what price, with what result", async () => {
    // cliente-demo-2 sold 40 HGCR11 on 30/09/2022 at R$ 104,71 (average cost R$ 107,87: -R$ 126,40).
    const sold = await answer('vendi quantas cotas de hgcr11?', null, 'cliente-demo-2');
    expect(sold.text).toContain('As cotas vendidas do HGCR11 somam 40 (1 venda, a R$ 104,71 por cota)');
    const price = await answer('a que preço?', sold.plan, 'cliente-demo-2');
    expect(price.text).toContain('O preço de venda do HGCR11 em 30/09/2022 foi R$ 104,71');
    const result = await answer('e deu lucro ou prejuízo?', price.plan, 'cliente-demo-2');
    expect(result.text).toContain('O resultado das vendas do HGCR11 soma um prejuízo de R$ 126,40 (-R$ 126,40) (1 venda: 40 cotas a R$ 104,71)');
    // A total over the whole portfolio names the fund its one sale was of.
    const all = await answer('quanto lucrei com vendas de fii?', null, 'cliente-demo-3');
    expect(all.text).toContain('R$ 168,70 (1 venda: XPIN11, 70 cotas a R$ 86,70)');
  });
});

describe('quarterly fundamentals (market16): what the CVM monthly reports lack', () => {
  it('a year of cash revenue sums its quarters; a quarter reads its own row', async () => {
    const year = await answer('qual foi a receita caixa do HGLG11 em 2023?');
    // 75.331.330,30 + 83.119.040,88 + 108.954.310,41 + 108.424.115,42 (market16/fundamentals_quarterly.csv).
    expect(year.text).toMatch(/HGLG11 em 2023 soma R\$ 375,83 milhões \(R\$ 375\.828\.797,01\) \(4 trimestres\)/);
    const q2 = await answer('lucro caixa do XPML11 no 2º trimestre de 2024');
    expect(q2.text).toContain('R$ 120,69 milhões');
  });
});

describe('one value per metric', () => {
  it('the 12-month DY is the same number in the DY answer, the overview and the ranking', async () => {
    for (const ticker of ['HGLG11', 'VISC11', 'XPML11', 'KNRI11', 'MXRF11']) {
      const plan = planner.planDeterministic(`qual o dy do ${ticker}?`);
      const dy = (await measures.compute(plan.question!, 'c')).values[0].value;
      const overview = await entities.query({
        client_id: 'c',
        entity: 'fii_overview',
        params: { ...plan.params, ticker, tickers: [ticker], agg: 'latest', window: null, limit: null, order: null, order_by: null, filters: {} },
      });
      const ranking = await entities.query({
        client_id: 'c',
        entity: 'fiis_rankings',
        params: { ...plan.params, ticker, tickers: [ticker], agg: 'list', window: null, limit: 5, order: null, order_by: null, filters: {} },
      });
      expect({ ticker, overview: Number(overview.rows[0].dy_12m_pct), ranking: Number(ranking.rows[0].dy_12m_pct) }).toEqual({ ticker, overview: dy, ranking: dy });
    }
  });

  it('every fund: the 12-month DY, P/VP and NAV per share are one number wherever they are shown', async () => {
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const snaps: Array<{ ticker: string; dy: unknown; pvp: unknown; vpa: unknown; month: string }> = await ds.query(
      `SELECT ticker, dy_pct AS dy, price_book_ratio AS pvp, equity_per_share AS vpa, date_trunc('month', ref_date)::date::text AS month FROM wh_snapshots`,
    );
    const truth = new Map(snaps.map((s) => [s.ticker, s]));
    // What each entity a person reads shows (overview, snapshot, ranking, portfolio, and the DY series' row of the same
    // window over the same close: the month of the close, when it ends the distributions' window).
    const shown: Array<[string, string]> = [
      ['overview', `SELECT ticker, dy_12m_pct AS dy, price_book_ratio AS pvp, equity_per_share AS vpa FROM fii_overview`],
      ['snapshot', `SELECT ticker, dy_pct AS dy, price_book_ratio AS pvp, equity_per_share AS vpa FROM fiis_financials_snapshot`],
      ['ranking', `SELECT ticker, dy_12m_pct AS dy FROM fiis_rankings`],
      ['portfolio', `SELECT ticker, dy_12m_pct AS dy, price_book_ratio AS pvp FROM client_fiis_enriched_portfolio`],
      [
        'dy series',
        `SELECT y.ticker, y.dy_12m_pct AS dy FROM fiis_dividends_yields y JOIN wh_snapshots s ON s.ticker = y.ticker AND s.dy_source = 'derived' AND y.ref_month = date_trunc('month', s.dy_price_date)::date
           AND y.ref_month IN (date_trunc('month', s.dy_to)::date, (date_trunc('month', s.dy_to) + interval '1 month')::date)`,
      ],
    ];
    const mismatches: string[] = [];
    let compared = 0;
    for (const [where, sql] of shown) {
      const rows: Array<Record<string, unknown>> = await ds.query(sql);
      expect({ where, rows: rows.length > 0 }).toEqual({ where, rows: true });
      for (const r of rows) {
        const t = truth.get(String(r.ticker));
        for (const k of ['dy', 'pvp', 'vpa'] as const) {
          if (!(k in r) || !t) continue;
          compared++;
          if (num(r[k]) !== num(t[k])) mismatches.push(`${where} ${r.ticker} ${k}: ${r[k]} vs ${t[k]}`);
        }
      }
    }
    // The answers: "qual o dy do X?" for every fund with a published DY says that number.
    for (const s of snaps.filter((x) => x.dy !== null)) {
      const q = {
        subjects: [{ kind: 'fund' as const, id: s.ticker }],
        measure: 'dy',
        agg: 'value' as const,
        also: [],
        period: null,
        group_by: null,
        compare: null,
        condition: null,
      };
      const values = (await measures.compute(q, 'c')).values;
      compared++;
      if (values[0]?.value !== num(s.dy)) mismatches.push(`dy answer ${s.ticker}: ${values[0]?.value} vs ${s.dy}`);
    }
    // And the NAV per share of "hoje" (a measure question) is the snapshot's, newer than the CVM reports.
    for (const s of snaps.filter((x) => x.vpa !== null)) {
      const q = {
        subjects: [{ kind: 'fund' as const, id: s.ticker }],
        measure: 'nav_per_share',
        agg: 'value' as const,
        also: [],
        period: null,
        group_by: null,
        compare: null,
        condition: null,
      };
      const values = (await measures.compute(q, 'c')).values;
      compared++;
      if (values[0]?.value !== num(s.vpa)) mismatches.push(`nav per share answer ${s.ticker}: ${values[0]?.value} vs ${s.vpa}`);
    }
    expect(compared).toBeGreaterThan(1500);
    expect(mismatches).toEqual([]);
  }, 300_000);

  it("every fund: the DY, the P/VP and the market value rest on one current price, the newer of the last close and the snapshot's", async () => {
    const rows: Array<{
      ticker: string;
      price: string | null;
      d: string | null;
      kind: string | null;
      dy_price: string | null;
      dy_d: string | null;
      val_d: string | null;
      close_d: string | null;
      close: string | null;
      ref_d: string | null;
      pvp: string | null;
      vpa: string | null;
    }> = await ds.query(
      `SELECT s.ticker, s.price_amt AS price, s.price_date::text AS d, s.price_kind AS kind, s.dy_price, s.dy_price_date::text AS dy_d,
                s.valuation_date::text AS val_d, p.traded_at::text AS close_d, p.close_price AS close, s.ref_date::text AS ref_d, s.price_book_ratio AS pvp, s.equity_per_share AS vpa
           FROM wh_snapshots s LEFT JOIN wh_latest_price p ON p.ticker = s.ticker WHERE s.source = 'araquem'`,
    );
    const wrong: string[] = [];
    for (const r of rows) {
      // The reference price is P/VP × NAV per share of the snapshot's date; it wins only when newer than the last close
      // and on the same basis (within a factor of two of it: SJAU11's R$ 0,85 against a close of R$ 28,82 is not).
      const reference = Number(r.pvp) > 0 && Number(r.vpa) > 0 ? Math.round(Number(r.pvp) * Number(r.vpa) * 100) / 100 : null;
      const sameBasis = reference !== null && (!r.close || (reference / Number(r.close) <= 2 && reference / Number(r.close) >= 0.5));
      const expected =
        reference !== null && sameBasis && (!r.close_d || r.ref_d! > r.close_d)
          ? { kind: 'reference', d: r.ref_d, price: reference }
          : r.close_d
            ? { kind: 'close', d: r.close_d }
            : null;
      if ((expected?.kind ?? null) !== r.kind || (expected?.d ?? null) !== r.d || (expected?.kind === 'reference' && Number(r.price) !== expected.price))
        wrong.push(`${r.ticker} price ${r.kind} ${r.price} ${r.d}`);
      // A derived DY divides by that price; a P/VP of a reference price is of its date.
      if (r.dy_price !== null && (Number(r.dy_price) !== Number(r.price) || r.dy_d !== r.d)) wrong.push(`${r.ticker} dy price ${r.dy_price} ${r.dy_d}`);
      if (r.kind === 'reference' && r.val_d !== r.d) wrong.push(`${r.ticker} P/VP date ${r.val_d}`);
    }
    expect(rows.filter((r) => r.kind === 'reference').length).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  });

  it('no ranking shows an implausible P/VP', async () => {
    const plan = planner.planDeterministic('top 5 fundos com menor p/vp');
    const res = await entities.query({ client_id: 'c', entity: plan.entity!, params: plan.params });
    expect(res.rows.length).toBeGreaterThan(0);
    for (const r of res.rows) expect(Number(r.price_book_ratio)).toBeGreaterThan(0);
  });
});
