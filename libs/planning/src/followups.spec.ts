import { join } from 'node:path';
import { mkdtempSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { policiesDir } from '@cota/config';
import { loadPlanningPolicies } from './policies';
import { realPlanner } from './test-helpers';

const planner = realPlanner();
const plan = (q: string, previousEntity: string | null = null) => planner.planDeterministic(q, { previousEntity });

describe('elliptic follow-ups', () => {
  it.each(['E o do XPML11?', 'e o KNRI11?', 'e em 2023?', 'e no ano passado?', 'e pro hglg?', 'agora o HGLG11', 'e para o KNRI11 em 2024?'])('marks "%s" elliptic', (q) =>
    expect(plan(q).elliptic).toBe(true),
  );

  it.each(['e o dividendo do XPML11?', 'e o preço?', 'E a vacância do KNRI11?', 'Qual o P/VP do HGLG11?', 'HGLG11?', 'e o aluguel?', 'e?'])(
    'does not mark "%s" elliptic (own subject, or nothing to continue with)',
    (q) => expect(plan(q).elliptic).toBe(false),
  );

  it('without a previous entity keeps the usual routing (a lone ticker is the overview) and flags it', () => {
    const p = plan('E o do XPML11?');
    expect(p).toMatchObject({ kind: 'entity', entity: 'fii_overview', elliptic: true, params: { ticker: 'XPML11' } });
    expect(plan('e em 2023?')).toMatchObject({ kind: 'unknown', elliptic: true });
  });

  it('with the previous entity keeps that subject, the ticker from the text and the entity defaults', () => {
    const p = plan('E o do XPML11?', 'fiis_financials_snapshot');
    expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_financials_snapshot', intent: 'fiis_financials_snapshot', elliptic: true });
    expect(p.params).toMatchObject({ ticker: 'XPML11', tickers: ['XPML11'], agg: 'latest' });
    expect(p.planner.accepted).toBe(true);
    expect(p.planner.reason).toMatch(/elliptic follow-up .*kept the previous subject fiis_financials_snapshot/);
    expect(p.ticker_sources).toEqual(['text', 'context']);
  });

  it("asks an entity's answer again of another fund, not the one measure its question was remembered by", () => {
    const first = planner.planDeterministic('me diz o p/vp e o valor patrimonial por cota do BRCO11');
    expect(first).toMatchObject({ kind: 'entity', entity: 'fiis_financials_snapshot' });
    const opts = { previousEntity: first.entity, previousQuestion: first.question, previousTickers: ['BRCO11'], previousParams: first.params };
    expect(planner.planDeterministic('e do VILG11?', { ...opts, previousKind: 'entity' })).toMatchObject({
      kind: 'entity',
      entity: 'fiis_financials_snapshot',
      params: { ticker: 'VILG11' },
    });
    // (worded for the words it repeats, the fund replaced: the answer gives the same fields)
    const worded = planner.planDeterministic('e do VILG11?', { ...opts, previousKind: 'entity', previousAsked: 'me diz o p/vp e o valor patrimonial por cota do BRCO11' });
    expect(worded.asked).toBe('me diz o p/vp e o valor patrimonial por cota do VILG11');
    // (after a measure's answer, the edit is that measure's)
    expect(planner.planDeterministic('e do VILG11?', { ...opts, previousKind: 'measure' }).kind).toBe('measure');
    // (a period or a measure named is a new question of its own)
    expect(planner.planDeterministic('e o dy do VILG11?', { ...opts, previousKind: 'entity' }).question?.measure).not.toBe(first.question?.measure);
  });

  it('"compara o p/vp dos dois" after two answers that asked no measure compares the funds of both', () => {
    const opts = {
      previousEntity: 'fiis_cadastro',
      previousQuestion: null,
      previousTickers: ['RBRF11'],
      earlierSubjects: [{ kind: 'fund' as const, id: 'IRDM11' }],
      previousKind: 'entity',
    };
    expect(planner.planDeterministic('compara o p/vp dos dois', opts).question).toMatchObject({
      measure: 'pvp',
      subjects: [
        { kind: 'fund', id: 'IRDM11' },
        { kind: 'fund', id: 'RBRF11' },
      ],
    });
  });

  it('a row named by its name after a pick of one row asks the list again, not the pick ("e a ocupação do DCC Cajamar?")', () => {
    const first = planner.planDeterministic('qual imóvel do hglg11 tem a maior fatia da receita?');
    expect(first.params).toMatchObject({ limit: 1, order_by: 'revenue_share_ratio' });
    const opts = {
      previousEntity: first.entity,
      previousParams: { ...first.params, limit_asked: undefined },
      previousTickers: ['HGLG11'],
      previousQuestion: first.question,
      previousKind: 'entity',
    };
    expect(planner.planDeterministic('e a taxa de ocupação do DCC Cajamar?', opts).params).toMatchObject({ limit: null, order_by: null });
    // ("dele" still points at the pick)
    expect(planner.planDeterministic('qual a área dele?', opts).params).toMatchObject({ limit: 1, order_by: 'revenue_share_ratio' });
  });

  it('asks an answer no measure stands for again of another fund ("qual a vacancia do xpml11?" → "e no hglg11, qual é?")', () => {
    const first = planner.planDeterministic('qual a vacancia do xpml11?');
    expect(first).toMatchObject({ kind: 'entity', entity: 'fiis_imoveis' });
    const opts = { previousEntity: first.entity, previousQuestion: first.question, previousTickers: ['XPML11'], previousParams: first.params, previousKind: 'entity' as const };
    const again = planner.planDeterministic('e no hglg11, qual é?', { ...opts, previousAsked: 'qual a vacancia do xpml11?' });
    expect(again).toMatchObject({ kind: 'entity', entity: 'fiis_imoveis', asked: 'qual a vacancia do HGLG11?' });
  });

  it('a correction or the same asked of another fund keeps the previous subject ("opa, errei, queria o do HGRE11", "faz o mesmo pro HGLG11")', () => {
    for (const q of ['opa, errei, queria o do HGRE11', 'faz o mesmo pro HGRE11']) {
      expect(plan(q, 'fiis_cadastro')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', elliptic: true, params: { ticker: 'HGRE11' } });
    }
  });

  it('reads the window from the follow-up: "e em 2023?" after dividends is year:2023 of dividends', () => {
    const p = plan('e em 2023?', 'fiis_dividendos');
    expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_dividendos', elliptic: true, params: { ticker: null, agg: 'list', window: 'year:2023' } });
    expect(plan('e no ano passado?', 'history_b3_indexes').params.window).toBe(`year:${new Date().getUTCFullYear() - 1}`);
  });

  it('keeps a client entity only when the follow-up names no fund', () => {
    expect(plan('e no ano passado?', 'client_fiis_dividends_evolution')).toMatchObject({ entity: 'client_fiis_dividends_evolution', planner: { accepted: true } });
    const p = plan('e o KNRI11?', 'client_fiis_positions');
    expect(p.entity).toBe('fii_overview');
    expect(p.planner.reason).toMatch(/previous entity was not kept: client_fiis_positions is the client's own data/);
  });

  it('does not keep an entity that takes no ticker when the follow-up names a fund, nor an unknown entity', () => {
    expect(plan('e o HGLG11?', 'history_market_indicators').entity).toBe('fii_overview');
    expect(plan('e o HGLG11?', 'not_an_entity').planner.reason).toMatch(/not_an_entity is not a catalog entity/);
  });

  it('routes a question with its own subject normally even with a previous entity', () => {
    const p = plan('e o dividendo do XPML11?', 'fiis_financials_snapshot');
    expect(p).toMatchObject({ entity: 'fiis_dividendos', elliptic: false });
  });

  it('plan() passes the previous entity through', async () => {
    await expect(planner.plan('e pro hglg?', { previousEntity: 'fiis_precos' })).resolves.toMatchObject({ entity: 'fiis_precos', params: { ticker: 'HGLG11' } });
  });
});

describe('QA findings', () => {
  it('"Quanto eu tenho investido no total?" sums the positions (invested_amt is aggregatable there)', () => {
    // The client's invested total is a client measure now (summed by the executor, scoped to the client).
    expect(plan('Quanto eu tenho investido no total?')).toMatchObject({
      kind: 'measure',
      entity: 'client_fiis_positions',
      params: { agg: 'sum' },
      question: { measure: 'invested', agg: 'total' },
    });
  });

  it('a ranking by P/VP orders the snapshot across funds by price_book_ratio, never by another rank', () => {
    expect(plan('Ranking de fundos por P/VP')).toMatchObject({
      kind: 'entity',
      entity: 'fiis_financials_snapshot',
      params: { ticker: null, agg: 'list', order_by: 'price_book_ratio', order: 'asc', limit: 10 },
      ticker_required: false,
    });
    expect(plan('fundos com maior P/VP').params).toMatchObject({ order_by: 'price_book_ratio', order: 'desc' });
    const top = plan('top 5 fiis com menor pvp');
    expect(top.params).toMatchObject({ order_by: 'price_book_ratio', order: 'asc', limit: 5 });
    expect(top.ticker_sources).not.toContain('context');
    // A rank column named keeps the rankings entity.
    expect(plan('top 5 fiis por dy').params.order_by).toBe('rank_dy_12m');
  });

  it('a ranking without a rank column says so in the explanation', () => {
    const p = plan('ranking dos fiis');
    expect(p.entity).toBe('fiis_rankings');
    expect(p.params.order_by).toBeNull();
    expect(p.planner.reason).toMatch(/no rank column named/);
  });

  it('refuses at start-up a redirect to a column the entity cannot be ordered by', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cota-policies-'));
    cpSync(policiesDir(), dir, { recursive: true });
    const file = join(dir, 'param_inference.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('order_by: price_book_ratio', 'order_by: cap_rate'));
    expect(() => loadPlanningPolicies(dir)).toThrow(/ranking\.redirects\.0\.order_by: cap_rate is not in the orderings of entities\/fiis_financials_snapshot\.yaml/);
  });

  it('"Fundos com menor volatilidade" ranks by low volatility', () => {
    expect(plan('Fundos com menor volatilidade')).toMatchObject({ entity: 'fiis_rankings', params: { order_by: 'rank_low_volatility', order: 'asc' } });
  });

  it('"Qual a vacância do KNRI11?" reads the vacancy per property', () => {
    expect(plan('Qual a vacância do KNRI11?')).toMatchObject({ kind: 'entity', entity: 'fiis_imoveis', params: { ticker: 'KNRI11' } });
  });

  it('a month of a year is its last day for entities answering as of a date, the year for lists', () => {
    const ipca = plan('IPCA de setembro de 2025');
    expect(ipca).toMatchObject({ entity: 'history_market_indicators', params: { agg: 'latest', filters: { indicator: 'IPCA', date: '2025-09-30' } } });
    expect(ipca.params.window).not.toMatch(/^year:/);
    expect(plan('dólar em fevereiro de 2024').params.filters.date).toBe('2024-02-29');
    const divs = plan('dividendos do HGLG11 em março de 2025');
    expect(divs).toMatchObject({ entity: 'fiis_dividendos', params: { agg: 'list', window: 'year:2025' } });
    expect(divs.params.filters.date).toBeUndefined();
  });

  it('a hypothetical monthly investment is a finance calculation', () => {
    expect(plan('Se eu investir R$ 1000 por mês durante 10 anos a 0,8% ao mês, quanto terei?')).toMatchObject({ kind: 'tool', tool: { name: 'calcular_financas' } });
    expect(plan('Se eu investir no HGLG11 quanto recebo de dividendos?').kind).not.toBe('tool');
  });

  it('the close of a year is the last value of that year', () => {
    expect(plan('Quanto fechou o Ibovespa em 2024?')).toMatchObject({ entity: 'history_b3_indexes', params: { agg: 'latest', window: 'year:2024', filters: { index: 'IBOV' } } });
    expect(plan('IFIX em 2024').params).toMatchObject({ agg: 'list', window: 'year:2024' });
  });

  it('"esse ano" is a rolling year unless the year is written', () => {
    expect(plan('IFIX esse ano').params.window).toBe('months:12');
    expect(plan('IFIX esse ano de 2025').params.window).toBe('year:2025');
  });
});
