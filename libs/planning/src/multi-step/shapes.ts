import type { ExecutionPlan, PlanStep, StructuredQuestion, Synthesis } from '@cota/contracts';
import { parsePeriod } from '@cota/periods';
import { fold } from '@cota/text';
import { extractFinanceArgs } from '../tool-args';
import { PlansPolicy } from './policy';

/** Folded words with spaces around, so phrases match on word boundaries. */
const wordsOf = (question: string) =>
  ` ${fold(question)
    .replace(/[^a-z0-9/%,.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
/** The policy's phrases (a fixed set from plans.yaml), folded once each rather than on every question. */
const foldedPhrases = new Map<string, string>();
function padded(phrase: string): string {
  let p = foldedPhrases.get(phrase);
  if (p === undefined) foldedPhrases.set(phrase, (p = ` ${fold(phrase).trim()} `));
  return p;
}
const says = (words: string, phrase: string) => words.includes(padded(phrase));
const saysAny = (words: string, phrases: readonly string[]) => phrases.some((p) => says(words, p));

const fund = (id: string) => ({ kind: 'fund' as const, id });
const PORTFOLIO = { kind: 'portfolio' as const, id: 'PORTFOLIO' };

function question(subjects: StructuredQuestion['subjects'], measure: string, agg: StructuredQuestion['agg'], period: StructuredQuestion['period'] = null): StructuredQuestion {
  return { subjects, measure, agg, also: [], period, group_by: null, compare: null, condition: null };
}

/** "P/VP abaixo de 1", "DY acima de 9%", "preço menor que 100": a measure, a direction, a number. */
const CONDITION =
  /(p\/vp|pvp|dividend yield|dy|preco|cotacao|sharpe|valor de mercado)\s+(?:(?:esta|for|seja|estiver|fica|ficar|e)\s+)?(abaixo de|acima de|menor que|maior que|menor do que|maior do que|menos de|mais de|inferior a|superior a|<|>)\s*(-?\s?\d+(?:[.,]\d+)?)\s*%?/g;
const CONDITION_MEASURE: Record<string, { measure: string; label: string }> = {
  'p/vp': { measure: 'pvp', label: 'P/VP' },
  pvp: { measure: 'pvp', label: 'P/VP' },
  'dividend yield': { measure: 'dy', label: 'DY de 12 meses' },
  dy: { measure: 'dy', label: 'DY de 12 meses' },
  preco: { measure: 'price', label: 'preço da cota' },
  cotacao: { measure: 'price', label: 'preço da cota' },
  sharpe: { measure: 'sharpe', label: 'índice de Sharpe' },
  'valor de mercado': { measure: 'market_cap', label: 'valor de mercado' },
};

/**
 * The recurring multi-step requests, built without a model: a comparison of funds on several
 * dimensions, a projection at a fund's current yield, a screen with several conditions, a fund
 * against a benchmark rate. Null when the question is none of them (it is then planned as usual).
 */
export class MultiStepShapes {
  constructor(private readonly policy: PlansPolicy) {}

  plan(question: string, tickers: readonly string[]): ExecutionPlan | null {
    const words = wordsOf(question);
    return this.screen(question, words, tickers) ?? this.projection(question, words, tickers) ?? this.benchmark(words, tickers) ?? this.comparison(words, tickers);
  }

  private comparison(words: string, tickers: readonly string[]): ExecutionPlan | null {
    if (tickers.length < 2 || tickers.length > 10) return null;
    const dims = Object.entries(this.policy.dimensions).filter(([, d]) => saysAny(words, d.words));
    if (dims.length < this.policy.min_dimensions) return null;
    const subjects = tickers.map(fund);
    const steps: PlanStep[] = [];
    const dimensions: Extract<Synthesis, { shape: 'comparison' }>['dimensions'] = [];
    for (const [name, d] of dims) {
      d.measures.forEach((m, i) => {
        const id = `${name}_${i + 1}`;
        steps.push({ id, kind: 'measure', label: m.label, depends_on: [], period_from: null, question: question(subjects, m.measure, m.agg) });
        dimensions.push({ step: id, better: m.better });
      });
    }
    return {
      goal: `comparar ${tickers.join(', ')} em ${dims.map(([n]) => n).join(', ')}`,
      source: 'deterministic',
      steps,
      synthesis: { shape: 'comparison', dimensions, focus: saysAny(words, this.policy.income_focus) ? 'income' : 'none' },
    };
  }

  private projection(text: string, words: string, tickers: readonly string[]): ExecutionPlan | null {
    if (tickers.length !== 1 || !saysAny(words, this.policy.projection.words)) return null;
    const f = extractFinanceArgs(text);
    // The fund's yield is the rate: a rate written in the question makes it a plain calculation.
    if (f.aporte_mensal === undefined || f.prazo_meses === undefined || f.taxa !== undefined) return null;
    const ticker = tickers[0];
    const args: Record<string, unknown> = {
      operacao: 'projecao_aportes',
      aporte_mensal: f.aporte_mensal,
      prazo_meses: f.prazo_meses,
      taxa_periodo: 'ano',
      taxa_periodo_informado: true,
    };
    if (f.prazo_unidade) args.prazo_unidade = f.prazo_unidade;
    if (f.valor_inicial !== undefined) args.valor_inicial = f.valor_inicial;
    return {
      goal: `projetar aportes mensais no ${ticker} ao dividend yield atual`,
      source: 'deterministic',
      steps: [
        { id: 'yield', kind: 'measure', label: `Dividend yield de 12 meses do ${ticker}`, depends_on: [], period_from: null, question: question([fund(ticker)], 'dy', 'value') },
        {
          id: 'projection',
          kind: 'tool',
          label: 'Projeção com aportes mensais',
          depends_on: ['yield'],
          tool: { name: 'calcular_financas', args },
          inputs: [{ arg: 'taxa', from: 'yield', subject: ticker, transform: 'as_percent_rate' }],
        },
      ],
      synthesis: { shape: 'projection', yield_step: 'yield', projection_step: 'projection' },
    };
  }

  private screen(text: string, words: string, tickers: readonly string[]): ExecutionPlan | null {
    const folded = fold(text);
    const conditions = [...folded.matchAll(CONDITION)].map((m) => {
      const what = CONDITION_MEASURE[m[1]];
      const op = /abaixo|menor|menos|inferior|</.test(m[2]) ? ('lt' as const) : ('gt' as const);
      return { ...what, op, value: Number(m[3].replace(/\s/g, '').replace(',', '.')), said: m[0].trim() };
    });
    if (conditions.length < this.policy.screen.min_conditions) return null;
    const subjects = tickers.length >= 1 ? tickers.map(fund) : saysAny(words, this.policy.screen.scope_words) ? [PORTFOLIO] : null;
    if (!subjects) return null;
    const byMeasure = [...new Set(conditions.map((c) => c.measure))];
    const steps: PlanStep[] = byMeasure.map((m) => ({
      id: m,
      kind: 'measure',
      label: conditions.find((c) => c.measure === m)!.label,
      depends_on: [],
      period_from: null,
      question: question(subjects, m, 'value'),
    }));
    return {
      goal: `fundos ${subjects === null || subjects[0].kind === 'portfolio' ? 'da carteira' : tickers.join(', ')} com ${conditions.map((c) => c.said).join(' e ')}`,
      source: 'deterministic',
      steps,
      synthesis: { shape: 'screen', conditions: conditions.map((c) => ({ step: c.measure, op: c.op, value: c.value, label: c.said })) },
    };
  }

  private benchmark(words: string, tickers: readonly string[]): ExecutionPlan | null {
    if (tickers.length !== 1 || !saysAny(words, this.policy.benchmark.words)) return null;
    // A period said ("no 1º semestre de 2024") is a question of returns over it, each its own: the structured question answers it.
    const said = parsePeriod(words)?.spec;
    if (said && said.kind !== 'latest' && said.kind !== 'trailing') return null;
    const rate = Object.entries(this.policy.benchmark.rates).find(([, w]) => saysAny(words, w))?.[0];
    if (!rate) return null;
    const ticker = tickers[0];
    const months = this.policy.benchmark.months;
    const period = { kind: 'trailing' as const, unit: 'month' as const, n: months };
    return {
      goal: `comparar o retorno do ${ticker} com o ${rate} nos últimos ${months} meses`,
      source: 'deterministic',
      steps: [
        {
          id: 'price',
          kind: 'measure',
          label: `Variação da cota do ${ticker}`,
          depends_on: [],
          period_from: null,
          question: question([fund(ticker)], 'price', 'variation', period),
        },
        {
          id: 'income',
          kind: 'measure',
          label: `Dividendos pagos pelo ${ticker}`,
          depends_on: ['price'],
          period_from: 'price',
          question: question([fund(ticker)], 'dividend', 'total', period),
        },
        // The rate over the fund's own dates, so both returns cover the same days.
        {
          id: 'rate',
          kind: 'measure',
          label: `${rate} acumulado`,
          depends_on: ['price'],
          period_from: 'price',
          question: question([{ kind: 'indicator', id: rate }], 'annual_rate', 'accumulated', period),
        },
      ],
      synthesis: { shape: 'benchmark', price_step: 'price', income_step: 'income', benchmark_step: 'rate' },
    };
  }
}
