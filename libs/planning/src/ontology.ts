import { isPast, parsePeriod, todayInBrazil } from '@cota/periods';
import { FuzzyVocabulary, STOPWORDS, normalize, stem } from '@cota/text';

const STOP_STEMS = new Set([...STOPWORDS].map(stem));
/** Built-in features that count even when no word of the entity matched (policy features opt in with `standalone`). */
const BUILTIN_STANDALONE = ['only_ticker'];
import { AnalysedQuestion, TICKER_TOKEN } from './analysis';
import { OntologySpec, RuleSpec } from './ontology.schema';
import { CompiledPhrase, compilePhrase, containsPhrase, hasPhrase } from './phrases';

interface WeightedPhrase extends CompiledPhrase {
  weight: number;
}

interface CompiledEntity {
  name: string;
  description: string;
  label: string;
  /** stem -> weight (and the word as written, for explanations). */
  tokens: Map<string, { weight: number; text: string }>;
  phrases: WeightedPhrase[];
  features: Map<string, number>;
  /** Standalone features that raise this entity: any of them firing points to it without a word. */
  standalone: string[];
}

interface CompiledFeature {
  name: string;
  tokens: Map<string, string>;
  phrases: CompiledPhrase[];
  minMatches: number;
  atStart: boolean;
  groups: CompiledPhrase[][];
  concepts: CompiledPhrase[][];
}

export interface CompiledRule {
  all: CompiledPhrase[][];
  none: CompiledPhrase[];
  noTicker: boolean;
  withTicker: boolean;
  statement: boolean;
  upcoming: boolean;
  atStart: boolean;
  conceptInGeneral: boolean;
  afterFamily: string | null;
}

export interface Candidate {
  entity: string;
  score: number;
  signals: string[];
  /** pt-BR name of this reading, for asking back. */
  label: string;
}

/** Compiles a phrase and adds its words to the fuzzy vocabulary. */
type Collect = (text: string) => CompiledPhrase;

function compileRule(r: RuleSpec, collect: Collect): CompiledRule {
  return {
    all: r.all.map((g) => g.map(collect)),
    none: r.none.map(collect),
    noTicker: r.no_ticker,
    withTicker: r.with_ticker,
    atStart: r.at_start,
    statement: r.statement,
    upcoming: r.upcoming,
    conceptInGeneral: r.concept_in_general,
    afterFamily: r.after_family ?? null,
  };
}

function compileFeatures(spec: OntologySpec, collect: Collect): CompiledFeature[] {
  return Object.entries(spec.features).map(([name, f]) => ({
    name,
    tokens: new Map(f.tokens.map((t) => [collect(t).stems.join(' '), t])),
    phrases: f.phrases.map(collect),
    minMatches: f.min_matches,
    atStart: f.at_start,
    concepts: f.concepts.map((g) => g.map(collect)),
    groups: f.groups.map((g) => g.map(collect)),
  }));
}

/** One entity's words by stem, its phrases counted once each, and the standalone features that raise it. */
function compileEntity(name: string, e: OntologySpec['entities'][string], collect: Collect, standaloneFeatures: ReadonlySet<string>): CompiledEntity {
  const tokens = new Map<string, { weight: number; text: string }>();
  const phrases: WeightedPhrase[] = [];
  for (const [text, weight] of Object.entries(e.tokens)) {
    const c = collect(text);
    // A "token" that normalises to several words is really a phrase.
    if (c.stems.length === 1) {
      const prev = tokens.get(c.stems[0]);
      if (!prev || weight > prev.weight) tokens.set(c.stems[0], { weight, text });
    } else phrases.push({ ...c, weight });
  }
  for (const [text, weight] of Object.entries(e.phrases)) phrases.push({ ...collect(text), weight });
  const standalone = Object.entries(e.features)
    .filter(([f, w]) => w > 0 && standaloneFeatures.has(f))
    .map(([f]) => f);
  return { name, description: e.description, label: e.label, tokens, phrases: uniquePhrases(phrases), features: new Map(Object.entries(e.features)), standalone };
}

/** Two spellings of one phrase ("quanto paga"/"quanto pagou") stem alike: count it once, at its higher weight. */
function uniquePhrases(phrases: WeightedPhrase[]): WeightedPhrase[] {
  const unique = new Map<string, WeightedPhrase>();
  for (const p of phrases) {
    const key = p.stems.join(' ');
    const prev = unique.get(key);
    if (!prev || p.weight > prev.weight) unique.set(key, p);
  }
  return [...unique.values()];
}

