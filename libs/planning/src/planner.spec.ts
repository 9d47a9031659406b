import { loadEntityClasses, loadMeasureCatalog } from '@cota/catalog';
import { PlanResponse } from '@cota/contracts';
import { Ontology } from './ontology';
import { OntologySpec } from './ontology.schema';
import { Planner } from './planner';
import { loadPlanningPolicies } from './policies';
import { realPlanner } from './test-helpers';

describe('Planner (deterministic)', () => {
  const planner = realPlanner();
  const plan = (q: string) => planner.planDeterministic(q);

  describe('parameters from the text (issue 4 acceptance)', () => {
    it('"último dividendo do XPML11" -> latest, one row', () => {
      const p = plan('último dividendo do XPML11');
      expect(p.entity).toBe('fiis_dividendos');
      expect(p.params).toMatchObject({ ticker: 'XPML11', tickers: ['XPML11'], agg: 'latest', window: 'rows:1' });
    });

    it('"média dos últimos 6 meses de dividendos do KNRI11" -> avg over months:6', () => {
      const p = plan('média dos últimos 6 meses de dividendos do KNRI11');
      expect(p.entity).toBe('fiis_dividendos');
      expect(p.params).toMatchObject({ ticker: 'KNRI11', agg: 'avg', window: 'months:6' });
    });

    it('"liste os 24 últimos preços do MXRF11" -> list, limit 24, desc', () => {
      const p = plan('liste os 24 últimos preços do MXRF11');
      expect(p.entity).toBe('fiis_precos');
      expect(p.params).toMatchObject({ ticker: 'MXRF11', agg: 'list', limit: 24, order: 'desc' });
    });

    it('"últimos 12 dividendos do KNRI11" reads a list of 12, not the last one (so does "as 5 últimas cotações")', () => {
      const p = plan('últimos 12 dividendos do KNRI11');
      expect(p.params).toMatchObject({ ticker: 'KNRI11', agg: 'list', limit: 12, order: 'desc' });
      expect(p.question).toMatchObject({ measure: 'dividend', agg: 'list' });
      expect(plan('último dividendo do KNRI11').question).toMatchObject({ measure: 'dividend', agg: 'last' });
      expect(plan('quais as 5 últimas cotações do MXRF11?').question).toMatchObject({ measure: 'price', agg: 'list' });
      expect(plan('os 3 primeiros dividendos do HGLG11').question).toMatchObject({ measure: 'dividend', agg: 'list' });
    });

    it('"top 10 FIIs por DY" -> ranking without ticker, limit 10, best first', () => {
      const p = plan('top 10 FIIs por DY');
      expect(p.kind).toBe('entity');
      expect(p.entity).toBe('fiis_rankings');
      expect(p.params).toMatchObject({ ticker: null, tickers: [], limit: 10, order_by: 'rank_dy_12m', order: 'asc' });
      expect(p.ticker_required).toBe(false);
    });

    it('reads ranking columns and "piores" from the bottom', () => {
      expect(plan('top 5 fiis por sharpe').params).toMatchObject({ limit: 5, order_by: 'rank_sharpe', order: 'asc' });
      expect(plan('quais os 3 piores fiis em sharpe').params).toMatchObject({ limit: 3, order_by: 'rank_sharpe', order: 'desc' });
      expect(plan('fiis com menor volatilidade').params).toMatchObject({ order_by: 'rank_low_volatility', limit: 10 });
      expect(plan('posição do HGLG11 no ranking da SIRIOS').params).toMatchObject({ ticker: 'HGLG11', order_by: 'sirios_rank_position' });
    });

    it('reads windows in months, years, trading sessions and calendar years', () => {
      expect(plan('dy do MXRF11 nos últimos 2 anos').params.window).toBe('months:24');
      expect(plan('Como o IFIX se comportou nos últimos 10 pregões?').params.window).toBe('rows:10');
      expect(plan('Quais proventos o MXRF11 pagou em 2024?').params.window).toBe('year:2024');
      expect(plan('histórico do dólar nos últimos 15 dias').params.window).toBe('days:15');
      expect(plan('Total de dividendos do VISC11 nos últimos seis meses').params).toMatchObject({ agg: 'sum', window: 'months:6' });
    });

    it('reads dates into the date filter', () => {
      expect(plan('Máxima e mínima do MXRF11 em 27/10/2025').params.filters).toEqual({ date: '2025-10-27' });
      expect(plan('fechamento do IBOV no dia 2 de janeiro de 2024').params.filters).toMatchObject({ date: '2024-01-02', index: 'IBOV' });
    });

    it('fills the entity filters the executor accepts', () => {
      expect(plan('Qual a SELIC hoje').params.filters).toEqual({ indicator: 'SELIC' });
      expect(plan('Qual o IGP-M atual').params.filters).toEqual({ indicator: 'IGPM' });
      expect(plan('Cotação do euro D-1').params.filters).toEqual({ currency: 'EUR' });
      expect(plan('Pontos do IFIX de ontem').params.filters).toEqual({ index: 'IFIX' });
      expect(plan('Resumo carteira vs CDI D-1').params.filters).toEqual({ benchmark: 'CDI' });
      expect(plan('notícias sobre fiis de logística').params.filters).toEqual({ sector: 'Logística' });
    });

    it('keeps "preço médio" from meaning an average', () => {
      const p = plan('Qual meu preço médio do CPTS11');
      expect(p.entity).toBe('client_fiis_positions');
      expect(p.params.agg).toBe('list');
    });

    it('sets ticker only for exactly one fund and declares ticker sources per entity', () => {
      const two = plan('Como está o KNRI11 e o XPLG11 hoje?');
      expect(two.params.ticker).toBeNull();
      expect(two.params.tickers).toEqual(['KNRI11', 'XPLG11']);
      expect(two.ticker_sources).toEqual(['text', 'context']);
      expect(two.ticker_required).toBe(true);
      expect(plan('Qual a SELIC hoje').ticker_sources).toEqual([]);
      expect(plan('Minhas posições de FIIs').ticker_sources).not.toContain('context');
    });

    it('never lets a list across funds inherit the fund of the conversation', () => {
      for (const q of ['top 5 fiis por dy', 'quais fiis têm o maior valor de mercado?', 'ranking dos fiis com melhor sharpe']) {
        const p = plan(q);
        expect({ q, entity: p.entity }).toEqual({ q, entity: 'fiis_rankings' });
        expect({ q, sources: p.ticker_sources }).toEqual({ q, sources: ['text'] });
      }
      // A follow-up about one fund's position still may.
      expect(plan('e a posição dele no ranking de usuários?').ticker_sources).toContain('context');
    });

    it('requires a fund when the question points at one ("esse fundo", "dele"), even for list-able entities', () => {
      expect(plan('Esse fundo tem Sharpe bom?')).toMatchObject({ entity: 'fiis_financials_risk', ticker_required: true });
      expect(plan('quais fiis têm o melhor sharpe?').ticker_required).toBe(false);
    });
  });

  describe('kinds other than an entity', () => {
    it.each([
      ['oi', 'greeting'],
      ['Bom dia, Cota! Tudo bem?', 'greeting'],
      ['muito obrigado', 'thanks'],
      ['o que você sabe fazer?', 'capabilities'],
      ['oi, o que vc pode fazer?', 'capabilities'],
      ['quem é você?', 'identity'],
      ['tchau, até mais', 'goodbye'],
    ])('%s -> smalltalk %s', (q, kind) => {
      const p = plan(q);
      expect(p).toMatchObject({ kind: 'smalltalk', entity: null, smalltalk: kind });
    });

    it('reads a recommendation that points at no one fund as the note ("meu dinheiro", "minha posição em fundos de papel")', () => {
      for (const q of ['qual o melhor FII pra eu colocar todo meu dinheiro?', 'Você recomenda que eu aumente minha posição em fundos de papel?']) {
        expect(plan(q)).toMatchObject({ kind: 'smalltalk', smalltalk: 'advice', advice: true });
      }
      expect(plan('vale a pena aumentar minha posição?')).toMatchObject({ kind: 'entity', entity: 'fii_overview' });
      // (a forecast asked, or a portfolio put together, is a verdict Cota does not give; a calculation's future is a calculation)
      for (const q of ['qual fii vai subir mais em 2027?', 'o ifix vai cair ano que vem?', 'monta uma carteira de FIIs pra mim com 50 mil reais']) {
        expect(plan(q)).toMatchObject({ kind: 'smalltalk', smalltalk: 'advice', advice: true });
      }
      expect(plan('o hglg11 vai subir?')).toMatchObject({ kind: 'entity', entity: 'fii_overview', advice: true });
      expect(plan('quanto vai render 10 mil a 1% ao mês em 2 anos?').kind).toBe('tool');
    });

    it("reads a tool's words with every argument it needs written out as the calculation, not as its rule", () => {
      expect(plan('vendi 50 cotas a 90 reais com PM de 100, tenho imposto pra pagar?')).toMatchObject({ kind: 'tool', tool: { name: 'simular_ir_venda' } });
      expect(plan('tenho imposto pra pagar quando vendo cotas de fii?').kind).toBe('concept');
    });

    it('reads a rate asked as it is now as its value, and "pra mim" as no measure of its own', () => {
      expect(plan('qual a selic atual? vi no jornal q tava alta').question).toMatchObject({ measure: 'annual_rate', agg: 'value' });
      expect(plan('compara o p/vp do hglg11 e do knri11 pra mim').question?.measure).toBe('pvp');
      expect(plan('hgcr11 rendeu quanto de dividendo pra mim em agosto de 2024').question?.measure).toBe('received');
    });

    it('matches a one-word courtesy as written: "valeu" thanks, "vale" asks a worth', () => {
      expect(plan('valeuu')).toMatchObject({ kind: 'smalltalk', smalltalk: 'thanks' });
      expect(plan('quanto vale hj?').kind).not.toBe('smalltalk');
    });

    it('does not treat a greeting followed by a question as small talk', () => {
      expect(plan('oi, qual o preço do HGLG11?')).toMatchObject({ kind: 'entity', entity: 'fiis_precos' });
    });

    it.each([
      ['sim', 'yes'],
      ['Pode mandar!', 'yes'],
      ['confirmo', 'yes'],
      ['não', 'no'],
      ['cancela', 'no'],
    ])('%s -> confirmation %s', (q, value) => {
      expect(plan(q)).toMatchObject({ kind: 'confirmation', confirmation: value, entity: null });
    });

    it('needs the whole message for a confirmation', () => {
      expect(plan('sim, e qual o dy do HGLG11?').kind).toBe('measure');
    });

    it.each([
      ['o que temos pra hoje?', 'gerar_relatorio_diario'],
      ['me dá o resumo do dia', 'gerar_relatorio_diario'],
      ['relatório diário', 'gerar_relatorio_diario'],
      ['filtre só os de logística', 'filtrar_relatorio'],
      ['mostra só a parte de dividendos do relatório', 'filtrar_relatorio'],
      ['manda esse relatório por e-mail', 'enviar_relatorio_email'],
      ['quanto rende R$ 10 mil a 1% ao mês em 2 anos', 'calcular_financas'],
      ['calcula juros compostos de 1% ao mês por 12 meses', 'calcular_financas'],
      ['valor presente de R$ 5.000 daqui a 3 anos', 'calcular_financas'],
      ['quanto preciso investir por mês para ter R$ 1 milhão', 'calcular_financas'],
    ])('%s -> tool %s', (q, name) => {
      expect(plan(q)).toMatchObject({ kind: 'tool', intent: name, entity: null, tool: { name, args: {} } });
    });

    it('does not read fund or market questions as calculations', () => {
      expect(['entity', 'measure']).toContain(plan('quanto rende o HGLG11 por mês?').kind);
      expect(plan('quanto rende a poupança hoje').entity).toBe('history_market_indicators');
    });

    it.each(['o que é P/VP?', 'como funciona o dividend yield?', 'qual a diferença entre FII de tijolo e de papel?', 'o que significa vacância'])('%s -> concept', (q) => {
      expect(plan(q)).toMatchObject({ kind: 'concept', intent: 'concept', entity: null });
    });
  });

  describe('decision and explanation', () => {
    it('explains an accepted decision', () => {
      const p = plan('Qual o CNPJ do HGLG11?');
      expect(p.kind).toBe('entity');
      expect(p.intent).toBe('fiis_cadastro');
      expect(p.planner.accepted).toBe(true);
      expect(p.planner.normalized).toBe('qual o cnpj do hglg11');
      expect(p.planner.score).toBeGreaterThanOrEqual(p.planner.thresholds.min_score);
      expect(p.planner.gap).toBeGreaterThanOrEqual(p.planner.thresholds.min_gap);
      expect(p.planner.candidates[0]).toMatchObject({ entity: 'fiis_cadastro' });
      expect(p.planner.candidates[0].signals).toContain('word:cnpj(+6)');
      expect(p.planner.reason).toMatch(/accepted fiis_cadastro/);
      expect(p.planner.llm_used).toBe(false);
    });

    it('asks back with the candidate readings when two entities are equally likely', () => {
      const p = plan('carteira vs cdi');
      expect(p.kind).toBe('clarification');
      expect(p.planner.accepted).toBe(false);
      expect(
        p.planner.candidates
          .map((c) => c.entity)
          .slice(0, 2)
          .sort(),
      ).toEqual(['client_fiis_performance_vs_benchmark', 'client_fiis_performance_vs_benchmark_summary']);
      expect(p.planner.reason).toMatch(/apart/);
      // Each reading carries its pt-BR label so the answer can ask "você quer X ou Y?".
      expect(p.planner.candidates[0].label).toMatch(/sua carteira/);
    });

    it('accepts a smaller lead only when it rests on a specific word the runner-up lacks', () => {
      const { ontology, params } = loadPlanningPolicies();
      const withThresholds = (t: Omit<OntologySpec['thresholds'], 'field_word_weight'>) =>
        new Planner({
          policies: {
            ontology: new Ontology({ ...ontology.spec, thresholds: { ...t, field_word_weight: 5 } }),
            params,
            measures: loadMeasureCatalog(),
            entities: loadEntityClasses(),
          },
          funds: ['HGLG11'],
        });
      // fiis_cadastro leads fiis_precos by 2, with "cnpj" (6) that the price reading lacks.
      const q = 'qual o preco e o cnpj do HGLG11';
      const strict = withThresholds({ min_score: 3, min_gap: 3 }).planDeterministic(q);
      expect(strict).toMatchObject({ kind: 'clarification', planner: { gap: 2 } });
      const specific = withThresholds({ min_score: 3, min_gap: 3, specific: { min_gap: 1, word_weight: 6 } }).planDeterministic(q);
      expect(specific).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', planner: { accepted: true, thresholds: { min_score: 3, min_gap: 3 } } });
      expect(specific.planner.reason).toMatch(/led by the specific "cnpj" \(6 >= 6\)/);
      expect(withThresholds({ min_score: 3, min_gap: 3, specific: { min_gap: 1, word_weight: 7 } }).planDeterministic(q).kind).toBe('clarification');
      expect(withThresholds({ min_score: 3, min_gap: 3, specific: { min_gap: 2.5, word_weight: 6 } }).planDeterministic(q).kind).toBe('clarification');
      // With the shipped thresholds a tie is always asked back.
      expect(plan('carteira vs cdi').kind).toBe('clarification');
    });

    it('asks back when the best reading is too weak', () => {
      const p = plan('e o índice?');
      expect(p.kind).toBe('clarification');
      expect(p.planner.score).toBeLessThan(p.planner.thresholds.min_score);
      expect(p.planner.reason).toMatch(/< 3/);
    });

    it('reports nothing matched as unknown', () => {
      const p = plan('asdf qwer zxcv');
      expect(p).toMatchObject({ kind: 'unknown', entity: null });
      expect(p.planner.candidates).toEqual([]);
    });

    it.each([
      ['Esse fundo tem Sharpe bom?', 'fiis_financials_risk'],
      ['E o overview dele?', 'fii_overview'],
      ['Quantos processos tem ele?', 'fiis_processos'],
      ['E o risco dele?', 'fiis_financials_risk'],
      ['e o preço?', 'fiis_precos'],
      ['e o dy?', 'fiis_dividends_yields'],
      ['e o dólar?', 'history_currency_rates'],
    ])('routes the follow-up "%s" (ticker left to the context) to %s', (q, entity) => {
      const p = plan(q);
      expect(p).toMatchObject({ entity, tickers_in_text: [] });
      expect(['entity', 'measure']).toContain(p.kind);
      expect(p.params.ticker).toBeNull();
    });

    it('routes a bare ticker to the fund overview', () => {
      expect(plan('HGLG11?')).toMatchObject({ kind: 'entity', entity: 'fii_overview', params: { ticker: 'HGLG11' } });
    });

    it('corrects typos against the vocabulary and says so', () => {
      const p = plan('qual o ultimo dividnedo do HGLG11');
      expect(p.entity).toBe('fiis_dividendos');
      expect(p.planner.reason).toMatch(/dividnedo->dividendo/);
    });

    it('lists unknown tickers and still routes', () => {
      const p = plan('qual o preço do ABCD11?');
      expect(p.entity).toBe('fiis_precos');
      expect(p.unknown_tickers).toEqual(['ABCD11']);
      expect(p.tickers_in_text).toEqual([]);
      expect(p.params.ticker).toBeNull();
    });

    it('says when tickers were recognised by pattern only', () => {
      const pending = realPlanner({ withFunds: false });
      const p: PlanResponse = pending.planDeterministic('CNPJ do ABCD11');
      expect(p.tickers_in_text).toEqual(['ABCD11']);
      expect(p.planner.reason).toMatch(/fund list not loaded/);
      pending.setFunds(['HGLG11']);
      expect(pending.fundsLoaded).toBe(true);
      expect(pending.planDeterministic('CNPJ do ABCD11').unknown_tickers).toEqual(['ABCD11']);
    });

    it('asks for the field of the fund named, not for a tool that takes no fund named by why the person asks', () => {
      expect(plan('oi, me passa o cnpj do mxrf11 pfv, preciso pra declarar o ir')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro' });
      // Without a fund's field the report is still the report; a sale already made is still its tax.
      expect(plan('gera meu relatorio de ir de 2024')).toMatchObject({ kind: 'tool', tool: { name: 'relatorio_ir_anual' } });
      expect(plan('devo pagar imposto sobre a venda do hglg11 que fiz em maio?')).toMatchObject({ kind: 'tool', tool: { name: 'apurar_ir_vendas' } });
    });

    it('answers a tie between two readings with the broader one the ontology declares, never asks which', () => {
      const p = plan('o que eu tenho na carteira hoje?');
      expect(p).toMatchObject({ kind: 'entity', entity: 'client_fiis_enriched_portfolio', planner: { accepted: true } });
      expect(p.planner.reason).toMatch(/even with client_fiis_positions \(\d+\): the broader view of it/);
      // Words that lean to the positions alone still reach them.
      expect(plan('qual o meu preço médio do HGLG11?').entity).not.toBe('client_fiis_enriched_portfolio');
    });

    it("answers a tie between the client's view and a fund's with the fund's, when a fund is named and nothing says the client's", () => {
      const p = plan('quantas cotas o KNRI11 tem?');
      expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', planner: { accepted: true } });
      expect(p.planner.reason).toMatch(/the fund's own figure: nothing says the client's/);
      expect(plan('quantas cotas do KNRI11 eu tenho?').question?.measure).toBe('shares_held');
    });

    it("reads the trades as nouns in the client's voice, and a tax right after a sale's result as that sale's", () => {
      expect(plan('quais vendas de fii eu ja fiz?').question).toMatchObject({ measure: 'shares_sold' });
      expect(plan('quais compras de fii eu fiz?')).toMatchObject({ kind: 'measure', question: { measure: 'shares_bought' } });
      const sale = plan('vendi meu XPIN11 em 2022, qual foi o lucro?');
      expect(sale.question?.measure).toBe('realized');
      const after = { previousEntity: sale.entity, previousQuestion: sale.question, previousTickers: ['XPIN11'] };
      expect(planner.planDeterministic('quanto de imposto isso dá?', after)).toMatchObject({ kind: 'tool', tool: { name: 'apurar_ir_vendas' } });
      // (not after anything else: a tax question alone is the concept's)
      expect(plan('e quanto da de imposto sobre isso, 20%?').kind).not.toBe('tool');
    });

    it("asks a ranking's first when one fund is asked by an extreme, its list when several are", () => {
      expect(plan('qual o fundo com maior peso no ifix?').params).toMatchObject({ limit: 1, limit_asked: 1, order_by: 'ifix_rank_position' });
      expect(plan('quais os fiis com maior peso no ifix?').params.limit_asked).toBeFalsy();
    });

    it('reads a yield defined in its own words: the distributions it sums, how they are dated, and the close it divides by', () => {
      const byRecord = plan('Somando os dividendos do HGLG11 com data com entre junho de 2024 e maio de 2025 e dividindo pelo fechamento de 25/06/2025, qual é o dividend yield?');
      expect(byRecord.question).toMatchObject({
        measure: 'dy',
        period: { kind: 'range', from: '2024-06-01', to: '2025-05-31' },
        price_at: { from: '2025-06-25', to: '2025-06-25' },
      });
      const paid = plan('dy do abcp11 em 2024: proventos pagos em 2024 / fechamento de 30/12/2024');
      expect(paid.question).toMatchObject({ measure: 'dy_paid', period: { from: '2024-01-01', to: '2024-12-31' }, price_at: { from: '2024-12-30', to: '2024-12-30' } });
      // (the distributions dated by payment, with no yield named, are the distributions)
      expect(plan('soma dos rendimentos pagos pelo ARRI11 em 2024 (pela data de pagamento)').question?.measure).toBe('dividend_paid');
      // (no yield asked: the close is the measure's, not a divisor)
      expect(plan('qual o preço de fechamento do HGLG11 em 25/06/2025?').question?.price_at).toBeUndefined();
    });

    it("reads a position's return by price as the position's own figure, not each fund's price since the series began", () => {
      expect(plan('quanto rendeu minha posicao em VISC11?').question).toMatchObject({ measure: 'unrealized_gain_pct', subjects: [{ kind: 'fund', id: 'VISC11' }] });
    });

    it('reads the measure said outside parentheses, the words inside only explaining it', () => {
      expect(plan('Qual o custo total das cotas que eu ainda tenho hoje (preço de compra das posições abertas)?').question?.measure).toBe('invested');
      // (when only the words inside name one, they do)
      expect(plan('qual foi o retorno do HGLG11 em 2023 (com proventos reinvestidos)?').question?.measure).toBe('price');
    });

    it('keeps client questions on client entities and market questions off tickers', () => {
      expect(plan('Peso do HGLG11 na minha carteira de FIIs').entity).toBe('client_fiis_positions');
      expect(plan('peso do HGLG11 no IFIX').entity).toBe('fiis_rankings');
      expect(plan('quanto está o IFIX hoje?').entity).toBe('history_b3_indexes');
      expect(plan('Beta do XPLG11 em relação ao IFIX').entity).toBe('fiis_financials_risk');
    });
  });

  // Misses found on fresh question rounds (test/planner/blind_round4..8), fixed by concept.
  describe('generalisation fixes', () => {
    const entity = (q: string) => {
      const p = plan(q);
      // A measure question is routed to its entity too (meta.entity); only other kinds differ.
      return p.kind === 'entity' || p.kind === 'measure' ? p.entity : `${p.kind}:${p.entity}`;
    };

    it("reads first-person money talk as the client's own portfolio", () => {
      expect(entity('to ganhando ou perdendo dinheiro no RECR11?')).toBe('client_fiis_positions');
      expect(entity('meu pm no KNHY11 ta em quanto?')).toBe('client_fiis_positions');
      expect(entity('em quais fiis eu to com posicao hoje?')).toBe('client_fiis_positions');
      expect(entity('quanto eu ganhei de proventos em marco')).toBe('client_fiis_dividends_evolution');
      expect(entity('quais fundos me pagaram em outubro')).toBe('client_fiis_dividends_evolution');
      // A possessive alone does not make a market question private, nor "quem investe" first person.
      expect(entity('como ta a economia pra quem investe em fii?')).toBe('macro_consolidada');
    });

    it('keeps income expected from now on apart from income received', () => {
      expect(entity('quanto de renda mensal minha carteira deve gerar')).toBe('client_fiis_enriched_portfolio');
      expect(entity('minha renda mensal com fiis esta crescendo?')).toBe('client_fiis_dividends_evolution');
    });

    it('tells the month-by-month comparison from the period summary', () => {
      expect(entity('grafico carteira x ibov mes a mes')).toBe('client_fiis_performance_vs_benchmark');
      expect(entity('em quantos meses minha carteira bateu o ifix')).toBe('client_fiis_performance_vs_benchmark_summary');
      expect(entity('saldo final da carteira contra o ibov no periodo')).toBe('client_fiis_performance_vs_benchmark_summary');
      // A comparison in time is not a comparison with a benchmark.
      expect(entity('minha renda mensal de fiis caiu em relacao ao mes anterior?')).toBe('client_fiis_dividends_evolution');
    });

    it('reads a short period as a price move and an all-time fall as risk', () => {
      expect(entity('quanto o VGIR11 oscilou essa semana')).toBe('fiis_precos');
      expect(entity('quanto oscila o HGLG11')).toBe('fiis_financials_risk');
      expect(entity('qual a maior queda que o VGIA11 ja teve')).toBe('fiis_financials_risk');
    });

    it("routes a fund's vacancy to its properties, the reported physical/financial vacancy to the snapshot", () => {
      expect(entity('qual a vacancia do HGLG11')).toBe('fiis_imoveis');
      expect(entity('e a vacancia?')).toBe('fiis_imoveis');
      expect(entity('vacancia financeira do XPLG11')).toBe('fiis_financials_snapshot');
    });

    it('does not "correct" ordinary words into policy words', () => {
      const p = plan('estou em duvida se coloco dinheiro no KNCR11, me ajuda a entender o fundo');
      expect(p.entity).toBe('fii_overview');
      expect(p.planner.reason).not.toMatch(/duvida->divida/);
    });

    it('reads a yearly percentage as dividend yield', () => {
      expect(entity('o JSRE11 rende quantos % ao ano?')).toBe('fiis_dividends_yields');
      expect(entity('rendimento dos ultimos 12 meses em reais e em % do KNCR11')).toBe('fiis_dividends_yields');
    });

    it('sends market-conditioned questions about FIIs to the macro panorama, not to a definition or the daily report', () => {
      expect(entity('vale a pena investir em fii com selic alta?')).toBe('macro_consolidada');
      expect(plan('vale a pena investir em fii?').kind).toBe('concept');
      expect(entity('selic alta e ipca alto, o que isso significa pros fiis?')).toBe('macro_consolidada');
      expect(entity('resumo macro do dia com ifix e dolar')).toBe('macro_consolidada');
      expect(plan('resumo do dia').kind).toBe('tool');
    });

    it('reads a count of funds as the list size and every indicator the warehouse has', () => {
      expect(plan('os 5 fiis com menos volatilidade').params).toMatchObject({ limit: 5, order_by: 'rank_low_volatility' });
      expect(plan('me fala de um fundo de papel com dy alto').params.limit).not.toBe(1);
      expect(plan('poupanca ta rendendo quanto').params.filters).toEqual({ indicator: 'POUPANCA' });
      expect(plan('inpc do ultimo mes').params).toMatchObject({ window: 'months:1', filters: { indicator: 'INPC' } });
      expect(plan('igp-m dos ultimos 12 meses').params).toMatchObject({ window: 'months:12', filters: { indicator: 'IGPM' } });
    });

    it('reads the stored 12-month figure apart from a 12-month window of monthly values', () => {
      const p = plan('qto o mxrf11 distribuiu no acumulado de 12 meses em R$ por cota?');
      expect(p.entity).toBe('fiis_dividends_yields');
      // The 12-month total is a stored column of the latest month, not a sum of rows.
      expect(p.params).toMatchObject({ agg: 'latest', window: 'rows:1' });
      expect(plan('Quanto o XPLG11 pagou somado nos últimos 12 meses?').params).toMatchObject({ agg: 'latest', window: 'rows:1' });
      expect(plan('como o DY de 12 meses do VISC11 evoluiu ao longo de 2024?').params).toMatchObject({ agg: 'list', window: 'year:2024' });
      expect(entity('e os dividendos acumulados em 12 meses dele?')).toBe('fiis_dividends_yields');
      // A window alone keeps the per-payment and per-month entities.
      expect(entity('Dividendos pagos pelo HGLG11 nos últimos 12 meses')).toBe('fiis_dividendos');
      expect(entity('dy mensal do HGLG11 nos ultimos 12 meses')).toBe('fiis_yield_history');
      expect(plan('soma dos dividendos do HGLG11 em 2024').params).toMatchObject({ agg: 'sum', window: 'year:2024' });
    });

    it('reads the book value per share as the snapshot, the quote as the price', () => {
      expect(entity('quanto vale o VP por cota do knri11 hoje')).toBe('fiis_financials_snapshot');
      expect(entity('valor patrimonial da cota do RBRR11')).toBe('fiis_financials_snapshot');
      expect(entity('quanto vale a cota do KNRI11')).toBe('fiis_precos');
    });

    it('knows every spelling of the regression risk metrics', () => {
      for (const q of ['e o r² dele contra o ifix?', 'R-quadrado do KNRI11', 'alfa de jensen do HGLG11', 'qual o beta do VISC11?']) {
        expect(entity(q)).toBe('fiis_financials_risk');
      }
    });

    it('reads several aspects of one fund in different entities as its overview, but not for lists or the portfolio', () => {
      const p = plan('resumao do btlg11: dy, p/vp, patrimonio e risco');
      expect(p.entity).toBe('fii_overview');
      expect(p.planner.candidates[0].signals).toContain('feature:several_aspects(+6)');
      // No overview word at all: the aspects alone point to the overview.
      expect(entity('quero saber preço, dy, p/vp e noticias do XPLG11')).toBe('fii_overview');
      expect(entity('quais fiis tem maior dy, menor p/vp e menor risco?')).toBe('fiis_rankings');
      expect(entity('dy, p/vp e risco dos meus fiis')).toBe('client_fiis_enriched_portfolio');
      // Several fields of one entity are still that entity.
      expect(entity('p/vp, patrimonio e alavancagem do HGLG11')).toBe('fiis_financials_snapshot');
    });

    it('ranks the steadiest funds and reads index moves as the index history', () => {
      expect(plan('quais fiis oscilam menos? quero os mais estaveis')).toMatchObject({ entity: 'fiis_rankings', params: { order_by: 'rank_low_volatility' } });
      const p = plan('qual foi a maior alta diária do ifix esse ano?');
      // "esse ano" is a rolling year (the data may end before the clock's year starts).
      expect(p).toMatchObject({ entity: 'history_b3_indexes', params: { agg: 'list', window: 'months:12', filters: { index: 'IFIX' } } });
    });

    it('reads several kinds of market series together as the macro panorama, one kind as its own entity', () => {
      for (const q of ['me mostra um painel com cdi, ibov e euro', 'Como estavam Selic, IPCA e dólar no começo de 2024?', 'Resumo dos indicadores econômicos de hoje']) {
        expect(entity(q)).toBe('macro_consolidada');
      }
      expect(entity('Compare o IFIX e o IBOV no último mês')).toBe('history_b3_indexes');
      expect(entity('compara dolar e euro no ultimo mes')).toBe('history_currency_rates');
      expect(entity('selic atual')).toBe('history_market_indicators');
    });

    it('a question about a trade is never a trade to record: asked when, it lists the trades with their dates', () => {
      for (const q of ['qdo eu comprei xpml11?', 'em q dia comprei o btal11?', 'quando vendi o HGCR11?']) {
        const p = planner.planDeterministic(q);
        expect({ q, kind: p.kind, agg: p.question?.agg }).toEqual({ q, kind: 'measure', agg: 'list' });
      }
      expect(planner.planDeterministic('comprei 20 HGLG11 a 158,40 hoje').tool?.name).toBe('registrar_operacao');
      expect(planner.planDeterministic('gastei 85 reais na farmácia').tool?.name).toBe('registrar_transacao');
    });

    it('a purchase and a price said apart name the purchase price', () => {
      const p = planner.planDeterministic('quando eu comprei knhy11 e a que preco?');
      expect(p.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'KNHY11' }], measure: 'buy_price', agg: 'list' });
      expect(planner.planDeterministic('qual o meu preco medio de compra do knhy11?').question?.measure).toBe('avg_price');
    });

    it('a calendar of what comes next does not take a question about a past period', () => {
      expect(planner.planDeterministic('quais as proximas datas com dos meus fiis?').tool?.name).toBe('calendario_proventos');
      const past = planner.planDeterministic('quanto o bcri11 somou em 2023 pela data com?');
      expect([past.kind, past.question?.measure]).toEqual(['measure', 'dividend']);
    });

    it('a holding the question supposes asks what one share paid, said for that many shares', () => {
      const year = planner.planDeterministic('se eu tivesse 500 cotas de hglg11 o ano de 2024 inteiro, quanto teria recebido de dividendos?');
      expect(year.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'HGLG11' }], measure: 'dividend_paid', agg: 'total', shares: 500 });
      const last = planner.planDeterministic('com 500 cotas de afhi11 quanto eu recebi no ultimo pagamento');
      expect(last.question).toMatchObject({ subjects: [{ kind: 'fund', id: 'AFHI11' }], measure: 'dividend_paid', agg: 'last', shares: 500 });
      expect(planner.planDeterministic('quanto recebi de dividendos do hglg11 em 2024?').question?.shares).toBeUndefined();
    });

    it("reads the client's purchases, weights, expected income and results against an index", () => {
      expect(entity('comprei knri11 a quanto em média?')).toBe('client_fiis_positions');
      expect(entity('Quando comprei XPML11 pela primeira vez?')).toBe('client_fiis_positions');
      expect(entity('vale a pena comprar HGLG11?')).toBe('fii_overview');
      expect(entity('quanto % cada fundo representa no meu portfolio de fiis?')).toBe('client_fiis_enriched_portfolio');
      expect(entity('quanto devo receber de renda por mês com minha carteira atual?')).toBe('client_fiis_enriched_portfolio');
      expect(entity('Em quais meses minha carteira ficou abaixo do IFIX?')).toBe('client_fiis_performance_vs_benchmark');
      expect(entity('Contra qual índice minha carteira se saiu melhor desde o início?')).toBe('client_fiis_performance_vs_benchmark_summary');
      expect(entity('evolucao da minha carteira contra o IFIX desde o inicio')).toBe('client_fiis_performance_vs_benchmark');
      expect(entity('evolucao da minha renda com fiis')).toBe('client_fiis_dividends_evolution');
    });

    it('reads the management type as registry data, even with no registry word', () => {
      expect(entity('a gestao do VISC11 e ativa? quem escolhe os ativos?')).toBe('fiis_cadastro');
      expect(entity('o KNRI11 e gerido de forma ativa?')).toBe('fiis_cadastro');
      expect(entity('quais ativos o KNRI11 tem?')).toBe('fiis_imoveis');
    });

    it('fills tickers, years and filters on colloquial questions', () => {
      expect(plan('mxrf e knri, quanto tao custando?').params.tickers).toEqual(['MXRF11', 'KNRI11']);
      expect(plan('XPML11 e VISC11: quanto cada um distribuiu em 2024').params).toMatchObject({
        ticker: null,
        tickers: ['XPML11', 'VISC11'],
        window: 'year:2024',
      });
      expect(plan('top 3 fundos de papel por dividend yield').params).toMatchObject({ limit: 3, order_by: 'rank_dy_12m', filters: { fund_type: 'Papel' } });
      expect(plan('rentabilidade mensal dos meus fiis x cdi em 2023').params).toMatchObject({ window: 'year:2023', filters: { benchmark: 'CDI' } });
    });
  });

  describe('screens: funds that meet numeric conditions', () => {
    it('a condition on a metric the rankings lack screens the entity that has it, every fund counted', () => {
      const p = plan('quantos fundos de shopping tem p/vp abaixo de 1?');
      expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_financials_snapshot' });
      expect(p.params).toMatchObject({
        order_by: 'price_book_ratio',
        limit: 1000,
        filters: { sector: 'Shoppings' },
        conditions: [{ column: 'price_book_ratio', op: 'lt', value: 1 }],
      });
    });

    it('a screen is ordered by its condition, nearest the far side first, whatever entity its words leaned to', () => {
      for (const q of ['quais FOFs estão com p/vp abaixo de 0,75?', 'fundos de fundos (FOF) com P/VP abaixo de 0,75 — quais são?']) {
        expect(plan(q)).toMatchObject({
          kind: 'entity',
          entity: 'fiis_financials_snapshot',
          params: { order_by: 'price_book_ratio', order: 'asc', filters: { fund_type: 'FoF' } },
        });
      }
    });

    it('a condition does not choose the order: "com valor de mercado acima de 1 bi, os 3 com menor p/vp"', () => {
      const p = plan('entre os fundos de logística com valor de mercado acima de 1 bi, quais os 3 com menor p/vp?');
      expect(p.params).toMatchObject({ order_by: 'price_book_ratio', order: 'asc', limit: 3, conditions: [{ column: 'market_cap_value', op: 'gt', value: 1e9 }] });
      expect(plan('Quantos FIIs de papel têm DY acima de 15%?').params).toMatchObject({
        filters: { fund_type: 'Papel' },
        conditions: [{ column: 'dy_12m_pct', op: 'gt', value: 15 }],
      });
    });
  });

  describe("fund names, kinds of fund, market spans, benchmarks and the client's words", () => {
    it('a fund named by the leading words of its registered name; a kind of fund asked of a named fund is no filter', () => {
      expect(plan('qual o ticker do Vinci Shopping Centers?')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', params: { ticker: 'VISC11' } });
      expect(plan('o knri11 é papel ou tijolo?').params).toMatchObject({ ticker: 'KNRI11', filters: {} });
    });

    it('a segment or type said of a named fund ("o KNIP11 é de papel?") is answered by its registry, even where the word names other rows', () => {
      expect(plan('o KNIP11 é de papel?')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', params: { ticker: 'KNIP11', filters: {} } });
      expect(plan('o HGLG11 é de shopping?')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', params: { ticker: 'HGLG11' } });
      expect(plan('ele é um fundo de logistica?')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro' });
      // (asking about its properties is still its properties)
      expect(plan('o XPML11 tem imoveis de shopping?').entity).toBe('fiis_imoveis');
    });

    it('"vol" is the volatility; "qts cotas de HGCR11 me sobraram" the shares still held', () => {
      expect(plan('qual a vol do hglg11').question).toMatchObject({ measure: 'volatility', subjects: [{ id: 'HGLG11' }] });
      expect(plan('qts cotas de hgcr11 me sobraram').question).toMatchObject({ measure: 'shares_held', subjects: [{ id: 'HGCR11' }] });
    });

    it('funds named and compared by a measure named are compared, not ranked with every fund; a sale’s result in percent', () => {
      expect(plan('entre hglg11, knri11 e visc11 qual ta com o menor pvp? ordena do menor pro maior')).toMatchObject({
        kind: 'measure',
        question: { measure: 'pvp', compare: 'min', subjects: [{ id: 'HGLG11' }, { id: 'KNRI11' }, { id: 'VISC11' }] },
      });
      expect(plan('quanto eu ganhei em % na venda do xpin11?').question).toMatchObject({ measure: 'realized_pct', subjects: [{ id: 'XPIN11' }] });
      expect(plan('quanto ganhei vendendo o XPIN11?').question).toMatchObject({ measure: 'realized' });
    });

    it('a fund named by its CNPJ ("de qual fii é o CNPJ 12.005.956/0001-65?")', () => {
      expect(plan('de qual fii é o cnpj 12.005.956/0001-65 ?')).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', params: { ticker: 'KNRI11' } });
      expect(plan('cnpj 99.999.999/0001-99 é de qual fundo?').params.ticker).toBeNull();
    });

    it('a phrase of function words only ("o que é") matches as said, never across other words ("o que eu vendi e quando?")', () => {
      expect(plan('o que eu vendi e quando?')).toMatchObject({ kind: 'measure', question: { measure: 'shares_sold' } });
      expect(plan('o que é p/vp?').kind).toBe('concept');
    });

    it('the extreme day of a year: "o dia em que mais caiu", "a maior alta diária"', () => {
      expect(plan('qual o dia que o ifix mais caiu em 2024?').question).toMatchObject({ agg: 'min', group_by: 'day', extreme_group: true });
      expect(plan('qual foi a maior alta diaria do HGLG11 em 2024?').question).toMatchObject({ measure: 'price', agg: 'max', group_by: 'day' });
      expect(plan('qual o pior mes do ifix em 2024?').question).toMatchObject({ group_by: 'month' });
    });

    it('what the client paid: on average per share, and in purchases (also for a fund sold since)', () => {
      expect(plan('paguei quanto em media no XPML11?').question).toMatchObject({ measure: 'avg_price', subjects: [{ id: 'XPML11' }] });
      expect(plan('quanto gastei comprando HGLG11?').question).toMatchObject({ measure: 'bought_amount', agg: 'total' });
      expect(plan('quanto eu tinha pago no XPIN11?').question).toMatchObject({ measure: 'invested', subjects: [{ id: 'XPIN11' }] });
    });

    it('an index or a currency over months is how it moved; "mais caro" is the maximum', () => {
      expect(plan('ibov no 2º tri de 2024').question).toMatchObject({ measure: 'index_points', agg: 'variation' });
      expect(plan('euro mais caro de 2025, qual foi e quando?').question).toMatchObject({ measure: 'fx_rate', agg: 'max' });
      // A fund's price in a month stays its price.
      expect(plan('preço do XPML11 em março de 2024').question).toMatchObject({ measure: 'price', agg: 'value' });
    });

    it("a fund against the CDI over a period said is each one's return; without one, the 12-month benchmark plan", () => {
      expect(plan('KNHY11 rendeu mais que o CDI no 1º semestre de 2024?')).toMatchObject({
        kind: 'measure',
        question: { measure: null, agg: 'variation', subjects: [{ id: 'KNHY11' }, { id: 'CDI' }] },
      });
      expect(plan('O HGLG11 rendeu mais que o CDI nos últimos 12 meses?').kind).toBe('plan');
    });

    it('"preço médio ... na minha carteira" is the price paid', () => {
      expect(plan('preço medio do knip11 na minha carteira').question).toMatchObject({ measure: 'avg_price', subjects: [{ kind: 'fund', id: 'KNIP11' }] });
      expect(plan('preço medio do knip11 em junho de 2025').question).toMatchObject({ measure: 'price', agg: 'avg' });
    });
  });

  describe('lists referred to by place or by one fund, misspellings, ordered lists', () => {
    it('"qual o p/vp do primeiro?" after a list is about the fund in that place', () => {
      const p = planner.planDeterministic('qual o p/vp do primeiro?', { previousEntity: 'fiis_rankings', previousTickers: ['VGRI11', 'PATA11', 'BIME11'] });
      expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_financials_snapshot', params: { ticker: 'VGRI11' } });
      expect(planner.planDeterministic('e o do último?', { previousEntity: 'fiis_rankings', previousTickers: ['VGRI11', 'PATA11', 'BIME11'] }).params.ticker).toBe('BIME11');
      // Alone, it is a follow-up to be planned with the conversation.
      expect(plan('qual o p/vp do primeiro?').follow_up_candidate).toBe(true);
    });

    it('misspelled measure words are read corrected; a different ending is another word, not a typo', () => {
      expect(plan('divdendos do XPML11 em marco/24').question).toMatchObject({ measure: 'dividend', period: { from: '2024-03-01', to: '2024-03-31' } });
      expect(plan('como ta a economia pra quem investe em fii?').entity).toBe('macro_consolidada');
    });

    it('a chat abbreviation is a word, never a fund prefix: "qnts" is "quantos", not QNTS11', () => {
      expect(plan('ifix fechou 2024 em qnts pontos')).toMatchObject({ kind: 'measure', question: { measure: 'index_points', subjects: [{ kind: 'index', id: 'IFIX' }] } });
    });

    it('"preço médio" of a fund with no period is the average price paid; with a period, the mean close', () => {
      expect(plan('preco medio knri11').question).toMatchObject({ measure: 'avg_price', subjects: [{ kind: 'fund', id: 'KNRI11' }] });
      expect(plan('preço medio do ABCP11 de janeiro a junho de 2024').question).toMatchObject({ measure: 'price', agg: 'avg' });
      expect(plan('qual o preco medio do ifix').question).toMatchObject({ measure: 'index_points', agg: 'avg' });
    });

    it('the shares and the trade said apart are the trade ("quantas cotas de HGLG11 comprei em junho de 2022?")', () => {
      expect(plan('quantas cotas de hglg11 comprei em junho de 2022?').question).toMatchObject({ measure: 'shares_bought', period: { from: '2022-06-01' } });
      expect(plan('quantas cotas de knip11 vendi?').question?.measure).toBe('shares_sold');
      expect(plan('quantas cotas de hglg11 eu tenho').question?.measure).toBe('shares_held');
    });

    it("a trade said as a noun, in the client's words, is the client's trades", () => {
      expect(plan('qual foi minha ultima compra?').question).toMatchObject({ measure: 'shares_bought', agg: 'last', subjects: [{ kind: 'portfolio' }] });
      expect(plan('minhas vendas').question).toMatchObject({ measure: 'shares_sold', subjects: [{ kind: 'portfolio' }] });
      // Not the client's: no trade of its own.
      expect(plan('vale a pena a compra de hglg11?').question?.measure ?? null).not.toBe('shares_bought');
      // The client's sales are no view of the portfolio's positions, whatever "carteira" leans to.
      expect(plan('o que eu vendi da minha carteira e quando?')).toMatchObject({ kind: 'measure', question: { measure: 'shares_sold', agg: 'list' } });
      expect(plan('o que eu tenho na carteira')).toMatchObject({ kind: 'entity', entity: 'client_fiis_enriched_portfolio' });
    });

    it('a possessive after the noun is the client\'s portfolio too ("o pvp de cada fii meu")', () => {
      expect(plan('me passa o pvp de cada fii meu')).toMatchObject({ kind: 'measure', question: { measure: 'pvp', subjects: [{ kind: 'portfolio' }] } });
    });

    it('a measure named where two entities tie only on its own words answers; a tie on other words still asks', () => {
      expect(plan('numero de cotas do cpts11 hoje')).toMatchObject({ kind: 'measure', question: { measure: 'shares_issued', subjects: [{ id: 'CPTS11' }] } });
    });

    it('trades named by their noun are listed; every trade, both sides, is "operações"', () => {
      expect(plan('me mostra todas as compras que eu fiz').question).toMatchObject({ measure: 'shares_bought', agg: 'list' });
      expect(plan('ja fiz alguma venda de fii?').question).toMatchObject({ measure: 'shares_sold', agg: 'list' });
      expect(plan('lista as operacoes que eu fiz em 2022').question).toMatchObject({ measure: 'trades', agg: 'list', period: { from: '2022-01-01' } });
      expect(plan('qual foi a minha ultima operacao na bolsa?').question).toMatchObject({ measure: 'trades', agg: 'last' });
      // (counted, they are counted: "quantas cotas comprei" is the shares)
      expect(plan('quantas cotas comprei em 2022?').question).toMatchObject({ measure: 'shares_bought', agg: 'total' });
      // A question about a purchase is no purchase to register.
      expect(plan('o que foi que eu comprei em junho de 2022 mesmo?')).toMatchObject({
        kind: 'measure',
        question: { measure: 'shares_bought', agg: 'list', period: { from: '2022-06-01' } },
      });
    });

    it("a fund's dividends per share asked of the whole portfolio are what the client's shares got", () => {
      expect(plan('quanto a minha carteira pingou de dividendos no segundo semestre de 2024?').question).toMatchObject({
        measure: 'received_by_record',
        subjects: [{ kind: 'portfolio' }],
      });
      // (asked per share, they stay per share)
      expect(plan('quanto meus fiis pagaram por cota em 2024?').question?.measure).not.toBe('received_by_record');
      const paid = plan('o btlg11 pagou quanto por cota referente a jan/2025?');
      const mine = planner.planDeterministic('e pra mim, com as minhas cotas, deu quanto?', {
        previousEntity: paid.entity,
        previousQuestion: paid.question,
        previousTickers: ['BTLG11'],
      });
      expect(mine.question).toMatchObject({ measure: 'received_by_record', subjects: [{ kind: 'fund', id: 'BTLG11' }], period: { from: '2025-01-01', to: '2025-01-31' } });
    });

    it('"neles" after a list of the client\'s funds is all of them, summed when asked', () => {
      const listed = plan('quais dos meus fundos sao de shopping?');
      const shown = { previousEntity: listed.entity, previousQuestion: listed.question, previousParams: listed.params, previousTickers: ['XPML11', 'VISC11'] };
      const invested = planner.planDeterministic('quanto eu tenho investido neles somando os dois', shown);
      expect(invested.question).toMatchObject({ measure: 'invested', agg: 'total', compare: null, subjects: [{ id: 'XPML11' }, { id: 'VISC11' }] });
      // (what funds named paid is theirs, per share, even in the client's conversation: "e quanto ele pagou de dividendos em 2024?")
      const after = { previousEntity: invested.entity, previousQuestion: invested.question, previousTickers: ['XPML11', 'VISC11'] };
      expect(planner.planDeterministic('e quanto eles pagaram de dividendos em 2024?', after).question?.measure).toBe('dividend');
    });

    it('"eles", "ele" and "só os de ..." after the client\'s funds keep to those funds', () => {
      // (an answer without a structured question still names its funds: "quanto eles me pagaram?" is each one's, none picked)
      const listed = { previousEntity: 'client_fiis_enriched_portfolio', previousTickers: ['VISC11', 'XPML11'], conversationList: ['VISC11', 'XPML11'] };
      expect(planner.planDeterministic('quanto eles me pagaram de janeiro a abril de 2025?', listed).question).toMatchObject({
        measure: 'received',
        compare: null,
        subjects: [
          { kind: 'fund', id: 'VISC11' },
          { kind: 'fund', id: 'XPML11' },
        ],
      });
      const registry = plan('cnpj do hgru11');
      const paid = planner.planDeterministic('quanto ele me pagou referente a dezembro de 2024?', { previousEntity: registry.entity, previousTickers: ['HGRU11'] });
      expect(paid.question).toMatchObject({ measure: 'received_by_record', subjects: [{ kind: 'fund', id: 'HGRU11' }] });
      // (a position's weight by what it cost is the catalog's cost_weight; by market value, the positions' own answer)
      expect(plan('o btal11 pesa quanto na minha carteira pelo custo?').question).toMatchObject({ measure: 'cost_weight', subjects: [{ id: 'BTAL11' }] });
      expect(plan('qual o peso do hglg11 na minha carteira').entity).toBe('client_fiis_positions');
      // "e o cnpj deles?" after two funds: each one's field (no single last reference carries two funds)
      const admins = plan('quem administra o hglg11 e o knri11?');
      const both = planner.planDeterministic('e o cnpj deles?', { previousEntity: admins.entity, previousQuestion: admins.question, previousTickers: ['HGLG11', 'KNRI11'] });
      expect(both).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', ticker_required: false, params: { tickers: ['HGLG11', 'KNRI11'] } });
      // "só os de shopping" after the client's whole portfolio: the same view of the client's, filtered by the segment.
      const mine = plan('qual o peso de cada fundo na minha carteira pelo custo?');
      const narrowed = planner.planDeterministic('so os de shopping', {
        previousEntity: mine.entity,
        previousParams: mine.params,
        conversationList: ['HGLG11', 'KNRI11', 'XPML11', 'VISC11'],
      });
      expect(narrowed).toMatchObject({ kind: 'entity', entity: 'client_fiis_enriched_portfolio', params: { filters: { sector: expect.stringMatching(/shopping/i) } } });
    });

    it('"nesse mês" after the worst month of a year is the month found, asked on its own', () => {
      const worst = plan('em 2022 qual mes o ifix caiu mais?');
      const opts = { previousEntity: worst.entity, previousQuestion: worst.question, previousAnsweredDate: '2022-11-30' };
      expect(planner.planDeterministic('e qual foi o fechamento dele nesse mes?', opts).question).toMatchObject({
        measure: 'index_points',
        agg: 'value',
        period: { from: '2022-11-01', to: '2022-11-30' },
      });
      expect(planner.planDeterministic('e qual foi o fechamento dele nesse mes?', opts).question?.extreme_group).toBeFalsy();
      // (without the date found, "nesse mês" still reads against the question's own period)
      expect(planner.planDeterministic('e qual foi o fechamento dele nesse mes?', { ...opts, previousAnsweredDate: null }).question?.period).not.toMatchObject({
        from: '2022-11-01',
      });
    });

    it('"a primeira (última) vez que ... acima (abaixo) de" is the first (last) value beyond the level', () => {
      expect(plan('quando foi a primeira vez que o ifix fechou acima dos 3500 pontos?').question).toMatchObject({
        measure: 'index_points',
        agg: 'first',
        condition: { op: 'gt', value: 3500 },
      });
      expect(plan('qual a ultima vez que a selic ficou abaixo de 10%').question).toMatchObject({ measure: 'annual_rate', agg: 'last', condition: { op: 'lt', value: 10 } });
      expect(plan('qual o ultimo dividendo do hglg11').question).toMatchObject({ agg: 'last', condition: null });
    });

    it('"o CDI de março" is what it accumulated in March; a day, today, the rate asked by name or the Selic stay the rate', () => {
      expect(plan('cdi de março de 2023').question).toMatchObject({ measure: 'annual_rate', agg: 'accumulated' });
      expect(plan('qual foi o cdi em 2023').question).toMatchObject({ agg: 'accumulated' });
      for (const q of ['cdi hoje', 'cdi em 15/03/2023', 'taxa do cdi em agosto de 2024', 'selic de março de 2023']) expect(plan(q).question?.agg).toBe('value');
      // (where it stood, "quanto tava", is the rate: the catalog's rate_words)
      expect(plan('quanto tava o cdi em abril de 2025?').question).toMatchObject({ measure: 'annual_rate', agg: 'value' });
      // ("em quantos meses ... no vermelho": the months counted, each against the one before)
      expect(plan('quantos meses de 2024 o ifix fechou no vermelho?').question).toMatchObject({ measure: 'index_points', agg: 'falls', group_by: 'month' });
      expect(plan('quantas vezes a selic subiu em 2022').question).toMatchObject({ agg: 'rises', group_by: null });
    });

    it('the dating said ("pela data com") chooses among the same facts dated otherwise; other measures are untouched', () => {
      expect(plan('quanto o ABCP11 pagou em 2024 pela data com?').question).toMatchObject({ measure: 'dividend', agg: 'total' });
      expect(plan('quanto o ABCP11 pagou em 2024').question?.measure).toBe('dividend_paid');
      expect(plan('dividendos do ABCP11 em 2024 pela data de pagamento').question?.measure).toBe('dividend_paid');
      // (what the client received, by the day that decided who was paid: the client's measure dated by data-com)
      expect(plan('quanto recebi do HGLG11 em 2024 pela data com').question?.measure).toBe('received_by_record');
      expect(plan('quanto recebi do HGLG11 em 2024').question?.measure).toBe('received');
    });

    it('"meus dividendos de BTLG11" is what the client received of it; a gain said with a sale is the sale\'s result', () => {
      // (dividends go by data-com: what the client's shares got of them, dated alike)
      expect(plan('meus dividendos de btlg11 em 2025').question).toMatchObject({ measure: 'received_by_record', subjects: [{ kind: 'fund', id: 'BTLG11' }] });
      // (so is the fund possessed, unless asked per share)
      expect(plan('meu BTAL11 rendeu quanto em proventos em 2024?').question).toMatchObject({ measure: 'received_by_record', subjects: [{ kind: 'fund', id: 'BTAL11' }] });
      expect(plan('meu HGLG11 pagou quanto de dividendo por cota em 2024?').question?.measure).toBe('dividend');
      // (what a purchase cost; the cost of what is held)
      expect(plan('quanto custaram as 40 cotas de BTAL11 que comprei?').question?.measure).toBe('bought_amount');
      expect(plan('qual o custo de aquisição total das posições que eu ainda tenho?').question?.measure).toBe('invested');
      // ("desde que comprei" is the holding's whole history, not the purchase asked)
      expect(plan('total que recebi de dividendos do btal11 desde que comprei').question).toMatchObject({ measure: 'received', period: null, agg: 'total' });
      expect(plan('dividendos do btlg11 em 2025').question?.measure).toBe('dividend');
      expect(plan('quanto ganhei vendendo o XPIN11?').question).toMatchObject({ measure: 'realized', subjects: [{ kind: 'fund', id: 'XPIN11' }] });
    });

    it('"qual fii de lajes tem o menor p/vp?" is one fund, ordered by it; "dele" then points at it', () => {
      expect(plan('qual fii de lajes tem o menor p/vp?').params).toMatchObject({ order_by: 'price_book_ratio', order: 'asc', limit: 1, filters: { sector: 'Lajes Corporativas' } });
      expect(plan('fiis de lajes com menor p/vp').params).toMatchObject({ order_by: 'price_book_ratio', limit: 10 });
      const list = { subjects: [], measure: 'pvp', agg: 'value' as const, also: [], period: null, group_by: null, compare: null, condition: null };
      const dy = planner.planDeterministic('qual o dy dele?', { previousEntity: 'fiis_financials_snapshot', previousQuestion: list, previousTickers: ['MCLO11'] });
      expect(dy).toMatchObject({ kind: 'measure', question: { subjects: [{ kind: 'fund', id: 'MCLO11' }], measure: 'dy' } });
      // A kind of fund is a list across funds, never the conversation's fund.
      expect(planner.planDeterministic('e de logistica?', { previousEntity: 'fiis_financials_snapshot', previousTickers: ['CNES11'] }).ticker_sources).not.toContain('context');
    });
  });

  describe('the reading of dates, tools asked in general and picks among funds', () => {
    it('"pagou ... em <mês>" is what was paid that month; a year, "referente a" and "dividendos de" go by data-com', () => {
      expect(plan('quanto o abcp11 pagou de dividendo em novembro de 2025?').question?.measure).toBe('dividend_paid');
      expect(plan('quantas vezes o knri11 pagou rendimento em marco de 2024?').question?.measure).toBe('dividend_paid');
      expect(plan('quanto o knri11 pagou de dividendos em 2024?').question?.measure).toBe('dividend');
      expect(plan('o btlg11 pagou quanto por cota referente a jan/2025?').question?.measure).toBe('dividend');
      expect(plan('dividendos do knri11 em outubro de 2024').question?.measure).toBe('dividend');
    });

    it('a tax simulation asked in general, with no fund, figure or fund in the conversation, is the tax concept', () => {
      expect(plan('qual a aliquota de imposto qdo vendo cota de fii com lucro').kind).toBe('concept');
      expect(plan('fii tem come-cotas?').kind).toBe('concept');
      expect(plan('quanto de ir pago se vender 100 hglg11').tool?.name).toBe('simular_ir_venda');
      // (the client's own shares: the simulation, which asks which fund)
      expect(plan('quanto de IR pago se vender minhas cotas?').tool?.name).toBe('simular_ir_venda');
      expect(planner.planDeterministic('e se eu vender com lucro, quanto de imposto?', { previousTickers: ['HGLG11'] }).tool?.name).toBe('simular_ir_venda');
      // ("come" is not the preposition "com": the magic number's question keeps its tool)
      expect(plan('com o btlg11 quantas cotas preciso para ganhar 1000 por mes').tool?.name).toBe('numero_magico');
    });

    it('"qual tem o maior X entre esses" picks among the funds at their current value, not each one\'s own peak', () => {
      const among = { previousTickers: ['KNCR11', 'KNIP11'], conversationList: ['KNCR11', 'KNIP11'] };
      expect(planner.planDeterministic('qual tem o maior patrimonio entre esses', among).question).toMatchObject({ measure: 'nav', agg: 'value', compare: 'max' });
      expect(plan('qual a maior cotacao do knri11 em 2024').question).toMatchObject({ agg: 'max' });
    });

    it('"qual o de maior valor" after an entity\'s list is the row of that list with the extreme of the column named', () => {
      const count = plan('o hgre11 tem processos? quantos');
      const pick = planner.planDeterministic('qual o de maior valor', { previousEntity: count.entity, previousParams: count.params, previousTickers: ['HGRE11'] });
      expect(pick).toMatchObject({
        kind: 'entity',
        entity: 'fiis_processos',
        ticker_sources: ['context'],
        params: { agg: 'list', order_by: 'cause_amt', order: 'desc', limit: 1 },
      });
      // ("qual o maior?" with no column named: the column the list was ordered by)
      const weights = { ...count.params, ticker: null, tickers: [], agg: 'list' as const, order_by: 'market_value', order: 'desc' as const };
      expect(planner.planDeterministic('qual o maior?', { previousEntity: 'client_fiis_positions', previousParams: weights }).params).toMatchObject({
        order_by: 'market_value',
        limit: 1,
      });
      // (among several funds' rows, a pick compares the funds instead: the comparison names its winner)
      const three = { ...count.params, ticker: null, tickers: ['KNIP11', 'XPML11', 'HGLG11'], agg: 'list' as const };
      expect(
        planner.planDeterministic('e o de maior dividend yield entre esses?', { previousEntity: 'fiis_financials_snapshot', previousParams: three }).planner.reason,
      ).not.toMatch(/the row of the previous list/);
      // (a word no column of the list has is another question)
      expect(planner.planDeterministic('qual o de maior dy', { previousEntity: count.entity, previousParams: count.params }).params.order_by).not.toBe('cause_amt');
    });

    it('"algum com risco provável?" after a fund\'s processes keeps those rows to that value of their own filter, counted when asked', () => {
      const list = plan('quais processos o hglg11 tem?');
      const after = (q: string) => planner.planDeterministic(q, { previousEntity: list.entity, previousParams: list.params, previousTickers: ['HGLG11'] });
      expect(after('algum com risco provável?')).toMatchObject({
        kind: 'entity',
        entity: 'fiis_processos',
        params: { agg: 'list', ticker: 'HGLG11', filters: { loss_risk: 'Provável' } },
      });
      expect(after('quantos sao de risco possivel?').params).toMatchObject({ agg: 'count', filters: { loss_risk: 'Possível' } });
      expect(planner.filtersPreviousRows('e remoto?', 'fiis_processos', list.params)).toBe(true);
      // (nothing of the entity's own filters named: no edit of its rows)
      expect(planner.filtersPreviousRows('e o cnpj?', 'fiis_processos', list.params)).toBe(false);
      // (asked at once, the filter is read like any other)
      expect(plan('processos do hglg11 com risco de perda remoto').params.filters).toEqual({ loss_risk: 'Remota' });
    });

    it("a singular extreme asked of an entity's list is its one row with that extreme: the column named, else its money order", () => {
      expect(plan('qual a minha maior posição hoje?').params).toMatchObject({ order_by: 'market_value', order: 'desc', limit: 1, limit_asked: 1 });
      // ("dy" names the column through the catalog's condition words)
      expect(plan('qual o meu fii com maior dy?').params).toMatchObject({ order_by: 'dy_12m_pct', order: 'desc', limit: 1 });
      expect(plan('qual imóvel do hglg11 tem a menor área?').params).toMatchObject({ order_by: 'total_area', order: 'asc', limit: 1 });
      // (a name has no greatest: "o maior imóvel em área" is by area)
      expect(plan('qual o maior imovel do cxag11 em area?').params).toMatchObject({ order_by: 'total_area', order: 'desc', limit: 1 });
      // (a list asked stays a list; a ranking across funds orders its own way)
      expect(plan('quais meus imoveis do hglg11 com maior area?').params.limit).not.toBe(1);
      expect(plan('qual o fii com maior dy?').entity).toBe('fiis_rankings');
    });

    it('a two-word measure is also named with "de" between its words; a property\'s share of revenue orders the properties', () => {
      expect(plan('receita de caixa do KNRI11 no 4º trimestre de 2024').question).toMatchObject({ measure: 'cash_revenue' });
      expect(plan('qual shopping do xpml11 tem a maior participação na receita?')).toMatchObject({
        entity: 'fiis_imoveis',
        params: { order_by: 'revenue_share_ratio', order: 'desc', limit: 1 },
      });
      // (whether the fund is of a segment is still its registry)
      expect(plan('o xpml11 é de shopping?').entity).toBe('fiis_cadastro');
    });

    it('a sale weighed for its result is the tax simulation ("se eu vender ... qual seria meu lucro ou prejuízo?"), not the sales made', () => {
      expect(plan('se eu vender todas as minhas cotas de HGLG11 a R$ 160, qual seria meu lucro ou prejuízo?').tool?.name).toBe('simular_ir_venda');
      expect(plan('qual foi meu lucro quando vendi o xpin11?').tool?.name).not.toBe('simular_ir_venda');
    });

    it('"número de" counts only a plural: "número de inscrição no CNPJ" names an identifier', () => {
      expect(plan('Poderia me informar o número de inscrição no CNPJ do fundo TGAR11?').params.agg).not.toBe('count');
      expect(plan('numero de processos do hglg11').params.agg).toBe('count');
    });

    it('every number of a fund ratio stated is a calculation, whatever fund the message names', () => {
      expect(plan('um fii a R$ 100 que paga R$ 0,85 por mês tem dy anual de quanto?').tool?.name).toBe('calcular_financas');
      expect(plan('o hglg11 paga 1,10 por mês; com a cota a 157,60, qual o dy anual simples?').tool?.name).toBe('calcular_financas');
      expect(plan('quantas cotas de um fundo que paga R$ 0,10 por cota preciso pra ganhar mil reais por mês?').tool?.name).toBe('calcular_financas');
      // (a fund's own figure is data)
      expect(plan('qual o dy do hglg11?').kind).not.toBe('tool');
      expect(plan('com o btlg11 quantas cotas preciso para ganhar 1000 por mes').tool?.name).toBe('numero_magico');
    });

    it('"em q mês" and "qntos meses" read through the chat spellings', () => {
      expect(plan('em q mes o ifix mais caiu em 2024').question).toMatchObject({ agg: 'min', group_by: 'month' });
      expect(plan('qntos meses o ifix fechou no vermelho em 2021').question).toMatchObject({ agg: 'falls', group_by: 'month' });
      expect(plan('quais fundos tenho').entity).toBe('client_fiis_positions');
    });

    it('after a return measured over a period, "e o IFIX no mesmo período?" is the index over those dates', () => {
      const period = { kind: 'range' as const, from: '2023-01-01', to: '2023-12-31', grain: 'year' as const };
      const measured = { condition: null, subjects: [], measure: null, agg: 'variation' as const, also: [], period, group_by: null, compare: null };
      const ifix = planner.planDeterministic('e o ifix no mesmo periodo?', { previousQuestion: measured });
      expect(ifix.question).toMatchObject({ subjects: [{ id: 'IFIX' }], agg: 'variation', period });
      expect(planner.planDeterministic('e o cdi?', { previousQuestion: measured }).question).toMatchObject({ subjects: [{ id: 'CDI' }], period });
    });
  });
});
