import { parsePeriod } from '@cota/periods';
import { normalizeText } from '@cota/text';
import { resolveArgs, ToolGatePolicy } from '@cota/tool-gating';
import {
  asksRateConversion,
  extractEmail,
  extractFinanceArgs,
  extractRealReturnArgs,
  extractTotalReturnArgs,
  extractRatioArgs,
  extractTransaction,
  findMentions,
  matchVocabulary,
  todayInBrazil,
  transactionKindSaid,
} from './tool-args';

/** Words of a question (not a statement): "quanto gastei?" asks, "gastei 85" tells. */
const QUESTION = /\?|\b(quanto|quantos|quantas|qual|quais|quando|onde|porque|por que)\b/;
/** A transaction told in the past tense ("gastei", "recebi"): nouns such as "compra e venda" do not count. */
const STATED = /\b(gastei|paguei|comprei|recebi|ganhei|torrei|desembolsei|coloquei|gastamos|pagamos|recebemos|ganhamos)\b/;
/** One's own money asked about ("quanto gastei", "minhas despesas"); "caiu", "compra e venda" are market words too. */
const OWN_MONEY = /\b(gastei|gastamos|gastos|despesas|paguei|pagamos|torrei|recebi|recebemos|ganhei|receitas|transacoes|lancamentos)\b/;
/** Words of one's own money in a question about a category ("quanto foi de supermercado?", "gastos com farmácia"). */
const SPENDING = /\b(quanto|gastei|gastos?|gastamos|despesas?|paguei|pagamentos?|recebi|receitas?|compras?|comprei)\b/;
const SEND = /\b(manda|mande|mandar|envia|envie|enviar|encaminha|encaminhe|encaminhar|dispara|dispare|compartilha|compartilhe)\b/;
const PRESENT_VALUE = /\b(valor presente|vale(m)? hoje|valeria(m)? hoje|trazer a valor presente|quanto vale(m)? (hoje|agora))\b/;
/** A trade the conversation is about ("quanto ganhei com essa venda?"): the client's FII sale, not a personal expense or income. */
const THAT_TRADE = /\b(?:essa|dessa|nessa|esta|desta|nesta|aquela|daquela) (?:venda|compra|operacao)\b/;
/** FII income is portfolio data ("quanto recebi de dividendos?"): never a question about personal transactions. */
const INCOME_FROM_FUNDS = /\b(dividendos?|proventos?|rendimentos?|amortiza\w*|jcp)\b/;
/** FII income is portfolio data ("quanto recebi de dividendos"), not a personal-finance category to query. */
const NOT_QUERIED_BY_CATEGORY = new Set(['investimentos']);

/** "2024" in "dividendos de 2024" is a year, not an amount (unless money is said around it). */
function looksLikeYear(valor: string, text: string): boolean {
  const n = Number(valor);
  return Number.isInteger(n) && n >= 1990 && n <= 2100 && new RegExp(String.raw`\b${n}\b`).test(text) && !new RegExp(String.raw`(r\$\s*${n}|${n}\s*(reais|conto|pila))`).test(text);
}

/** What the reading already knows of the message. */
export interface ArgumentsContext {
  hasTicker: boolean;
  /**
   * Funds are talked about (the ontology's fund_talk or fund_reference): "aluguel", "hotel", "escola" are
   * fund segments too, and "top 3 menor p/vp" is a ranking, not R$ 3.
   */
  aboutFunds: boolean;
}

export interface ToolByArguments {
  name: string;
  matched: string;
  /** Every number the calculation needs is stated: it wins over a tool or a fund's data its words name. */
  stated?: boolean;
}

/**
 * A tool recognised by what the message holds rather than by its words: a calculation whose
 * arguments are all there ("50 mil a 0,9% ao mês por 10 anos"), or an expense or income told as
 * a fact ("supermercado 523,17 hoje"). Used when no tool rule matched and before entity routing.
 */