function compileConfirmation(spec: OntologySpec, collect: Collect): Ontology['confirmation'] {
  return {
    yes: spec.confirmation.yes.map(collect),
    no: spec.confirmation.no.map(collect),
    openers: spec.confirmation.openers.map(collect),
    lead: new Set(spec.confirmation.lead.map((w) => stem(normalize(w)))),
    filler: new Set(spec.confirmation.filler.map((w) => stem(normalize(w)))),
  };
}

/**
 * The ontology (policies/ontology.yaml) compiled once: every word normalised and stemmed,
 * indexed so that scoring a question costs a pass over its stems.
 */
export class Ontology {
  readonly thresholds: OntologySpec['thresholds'];
  readonly vocabulary: FuzzyVocabulary;
  readonly entities: ReadonlyMap<string, CompiledEntity>;
  readonly tools: ReadonlyArray<{ name: string; rules: CompiledRule[] }>;
  readonly concept: CompiledRule[];
  readonly advice: CompiledRule[];
  /** Other assets and company measures Cota does not cover (ontology.yaml `out_of_scope`). */
  readonly outOfScope: { assets: Array<{ group: string; phrases: CompiledPhrase[] }>; stockGroup: string; measures: CompiledPhrase[] };
  readonly confirmation: { yes: CompiledPhrase[]; no: CompiledPhrase[]; openers: CompiledPhrase[]; lead: ReadonlySet<string>; filler: ReadonlySet<string> };
  readonly smalltalk: ReadonlyArray<{ kind: 'greeting' | 'thanks' | 'capabilities' | 'goodbye' | 'identity'; phrases: CompiledPhrase[] }>;
  readonly smalltalkFiller: ReadonlySet<string>;
  readonly tickerPrefixStopwords: ReadonlySet<string>;
  /** Elliptic follow-ups: openers as normalised words (longest first), period words, the weak weight. */
  readonly elliptic: {
    openers: string[][];
    leadFillers: ReadonlySet<string>;
    periodWords: ReadonlySet<string>;
    weakWeight: number;
    editOpeners: string[][];
    editMaxWords: number;
    narrowOpeners: string[][];
    showAll: ReadonlySet<string>;
  };
  private readonly features: CompiledFeature[];
  private readonly featuresOf = new WeakMap<AnalysedQuestion, Set<string>>();
  private readonly standalone: ReadonlySet<string>;
  private readonly maxGap: number;
  private readonly interrogatives: CompiledPhrase[];
  private readonly pastMarkers: ReadonlySet<string>;
  /** stem -> the entity words with that stem; first stem -> the entity phrases starting with it. */
  private readonly tokenIndex = new Map<string, Array<{ entity: string; weight: number; text: string }>>();
  private readonly phraseIndex = new Map<string, Array<WeightedPhrase & { entity: string }>>();
  /** The words and phrases behind each scored candidate (kept out of the candidate, which goes into meta). */
  private readonly matchedWords = new WeakMap<Candidate, Map<string, { weight: number; text: string }>>();
  /** Each entity's place in name order (localeCompare), the tie-break of equal scores, computed once. */
  private readonly nameRank = new Map<string, number>();

