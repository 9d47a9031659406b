import { z } from 'zod';

/** Weighted words: `{ "preço": 3, "cotação": 3 }`. Words are normalised and stemmed when compiled. */
const Weights = z.record(z.string().min(1), z.number().finite());

/** A rule matches when every group has at least one matching phrase (AND of ORs). */
const PhraseGroups = z.array(z.array(z.string().min(1)).min(1)).min(1);

const Rule = z
  .object({
    all: PhraseGroups,
    /** Phrases that veto the rule ("quanto rende o HGLG11" is a fund question, not a calculation). */
    none: z.array(z.string().min(1)).default([]),
    /** The rule applies only when the question names no fund. */
    no_ticker: z.boolean().default(false),
    /** The rule applies only when the question names a fund ("comprei 20 HGLG11", not "comprei um tênis"). */
    with_ticker: z.boolean().default(false),
    /** The rule applies only when the phrase starts the message. */
    at_start: z.boolean().default(false),
    /** A fact told, never a question: the rule does not apply to a message with one of `interrogatives` ("quando comprei o HGLG11?"). */
    statement: z.boolean().default(false),
    /** What comes next (a calendar of payments): the rule does not apply to a message naming a past period ("e em 2023 pela data com?"). */
    upcoming: z.boolean().default(false),
    /**
     * A tool asked in general (no fund and no figure in the message, no fund in the conversation, nothing of the client's) has nothing to run
     * on: the question is its concept's ("qual a alíquota de IR na venda de cotas?" is the tax rule, not a simulation).
     */
    concept_in_general: z.boolean().default(false),
    /**
     * The rule applies only right after a question of this measure family (measures.yaml `family`): "quanto de imposto
     * isso dá?" after a sale's result is that sale's tax.
     */
    after_family: z.string().min(1).optional(),
  })
  .strict();
export type RuleSpec = z.infer<typeof Rule>;

const Feature = z
  .object({
    description: z.string().optional(),
    tokens: z.array(z.string().min(1)).default([]),
    phrases: z.array(z.string().min(1)).default([]),
    /** Distinct tokens/phrases needed for the feature to fire (e.g. 2 macro indicators). */
    min_matches: z.number().int().min(1).default(1),
    /** Synonym groups counted once each toward min_matches ("IPCA" and "inflação" are one concept). */
    concepts: z.array(z.array(z.string().min(1)).min(1)).default([]),
    /** Phrases count only at the start of the message ("e o preço?" continues the conversation). */
    at_start: z.boolean().default(false),
    /** Alternatively: fires when every group has a match (e.g. a dividend word AND a yield word). */
    groups: z.array(z.array(z.string().min(1)).min(1)).default([]),
    /**
     * Counts for an entity even when none of its words matched: the feature alone names the
     * reading ("Selic, IPCA e dólar" is the macro panorama though no macro word is written).
     */
    standalone: z.boolean().default(false),
  })
  .strict()
  .refine((f) => f.tokens.length + f.phrases.length + f.groups.length + f.concepts.length > 0, { message: 'needs tokens, phrases, concepts or groups' });

const Entity = z
  .object({
    description: z.string().min(1),
    /** How Cota names this reading when it asks back (pt-BR). */
    label: z.string().min(1),
    tokens: Weights.default({}),
    phrases: Weights.default({}),
    /** Weights of named features (built-in: ticker, no_ticker, multi_ticker, only_ticker; `not_<feature>` when it does not fire). */
    features: Weights.default({}),
    /**
     * Entities this one is the broader view of (the whole portfolio with its figures over its positions alone):
     * words that lean to both equally ask for the broader answer, not which one.
     */
    broader_than: z.array(z.string().regex(/^[a-z0-9_]+$/)).default([]),
  })
  .strict();

