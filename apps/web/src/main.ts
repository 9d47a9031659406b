/**
 * The Cota chat page: login (demo button in embedded mode, else an API key), the conversation with
 * streamed answers, charts from the answer's rows, comparison cards, confirmation buttons and the
 * explain panel. Everything is built with DOM calls or from escaped markdown; no inline script or
 * style, so the CSP is `script-src 'self'`.
 */
import { chooseCharts } from './lib/charts';
import { buildComparison, Comparison } from './lib/compare';
import { buildExplain } from './lib/explain';
import { formatMs } from './lib/format';
import { renderMarkdown } from './lib/markdown';
import { awaitsConfirmation, clearSession, CONFIRM_REPLY, credentialsProblem, loadSession, newConversationId, saveSession, Session } from './lib/session';
import { AskReply, EntityClasses, MeasureCatalog } from './lib/types';
import { ApiError, askStream, checkKey, demoAvailable, startDemo } from './ui/api';
import { chartFigure } from './ui/chart-view';
import { $, h } from './ui/dom';
import { explainPanel } from './ui/explain-view';
import { attachStatementDrop, uploadStatement } from './ui/statement-upload';

/** The measure catalog (units, labels, better directions), put in by the build from policies/measures.yaml. */
declare const __COTA_MEASURES__: MeasureCatalog | undefined;
const CATALOG: MeasureCatalog = typeof __COTA_MEASURES__ === 'object' && __COTA_MEASURES__ ? __COTA_MEASURES__ : {};
/** Each entity's class, put in by the build from policies/entities/*.yaml. */
declare const __COTA_ENTITY_CLASSES__: EntityClasses | undefined;
const ENTITY_CLASSES: EntityClasses = typeof __COTA_ENTITY_CLASSES__ === 'object' && __COTA_ENTITY_CLASSES__ ? __COTA_ENTITY_CLASSES__ : {};

const SUGGESTIONS = [
  'dividendos do HGLG11 nos últimos 12 meses',
  'evolução do preço do KNRI11 em 2024',
  'evolução do IFIX em 2025',
  'compare o DY do HGLG11 e do KNRI11',
  'minha carteira',
  'quanto recebi de dividendos por mês na minha carteira?',
  'CNPJ do HGLG11?',
  'o que temos pra hoje?',
];

let session: Session | null = null;
let busy = false;
const store = window.localStorage;

// ----- login -------------------------------------------------------------------------------------

async function showLogin(): Promise<void> {
  session = null;
  $('chat').hidden = true;
  $('who').hidden = true;
  $('login').hidden = false;
  const demo = await demoAvailable();
  const keyBox = $('key-box') as HTMLDetailsElement;
  if (demo.available) {
    $('demo-box').hidden = false;
    if (demo.clientId) $('demo-client').textContent = demo.clientId;
    keyBox.open = false;
    ($('demo-login') as HTMLButtonElement).focus();
  } else {
    $('demo-box').hidden = true;
    keyBox.open = true;
    $('key-summary').textContent = 'Entre com a sua chave de API';
    ($('key') as HTMLInputElement).focus();
  }
}

function loginError(msg: string): void {
  $('login-error').textContent = msg;
}

async function onDemoLogin(): Promise<void> {
  const button = $('demo-login') as HTMLButtonElement;
  button.disabled = true;
  loginError('');
  try {
    const demo = await startDemo();
    const nickname = ($('demo-nick') as HTMLInputElement).value.trim();
    enter({ key: demo.key, clientId: demo.clientId, nickname, conversationId: newConversationId(), demo: true });
  } catch (e) {
    loginError(e instanceof ApiError ? e.message : 'Não foi possível entrar agora.');
  } finally {
    button.disabled = false;
  }
}

async function onKeyLogin(ev: Event): Promise<void> {
  ev.preventDefault();
  const key = ($('key') as HTMLInputElement).value.trim();
  const clientId = ($('client') as HTMLInputElement).value.trim();
  const nickname = ($('nick') as HTMLInputElement).value.trim();
  const problem = credentialsProblem(key, clientId);
  if (problem) return loginError(problem);
  loginError('');
  const conversationId = newConversationId();
  try {
    await checkKey(key, conversationId);
  } catch (e) {
    return loginError(e instanceof ApiError ? e.message : 'Não foi possível verificar a chave.');
  }
  enter({ key, clientId, nickname, conversationId, demo: false });
}

