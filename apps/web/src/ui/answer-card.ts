/**
 * An answer card: the comparison's finding first, the text, comparison cards, charts, the data's
 * date when it is old, confirmation buttons, suggested next questions, the footer (the kind of answer
 * in Portuguese and its time) with 👍/👎, and "detalhes". A card restored from the history shows what
 * the server kept of the turn (text, reading, time).
 */
import { answerKindLabel, footerText, Labels } from '../lib/answer-labels';
import { chooseCharts } from '../lib/charts';
import { buildComparison, Comparison, comparisonFinding } from '../lib/compare';
import { buildExplain } from '../lib/explain';
import { formatDate } from '../lib/format';
import { freshnessNote, todayInSaoPaulo } from '../lib/freshness';
import { awaitsConfirmation, CONFIRM_REPLY } from '../lib/session';
import { AnswerReading, suggestNext } from '../lib/suggest';
import { AskReply, AskStatus, EntityClasses, HistoryTurn, MeasureCatalog } from '../lib/types';
import { chartFigure } from './chart-view';
import { append, h } from './dom';
import { explainPanel } from './explain-view';
import { feedbackBox, SendFeedback } from './feedback-view';
import { icon } from './icons';
import { setMarkdown } from './markdown-view';

export interface CardContext {
  catalog: MeasureCatalog;
  classes: EntityClasses;
  labels: Labels;
  /** Sends a question (a suggestion, a confirmation's "sim"/"não"); false when nothing was sent. */
  ask(question: string): Promise<boolean>;
  /** Is another answer on its way (buttons wait). */
  busy(): boolean;
  feedback(requestId: string): SendFeedback;
}

const STATUS_LABEL: Record<string, string> = {
  needs_clarification: 'Preciso de um detalhe',
  confirmation_required: 'Aguardando sua confirmação',
  error: 'Não deu para responder',
};

function startCard(card: HTMLElement, status: AskStatus | string, requestId: string | undefined): void {
  card.className = `msg bot status-${status}`;
  card.removeAttribute('aria-busy');
  card.dataset.status = status;
  if (requestId) card.dataset.requestId = requestId;
  card.replaceChildren();
  if (STATUS_LABEL[status]) card.append(h('div', { class: 'status-tag' }, STATUS_LABEL[status]));
}

/** A live answer (from /ask/stream) into its card. */
export function renderAnswer(card: HTMLElement, reply: AskReply, reading: AnswerReading, asked: string, ctx: CardContext): void {
  startCard(card, reply.status, reply.meta?.request_id);
  const comparison = buildComparison(reply, ctx.catalog, ctx.classes);
  const finding = comparison ? comparisonFinding(comparison) : null;
  if (finding) card.append(h('p', { class: 'finding' }, h('strong', {}, 'Resultado da comparação: '), finding));
  const text = h('div', { class: 'answer-text' });
  setMarkdown(text, reply.answer);
  card.append(text);
  if (comparison) card.append(comparisonView(comparison));
  for (const spec of chooseCharts(reply, ctx.catalog)) card.append(chartFigure(spec));
  const fresh = freshnessNote(reply, todayInSaoPaulo());
  if (fresh) card.append(h('p', { class: 'freshness' }, icon('clock'), h('span', {}, fresh)));
  if (awaitsConfirmation(reply)) card.append(confirmBox(ctx));
  append(card, suggestions(suggestNext(reading, ctx.classes, asked, ctx.labels.sectors), ctx));
  card.append(footer(footerText(reply.meta, ctx.labels, ctx.catalog), reply.meta?.request_id, ctx));
  card.append(explainPanel(buildExplain(reply.meta, { ...ctx.labels, measures: ctx.catalog })));
}

/** A B3 statement's import preview (POST /me/imports), with Confirmar when it waits for the client's "sim". */
export function renderStatementPreview(card: HTMLElement, preview: string, waiting: boolean, ctx: CardContext): void {
  startCard(card, waiting ? 'confirmation_required' : 'ok', undefined);
  const text = h('div', { class: 'answer-text' });
  setMarkdown(text, preview);
  card.append(text);
  if (waiting) card.append(confirmBox(ctx));
}

