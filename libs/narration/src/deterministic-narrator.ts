import type { NarrateRequest, QueryResult } from '@cota/contracts';
import { formatDate, formatInteger, formatMonth } from './format';
import { renderPlan } from './render-plan';
import { addressByNickname, lowerFirstWord, shouldUseNickname, startsWithStructure } from './phrases';
import type { NarratorPolicy } from './policy';
import { EntityRenderer, FieldDating, requestedTickers } from './render-entity';
import { clarificationAnswer, conceptAnswer, fillMessage, problemAnswer, smalltalkAnswer, toolAnswer, unknownTickersPhrase } from './render-messages';
import type { TemplateSet } from './templates';
import { measureSources, MeasureWords, renderMeasure } from './render-measure';
import { joinPt } from './format';

/** A deterministic answer and its parts (the LLM narrator rephrases the body only). */
export interface DeterministicAnswer {
  /** The full text the person reads. */
  answer: string;
  /** Everything but the source line. */
  body: string;
  /** "Fonte: ..., dados até dd/mm/aaaa." when the answer comes from data, else null. */
  sourceLine: string | null;
  nicknameUsed: boolean;
}

/**
 * The answer without any model: template-driven for entities, policy messages for every other
 * planner outcome. Pure and synchronous, so it is the always-available fallback.
 */
export class DeterministicNarrator {
  constructor(
    private readonly policy: NarratorPolicy,
    private readonly templates: TemplateSet,
    private readonly measures: MeasureWords,
  ) {}

  narrate(req: NarrateRequest): DeterministicAnswer {
    const m = this.policy.messages;
    if (req.kind === 'smalltalk' && !req.problem) {
      const body = smalltalkAnswer(req.smalltalk, req, m);
      return { answer: body, body, sourceLine: null, nicknameUsed: !!req.nickname.trim() && body.includes(req.nickname.trim()) };
    }
    let body: string;
    let sourceLine: string | null = null;
    if (req.problem && !(req.kind === 'measure' && req.measure)) {
      body = problemAnswer(req.problem, req, m, this.templates);
    } else {
      switch (req.kind) {
        case 'concept':
          body = conceptAnswer(req, this.policy);
          break;
        case 'tool':
        case 'confirmation':
          body = toolAnswer(req, this.policy);
          break;
        case 'plan':
          // The plan's own note says it is not advice: no second note below.
          body = req.plan ? renderPlan(req.plan, m.advice_note) : fillMessage(m.problems.not_understood, { nickname: req.nickname.trim() });
          break;
        case 'clarification':
          body = clarificationAnswer(req, m, this.templates);
          break;
        case 'unknown':
          body = fillMessage(m.problems.not_understood, { nickname: req.nickname.trim() });
          break;
        case 'measure': {
          if (req.status === 'needs_clarification' || !req.measure) {
            body = clarificationAnswer(req, m, this.templates);
            break;
          }
          body = renderMeasure(req.measure, req.question_spec, this.measures);
          const src = measureSources(req.measure);
          const labels = [...new Set(src.sources.map((s) => this.policy.sources[s] ?? s))];
          // Nothing found and no source to name: no "Fonte:." line.
          sourceLine = src.asOf
            ? fillMessage(m.source_line, { sources: labels.length ? joinPt(labels) : null, as_of: src.monthly ? formatMonth(src.asOf) : formatDate(src.asOf) })
            : labels.length
              ? fillMessage(m.source_line_no_date, { sources: joinPt(labels) })
              : '';
          // ("Sobre o VISC11:" only when the answer is that fund's alone, not the client's funds compared)
          const aboutIt = req.measure.values.length === 1 && req.measure.values[0].subject.id === req.params?.ticker;
          if (req.context_used && req.params?.ticker && aboutIt) body = `${fillMessage(m.context_prefix, { ticker: req.params.ticker })} ${lowerFirstWord(body)}`;
          break;
        }
        case 'entity':
        default: {
          if (req.status === 'needs_clarification') {
            body = clarificationAnswer(req, m, this.templates);
            break;
          }
          if (!req.data || req.data.rows.length === 0) {
            body = problemAnswer(req.status === 'error' ? 'generic' : 'no_data', req, m, this.templates);
            break;
          }
          const told = this.entityBody(req, req.data);
          body = told.body;
          sourceLine = this.sourceLine(req.data, told.dating);
        }
      }
    }
    if (req.advice && req.kind !== 'smalltalk' && req.kind !== 'plan' && req.status === 'ok') body = `${body}\n\n${m.advice_note}`;
    const nicknameUsed = shouldUseNickname(req.nickname, req.memory.recent, this.policy.nickname) && !body.includes(req.nickname.trim());
    if (nicknameUsed) body = addressByNickname(req.nickname, body);
    const answer = sourceLine ? `${body}\n\n${sourceLine}` : body;
    return { answer, body, sourceLine, nicknameUsed };
  }