  constructor(readonly spec: OntologySpec) {
    this.thresholds = spec.thresholds;
    this.maxGap = spec.phrase_max_gap;
    // Every word of every phrase compiled below joins the fuzzy vocabulary (collect adds it), in the
    // order compiled: the steps below keep that order.
    const words = new Set<string>(STOPWORDS);
    const collect: Collect = (text) => {
      for (const w of normalize(text).split(' ')) if (w && !/\d/.test(w)) words.add(w);
      return compilePhrase(text);
    };
    const rule = (r: RuleSpec) => compileRule(r, collect);

    this.features = compileFeatures(spec, collect);
    this.standalone = new Set([
      ...BUILTIN_STANDALONE,
      ...Object.entries(spec.features)
        .filter(([, f]) => f.standalone)
        .map(([n]) => n),
    ]);
    this.entities = new Map(Object.entries(spec.entities).map(([name, e]) => [name, compileEntity(name, e, collect, this.standalone)]));
    this.indexEntities();
    this.tools = Object.entries(spec.tools).map(([name, rules]) => ({ name, rules: rules.map(rule) }));
    this.interrogatives = spec.interrogatives.map(collect);
    this.pastMarkers = new Set(spec.past_markers.map((w) => normalize(w)));
    this.concept = spec.concept.map(rule);
    this.advice = spec.advice.map(rule);
    this.outOfScope = {
      assets: Object.entries(spec.out_of_scope.assets).map(([group, words]) => ({ group, phrases: words.map(collect) })),
      stockGroup: spec.out_of_scope.stock_group,
      measures: spec.out_of_scope.measures.map(collect),
    };
    this.confirmation = compileConfirmation(spec, collect);
    this.smalltalk = (['greeting', 'thanks', 'capabilities', 'goodbye', 'identity'] as const).map((kind) => ({
      kind,
      phrases: spec.smalltalk[kind].map(collect),
    }));
    this.smalltalkFiller = new Set(spec.smalltalk.filler.map((w) => stem(normalize(w))));
    this.tickerPrefixStopwords = new Set(spec.ticker_prefix_stopwords);
    this.elliptic = {
      openers: spec.elliptic.openers.map((o) => normalize(o).split(' ').filter(Boolean)).sort((a, b) => b.length - a.length),
      leadFillers: new Set(spec.elliptic.lead_fillers.map((w) => normalize(w))),
      periodWords: new Set(spec.elliptic.period_words.map((w) => normalize(w))),
      weakWeight: spec.elliptic.weak_weight,
      editOpeners: spec.elliptic.edit_openers.map((o) => normalize(o).split(' ').filter(Boolean)).sort((a, b) => b.length - a.length),
      editMaxWords: spec.elliptic.edit_max_words,
      narrowOpeners: spec.elliptic.narrow_openers.map((o) => normalize(o).split(' ').filter(Boolean)).sort((a, b) => b.length - a.length),
      showAll: new Set(spec.elliptic.show_all.map((o) => normalize(o))),
    };
    for (const w of spec.elliptic.period_words) collect(w);
    for (const w of spec.known_words) collect(w);
    this.vocabulary = new FuzzyVocabulary(
      words,
      {
        minLength: spec.fuzzy.min_length,
        maxDistance: spec.fuzzy.max_distance,
        longFrom: spec.fuzzy.long_from,
        longMaxDistance: spec.fuzzy.long_max_distance,
      },
      stem,
    );
  }

  /** The name order (the tie-break of equal scores) and the indexes scoring looks words and phrases up in. */
  private indexEntities(): void {
    [...this.entities.keys()].sort((a, b) => a.localeCompare(b)).forEach((name, i) => this.nameRank.set(name, i));
    for (const e of this.entities.values()) {
      for (const [stemmed, t] of e.tokens) {
        const list = this.tokenIndex.get(stemmed) ?? [];
        list.push({ entity: e.name, ...t });
        this.tokenIndex.set(stemmed, list);
      }
      for (const p of e.phrases) {
        if (p.stems.length === 0) continue;
        const list = this.phraseIndex.get(p.stems[0]) ?? [];
        list.push({ ...p, entity: e.name });
        this.phraseIndex.set(p.stems[0], list);
      }
    }
  }

  /** Whether `a` is declared the broader view of `b` (ontology.yaml `broader_than`). */
  isBroaderThan(a: string, b: string): boolean {
    return this.spec.entities[a]?.broader_than.includes(b) ?? false;
  }

  entityNames(): string[] {
    return [...this.entities.keys()];
  }

  /** pt-BR label of an entity (for asking back and explanations). */
  labelOf(entity: string): string | undefined {
    return this.entities.get(entity)?.label;
  }

  /** The heaviest weight (absolute) any entity gives a stemmed word; 0 when no entity uses it. */
  wordWeight(stemmed: string): number {
    let max = 0;
    for (const t of this.tokenIndex.get(stemmed) ?? []) max = Math.max(max, Math.abs(t.weight));
    for (const p of this.phraseIndex.get(stemmed) ?? []) if (p.stems.length === 1) max = Math.max(max, Math.abs(p.weight));
    return max;
  }

  has(entity: string): boolean {
    return this.entities.has(entity);
  }

  /** Named features active for a question (built-ins: ticker, no_ticker, multi_ticker). */
  /** A feature's words and phrases as written (the reading's cues share some lists with the routing). */
  wordsOf(feature: string): string[] {
    const f = this.spec.features[feature];
    return f ? [...f.tokens, ...f.phrases] : [];
  }

