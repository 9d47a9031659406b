import { Client } from 'pg';
import { Cluster, startCluster } from './cluster';

/**
 * Multi-step answers end to end (issue 13): ten requests through POST /ask over real NATS, Postgres
 * and Redis, each number of the answer checked against the warehouse with SQL written here.
 */
let cluster: Cluster;
let pg: Client;

beforeAll(async () => {
  cluster = await startCluster({});
  pg = new Client({ connectionString: cluster.db.url });
  await pg.connect();
}, 300_000);

afterAll(async () => {
  await pg?.end();
  await cluster?.stop();
});

/** pt-BR with a fixed number of decimals: 8.2512 → "8,25". */
const br = (v: number, dp = 2) => v.toFixed(dp).replace('.', ',');
const money = (v: number) =>
  `R$ ${v
    .toFixed(2)
    .replace(/\B(?=(\d{3})+\.)/g, '.')
    .replace(/\.(\d{2})$/, ',$1')}`;
const one = async (sql: string, params: unknown[]) => Number((await pg.query(sql, params)).rows[0]?.v);
const snapshot = (ticker: string, column: 'dy_pct' | 'price_book_ratio') =>
  one(`SELECT ${column} AS v FROM wh_snapshots WHERE ticker = $1 AND ${column} IS NOT NULL ORDER BY ref_date DESC LIMIT 1`, [ticker]);
const sharpe = (ticker: string) =>
  one('SELECT sharpe_ratio AS v FROM fiis_financials_risk WHERE ticker = $1 AND sharpe_ratio IS NOT NULL ORDER BY ref_date DESC LIMIT 1', [ticker]);
const close = (ticker: string, on: string) =>
  one('SELECT coalesce(close_price, adj_close_price) AS v FROM fiis_precos WHERE ticker = $1 AND traded_at <= $2 ORDER BY traded_at DESC LIMIT 1', [ticker, on]);
const iso = (br: string) => br.split('/').reverse().join('-');

async function ask(question: string, who: 'ana' | 'bia' = 'ana') {
  const res = await cluster.ask(question, { conversation: `plan-${Math.random().toString(16).slice(2)}`, who });
  expect(res.status).toBe(200);
  expect(res.body.meta.planner.kind).toBe('plan');
  expect(res.body.meta.plan.steps.every((s: { status: string }) => s.status === 'ok')).toBe(true);
  expect(res.body.answer).toMatch(/não é recomendação de investimento/);
  return res.body as { answer: string; meta: { plan: { shape: string; steps: Array<{ id: string }> } } };
}

describe('comparisons', () => {
  it.each([
    ['Compare HGLG11 e BTLG11 em renda, risco e preço: qual combina com uma carteira de renda?', ['HGLG11', 'BTLG11']],
    ['Compare KNRI11, HGLG11 e XPML11 em dividendos e P/VP', ['KNRI11', 'HGLG11', 'XPML11']],
  ])('%s', async (q, funds) => {
    const body = await ask(q);
    expect(body.meta.plan.shape).toBe('comparison');
    const dys = await Promise.all(funds.map((f) => snapshot(f, 'dy_pct')));
    for (const [i, f] of funds.entries()) {
      expect(body.answer).toContain(`${br(dys[i])}%`);
      expect(body.answer).toContain(br(await snapshot(f, 'price_book_ratio')));
    }
    // The best yield is marked, and named as the lead in income.
    const best = funds[dys.indexOf(Math.max(...dys))];
    expect(body.answer).toMatch(new RegExp(`${br(Math.max(...dys))}% ✔`));
    expect(body.answer).toContain(`o ${best} leva vantagem em renda`);
  });

  it('Compare VISC11 e XPML11 em risco e tamanho', async () => {
    const body = await ask('Compare VISC11 e XPML11 em risco e tamanho');
    for (const f of ['VISC11', 'XPML11']) expect(body.answer).toContain(br(await sharpe(f)));
  });
});