  private entityBody(req: NarrateRequest, data: QueryResult): { body: string; dating: FieldDating | null } {
    const template = this.templates[data.entity] ?? (req.entity ? this.templates[req.entity] : undefined) ?? null;
    const renderer = new EntityRenderer({ question: req.question, nickname: req.nickname, data, template, policy: this.policy });
    let body = renderer.render();
    const tickers = requestedTickers(data);
    if (req.context_used && tickers.length === 1) {
      const prefix = fillMessage(this.policy.messages.context_prefix, { ticker: tickers[0] });
      body = startsWithStructure(body) ? `${prefix}\n\n${body}` : `${prefix} ${lowerFirstWord(body)}`;
    }
    if (data.left_out && data.left_out.count > 0) {
      body += `\n\n${fillMessage(this.policy.messages.left_out_note, { count: String(data.left_out.count), column: data.left_out.column })}`;
    }
    const cut = this.listCut(data);
    if (cut) body += `\n\n${cut}`;
    const short = this.fewerThanAsked(data);
    if (short) body += `\n\n${short}`;
    const unknown = unknownTickersPhrase(req.unknown_tickers);
    if (unknown) body += `\n\n${fillMessage(this.policy.messages.unknown_tickers_note, { tickers: unknown })}`;
    return { body, dating: renderer.ownDating() };
  }

  /**
   * A list across funds cut at its default size says how many matched and how to see them all ("10 de
   * 18"); a size the person asked for ("top 5") is not a cut.
   */
  private listCut(data: QueryResult): string | null {
    const { matched } = data;
    const funds = typeof data.rows[0]?.ticker === 'string';
    if (!matched || !funds || matched <= data.rows.length || data.params.limit_asked || data.params.tickers.length > 0) return null;
    return fillMessage(this.policy.messages.list_cut, { shown: formatInteger(data.rows.length), matched: formatInteger(matched) });
  }

  /**
   * A list with fewer rows than the question asked for says why: the query lists at most its limit
   * ("mostrando os 500 primeiros de 1000 pedidos"), or the data has no more ("só há 3 registros").
   * Several funds are listed up to the limit each, so only a one-fund or cross-fund list is counted.
   */
  private fewerThanAsked(data: QueryResult): string | null {
    const { limit, limit_asked: asked, tickers } = data.params;
    const shown = data.rows.length;
    if (!asked || tickers.length > 1 || shown === 0 || shown >= asked) return null;
    const values = { shown: formatInteger(shown), asked: formatInteger(asked) };
    if (limit !== null && limit < asked) return fillMessage(this.policy.messages.limit_capped, values);
    if (data.truncated) return null;
    const unit = this.templates[data.entity]?.window_unit ?? { one: 'registro', many: 'registros' };
    return fillMessage(this.policy.messages.limit_beyond_data, { ...values, unit: shown === 1 ? unit.one : unit.many });
  }

  /**
   * "Fonte: CVM/B3, dados até 14/11/2025."; a field dated by its own report says that report and its
   * date instead ("Fonte: CVM (Informe Mensal de FII), dados de dezembro de 2023.").
   */
  sourceLine(data: QueryResult, dating: FieldDating | null = null): string {
    if (dating) {
      const own = dating.sources.length ? dating.sources : data.sources;
      const labels = [...new Set(own.map((s) => this.policy.sources[s] ?? s))];
      const asOf = dating.monthly ? formatMonth(dating.date) : formatDate(dating.date);
      return fillMessage(this.policy.messages.source_line_dated, { sources: labels.length ? joinPt(labels) : null, as_of: asOf });
    }
    const labels = [...new Set(data.sources.map((s) => this.policy.sources[s] ?? s))];
    const sources = labels.length ? joinPt(labels) : null;
    // A monthly series is "dados até dezembro de 2024": "01/12/2024" would claim a day it does not have.
    const monthly = this.templates[data.entity]?.monthly ?? false;
    if (data.as_of) {
      const notes = (data.as_of_notes ?? []).map((n) => `${n.label} de ${formatDate(n.date)}`);
      const asOf = `${monthly ? formatMonth(data.as_of) : formatDate(data.as_of)}${notes.length ? ` (${joinPt(notes)})` : ''}`;
      return fillMessage(this.policy.messages.source_line, { sources, as_of: asOf });
    }
    return fillMessage(this.policy.messages.source_line_no_date, { sources });
  }
}