  activeFeatures(q: AnalysedQuestion): Set<string> {
    // Routing and the question's reading both ask: computed once per analysed question.
    const known = this.featuresOf.get(q);
    if (known) return known;
    const active = new Set<string>();
    this.featuresOf.set(q, active);
    const named = q.tickers.tickers.length + q.tickers.unknown.length;
    active.add(named > 0 ? 'ticker' : 'no_ticker');
    if (named > 1) active.add('multi_ticker');
    // "HGLG11?" alone: a fund and nothing else said about it.
    if (named > 0 && q.stems.every((s) => s === TICKER_TOKEN || STOP_STEMS.has(s))) active.add('only_ticker');
    const stemSet = q.stemSet;
    for (const f of this.features) {
      let fires: boolean;
      if (f.groups.length > 0) {
        fires = f.groups.every((g) => g.some((p) => hasPhrase(q.stems, q.stemSet, p.stems, this.maxGap)));
      } else {
        let hits = 0;
        for (const s of f.tokens.keys()) if (stemSet.has(s)) hits++;
        for (const p of f.phrases) if (hasPhrase(q.stems, q.stemSet, p.stems, f.atStart ? 0 : this.maxGap, f.atStart)) hits++;
        for (const c of f.concepts) if (c.some((p) => hasPhrase(q.stems, q.stemSet, p.stems, this.maxGap))) hits++;
        fires = hits >= f.minMatches;
      }
      active.add(fires ? f.name : `not_${f.name}`);
    }
    return active;
  }

  /** Scores every entity; candidates best first, each with the signals that made its score. */
  score(q: AnalysedQuestion, features: Set<string>): Candidate[] {
    const acc = new Map<string, { score: number; signals: string[]; words: Map<string, { weight: number; text: string }> }>();
    // `key` is the stemmed form (what two entities share); `text` the word as the policy writes it.
    const add = (entity: string, weight: number, signal: string, key: string, text: string) => {
      const a = acc.get(entity);
      if (a) {
        a.score += weight;
        a.signals.push(signal);
        a.words.set(key, { weight, text });
      } else acc.set(entity, { score: weight, signals: [signal], words: new Map([[key, { weight, text }]]) });
    };
    const seen = new Set<string>();
    for (const s of q.stems) {
      if (s === TICKER_TOKEN || seen.has(s)) continue;
      seen.add(s);
      for (const t of this.tokenIndex.get(s) ?? []) add(t.entity, t.weight, `word:${t.text}(${fmt(t.weight)})`, s, t.text);
      for (const p of this.phraseIndex.get(s) ?? []) {
        if (containsPhrase(q.stems, p.stems, this.maxGap)) add(p.entity, p.weight, `phrase:${p.text}(${fmt(p.weight)})`, p.stems.join(' '), p.text);
      }
    }
    const out: Candidate[] = [];
    for (const e of this.entities.values()) {
      const a = acc.get(e.name);
      let score = a?.score ?? 0;
      const signals = a?.signals ?? [];
      // Features only adjust an entity the words already point to; alone they say nothing,
      // except the standalone ones (only_ticker, a macro panorama), which point to it themselves.
      const gated = signals.length === 0 && !e.standalone.some((f) => features.has(f));
      for (const [f, w] of e.features) {
        if (gated) break;
        if (features.has(f)) {
          score += w;
          signals.push(`feature:${f}(${fmt(w)})`);
        }
      }
      const candidate: Candidate = { entity: e.name, score: Math.round(score * 100) / 100, signals, label: e.label };
      if (a) this.matchedWords.set(candidate, a.words);
      out.push(candidate);
    }
    return out.sort((a, b) => b.score - a.score || this.nameRank.get(a.entity)! - this.nameRank.get(b.entity)!);
  }

  /** What the words and phrases alone gave `c` (its features left out); 0 for a feature-only score. */
  wordScore(c: Candidate): number {
    let sum = 0;
    for (const w of this.matchedWords.get(c)?.values() ?? []) sum += w.weight;
    return sum;
  }

  /** The stems of the words and phrases that scored `c` (from the same `score` call); none for a feature-only score. */
  matchedStems(c: Pick<Candidate, 'entity' | 'score'>): string[] {
    return [...(this.matchedWords.get(c as Candidate)?.keys() ?? [])].flatMap((key) => key.split(' '));
  }

  /**
   * The heaviest word or phrase (stemmed) of `best` that `other` did not match: how specific the
   * lead is. Both must come from the same `score` call.
   */
  strongestOwnWord(best: Candidate, other: Candidate | undefined): { text: string; weight: number } | null {
    const mine = this.matchedWords.get(best);
    if (!mine) return null;
    const theirs = other ? this.matchedWords.get(other) : undefined;
    let top: { text: string; weight: number } | null = null;
    for (const [key, w] of mine) {
      if (theirs?.has(key)) continue;
      if (!top || w.weight > top.weight) top = { text: w.text, weight: w.weight };
    }
    return top;
  }

