import { STOPWORDS, stem } from '@cota/text';
import { AnalysedQuestion } from './analysis';
import { Ontology } from './ontology';

export type SmalltalkKind = 'greeting' | 'thanks' | 'capabilities' | 'goodbye' | 'identity';

/** More specific readings win when a message has several ("oi, o que você sabe fazer?"). */
const SMALLTALK_PRIORITY: SmalltalkKind[] = ['capabilities', 'identity', 'thanks', 'goodbye', 'greeting'];
const STOP_STEMS = new Set([...STOPWORDS].map(stem));

/**
 * "sim", "pode mandar", "cancela", "sim, confirmo o envio do relatório": a yes or a no, with nothing
 * else than words about the pending action ("envio", "relatório", "registrar") and function words.
 * A no anywhere wins over a yes ("sim, pode cancelar" cancels).
 */
export function detectConfirmation(q: AnalysedQuestion, o: Ontology): { value: 'yes' | 'no'; phrase: string } | null {
  if (q.stems.length > 10 || q.tickers.tickers.length > 0) return null; // a yes/no is short
  const no = o.wholeMessageIs(q, o.confirmation.no);
  if (no) return { value: 'no', phrase: no.text };
  const yes = o.wholeMessageIs(q, o.confirmation.yes);
  if (yes) return { value: 'yes', phrase: yes.text };
  const covered = new Array<boolean>(q.stems.length).fill(false);
  const found = { yes: [] as string[], no: [] as string[] };
  for (const [value, phrases] of [
    ['no', o.confirmation.no],
    ['yes', o.confirmation.yes],
  ] as const) {
    for (const hit of o.occurrences(q, phrases)) {
      for (let j = 0; j < hit.length; j++) covered[hit.start + j] = true;
      found[value].push(hit.phrase.text);
    }
  }
  // Interjections may come first ("pera, cancela"); then the reply must open with a yes or a no.
  let first = 0;
  while (first < q.stems.length && o.confirmation.lead.has(q.stems[first])) first++;
  if (found.yes.length + found.no.length === 0 || !o.occurrences(q, o.confirmation.openers).some((h) => h.start === first)) return null;
  const residual = q.stems.filter((s, i) => i >= first && !covered[i] && !STOP_STEMS.has(s) && !o.confirmation.filler.has(s));
  if (residual.length > 0) return null;
  return found.no.length ? { value: 'no', phrase: found.no[0] } : { value: 'yes', phrase: found.yes[0] };
}

/**
 * Small talk only when nothing but small talk was said: every word is covered by a small-talk
 * phrase, a function word or a filler ("oi Cota, tudo bem?"). "Oi, qual o preço do HGLG11?" is a
 * fund question with a greeting, not small talk.
 */
export function detectSmalltalk(q: AnalysedQuestion, o: Ontology): { kind: SmalltalkKind; phrases: string[] } | null {
  if (q.tickers.tickers.length + q.tickers.unknown.length > 0) return null;
  const covered = new Array<boolean>(q.stems.length).fill(false);
  const found = new Map<SmalltalkKind, string[]>();
  // A one-word courtesy is matched as written: "valeu" thanks, "vale" asks what something is worth.
  const words = q.corrected.split(' ');
  for (const group of o.smalltalk) {
    for (const p of group.phrases) {
      const n = p.stems.length;
      if (n === 0 || !q.stemSet.has(p.stems[0])) continue;
      const word = n === 1 ? p.words[0] : null;
      for (let i = 0; i + n <= q.stems.length; i++) {
        let ok = word === null || words[i] === word || q.corrections.includes(`${q.tokens[i]}->${word}`);
        for (let j = 0; j < n && ok; j++) ok = q.stems[i + j] === p.stems[j];
        if (!ok) continue;
        for (let j = 0; j < n; j++) covered[i + j] = true;
        found.set(group.kind, [...(found.get(group.kind) ?? []), p.text]);
      }
    }
  }
  if (found.size === 0) return null;
  const residual = q.stems.filter((s, i) => !covered[i] && !STOP_STEMS.has(s) && !o.smalltalkFiller.has(s));
  if (residual.length > 0) return null;
  const kind = SMALLTALK_PRIORITY.find((k) => found.has(k))!;
  return { kind, phrases: found.get(kind)! };
}

/**
 * The first tool whose rule matches, with the phrases that matched (`family`: the previous question's measure family, for
 * the rules said right after one; `inConversation` when such a rule matched).
 */
export function detectTool(
  q: AnalysedQuestion,
  o: Ontology,
  family: string | null = null,
): { name: string; matched: string; conceptInGeneral: boolean; inConversation: boolean } | null {
  for (const tool of o.tools) {
    for (const rule of tool.rules) {
      const hit = o.matchesRule(q, rule, family);
      if (hit) return { name: tool.name, matched: hit, conceptInGeneral: rule.conceptInGeneral, inConversation: rule.afterFamily !== null };
    }
  }
  return null;
}

/** Conceptual questions ("o que é P/VP?") go to the knowledge base, not to an entity. */
/** A request for a buy/sell recommendation, with the phrase that made it one. */
export function detectAdvice(q: AnalysedQuestion, o: Ontology): string | null {
  for (const rule of o.advice) {
    const hit = o.matchesRule(q, rule);
    if (hit) return hit;
  }
  return null;
}

export function detectConcept(q: AnalysedQuestion, o: Ontology): string | null {
  for (const rule of o.concept) {
    const hit = o.matchesRule(q, rule);
    if (hit) return hit;
  }
  return null;
}

/** A B3 stock code ("PETR4", "vale3"): four letters and a share-class digit, never a fund's 11. */
const STOCK_CODE = /(?<![a-z0-9])[a-z]{4}[3-8](?![a-z0-9])/i;

export type OutOfScope = { reason: 'asset' | 'measure'; term: string };

/**
 * What Cota does not cover, read before anything else is tried: another asset (crypto, a stock,
 * named by word or by its B3 code) when no fund is named, or a company measure FIIs do not report.
 */
export function detectOutOfScope(q: AnalysedQuestion, o: Ontology): OutOfScope | null {
  // The longest name wins ("rating de crédito" over "rating").
  const measure = o.occurrences(q, o.outOfScope.measures).sort((a, b) => b.length - a.length)[0];
  if (measure) return { reason: 'measure', term: measure.phrase.text };
  if (q.tickers.tickers.length > 0) return null;
  for (const { group, phrases } of o.outOfScope.assets) {
    const hit = o.occurrences(q, phrases)[0];
    // A word that only points at the group ("ação da Petrobras") is not repeated: the group names it.
    if (hit) return { reason: 'asset', term: hit.length > 1 || group === hit.phrase.text ? group : `${group} (${hit.phrase.text})` };
  }
  const code = STOCK_CODE.exec(q.original);
  return code ? { reason: 'asset', term: `${o.outOfScope.stockGroup} (${code[0].toUpperCase()})` } : null;
}
