import { realPlanner } from './test-helpers';

/**
 * Where the portfolio's own questions go, by the policies' declarations: its return over a period to
 * `rentabilidade_carteira`, its value and unrealised gain to the catalog's measures, and "devo" meaning
 * "owe" a tax to the tax tools, not to the advice rule.
 */
describe('portfolio questions', () => {
  const planner = realPlanner();
  const route = (q: string) => {
    const p = planner.planDeterministic(q);
    return p.kind === 'tool' ? `tool:${p.tool?.name ?? p.intent}` : p.kind === 'measure' ? `measure:${p.question?.measure}` : `${p.kind}:${p.entity}`;
  };

  it.each([
    ['bati o ifix?', 'tool:rentabilidade_carteira'],
    ['quanto minha carteira rendeu em 2024 contra o cdi?', 'tool:rentabilidade_carteira'],
    ['rentabilidade da carteira nos ultimos 12 meses', 'tool:rentabilidade_carteira'],
    ['minha carteira x ifix em 2023', 'tool:rentabilidade_carteira'],
    // The stored series and summary against an index keep their questions.
    ['evolucao da minha carteira vs ifix mes a mes', 'entity:client_fiis_performance_vs_benchmark'],
    ['quanto vale minha carteira', 'measure:market_value'],
    ['qual o valor de mercado da minha carteira?', 'measure:market_value'],
    ['qual meu lucro nao realizado no hglg11?', 'measure:unrealized_gain'],
    // The position's own answer: its gain in reais and in percent.
    ['to ganhando ou perdendo no hglg11?', 'entity:client_fiis_positions'],
    ['lucro nao realizado', 'measure:unrealized_gain'],
    // The fund's own price is still the fund's.
    ['quanto vale o hglg11?', 'entity:fiis_precos'],
  ])('%s → %s', (q, expected) => expect(route(q)).toBe(expected));

  it.each([
    ['quem administra os fiis que eu tenho?', 'fiis_cadastro'],
    ['cnpj de cada fii da minha carteira', 'fiis_cadastro'],
    ['meus fiis tem processos?', 'fiis_processos'],
  ])("a fund's field asked of the client's funds: %s → %s over the funds held", (q, entity) => {
    const p = planner.planDeterministic(q);
    expect(p).toMatchObject({ kind: 'entity', entity });
    expect(p.params).toMatchObject({ ticker: null, tickers: [], filters: { held: 'client' } });
  });

  it("keeps the client's own views where their words ask them (what was received, what is held)", () => {
    expect(route('qual meu fii que mais pagou dividendo')).toBe('entity:client_fiis_dividends_evolution');
    expect(route('quantas cotas eu tenho')).toBe('measure:shares_held');
    expect(planner.planDeterministic('qual o segmento dos meus fiis').params?.filters).not.toHaveProperty('held');
  });

  it('leaves its income, its funds compared and two series compared to other answers', () => {
    expect(route('o ifix ganhou do cdi no 2º tri de 2025?')).not.toBe('tool:rentabilidade_carteira');
    expect(route('quanto minha carteira rendeu de dividendos em 2024?')).not.toBe('tool:rentabilidade_carteira');
    expect(route('qual dos meus fundos rendeu mais em 2024?')).not.toBe('tool:rentabilidade_carteira');
  });

  it.each([
    ['devo pagar imposto sobre a venda do hglg11 que fiz em maio?', 'tool:apurar_ir_vendas'],
    ['devo pagar darf das vendas de maio de 2024?', 'tool:apurar_ir_vendas'],
    ['quanto devo de IR das vendas de 2024?', 'tool:apurar_ir_vendas'],
    ['devo pagar imposto se vender meus hglg11?', 'tool:simular_ir_venda'],
  ])('"devo" as owing a tax: %s → %s', (q, expected) => {
    const p = planner.planDeterministic(q);
    expect(p.advice).toBe(false);
    expect(route(q)).toBe(expected);
  });

  it('still reads "devo vender" as a request for a verdict', () => {
    expect(planner.planDeterministic('devo vender o hglg11?').advice).toBe(true);
  });

  it('a verdict asked of several of the client’s funds is the plain note, not one fund’s overview that asks which fund', () => {
    expect(planner.planDeterministic('devo vender meus fiis de shopping? me fala sim ou nao')).toMatchObject({ kind: 'smalltalk', advice: true });
    expect(planner.planDeterministic('devo vender meu HGLG11?')).toMatchObject({ kind: 'entity', entity: 'fii_overview', advice: true });
  });
});