export const OntologySchema = z
  .object({
    version: z.literal(1),
    thresholds: z
      .object({
        min_score: z.number().positive(),
        min_gap: z.number().min(0),
        /**
         * A smaller lead that still suffices when the best reading has a word or phrase of at least
         * `specific_word_weight` that the runner-up lacks (a specific term, not shared vocabulary).
         */
        specific: z
          .object({ min_gap: z.number().min(0), word_weight: z.number().positive() })
          .strict()
          .optional(),
        /**
         * A word of at least this weight naming a field of the fund the question names ("cnpj") wins over a
         * tool that takes no fund, named by why the person asks ("preciso pra declarar o IR").
         */
        field_word_weight: z.number().positive().default(5),
      })
      .strict()
      .refine((t) => !t.specific || t.specific.min_gap <= t.min_gap, { message: 'specific.min_gap must not exceed min_gap', path: ['specific', 'min_gap'] }),
    phrase_max_gap: z.number().int().min(0).max(4),
    /** Model fallback for questions the deterministic planner does not accept (used only when configured). */
    llm_fallback: z
      .object({
        enabled: z.boolean(),
        timeout_ms: z.number().int().min(100).max(30000),
        /** Candidates shown to the model first (the whole catalog is always allowed). */
        max_candidates: z.number().int().min(1).max(10),
      })
      .strict(),
    fuzzy: z
      .object({
        min_length: z.number().int().min(3),
        max_distance: z.number().int().min(0).max(2),
        long_from: z.number().int().min(4),
        long_max_distance: z.number().int().min(0).max(3),
      })
      .strict(),
    /**
     * Ordinary words that sit one typo away from a policy word ("dúvida"/"dívida", "receber"/"recebeu"):
     * known as written, so typo correction leaves them alone. They carry no weight.
     */
    known_words: z.array(z.string().min(1)).default([]),
    /** Words that make a message a question ("quando", "qual", "em que dia"): what rules of told facts (`statement`) never take. */
    interrogatives: z.array(z.string().min(1)).default([]),
    /** Words of a verb in the past ("quando foi pago?"): what rules of what comes next (`upcoming`) never take. Matched as written, not by stem. */
    past_markers: z.array(z.string().min(1)).default([]),
    /** Words that look like a 4-letter ticker prefix but are Portuguese ("QUAL", "COMO"). */
    ticker_prefix_stopwords: z.array(z.string().regex(/^[a-z]{4}$/, 'must be 4 lowercase letters')),
    features: z.record(z.string().regex(/^[a-z_]+$/), Feature),
    confirmation: z
      .object({
        yes: z.array(z.string().min(1)).min(1),
        no: z.array(z.string().min(1)).min(1),
        /** How a longer reply must open to be a yes or no. */
        openers: z.array(z.string().min(1)).default([]),
        /** Interjections that may come before the opener ("pera, cancela"). */
        lead: z.array(z.string().min(1)).default([]),
        /** Words that may come with a yes or no ("sim, confirmo o envio do relatório"). */
        filler: z.array(z.string().min(1)).default([]),
      })
      .strict(),
    smalltalk: z
      .object({
        greeting: z.array(z.string().min(1)).min(1),
        thanks: z.array(z.string().min(1)).min(1),
        capabilities: z.array(z.string().min(1)).min(1),
        goodbye: z.array(z.string().min(1)).min(1),
        identity: z.array(z.string().min(1)).min(1),
        /** Extra words allowed around a small-talk phrase ("oi, tudo bem Cota?"). */
        filler: z.array(z.string().min(1)).default([]),
      })
      .strict(),
    tools: z.record(z.string().regex(/^[a-z_]+$/), z.array(Rule).min(1)),
    concept: z.array(Rule).min(1),
    /**
     * Requests for a recommendation ("devo comprar o XPML11?"): answered with the fund's facts and a
     * plain note that Cota does not recommend buying or selling.
     */
    advice: z.array(Rule).default([]),
    /**
     * What Cota does not cover, answered plainly instead of with a menu: other assets (a B3 stock code
     * such as "PETR4" counts too) and company measures FIIs do not report.
     */
    out_of_scope: z
      .object({
        /** Groups of assets by the name an answer gives them, each with the words that name it. */
        assets: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
        /** The group a B3 share code ("PETR4") belongs to. */
        stock_group: z.string().min(1).default('ações'),
        measures: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .default({}),
    /**
     * Elliptic follow-ups ("e o do XPML11?", "e em 2023?"): an opener at the start, then only a fund,
     * a period and function words. Such a question has no subject of its own and keeps the previous one.
     */
    elliptic: z
      .object({
        openers: z.array(z.string().min(1)).min(1),
        /** Words said before an opener that change nothing ("opa, errei, queria o do HGRE11"). */
        lead_fillers: z.array(z.string().min(1)).default([]),
        /** Words that only name a period ("ano passado", "hoje") or point at a fund ("fundo"). */
        period_words: z.array(z.string().min(1)),
        /** A word weighing at most this in every entity is shared, not a subject ("hoje" 0.5). */
        weak_weight: z.number().min(0),
        /** How a short message that changes the tool call that just ran opens ("e se...", "agora só logística"). */
        edit_openers: z.array(z.string().min(1)).min(1),
        edit_max_words: z.number().int().min(1),
        /** How a message that narrows the conversation's list of funds opens ("só os de logística", "desses, só os com p/vp abaixo de 1"). */
        narrow_openers: z.array(z.string().min(1)).min(1),
        /** A whole message asking for the whole list just cut at its size ("mostre todos", "quero ver o resto"). */
        show_all: z.array(z.string().min(1)).min(1),
      })
      .strict(),
    /**
     * Compound questions ("o cnpj e o p/vp do GTWR11"): things asked listed with "e" or a comma, each read
     * as a question of its own. A thing asked is a measure's words or a word weighing at least
     * `topic_weight` in one entity; between two of them only `links` and an "e".
     */
    compound: z
      .object({
        links: z.array(z.string().min(1)).min(1),
        topic_weight: z.number().positive(),
        max_parts: z.number().int().min(2).max(4),
        /** Question words that, after "e" or a comma, open a clause asked on its own ("... e qual o meu pm"). */
        clause_openers: z.array(z.string().min(1)).default([]),
        /** A message's last sentence opening with one of them, after a context of at least this many words, is what it asks. */
        context_min_words: z.number().int().min(1).default(4),
      })
      .strict(),
    /** The weight, in its entity, of a field's word the narrator knows and no entity here weighs (see field-words.ts). */
    field_words_weight: z.number().positive(),
    entities: z.record(z.string().regex(/^[a-z0-9_]+$/), Entity),
  })
  .strict()
  .superRefine((o, ctx) => {
    const known = new Set(['ticker', 'no_ticker', 'multi_ticker', 'only_ticker', ...Object.keys(o.features), ...Object.keys(o.features).map((f) => `not_${f}`)]);
    for (const [name, e] of Object.entries(o.entities)) {
      for (const f of Object.keys(e.features)) {
        if (!known.has(f)) ctx.addIssue({ code: 'custom', path: ['entities', name, 'features', f], message: `is not a declared feature` });
      }
    }
  });
export type OntologySpec = z.infer<typeof OntologySchema>;
