import { awaitsConfirmation, clearSession, CONFIRM_REPLY, credentialsProblem, KeyValueStore, loadSession, newConversationId, saveSession } from './session';

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  getItem(k: string) {
    return this.map.has(k) ? (this.map.get(k) as string) : null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

describe('session', () => {
  it('keeps the key, client, nickname and conversation, and forgets them on logout', () => {
    const store = new MemoryStore();
    expect(loadSession(store)).toBeNull();
    saveSession(store, { key: 'cota_abc', clientId: 'cliente-demo-1', nickname: 'Ana', conversationId: 'web-1', demo: true });
    expect(loadSession(store)).toEqual({ key: 'cota_abc', clientId: 'cliente-demo-1', nickname: 'Ana', conversationId: 'web-1', demo: true });
    clearSession(store);
    expect(store.map.size).toBe(0);
  });

  it('makes conversation ids the gateway accepts', () => {
    const id = newConversationId(
      () => 0.5,
      () => 1_700_000_000_000,
    );
    expect(id).toMatch(/^web-[a-z0-9]+-[a-z0-9]{6}$/);
    expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/);
  });

  it('checks typed credentials before sending them', () => {
    expect(credentialsProblem('', 'cliente-demo-1')).toBe('Informe a chave de API.');
    expect(credentialsProblem('cota_x', 'cliente demo')).toMatch(/client_id/);
    expect(credentialsProblem('cota_x', 'cliente-demo-1')).toBeNull();
  });

  it('knows when an answer waits for a yes/no and what the buttons send', () => {
    expect(awaitsConfirmation({ status: 'confirmation_required' })).toBe(true);
    expect(awaitsConfirmation({ status: 'ok', meta: { tool: { status: 'executed' } } })).toBe(false);
    expect(CONFIRM_REPLY).toEqual({ yes: 'sim', no: 'não' });
  });
});
