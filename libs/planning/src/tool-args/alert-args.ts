import { BR_NUMBER, normalizeText, tickersIn } from '@cota/text';
import { readAmount } from './numbers';

/** What an alert asked in the chat states (policies/tool_gate.yaml `criar_alerta`); the executor asks for the rest. */
export interface AlertArgs {
  tipo?: 'distribuicao' | 'nivel';
  medida?: 'dy' | 'preco' | 'selic' | 'cdi' | 'ipca';
  ticker?: string;
  direcao?: 'acima' | 'abaixo';
  valor?: string;
}

const MEASURES: Array<[RegExp, NonNullable<AlertArgs['medida']>]> = [
  [/\b(dy|dividend yield|yield)\b/, 'dy'],
  [/\b(cotacao|preco|valor da cota)\b/, 'preco'],
  [/\bselic\b/, 'selic'],
  [/\bcdi\b/, 'cdi'],
  [/\bipca\b/, 'ipca'],
];
const ABOVE = String.raw`passar de|passar dos|passar do|ultrapassar|superar|for maior que|ficar maior que|maior que|acima de|acima dos|subir acima de|subir para|subir a|chegar a|atingir|bater`;
const BELOW = String.raw`cair abaixo de|cair para|cair a|ficar abaixo de|for menor que|menor que|abaixo de|abaixo dos|baixar para|baixar de|descer para|descer abaixo de`;
const DISTRIBUTION = /\b(dividendos?|proventos?|rendimentos?|distribuic\w*|distribuir|anunciar|anunciou|pagar|pagamento)\b/;

/**
 * An alert told in the chat: "me avise quando o XPML11 anunciar dividendo", "avise se o DY do HGLG11
 * passar de 9%", "se a selic cair abaixo de 10%". Reads the kind, the measure, the fund, the direction and
 * the level, each only when stated.
 */
export function extractAlert(question: string): AlertArgs {
  const text = normalizeText(question);
  const out: AlertArgs = {};
  const ticker = tickersIn(text)[0];
  if (ticker) out.ticker = ticker;
  const measure = MEASURES.find(([re]) => re.test(text))?.[1];
  const level = new RegExp(String.raw`\b(${ABOVE}|${BELOW})\s*(?:r\$\s*)?(${BR_NUMBER})?`).exec(text);
  if (measure) out.medida = measure;
  if (level) {
    out.direcao = new RegExp(String.raw`^(${BELOW})$`).test(level[1]) ? 'abaixo' : 'acima';
    const value = level[2] ? readAmount(level[2]) : null;
    if (value) out.valor = value.toFixed();
  }
  if (measure || level) out.tipo = 'nivel';
  else if (DISTRIBUTION.test(text)) out.tipo = 'distribuicao';
  return out;
}

/** Which alert a message names: "remover alerta 2", "pausar o alerta do HGLG11". */
export function extractAlertPick(question: string): { numero?: number; ticker?: string } {
  const text = normalizeText(question);
  const out: { numero?: number; ticker?: string } = {};
  const n = /\balertas?\s*(?:n[o.º°]?\s*|numero\s*|#\s*)?(\d{1,3})\b/.exec(text) ?? /\b(\d{1,3})[oº°]?\s*alerta\b/.exec(text);
  if (n) out.numero = Number(n[1]);
  const ticker = tickersIn(text)[0];
  if (ticker) out.ticker = ticker;
  return out;
}
