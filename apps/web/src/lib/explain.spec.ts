import { buildExplain, describePeriod, describeQuestion, safeParams, timingBars } from './explain';
import { confirmation, dividends12m } from './testing-answers';

describe('explain panel model', () => {
  it('describes the structured question in words', () => {
    expect(describeQuestion(dividends12m.meta.planner!.question)).toEqual([
      ['Sobre', 'HGLG11'],
      ['Medida', 'dividend'],
      ['Agregação', 'soma'],
      ['Período', 'últimos 12 meses'],
    ]);
    expect(
      describeQuestion({
        subjects: [
          { kind: 'fund', id: 'A' },
          { kind: 'fund', id: 'B' },
        ],
        measure: 'dy',
        agg: 'max',
        compare: 'max',
        group_by: 'month',
        period: null,
      }),
    ).toContainEqual(['Comparação', 'qual é maior']);
    expect(describeQuestion(null)).toBeNull();
  });

  it('says periods the way a person would', () => {
    expect(describePeriod({ kind: 'range', from: '2024-01-01', to: '2024-12-31', grain: 'year' })).toBe('de 01/01/2024 a 31/12/2024');
    expect(describePeriod({ kind: 'trailing', unit: 'month', n: 6 })).toBe('últimos 6 meses');
    expect(describePeriod({ kind: 'trailing', unit: 'year', n: 1 })).toBe('último ano');
    expect(describePeriod({ kind: 'relative_year', offset: -1 })).toBe('ano passado');
    expect(describePeriod({ kind: 'months_of_year', from_month: 1, to_month: 6 })).toBe('de janeiro a junho (ano da conversa)');
    expect(describePeriod(null)).toBe('sem período (o dado mais recente)');
  });

  it('shows what a follow-up inherited and whether the fund came from the conversation', () => {
    const meta = {
      ...dividends12m.meta,
      context: { last_reference_used: true, reason: 'inherited_last_reference', turn_index: 3 },
      planner: { ...dividends12m.meta.planner, follow_up: { applied: true, inherited: ['subjects'], changed: ['measure', 'period'], reason: 'edited the previous question' } },
    };
    const x = buildExplain(meta);
    expect(x.followUp).toEqual([
      ['Continuação', 'sim: editou a pergunta anterior'],
      ['Herdou', 'fundos e assuntos'],
      ['Mudou', 'medida, período'],
      ['Fundo herdado da conversa', 'sim'],
      ['Contexto', 'o fundo veio da conversa (pergunta anterior)'],
      ['Turno', '3'],
    ]);
  });

  it('lists planner candidates with scores and marks the chosen entity', () => {
    const meta = {
      ...dividends12m.meta,
      planner: {
        ...dividends12m.meta.planner,
        candidates: [
          { entity: 'fiis_dividendos', score: 5, signals: ['word:dividendo(+4)', 'feature:ticker(+1)'], label: 'os dividendos pagos pelo fundo' },
          { entity: 'fiis_dividends_yields', score: 2, signals: ['phrase:12 meses(+2)'] },
        ],
      },
    };
    const x = buildExplain(meta, { entities: { fiis_dividendos: 'Dividendos por cota' }, tools: {} });
    // Entities by their Portuguese names; the planner's signals (internal tokens) are not shown.
    expect(x.candidates).toEqual([
      { entity: 'Dividendos por cota', label: 'os dividendos pagos pelo fundo', score: '5', chosen: true },
      { entity: 'fiis dividends yields', label: '', score: '2', chosen: false },
    ]);
    expect(x.planner).toContainEqual(['Pontuação', '5']);
    expect(x.planner).toContainEqual(['Vantagem sobre o 2º', '3']);
  });

  it('shows the entity and params, never SQL', () => {
    const rows = safeParams({
      ticker: 'HGLG11',
      tickers: ['HGLG11', 'KNRI11'],
      limit: null,
      sql: 'SELECT * FROM wh_prices',
      filters: { index: 'IFIX', where_clause: 'x' },
      note: 'select a from b',
    });
    expect(rows).toEqual([
      ['ticker', 'HGLG11'],
      ['tickers', 'HGLG11, KNRI11'],
      ['filters', 'index: IFIX'],
      ['note', '[omitido]'],
    ]);
    expect(JSON.stringify(buildExplain({ ...dividends12m.meta, params: { sql: 'SELECT 1 FROM t' } }))).not.toMatch(/SELECT/i);
  });

  it('shows the tool, its arguments and what was injected from the conversation', () => {
    const x = buildExplain(confirmation.meta, { entities: {}, tools: { enviar_relatorio_email: 'Envia o último relatório mostrado por e-mail' } });
    expect(x.tool).toEqual([
      ['Ferramenta', 'Envia o último relatório mostrado por e-mail'],
      ['Situação', 'aguardando confirmação'],
      ['report id', 'rel_1'],
      ['destinatario', 'ana@exemplo.com.br'],
      ['report id (da conversa)', 'rel_1'],
    ]);
  });

  it('lists retrieved chunks with title and score, without source nicknames or collection names', () => {
    const x = buildExplain({
      rag: {
        enabled: true,
        reason: 'ok',
        used_collections: ['concepts-risk'],
        chunks: [{ text: 'Índice de Sharpe\nO **índice** mede...', score: 0.2712, doc_id: 'indice-sharpe', source_id: 'knowledge/indice-sharpe.md' }],
      },
    });
    expect(x.rag.summary).toEqual([
      ['Usada', 'sim'],
      ['Motivo', 'trechos encontrados'],
    ]);
    expect(x.rag.chunks).toEqual([{ title: 'Índice de Sharpe', source: 'base de conhecimento do Cota', score: '0,271', excerpt: 'O índice mede...' }]);
  });

  it('shows the data and parameters in Portuguese', () => {
    const x = buildExplain(
      { ...dividends12m.meta, params: { ticker: 'HGLG11', agg: 'sum', window: 'months:12', order: 'desc' } },
      { entities: { fiis_dividendos: 'Dividendos por cota' }, tools: {} },
    );
    expect(x.query).toEqual([
      ['Dados consultados', 'Dividendos por cota'],
      ['Fundo', 'HGLG11'],
      ['Agregação', 'soma'],
      ['Janela', 'últimos 12 meses'],
      ['Ordem', 'decrescente'],
    ]);
    expect(x.planner).toContainEqual(['Tipo de resposta', 'medida calculada sobre um período']);
    expect(JSON.stringify(x)).not.toMatch(/fiis_|llm_|not_needed/);
    expect(buildExplain({ narrator: { llm_used: false, reason: 'guard_rejected:47,3' } }).narrator).toContainEqual([
      'Motivo',
      'o texto do modelo trazia algo que os dados não têm (47,3); ficou o texto padrão',
    ]);
    expect(describeQuestion({ subjects: [], measure: 'dividend' }, { dividend: { unit: 'brl', label: 'dividendos por cota' } })).toContainEqual(['Medida', 'dividendos por cota']);
  });

  it('turns step timings into bars relative to the slowest step, total apart', () => {
    const t = timingBars({ plan: 12, act: 6, narrate: 3, total: 30 });
    expect(t.total).toBe(30);
    expect(t.steps.map((s) => [s.label, s.share, s.text])).toEqual([
      ['leitura da pergunta', 100, '12 ms'],
      ['consulta aos dados e ferramentas', 50, '6,0 ms'],
      ['redação da resposta', 25, '3,0 ms'],
    ]);
    expect(timingBars(undefined)).toEqual({ total: null, steps: [] });
  });
});