  /** The phrases that matched, joined, when the rule applies to the question (`family`: the previous question's measure family). */
  matchesRule(q: AnalysedQuestion, r: CompiledRule, family: string | null = null): string | null {
    if (r.afterFamily !== null && r.afterFamily !== family) return null;
    if (r.noTicker && q.tickers.tickers.length + q.tickers.unknown.length > 0) return null;
    if (r.withTicker && q.tickers.tickers.length === 0) return null;
    for (const n of r.none) if (hasPhrase(q.stems, q.stemSet, n.stems, this.maxGap)) return null;
    const hits: string[] = [];
    for (const group of r.all) {
      const hit = group.find((p) => hasPhrase(q.stems, q.stemSet, p.stems, this.maxGap, r.atStart && group === r.all[0]));
      if (!hit) return null;
      hits.push(hit.text);
    }
    // (checked once the rule's words matched: the period is parsed only for the few messages that name a calendar)
    if (r.statement && this.interrogatives.some((p) => hasPhrase(q.stems, q.stemSet, p.stems, 0))) return null;
    if (r.upcoming && (q.tokens.some((t) => this.pastMarkers.has(t)) || isPast(parsePeriod(q.original)?.spec, todayInBrazil()))) return null;
    return hits.join(' + ');
  }

  /** Where each phrase of a list occurs in the message (start and length, in stems). */
  /** Whether a short message opens like an edit of the tool call that just ran ("e se...", "agora só logística"). */
  opensEdit(normalized: string, question: string): boolean {
    const tokens = normalized.split(' ').filter(Boolean);
    const words = question.trim().split(/\s+/).filter(Boolean).length;
    return words <= this.elliptic.editMaxWords && this.elliptic.editOpeners.some((op) => op.length <= tokens.length && op.every((w, i) => tokens[i] === w));
  }

  /**
   * What a message that narrows the conversation's list keeps as its criterion ("só os de logística" →
   * "de logistica"), or null when it does not open like one (ontology.yaml `elliptic.narrow_openers`).
   */
  /** Whether the whole message asks for all of the list just shown ("mostre todos", "e o resto?"). */
  asksWholeList(normalized: string): boolean {
    const core = normalized.replace(/^(?:e|agora|entao|ok|beleza) /, '').replace(/ (?:por favor|pfv|pls)$/, '');
    return this.elliptic.showAll.has(core);
  }

  narrowingCriterion(normalized: string): string | null {
    // ("desses 5 quais são de logística": the list's size said after "desses" is the same list)
    const tokens = normalized
      .split(' ')
      .filter(Boolean)
      .filter((t, i, all) => !(i > 0 && LIST_POINTERS.has(all[i - 1]) && LIST_SIZE.test(t)));
    const opener = this.elliptic.narrowOpeners.find((op) => op.length < tokens.length && op.every((w, i) => tokens[i] === w));
    return opener ? tokens.slice(opener.length).join(' ') : null;
  }

  occurrences(q: AnalysedQuestion, phrases: CompiledPhrase[]): Array<{ phrase: CompiledPhrase; start: number; length: number }> {
    const out: Array<{ phrase: CompiledPhrase; start: number; length: number }> = [];
    for (const p of phrases) {
      const n = p.stems.length;
      if (n === 0) continue;
      for (let i = 0; i + n <= q.stems.length; i++) {
        let ok = true;
        for (let j = 0; j < n && ok; j++) ok = q.stems[i + j] === p.stems[j];
        if (ok) out.push({ phrase: p, start: i, length: n });
      }
    }
    return out;
  }

  /** Exact match of the whole message against a phrase list (confirmations). */
  wholeMessageIs(q: AnalysedQuestion, phrases: CompiledPhrase[]): CompiledPhrase | null {
    const joined = q.stems.join(' ');
    return phrases.find((p) => p.stems.join(' ') === joined) ?? null;
  }
}

/** Words that point at the conversation's list, and a size said after them ("desses 5", "deles três"). */
const LIST_POINTERS = new Set(['desses', 'dessas', 'deles', 'delas', 'destes', 'destas']);
const LIST_SIZE = /^(?:\d{1,2}|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez)$/;

const fmt = (n: number) => (n > 0 ? `+${n}` : String(n));
