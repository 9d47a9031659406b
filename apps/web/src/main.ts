/**
 * The Cota chat page: login (demo button in embedded mode, else an API key), the client's
 * conversations (restored from the server on load, listed, renamed, deleted), streamed answers with
 * charts, comparison cards, confirmations, suggested next questions, 👍/👎 and "detalhes". Built
 * with DOM calls or sanitized markdown; no inline script or style, so the CSP is `script-src 'self'`.
 */
import { Labels } from './lib/answer-labels';
import { clearSession, credentialsProblem, loadSession, newConversationId, saveSession, Session } from './lib/session';
import { readingOfReply, readingOfTurn } from './lib/suggest';
import { EntityClasses, HistoryTurn, MeasureCatalog } from './lib/types';
import { renderAnswer, renderStatementPreview, restoredAnswer, CardContext } from './ui/answer-card';
import { ApiError, askStream, checkKey, deleteConversation, demoAvailable, fetchHistory, listConversations, renameConversation, sendFeedback, startDemo } from './ui/api';
import { ConversationList } from './ui/conversation-list';
import { NotificationsView } from './ui/notifications-view';
import { $, h } from './ui/dom';
import { attachStatementDrop, uploadStatement } from './ui/statement-upload';
import { setMarkdown } from './ui/markdown-view';

/** The measure catalog (units, labels, better directions), put in by the build from policies/measures.yaml. */
declare const __COTA_MEASURES__: MeasureCatalog | undefined;
const CATALOG: MeasureCatalog = typeof __COTA_MEASURES__ === 'object' && __COTA_MEASURES__ ? __COTA_MEASURES__ : {};
/** Each entity's class, put in by the build from policies/entities/*.yaml. */
declare const __COTA_ENTITY_CLASSES__: EntityClasses | undefined;
const ENTITY_CLASSES: EntityClasses = typeof __COTA_ENTITY_CLASSES__ === 'object' && __COTA_ENTITY_CLASSES__ ? __COTA_ENTITY_CLASSES__ : {};
/** Entities and tools by their Portuguese names, put in by the build from the policies. */
declare const __COTA_LABELS__: Labels | undefined;
const LABELS: Labels = typeof __COTA_LABELS__ === 'object' && __COTA_LABELS__ ? __COTA_LABELS__ : { entities: {}, tools: {} };

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
let conversations: ConversationList;
let notifications: NotificationsView | null = null;

// ----- login -------------------------------------------------------------------------------------

async function showLogin(): Promise<void> {
  session = null;
  $('workspace').hidden = true;
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
  void showChat();
}

/**
 * Runs a call with the session's key; a demo login whose key stopped working (the embedded server
 * was restarted with a fresh store, or the demo data was erased) gets a new demo key once and retries.
 */
async function withSession<T>(call: (s: Session) => Promise<T>): Promise<T> {
  if (!session) throw new ApiError(401, 'Entre de novo.');
  try {
    return await call(session);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401 && session.demo)) throw e;
    const demo = await startDemo();
    session = { ...session, key: demo.key, clientId: demo.clientId };
    saveSession(store, session);
    return call(session);
  }
}

// ----- conversations -----------------------------------------------------------------------------

async function showChat(): Promise<void> {
  if (!session) return;
  $('login').hidden = true;
  $('workspace').hidden = false;
  $('who').hidden = false;
  $('who-label').textContent = session.demo ? `${session.clientId} (demonstração)` : session.clientId;
  notifications?.start(session);
  await openConversation(session.conversationId);
  void conversations.refresh();
}

