import { MeasureResult } from '@cota/contracts';
import { loadCatalogColumns } from './catalog-columns';
import { createNarrator } from './narrator';
import { shouldUseNickname } from './phrases';
import { araquemCsv, realResult, tickerRecords } from './testing/real-rows';
import { narrateRequest, recentTurns } from './testing/requests';

/** Every planner outcome that is not an entity table gets a natural pt-BR answer. */

const narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
const det = narrator.deterministic;
const hglg = araquemCsv('fiis_registrations').find((r) => r.ticker === 'HGLG11')!;

describe('small talk', () => {
  it('greets by nickname', () => {
    const a = det.narrate(narrateRequest({ question: 'oi', kind: 'smalltalk', smalltalk: 'greeting', nickname: 'Ana' }));
    expect(a.answer).toMatch(/^Olá, Ana! Sou a Cota/);
    expect(a.nicknameUsed).toBe(true);
    expect(a.sourceLine).toBeNull();
  });

  it('answers thanks, capabilities, goodbye and identity without a nickname too', () => {
    for (const kind of ['thanks', 'capabilities', 'goodbye', 'identity']) {
      const a = det.narrate(narrateRequest({ question: '...', kind: 'smalltalk', smalltalk: kind }));
      expect(a.answer.length).toBeGreaterThan(20);
      expect(a.answer).not.toMatch(/\{|\[|undefined|null/);
    }
    expect(det.narrate(narrateRequest({ question: 'valeu', kind: 'smalltalk', smalltalk: 'thanks' })).answer).toBe(
      'Por nada! Se quiser saber mais sobre algum fundo, é só perguntar.',
    );
  });
});

describe('problems and asking back', () => {
  it('asks for the fund when the entity needs one', () => {
    const a = det.narrate(narrateRequest({ question: 'qual o último dividendo?', status: 'needs_clarification', entity: 'fiis_dividendos', problem: 'ticker_required' }));
    expect(a.answer).toBe('Para consultar os dividendos, preciso saber de qual fundo você está falando. Qual é o ticker? Por exemplo: HGLG11.');
  });

  it('names the unknown ticker', () => {
    const a = det.narrate(narrateRequest({ question: 'CNPJ do ABCD11', status: 'error', entity: 'fiis_cadastro', problem: 'unknown_ticker', unknown_tickers: ['ABCD11'] }));
    expect(a.answer).toContain('Não encontrei o código ABCD11 na base de fundos imobiliários.');
  });

  it('says plainly when the period has no data', () => {
    const data = realResult('fiis_dividendos', [], { ticker: 'HGLG11', window: 'year:2019' });
    const a = det.narrate(narrateRequest({ question: 'dividendos do HGLG11 em 2019', data }));
    expect(a.answer).toBe('Não encontrei os dividendos do HGLG11 em 2019 na base de dados.');
  });

  it('offers the candidate readings when the question is ambiguous', () => {
    const a = det.narrate(
      narrateRequest({
        question: 'rendimento do HGLG11',
        kind: 'clarification',
        status: 'needs_clarification',
        candidates: ['fiis_dividendos', 'fiis_dividends_yields'],
      }),
    );
    expect(a.answer).toBe(
      'Não tenho certeza do que você quer saber. Você quer dividendos pagos por cota (valor, data-com e pagamento) ou dividendos e dividend yield dos últimos 12 meses?',
    );
  });

  it('explains an unavailable service and a question it did not understand', () => {
    expect(det.narrate(narrateRequest({ question: 'x', status: 'error', problem: 'service_unavailable' })).answer).toMatch(/indisponível/);
    expect(det.narrate(narrateRequest({ question: 'blá', kind: 'unknown', status: 'error' })).answer).toMatch(/^Não entendi bem a pergunta/);
  });

  it('notes unknown tickers next to the funds it found', () => {
    const data = realResult('fiis_cadastro', [hglg], { tickers: ['HGLG11'] });
    const a = det.narrate(narrateRequest({ question: 'CNPJ do HGLG11 e do ZZZZ11', data, unknown_tickers: ['ZZZZ11'] }));
    expect(a.answer).toContain('11.728.688/0001-47');
    expect(a.answer).toContain('Não encontrei o código ZZZZ11 na base de fundos imobiliários.');
  });
});

describe('concepts from the knowledge base', () => {
  const chunk = (text: string, score: number) => ({
    text,
    score,
    doc_id: 'conceitos-fiis',
    chunk_id: 'c1',
    collection: 'concepts-fiis',
    entity: null,
    source_id: null,
    tags: [],
  });

  it('quotes the best chunk and names its document', () => {
    const a = det.narrate(
      narrateRequest({
        question: 'o que é P/VP?',
        kind: 'concept',
        rag: [
          chunk('Texto pouco relevante.', 0.1),
          chunk('## P/VP\nO P/VP compara o preço da cota com o valor patrimonial por cota. Abaixo de 1, a cota negocia com desconto.', 0.8),
        ],
      }),
    );
    expect(a.answer).toContain('> O P/VP compara o preço da cota com o valor patrimonial por cota.');
    expect(a.answer).not.toContain('pouco relevante');
    expect(a.answer).toMatch(/Fonte: base de conhecimento da Cota \(conceitos-fiis\)\.$/);
  });

  it('says when nothing relevant was found', () => {
    const a = det.narrate(narrateRequest({ question: 'o que é X?', kind: 'concept', rag: [chunk('irrelevante', 0.05)] }));
    expect(a.answer).toMatch(/^Não encontrei nada sobre isso na base de conhecimento/);
  });
});

describe('tools', () => {
  const meta = (status: 'executed' | 'confirmation_required' | 'cancelled' | 'failed') => ({ name: 'enviar_relatorio_email', args: {}, injected: [], status });

  it('shows the tool message when there is one', () => {
    const a = det.narrate(
      narrateRequest({ question: 'envie', kind: 'tool', tool: { meta: meta('executed'), result: { ok: true }, message: 'Relatório enviado para o seu e-mail.' } }),
    );
    expect(a.answer).toBe('Relatório enviado para o seu e-mail.');
  });

  it('renders a result readably when there is no message', () => {
    const a = det.narrate(
      narrateRequest({
        question: 'simule',
        kind: 'tool',
        tool: { meta: meta('executed'), result: { valor_final: 1234.5, taxa_pct: 0.9, data_inicio: '2025-01-02', meses: 12 }, message: null },
      }),
    );
    expect(a.answer).toBe('- Valor final: R$ 1.234,50\n- Taxa pct: 0,90%\n- Data inicio: 02/01/2025\n- Meses: 12');
  });

  it('asks for confirmation and reports cancellation', () => {
    const ask = det.narrate(
      narrateRequest({ question: 'envie', kind: 'tool', status: 'confirmation_required', tool: { meta: meta('confirmation_required'), result: null, message: null } }),
    );
    expect(ask.answer).toBe('Posso executar a ação enviar relatorio email? Responda "sim" para confirmar ou "não" para cancelar.');
    const no = det.narrate(narrateRequest({ question: 'não', kind: 'confirmation', tool: { meta: meta('cancelled'), result: null, message: null } }));
    expect(no.answer).toBe('Tudo bem, cancelei enviar relatorio email.');
  });
});

describe('nickname and context', () => {
  const data = realResult('fiis_cadastro', [hglg], { ticker: 'HGLG11' });

  it('uses the nickname on the first answer, then not on every line', () => {
    const first = det.narrate(narrateRequest({ question: 'CNPJ do HGLG11?', data, nickname: 'Ana' }));
    expect(first.answer).toMatch(/^Ana, o CNPJ do HGLG11/);
    const second = det.narrate(narrateRequest({ question: 'CNPJ do HGLG11?', data, nickname: 'Ana', memory: { recent: recentTurns([first.answer]), summary: null } }));
    expect(second.answer).toMatch(/^O CNPJ do HGLG11/);
  });

  it('gives the nickname a line of its own before a list', () => {
    const two = realResult('fiis_cadastro', [hglg, araquemCsv('fiis_registrations').find((r) => r.ticker === 'KNRI11')!], { tickers: ['HGLG11', 'KNRI11'] });
    const a = det.narrate(narrateRequest({ question: 'CNPJ do HGLG11 e do KNRI11', data: two, nickname: 'Ana' }));
    expect(a.answer).toMatch(/^Ana, veja:\n\n- O CNPJ do HGLG11/);
  });

  it('uses it again after N answers without it', () => {
    const policy = { first_answer: true, every_n_answers: 3 };
    expect(shouldUseNickname('Ana', recentTurns(['Ana, oi', 'x', 'y']), policy)).toBe(false);
    expect(shouldUseNickname('Ana', recentTurns(['Ana, oi', 'x', 'y', 'z']), policy)).toBe(true);
    expect(shouldUseNickname('', [], policy)).toBe(false);
  });

  it('names the inherited fund only where the answer is that fund’s alone, not the client’s funds compared', () => {
    const v = (id: string, value: number) => ({
      subject: { kind: 'fund' as const, id },
      value,
      date: '2025-11-22',
      count: 1,
      sources: ['araquem'],
      start: null,
      end: null,
      rows: [],
      coverage: null,
      period: null,
      funds: [],
      adjusted: false,
    });
    const measure = MeasureResult.parse({
      measure: 'pvp',
      entity: 'fiis_financials_snapshot',
      agg: 'value',
      unit: 'ratio',
      value_unit: 'ratio',
      group_by: null,
      values: [v('XPML11', 0.97), v('VISC11', 0.89)],
      winner: null,
    });
    const req = (m: MeasureResult) =>
      narrateRequest({ question: 'e o de menor p/vp?', kind: 'measure', measure: m, context_used: true, params: { ...data.params, ticker: 'VISC11' } });
    expect(det.narrate(req(measure)).answer).not.toMatch(/^Sobre o VISC11/);
    expect(det.narrate(req({ ...measure, values: [measure.values[1]] })).answer).toMatch(/^Sobre o VISC11: o P\/VP do VISC11/);
  });

  it('mentions the inherited fund naturally', () => {
    const a = det.narrate(narrateRequest({ question: 'e o CNPJ?', data, context_used: true, memory: { recent: recentTurns(['x']), summary: null } }));
    expect(a.answer).toMatch(/^Sobre o HGLG11: o CNPJ do HGLG11/);
  });
});

describe('a list with fewer rows than the question asked for', () => {
  const dividends = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date');
  const narrate = (rows: typeof dividends, params: Parameters<typeof realResult>[2]) =>
    det.narrate(narrateRequest({ question: '...', data: realResult('fiis_dividendos', rows, { ticker: 'ABCP11', agg: 'list', ...params }) })).answer;

  it('says there is no more data ("últimos 1000 dividendos")', () => {
    const rows = dividends.slice(0, 3);
    expect(narrate(rows, { limit: 1000, limit_asked: 1000 })).toContain('Só há 3 pagamentos na base, menos que os 1.000 pedidos.');
  });

  it('says the list stops at the most a query lists ("top 50" capped at 10)', () => {
    expect(narrate(dividends.slice(0, 10), { limit: 10, limit_asked: 50 })).toContain('Mostrando os 10 primeiros de 50 pedidos');
  });

  it('says nothing when the question named no number, or got all it asked', () => {
    expect(narrate(dividends.slice(0, 3), { limit: 10 })).not.toMatch(/Só há|Mostrando os/);
    expect(narrate(dividends.slice(0, 3), { limit: 3, limit_asked: 3 })).not.toMatch(/Só há|Mostrando os/);
  });
});

describe('a list across funds cut at its default size', () => {
  const snapshot = araquemCsv('fiis_financials_snapshot').slice(0, 10);
  const narrate = (matched: number | null, params: Parameters<typeof realResult>[2] = {}) =>
    det.narrate(
      narrateRequest({
        question: 'fiis com p/vp abaixo de 1',
        entity: 'fiis_financials_snapshot',
        data: { ...realResult('fiis_financials_snapshot', snapshot, { agg: 'list', limit: 10, ...params }), truncated: matched !== null, matched },
      }),
    ).answer;

  it('says how many matched and how to see them all', () => {
    expect(narrate(18)).toContain('Mostrei 10 de 18 fundos. Para ver a lista inteira, peça "mostre todos".');
  });

  it('says nothing when the size was asked ("top 10") or nothing was cut', () => {
    expect(narrate(18, { limit_asked: 10 })).not.toContain('Mostrei');
    expect(narrate(null)).not.toContain('Mostrei');
  });
});