function enter(s: Session): void {
  session = s;
  saveSession(store, s);
  showChat();
}

// ----- chat --------------------------------------------------------------------------------------

function showChat(): void {
  if (!session) return;
  $('login').hidden = true;
  $('chat').hidden = false;
  $('who').hidden = false;
  $('who-label').textContent = session.demo ? `${session.clientId} (demonstração)` : session.clientId;
  resetLog();
  ($('q') as HTMLInputElement).focus();
}

function resetLog(): void {
  const log = $('log');
  log.replaceChildren(
    h(
      'div',
      { class: 'welcome' },
      h('h2', {}, session?.nickname ? `Olá, ${session.nickname}!` : 'Olá!'),
      h('p', {}, 'Pergunte sobre fundos imobiliários, o mercado e a sua carteira. Experimente:'),
      h('div', { class: 'chips' }, ...SUGGESTIONS.map((s) => suggestion(s))),
    ),
  );
}

function suggestion(text: string): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'chip' }, text);
  b.addEventListener('click', () => void send(text));
  return b;
}

function scrollToEnd(): void {
  const log = $('log');
  log.scrollTop = log.scrollHeight;
}

function setBusy(on: boolean): void {
  busy = on;
  ($('send') as HTMLButtonElement).disabled = on;
  $('log').setAttribute('aria-busy', on ? 'true' : 'false');
}

/** Sends a question (typed, a suggestion, or a confirmation button's "sim"/"não"). */
async function send(question: string): Promise<boolean> {
  const q = question.trim();
  if (!q || busy || !session) return false;
  setBusy(true);
  const log = $('log');
  log.append(h('div', { class: 'msg me' }, h('div', { class: 'bubble' }, q)));
  const card = h('article', { class: 'msg bot pending', 'aria-busy': 'true' });
  const text = h('div', { class: 'answer-text' }, h('span', { class: 'typing', 'aria-label': 'Cota está escrevendo' }, h('i'), h('i'), h('i')));
  card.append(text);
  log.append(card);
  scrollToEnd();
  let streamed = '';
  try {
    await askRenewingDemo(q, {
      onDelta: (t) => {
        streamed += t;
        card.dataset.deltas = String(Number(card.dataset.deltas ?? '0') + 1); // kept after the final answer
        text.innerHTML = renderMarkdown(streamed); // escaped markdown only
        card.classList.add('streaming');
        scrollToEnd();
      },
      onAnswer: (reply) => renderAnswer(card, reply),
    });
  } catch (e) {
    card.className = 'msg bot error';
    card.removeAttribute('aria-busy');
    text.textContent = e instanceof ApiError ? e.message : 'Algo deu errado ao responder.';
    if (e instanceof ApiError && e.status === 401) {
      card.append(h('p', { class: 'muted' }, 'A chave não vale mais (apagada ou trocada no servidor). Use "Sair" e entre de novo.'));
    }
  } finally {
    setBusy(false);
    scrollToEnd();
    ($('q') as HTMLInputElement).focus();
  }
  return true;
}

/**
 * Asks; a demo login whose key stopped working (the embedded server was restarted with a fresh
 * store, or the demo data was erased) gets a new demo key once and asks again.
 */
async function askRenewingDemo(q: string, on: Parameters<typeof askStream>[2]): Promise<void> {
  if (!session) return;
  try {
    await askStream(session, q, on);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401 && session.demo)) throw e;
    const demo = await startDemo();
    session = { ...session, key: demo.key, clientId: demo.clientId };
    saveSession(store, session);
    await askStream(session, q, on);
  }
}

const STATUS_LABEL: Record<string, string> = {
  needs_clarification: 'Preciso de um detalhe',
  confirmation_required: 'Aguardando sua confirmação',
  error: 'Não deu para responder',
};

