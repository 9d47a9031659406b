/** The gateway's HTTP API as the page uses it (same origin; CSP connect-src 'self'). */
import { createParser, EventSourceMessage } from 'eventsource-parser';
import { Session } from '../lib/session';
import { AskReply, ConversationPage, HistoryTurn } from '../lib/types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'error',
  ) {
    super(message);
  }
}

async function errorOf(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(res.status, body.error?.message ?? `Erro ${res.status}.`, body.error?.code);
  } catch {
    return new ApiError(res.status, `Erro ${res.status}.`);
  }
}

/** Embedded mode offers a demo login; elsewhere this answers 404. */
export async function demoAvailable(): Promise<{ available: boolean; clientId: string | null }> {
  try {
    const res = await fetch('/demo/session', { headers: { accept: 'application/json' } });
    if (!res.ok) return { available: false, clientId: null };
    const body = (await res.json()) as { available?: boolean; client_id?: string };
    return { available: body.available === true, clientId: body.client_id ?? null };
  } catch {
    return { available: false, clientId: null };
  }
}

export async function startDemo(): Promise<{ clientId: string; key: string }> {
  const res = await fetch('/demo/session', { method: 'POST', headers: { accept: 'application/json' } });
  if (!res.ok) throw await errorOf(res);
  const body = (await res.json()) as { client_id: string; key: string };
  return { clientId: body.client_id, key: body.key };
}

/** Checks a typed key: the history endpoint authenticates it (its client is checked on /ask). */
export async function checkKey(key: string, conversationId: string): Promise<void> {
  const res = await fetch(`/conversations/${encodeURIComponent(conversationId)}/history`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw await errorOf(res);
}

export interface StreamHandlers {
  onDelta(text: string): void;
  onAnswer(reply: AskReply): void;
}

/** POST /ask/stream: deltas as they arrive, then the whole answer. Throws ApiError on failure. */
export async function askStream(s: Session, question: string, on: StreamHandlers): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/ask/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${s.key}` },
      body: JSON.stringify({ question, conversation_id: s.conversationId, nickname: s.nickname, client_id: s.clientId }),
    });
  } catch {
    throw new ApiError(0, 'Não foi possível falar com o servidor. Ele está rodando?');
  }
  if (!res.ok || !res.body) throw await errorOf(res);
  let answered = false;
  let failure: ApiError | null = null;
  const handle = (ev: EventSourceMessage) => {
    if (failure) return;
    const data = JSON.parse(ev.data) as Record<string, unknown>;
    if (ev.event === 'delta') on.onDelta(String(data.text ?? ''));
    else if (ev.event === 'answer') {
      answered = true;
      on.onAnswer(data as unknown as AskReply);
    } else if (ev.event === 'error') {
      const err = data.error as { code?: string; message?: string } | undefined;
      failure = new ApiError(Number(data.status ?? 500), err?.message ?? 'Erro ao responder.', err?.code);
    }
  };
  const parser = createParser({ onEvent: handle });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (failure) break;
  }
  if (failure) throw failure;
  if (!answered) throw new ApiError(0, 'A resposta foi interrompida. Tente de novo.');
}

async function authed<T>(s: Pick<Session, 'key'>, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', authorization: `Bearer ${s.key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, 'Não foi possível falar com o servidor. Ele está rodando?');
  }
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

/** The conversation's turns as the server kept them (the caller's own only). */
export async function fetchHistory(s: Session, conversationId: string): Promise<HistoryTurn[]> {
  const body = await authed<{ turns?: HistoryTurn[] }>(s, `/conversations/${encodeURIComponent(conversationId)}/history`);
  return body.turns ?? [];
}

/** A page of the client's conversations, newest first. */
export function listConversations(s: Session, cursor: string | null = null, limit = 30): Promise<ConversationPage> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  return authed<ConversationPage>(s, `/conversations?${q.toString()}`);
}

export function renameConversation(s: Session, conversationId: string, title: string): Promise<{ id: string; title: string }> {
  return authed(s, `/conversations/${encodeURIComponent(conversationId)}`, { method: 'PATCH', body: { title } });
}

export function deleteConversation(s: Session, conversationId: string): Promise<{ deleted: boolean }> {
  return authed(s, `/conversations/${encodeURIComponent(conversationId)}`, { method: 'DELETE' });
}

/** 👍/👎 on one answer (its meta.request_id), with an optional comment; a second verdict replaces the first. */
export function sendFeedback(s: Session, conversationId: string, requestId: string, rating: 'up' | 'down', comment: string | null): Promise<unknown> {
  return authed(s, `/conversations/${encodeURIComponent(conversationId)}/feedback`, { method: 'POST', body: { request_id: requestId, rating, comment } });
}

/** One notification of the client's alerts (GET /me/notifications). */
export interface NotificationItem {
  notification_id: number;
  title: string;
  body: string;
  created_at: string;
  read: boolean;
}

export function fetchNotifications(s: Pick<Session, 'key'>): Promise<{ notifications: NotificationItem[]; unread: number }> {
  return authed(s, '/me/notifications?limit=20');
}

export function markNotificationsRead(s: Pick<Session, 'key'>): Promise<{ marked: number; unread: number }> {
  return authed(s, '/me/notifications/read', { method: 'POST' });
}

/** GET /me/notifications/stream: the unread count when it opens, then each new notification, until `signal` aborts. */
export async function followNotifications(s: Pick<Session, 'key'>, on: { unread(n: number): void; notification(n: NotificationItem): void }, signal: AbortSignal): Promise<void> {
  const res = await fetch('/me/notifications/stream', { headers: { accept: 'text/event-stream', authorization: `Bearer ${s.key}` }, signal });
  if (!res.ok || !res.body) throw await errorOf(res);
  const parser = createParser({
    onEvent: (ev) => {
      const data = JSON.parse(ev.data) as Record<string, unknown>;
      if (ev.event === 'unread') on.unread(Number(data.unread ?? 0));
      else if (ev.event === 'notification') on.notification(data as unknown as NotificationItem);
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

/** One of the client's alert rules (GET /me/alerts), numbered as in the chat. */
export interface AlertItem {
  alert_id: string;
  number: number;
  description: string;
  status: 'active' | 'paused';
}

export function fetchAlerts(s: Pick<Session, 'key'>): Promise<{ alerts: AlertItem[] }> {
  return authed(s, '/me/alerts');
}

/** Pauses, resumes or removes one alert; answers what was done and the list after it. */
export function changeAlert(s: Pick<Session, 'key'>, alertId: string, action: 'pause' | 'resume' | 'remove'): Promise<{ message: string; alerts: AlertItem[] }> {
  const path = `/me/alerts/${encodeURIComponent(alertId)}`;
  return action === 'remove' ? authed(s, path, { method: 'DELETE' }) : authed(s, `${path}/${action}`, { method: 'POST' });
}