/** An answer as the history kept it: the text, the kind of answer, when it was given. */
export function restoredAnswer(turn: HistoryTurn, reading: AnswerReading | null, asked: string, ctx: CardContext): HTMLElement {
  const card = h('article', { class: 'msg bot restored' });
  startCard(card, turn.meta?.status ?? 'ok', turn.meta?.request_id);
  card.classList.add('restored');
  const text = h('div', { class: 'answer-text' });
  setMarkdown(text, turn.content);
  card.append(text);
  if (reading) append(card, suggestions(suggestNext(reading, ctx.classes, asked, ctx.labels.sectors), ctx));
  const kind = answerKindLabel({ entity: turn.meta?.entity ?? null, planner: { kind: turn.meta?.kind, question: turn.meta?.question ?? null } }, ctx.labels, ctx.catalog);
  const when = new Date(turn.created_at);
  const at = Number.isNaN(when.getTime()) ? '' : ` · ${formatDate(turn.created_at.slice(0, 10))} às ${when.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })}`;
  card.append(footer(`${kind}${at}`, turn.meta?.request_id, ctx));
  return card;
}

function footer(text: string, requestId: string | undefined, ctx: CardContext): HTMLElement {
  return h('div', { class: 'answer-foot' }, h('div', { class: 'meta-line' }, text), requestId ? feedbackBox(ctx.feedback(requestId)) : null);
}

function suggestions(list: string[], ctx: CardContext): HTMLElement | null {
  if (!list.length) return null;
  const chips = list.map((q) => {
    const b = h('button', { type: 'button', class: 'chip' }, q);
    b.addEventListener('click', () => void ctx.ask(q));
    return b;
  });
  return h('div', { class: 'next', role: 'group', 'aria-label': 'Perguntas sugeridas' }, h('span', { class: 'next-label' }, 'Continue com:'), ...chips);
}

function comparisonView(c: Comparison): HTMLElement {
  const cards = c.cards.map((card) =>
    h(
      'div',
      { class: `cmp-card${card.wins ? ' has-wins' : ''}`, 'data-subject': card.id },
      h('div', { class: 'cmp-head' }, h('strong', {}, card.id), card.wins ? h('span', { class: 'wins' }, card.wins === 1 ? '1 destaque' : `${card.wins} destaques`) : null),
      card.subtitle ? h('div', { class: 'cmp-sub' }, card.subtitle) : null,
      h(
        'dl',
        {},
        ...card.lines.flatMap((l) => {
          const crit = c.criteria.find((x) => x.key === l.key);
          return [
            h('dt', {}, l.label),
            h(
              'dd',
              { class: l.winner ? 'winner' : undefined },
              l.text,
              l.winner ? h('span', { class: 'badge', title: crit?.text ?? '' }, `★ ${l.mark ?? 'destaque'}`, h('span', { class: 'sr-only' }, crit ? ` (${crit.text})` : '')) : null,
            ),
          ];
        }),
      ),
    ),
  );
  return h('section', { class: 'compare', 'aria-label': 'Comparação lado a lado' }, ...cards);
}

function confirmBox(ctx: CardContext): HTMLElement {
  const yes = h('button', { type: 'button', class: 'primary', 'data-confirm': 'yes' }, 'Confirmar');
  const no = h('button', { type: 'button', class: 'ghost', 'data-confirm': 'no' }, 'Cancelar');
  const box = h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirmar a ação' }, yes, no);
  const choose = async (button: HTMLButtonElement, reply: string) => {
    if (yes.disabled || ctx.busy()) return;
    yes.disabled = true;
    no.disabled = true;
    button.classList.add('chosen');
    if (!(await ctx.ask(reply))) {
      // Nothing was sent (another answer was on its way): the choice is still open.
      yes.disabled = false;
      no.disabled = false;
      button.classList.remove('chosen');
    }
  };
  yes.addEventListener('click', () => void choose(yes, CONFIRM_REPLY.yes));
  no.addEventListener('click', () => void choose(no, CONFIRM_REPLY.no));
  return box;
}