function renderAnswer(card: HTMLElement, reply: AskReply): void {
  card.className = `msg bot status-${reply.status}`;
  card.removeAttribute('aria-busy');
  card.dataset.status = reply.status;
  card.replaceChildren();
  if (STATUS_LABEL[reply.status]) card.append(h('div', { class: 'status-tag' }, STATUS_LABEL[reply.status]));
  const text = h('div', { class: 'answer-text' });
  text.innerHTML = renderMarkdown(reply.answer); // escaped markdown only
  card.append(text);

  const comparison = buildComparison(reply, CATALOG, ENTITY_CLASSES);
  if (comparison) card.append(comparisonView(comparison));
  for (const spec of chooseCharts(reply, CATALOG)) card.append(chartFigure(spec));
  if (awaitsConfirmation(reply)) card.append(confirmBox());
  card.append(metaLine(reply));
  card.append(explainPanel(buildExplain(reply.meta)));
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

function confirmBox(): HTMLElement {
  const yes = h('button', { type: 'button', class: 'primary', 'data-confirm': 'yes' }, 'Confirmar');
  const no = h('button', { type: 'button', class: 'ghost', 'data-confirm': 'no' }, 'Cancelar');
  const box = h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirmar a ação' }, yes, no);
  const choose = async (button: HTMLButtonElement, reply: string) => {
    if (yes.disabled || busy) return;
    yes.disabled = true;
    no.disabled = true;
    button.classList.add('chosen');
    if (!(await send(reply))) {
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

function metaLine(reply: AskReply): HTMLElement {
  const m = reply.meta ?? {};
  const bits: string[] = [];
  if (m.entity) bits.push(m.entity);
  else if (m.tool?.name) bits.push(`ferramenta ${m.tool.name}`);
  if (m.planner?.follow_up?.applied) bits.push('continuação da pergunta anterior');
  else if (m.context?.last_reference_used) bits.push('fundo herdado da conversa');
  if (m.narrator?.llm_used) bits.push('texto revisado por IA');
  if (typeof m.timings_ms?.total === 'number') bits.push(formatMs(m.timings_ms.total));
  return h('div', { class: 'meta-line' }, bits.join(' · '));
}

/** A B3 statement dropped into the conversation: its preview, waiting for Confirmar (which says "sim" here). */
async function sendStatement(file: File): Promise<void> {
  if (busy || !session) return;
  setBusy(true);
  const log = $('log');
  log.append(h('div', { class: 'msg me' }, h('div', { class: 'bubble' }, `Extrato enviado: ${file.name}`)));
  const card = h('article', { class: 'msg bot pending', 'aria-busy': 'true' });
  log.append(card);
  scrollToEnd();
  try {
    const reply = await uploadStatement(session, file);
    const waiting = reply.status === 'confirmation_required';
    card.className = `msg bot status-${waiting ? 'confirmation_required' : 'ok'}`;
    card.dataset.status = waiting ? 'confirmation_required' : 'ok';
    card.removeAttribute('aria-busy');
    if (waiting) card.append(h('div', { class: 'status-tag' }, STATUS_LABEL.confirmation_required));
    const text = h('div', { class: 'answer-text' });
    text.innerHTML = renderMarkdown(reply.message ?? reply.preview); // escaped markdown only
    card.append(text);
    if (waiting) card.append(confirmBox());
  } catch (e) {
    card.className = 'msg bot error';
    card.removeAttribute('aria-busy');
    card.append(h('div', { class: 'answer-text' }, e instanceof ApiError ? e.message : 'Não consegui enviar o arquivo.'));
  } finally {
    setBusy(false);
    scrollToEnd();
  }
}

// ----- start -------------------------------------------------------------------------------------

function start(): void {
  $('demo-login').addEventListener('click', () => void onDemoLogin());
  $('key-form').addEventListener('submit', (ev) => void onKeyLogin(ev));
  $('ask').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('q') as HTMLInputElement;
    const q = input.value;
    if (!q.trim() || busy) return;
    input.value = '';
    void send(q);
  });
  attachStatementDrop($('chat'), $('ask'), (file) => void sendStatement(file));
  $('new-conv').addEventListener('click', () => {
    if (!session || busy) return;
    session = { ...session, conversationId: newConversationId() };
    saveSession(store, session);
    resetLog();
  });
  $('logout').addEventListener('click', () => {
    clearSession(store);
    void showLogin();
  });
  session = loadSession(store);
  if (session) showChat();
  else void showLogin();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