/** Shows a conversation as the server kept it; a conversation with no turn shows the welcome. */
async function openConversation(id: string): Promise<void> {
  if (!session || busy) return;
  session = { ...session, conversationId: id };
  saveSession(store, session);
  conversations.markCurrent();
  closeDrawer();
  setBusy(true);
  const log = $('log');
  log.replaceChildren(h('p', { class: 'muted loading' }, 'Carregando a conversa…'));
  try {
    const turns = await withSession((s) => fetchHistory(s, id));
    if (session.conversationId !== id) return;
    if (turns.length) showTurns(turns);
    else showWelcome();
  } catch (e) {
    log.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Não foi possível carregar a conversa: ${e instanceof ApiError ? e.message : 'erro inesperado'}.`));
  } finally {
    setBusy(false);
    scrollToEnd();
    ($('q') as HTMLInputElement).focus();
  }
}

function showTurns(turns: HistoryTurn[]): void {
  const log = $('log');
  log.replaceChildren();
  const lastAnswer = turns.map((t) => t.role).lastIndexOf('assistant');
  let asked = '';
  turns.forEach((t, i) => {
    if (t.role === 'user') {
      asked = t.content;
      log.append(question(t.content));
    } else if (t.role === 'assistant') {
      log.append(restoredAnswer(t, i === lastAnswer ? readingOfTurn(t.meta) : null, asked, cardContext()));
    }
  });
}

function showWelcome(): void {
  $('log').replaceChildren(
    h(
      'div',
      { class: 'welcome' },
      h('h2', {}, session?.nickname ? `Olá, ${session.nickname}!` : 'Olá!'),
      h('p', {}, 'Pergunte sobre fundos imobiliários, o mercado e a sua carteira. Experimente:'),
      h(
        'div',
        { class: 'chips' },
        ...SUGGESTIONS.map((s) => {
          const b = h('button', { type: 'button', class: 'chip' }, s);
          b.addEventListener('click', () => void send(s));
          return b;
        }),
      ),
    ),
  );
}

/** "Nova conversa": a new id, so nothing of the previous conversation is inherited. */
function newConversation(): void {
  if (!session || busy) return;
  session = { ...session, conversationId: newConversationId() };
  saveSession(store, session);
  conversations.markCurrent();
  closeDrawer();
  showWelcome();
  ($('q') as HTMLInputElement).focus();
}

async function removeConversation(id: string): Promise<void> {
  await withSession((s) => deleteConversation(s, id));
  if (session?.conversationId === id) newConversation();
}

function openDrawer(open: boolean): void {
  $('convs').classList.toggle('open', open);
  $('toggle-convs').setAttribute('aria-expanded', String(open));
  if (open) ($('convs').querySelector('.conv-open') as HTMLElement | null)?.focus();
}

function closeDrawer(): void {
  if ($('convs').classList.contains('open')) openDrawer(false);
}

// ----- asking ------------------------------------------------------------------------------------

function question(text: string): HTMLElement {
  return h('div', { class: 'msg me' }, h('div', { class: 'bubble' }, text));
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

function cardContext(): CardContext {
  const conversationId = session?.conversationId ?? '';
  return {
    catalog: CATALOG,
    classes: ENTITY_CLASSES,
    labels: LABELS,
    ask: send,
    busy: () => busy,
    feedback: (requestId) => async (rating, comment) => {
      await withSession((s) => sendFeedback(s, conversationId, requestId, rating, comment));
    },
  };
}

/** Sends a question (typed, a suggestion, or a confirmation button's "sim"/"não"). */
async function send(text: string): Promise<boolean> {
  const q = text.trim();
  if (!q || busy || !session) return false;
  setBusy(true);
  const log = $('log');
  log.querySelector('.welcome')?.remove();
  log.append(question(q));
  const card = h('article', { class: 'msg bot pending', 'aria-busy': 'true' });
  const answer = h('div', { class: 'answer-text' }, h('span', { class: 'typing', role: 'img', 'aria-label': 'Cota está escrevendo' }, h('i'), h('i'), h('i')));
  card.append(answer);
  log.append(card);
  scrollToEnd();
  let streamed = '';
  try {
    await withSession((s) =>
      askStream(s, q, {
        onDelta: (t) => {
          streamed += t;
          card.dataset.deltas = String(Number(card.dataset.deltas ?? '0') + 1); // kept after the final answer
          setMarkdown(answer, streamed);
          card.classList.add('streaming');
          scrollToEnd();
        },
        onAnswer: (reply) => renderAnswer(card, reply, readingOfReply(reply), q, cardContext()),
      }),
    );
    void conversations.refresh();
  } catch (e) {
    card.className = 'msg bot error';
    card.removeAttribute('aria-busy');
    answer.textContent = e instanceof ApiError ? e.message : 'Algo deu errado ao responder.';
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
    renderStatementPreview(card, reply.message ?? reply.preview, reply.status === 'confirmation_required', cardContext());
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
  conversations = new ConversationList($('conv-list'), $('conv-more') as HTMLButtonElement, $('conv-status'), {
    load: (cursor) => withSession((s) => listConversations(s, cursor)),
    open: (id) => void openConversation(id),
    rename: async (id, title) => {
      await withSession((s) => renameConversation(s, id, title));
    },
    remove: removeConversation,
    current: () => session?.conversationId ?? null,
  });
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
  $('new-conv').addEventListener('click', newConversation);
  $('toggle-convs').addEventListener('click', () => openDrawer(!$('convs').classList.contains('open')));
  $('close-convs').addEventListener('click', () => {
    openDrawer(false);
    $('toggle-convs').focus();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && $('convs').classList.contains('open')) {
      openDrawer(false);
      $('toggle-convs').focus();
    }
  });
  notifications = new NotificationsView($('notif-toggle') as HTMLButtonElement, $('notif-badge'), $('notifs'));
  $('logout').addEventListener('click', () => {
    notifications?.stop();
    clearSession(store);
    void showLogin();
  });
  session = loadSession(store);
  if (session) void showChat();
  else void showLogin();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