describe('projections at the current yield', () => {
  it.each([
    ['Se eu investir R$ 500 por mês no MXRF11 mantendo o DY atual, quanto terei em 10 anos?', 'MXRF11', 500, 120],
    ['Quero aportar R$ 1.000 por mês no HGLG11 reinvestindo os dividendos com o DY atual: quanto terei em 5 anos?', 'HGLG11', 1000, 60],
  ])('%s', async (q, ticker, monthly, months) => {
    const body = await ask(q);
    const dy = await snapshot(ticker as string, 'dy_pct');
    // End-of-month deposits at the monthly rate equivalent to the yearly yield.
    const i = (1 + Number(dy.toFixed(4)) / 100) ** (1 / 12) - 1;
    const fv = (monthly as number) * (((1 + i) ** (months as number) - 1) / i);
    expect(body.answer).toContain(`${br(dy)}%`);
    expect(body.answer).toContain(money(fv));
  });
});

describe('screens with several conditions', () => {
  it.each([
    ['Quais dos meus fundos têm P/VP abaixo de 1 e DY acima de 9%?', ['HGLG11', 'KNRI11', 'VISC11', 'XPML11'], (pvp: number, dy: number) => pvp < 1 && dy > 9],
    ['Dos meus fiis, quais têm DY acima de 8% e P/VP menor que 0,95?', ['HGLG11', 'KNRI11', 'VISC11', 'XPML11'], (pvp: number, dy: number) => dy > 8 && pvp < 0.95],
  ])('%s', async (q, funds, rule) => {
    const body = await ask(q);
    const passing: string[] = [];
    for (const f of funds) {
      const [pvp, dy] = [await snapshot(f, 'price_book_ratio'), await snapshot(f, 'dy_pct')];
      expect(body.answer).toMatch(new RegExp(`\\| ${f} \\|.*\\| ${rule(pvp, dy) ? 'sim' : 'não'} \\|`));
      if (rule(pvp, dy)) passing.push(f);
    }
    if (passing.length) expect(body.answer).toMatch(new RegExp(`Atendem a todas as condições.*${passing.at(-1)}`));
    else expect(body.answer).toContain('Nenhum dos fundos atende');
  });

  it('named funds: HGLG11, KNRI11 e BTLG11 with P/VP below 1 and a Sharpe above -1', async () => {
    const body = await ask('HGLG11, KNRI11 e BTLG11: quais têm P/VP abaixo de 1 e Sharpe acima de -1?');
    for (const f of ['HGLG11', 'KNRI11', 'BTLG11']) {
      const ok = (await snapshot(f, 'price_book_ratio')) < 1 && (await sharpe(f)) > -1;
      expect(body.answer).toMatch(new RegExp(`\\| ${f} \\|.*\\| ${ok ? 'sim' : 'não'} \\|`));
    }
  });
});

describe('a fund against the CDI', () => {
  it.each([
    ['Vale mais a pena manter o KNRI11 ou trocar por CDI?', 'KNRI11'],
    ['O HGLG11 rendeu mais que o CDI nos últimos 12 meses?', 'HGLG11'],
  ])('%s', async (q, ticker) => {
    const body = await ask(q);
    const [, from, to] = body.answer.match(/De (\d{2}\/\d{2}\/\d{4}) a (\d{2}\/\d{2}\/\d{4})/)!;
    const end = await close(ticker, iso(to));
    const dividends = await one('SELECT coalesce(sum(dividend_amt), 0) AS v FROM wh_dividends WHERE ticker = $1 AND traded_until_date BETWEEN $2 AND $3', [
      ticker,
      iso(from),
      iso(to),
    ]);
    if (/A variação da cota ficou de fora/.test(body.answer)) {
      // Adjusted and plain prices meet in the period: only the income part is compared.
      expect(body.answer).toContain(`pagou ${money(dividends)} por cota em dividendos, ${br((dividends / end) * 100)}% sobre a cota de ${money(end)}`);
    } else {
      const start = await close(ticker, iso(from));
      expect(body.answer).toContain(`${money(start)} → ${money(end)}`);
      expect(body.answer).toContain(`rendeu ${br(((end - start + dividends) / start) * 100)}% no total`);
    }
    // A price return starts at the close before the period (the rate from the next day); an income-only
    // comparison names the rate's own first and last days.
    const after = /A variação da cota ficou de fora/.test(body.answer) ? '>=' : '>';
    const cdi = await one(
      `SELECT exp(sum(ln(1 + indicator_amt / 100) / 252)) - 1 AS v FROM wh_market_indicators WHERE indicator_name = 'CDI' AND indicator_date ${after} $1 AND indicator_date <= $2`,
      [iso(from), iso(to)],
    );
    expect(body.answer).toContain(`${br(cdi * 100)}% do CDI`);
  });
});