export function toolByArguments(question: string, policy: ToolGatePolicy, { hasTicker, aboutFunds }: ArgumentsContext): ToolByArguments | null {
  const text = normalizeText(question);
  // A fund's ratio from numbers the message states is computed from them, whatever fund it names: every argument its
  // operation needs (the calculator's contract, `required_when`) is there.
  // (so is a real return: "rendeu 12% no ano e o IPCA foi 4,5%, qual o ganho real?" asks no index's data)
  const ratio = extractRatioArgs(text);
  const own = ratio.operacao ? ratio : (extractRealReturnArgs(text) ?? extractTotalReturnArgs(text));
  const calculator = policy.tools.calcular_financas;
  if (own?.operacao && calculator && resolveArgs(calculator, { ...own }, {}).missing.length === 0) {
    return { name: 'calcular_financas', matched: `stated numbers of ${own.operacao}`, stated: true };
  }
  const mentions = findMentions(text);
  const has = (kind: string) => mentions.some((m) => m.kind === kind);
  if (!hasTicker) {
    const f = extractFinanceArgs(question);
    const complete =
      ((f.operacao === 'vpl' || f.operacao === 'tir') && f.fluxos !== undefined) ||
      (f.operacao === 'var' && (f.retornos !== undefined || f.volatilidade !== undefined)) ||
      (f.operacao === 'sharpe' && (f.retornos !== undefined || (f.retorno !== undefined && f.volatilidade !== undefined))) ||
      (f.operacao === 'conversao_taxa' && asksRateConversion(text)) ||
      ((f.operacao === 'juros_compostos' || f.operacao === 'valor_presente' || f.operacao === 'projecao_aportes' || f.operacao === 'aporte_necessario') &&
        (f.valor_inicial !== undefined || f.aporte_mensal !== undefined || f.meta !== undefined) &&
        f.taxa !== undefined &&
        f.prazo_meses !== undefined);
    // A named present value with the amount and term: the rate is asked for next.
    const presentValue = f.operacao === 'valor_presente' && PRESENT_VALUE.test(text) && has('money') && has('duration');
    if (complete || presentValue) return { name: 'calcular_financas', matched: `arguments of ${f.operacao}` };
  }
  // An address to send to with a verb that sends: the report by e-mail ("envie para ana@x.com").
  if (extractEmail(question) && SEND.test(text)) return { name: 'enviar_relatorio_email', matched: 'an e-mail address to send to' };
  // A question about one's own spending in a category and a period: "quanto foi de supermercado em outubro?".
  // (the category is read only when the cheaper tests leave the question open: most questions are about funds)
  let category: string | null | undefined = null;
  const categoryOf = () => (category === null ? (category = matchVocabulary(question, policy.filters.categories)[0]) : category);
  if (!hasTicker && SPENDING.test(text) && !aboutFunds && !has('money') && !has('rate') && categoryOf() && !NOT_QUERIED_BY_CATEGORY.has(categoryOf()!) && parsePeriod(text)) {
    return { name: 'consultar_transacoes', matched: `${categoryOf()} over a period` };
  }
  // A question about one's own spending or income ("quanto já torrei esse mês?"), not about funds.
  const kindAsked = OWN_MONEY.test(text) ? transactionKindSaid(question) : null;
  if (
    !hasTicker &&
    kindAsked &&
    QUESTION.test(text) &&
    !has('money') &&
    !has('rate') &&
    !aboutFunds &&
    !THAT_TRADE.test(text) &&
    categoryOf() !== 'investimentos' &&
    !INCOME_FROM_FUNDS.test(text)
  ) {
    return { name: 'consultar_transacoes', matched: `a question about ${kindAsked === 'despesa' ? 'spending' : 'income'}` };
  }
  // A fact told, not a question: an amount with a category or a kind, and no rate or term.
  if (QUESTION.test(text) || has('rate') || has('duration')) return null;
  // "dividendos de outubro de 2024" asks about a period; the day of an entry ("em 03/11/2026", "dia 15") does not.
  const withoutDay = text.replace(/\b(hoje|ontem|anteontem|hj)\b|\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b|\bdia \d{1,2}\b/g, ' ');
  if (parsePeriod(withoutDay)) return null;
  const t = extractTransaction(question, policy.filters.categories, todayInBrazil());
  const kindSaid = STATED.test(text) ? transactionKindSaid(question) : null;
  const everyday = t.categoria !== undefined && !NOT_QUERIED_BY_CATEGORY.has(t.categoria) && !hasTicker && !aboutFunds;
  if (t.valor && !looksLikeYear(t.valor, text) && (kindSaid || everyday))
    return { name: 'registrar_transacao', matched: `a ${t.tipo ?? 'transaction'} of ${t.valor}${t.categoria ? ` in ${t.categoria}` : ''}` };
  return null;
}
