import { alertCatalog, type AlertCatalog, type AlertKindDef } from '@cota/catalog';
import { BR_NUMBER, normalizeText, phraseMatcher, tickersIn } from '@cota/text';
import { readAmount } from './numbers';

/** What an alert asked in the chat states (policies/tool_gate.yaml `criar_alerta`); the executor asks for the rest. */
export interface AlertArgs {
  /** A kind's `arg` in policies/alerts.yaml (distribuicao, nivel, variacao, informe). */
  tipo?: string;
  /** A measure's `arg` in policies/alerts.yaml (dy, pvp, preco, ifix, selic, ...). */
  medida?: string;
  ticker?: string;
  direcao?: 'acima' | 'abaixo';
  valor?: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A measured kind's phrases as one pattern: the phrase, then (optionally) its number. */
function phrasePattern(kind: AlertKindDef): { re: RegExp; direction: Map<string, AlertArgs['direcao'] | null> } {
  const direction = new Map<string, AlertArgs['direcao'] | null>();
  for (const [dir, list] of Object.entries(kind.phrases ?? {}))
    for (const p of list ?? []) direction.set(normalizeText(p), dir === 'qualquer' ? null : (dir as 'acima' | 'abaixo'));
  const alternatives = [...direction.keys()].sort((a, b) => b.length - a.length).map(escape);
  return { re: new RegExp(String.raw`\b(${alternatives.join('|')})\s*(?:r\$\s*)?(${BR_NUMBER})?`), direction };
}
const patterns = new WeakMap<AlertKindDef, ReturnType<typeof phrasePattern>>();

/**
 * An alert told in the chat: "me avise quando o XPML11 anunciar dividendo", "avise se o DY do HGLG11
 * passar de 9%", "se o HGLG11 cair mais de 3% num dia", "avise quando sair o informe mensal do KNRI11".
 * The kinds, their measures and words are policies/alerts.yaml's; this reads the kind, the measure,
 * the fund, the direction and the number, each only when stated.
 */
export function extractAlert(question: string, catalog: AlertCatalog = alertCatalog()): AlertArgs {
  const text = normalizeText(question);
  const has = phraseMatcher(question);
  const out: AlertArgs = {};
  const ticker = tickersIn(text)[0];
  if (ticker) out.ticker = ticker;
  const measure = catalog.measures.find((m) => m.words.some(has));
  if (measure) out.medida = measure.arg;
  for (const kind of catalog.kinds) {
    if (kind.phrases) {
      let p = patterns.get(kind);
      if (!p) patterns.set(kind, (p = phrasePattern(kind)));
      const m = p.re.exec(text);
      if (!m) continue;
      out.tipo = kind.arg;
      const dir = p.direction.get(m[1]);
      if (dir) out.direcao = dir;
      const value = m[2] ? readAmount(m[2]) : null;
      if (value) out.valor = value.toFixed();
      return out;
    }
    if (kind.words?.some(has)) {
      out.tipo = kind.arg;
      return out;
    }
  }
  // A measure named with no level yet ("avise se o DY do HGLG11 mudar"): a level, whose number is asked.
  if (measure) out.tipo = catalog.kind('level').arg;
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
