import { answerKindLabel, footerText } from './answer-labels';
import { CATALOG, confirmation, dividends12m, overviewCompare } from './testing-answers';

const LABELS = {
  entities: { fii_overview: 'Visão geral de um fundo', fiis_dividendos: 'Dividendos por cota' },
  tools: { enviar_relatorio_email: 'Envia o último relatório mostrado por e-mail' },
};

describe('answer labels', () => {
  it('names the kind of answer in Portuguese, never by its entity id or tool name', () => {
    expect(answerKindLabel(overviewCompare.meta, LABELS, CATALOG)).toBe('Visão geral de um fundo');
    expect(answerKindLabel(dividends12m.meta, LABELS, CATALOG)).toBe('Dividendos por cota');
    expect(answerKindLabel(confirmation.meta, LABELS, CATALOG)).toBe('Envia o último relatório mostrado por e-mail');
    expect(answerKindLabel({ entity: 'desconhecida' }, LABELS, CATALOG)).toBe('Resposta');
  });

  it('writes the footer: kind, what came from the conversation, the model, the time', () => {
    const meta = { ...overviewCompare.meta, context: { last_reference_used: true }, narrator: { llm_used: true } };
    const text = footerText(meta, LABELS, CATALOG);
    expect(text).toBe('Visão geral de um fundo · fundo herdado da conversa · texto revisado por IA · 30 ms');
    expect(text).not.toMatch(/fii_|_/);
  });
});
