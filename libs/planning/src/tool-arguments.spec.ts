import { loadToolGatePolicy } from '@cota/tool-gating';
import { analyseQuestion } from './analysis';
import { loadPlanningPolicies } from './policies';
import { TickerIndex } from './tickers';
import { toolByArguments } from './tool-arguments';

const policy = loadToolGatePolicy();
const { ontology } = loadPlanningPolicies();
const tickers = new TickerIndex(null);
/** As the planner asks: whether funds are talked about comes from the ontology's features. */
const aboutFunds = (q: string) => {
  const features = ontology.activeFeatures(analyseQuestion(q, tickers.recognize(q), ontology.vocabulary));
  return features.has('fund_talk') || features.has('fund_reference');
};
const by = (q: string, ticker = false) => toolByArguments(q, policy, { hasTicker: ticker, aboutFunds: aboutFunds(q) })?.name ?? null;

describe('tools recognised by their arguments', () => {
  it.each([
    ['50 mil a 0,9% ao mês por 10 anos, quanto fica?', 'calcular_financas'],
    ['CDI de 10,65% ao ano, quanto é isso por mês?', 'calcular_financas'],
    ['-1000, 300, 400 e 500: qual o VPL disso a 10% ao ano?', 'calcular_financas'],
    ['supermercado 523,17 hoje', 'registrar_transacao'],
    ['coloquei 200 de gasolina em 03/11/2026', 'registrar_transacao'],
    ['recebi R$ 312,47 de dividendos do MXRF11 hoje', 'registrar_transacao'],
    ['quanto foi de supermercado em outubro?', 'consultar_transacoes'],
    ['quanto ja torrei esse mes??', 'consultar_transacoes'],
    ['envie para carlos.lima@corretora.com.br', 'enviar_relatorio_email'],
  ])('%s -> %s', (q, name) => {
    expect(by(q, /[A-Z]{4}11/.test(q))).toBe(name);
  });

  it.each([
    ['soma dos dividendos do HGLG11 em 2024', true],
    ['IFIX subiu 2% ao mês?', false],
    ['valor de mercado das minhas posições hoje', false],
    ['dolar compra e venda d-1', false],
    ['quanto recebi de dividendos esse mês?', false],
    ['dividendos de outubro de 2024', false],
    // fund words (the ontology's fund_talk) and words pointing back at a fund (fund_reference)
    ['top 3 menor p/vp do mercado', false],
    ['quanto foi de aluguel nos fundos de shopping em 2024?', false],
    ['e quanto deles foi de aluguel em 2024?', false],
  ])('%s is not a tool call by its arguments', (q, ticker) => {
    expect(by(q, ticker)).toBeNull();
  });
});
