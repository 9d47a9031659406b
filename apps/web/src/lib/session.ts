/**
 * Who is asking and in which conversation, kept in the browser (localStorage): the API key, its
 * client, the nickname and the conversation id. Pure over a Storage-like object.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Session {
  key: string;
  clientId: string;
  nickname: string;
  conversationId: string;
  /** Logged in with the embedded mode's demo button. */
  demo: boolean;
}

const PREFIX = 'cota.';
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

export function newConversationId(random: () => number = Math.random, now: () => number = Date.now): string {
  const rand = Array.from({ length: 6 }, () => Math.floor(random() * 36).toString(36)).join('');
  return `web-${now().toString(36)}-${rand}`;
}

export function loadSession(store: KeyValueStore): Session | null {
  const key = store.getItem(`${PREFIX}key`)?.trim() ?? '';
  const clientId = store.getItem(`${PREFIX}client`)?.trim() ?? '';
  if (!key || !ID_RE.test(clientId)) return null;
  let conversationId = store.getItem(`${PREFIX}conv`) ?? '';
  if (!ID_RE.test(conversationId)) {
    conversationId = newConversationId();
    store.setItem(`${PREFIX}conv`, conversationId);
  }
  return { key, clientId, nickname: store.getItem(`${PREFIX}nick`) ?? '', conversationId, demo: store.getItem(`${PREFIX}demo`) === '1' };
}

export function saveSession(store: KeyValueStore, s: Session): void {
  store.setItem(`${PREFIX}key`, s.key);
  store.setItem(`${PREFIX}client`, s.clientId);
  store.setItem(`${PREFIX}nick`, s.nickname);
  store.setItem(`${PREFIX}conv`, s.conversationId);
  store.setItem(`${PREFIX}demo`, s.demo ? '1' : '0');
}

export function clearSession(store: KeyValueStore): void {
  for (const k of ['key', 'client', 'nick', 'conv', 'demo']) store.removeItem(`${PREFIX}${k}`);
}

/** Why a typed key/client pair cannot be used, or null. */
export function credentialsProblem(key: string, clientId: string): string | null {
  if (!key.trim()) return 'Informe a chave de API.';
  if (/\s/.test(key.trim())) return 'A chave de API não tem espaços.';
  if (!ID_RE.test(clientId.trim())) return 'Informe o client_id (letras, números, _ . : @ -).';
  return null;
}

/** A pending confirmation's answer: the buttons send these as the next question. */
export const CONFIRM_REPLY = { yes: 'sim', no: 'não' } as const;

/** True when an answer waits for a yes/no (status or the tool's own status says so). */
export function awaitsConfirmation(reply: { status?: string; meta?: { tool?: { status?: string } } }): boolean {
  return reply.status === 'confirmation_required' || reply.meta?.tool?.status === 'confirmation_required';
}
