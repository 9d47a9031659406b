import { createHash } from 'node:crypto';
import { Events } from '@cota/contracts';
import { Bus } from './bus';
import { InProcessTransport } from './in-process-transport';
import { EventSalt, EVENT_SALT_PERIOD_MS } from './event-salt';
import { emitStep } from './telemetry';

const NOON = Date.UTC(2026, 10, 27, 12);

describe('EventSalt: conversation hashes salted by a secret, rotated each period', () => {
  const salt = new EventSalt('segredo-compartilhado-de-teste');

  it('hashes one conversation identically within one period, in every process that shares the secret', () => {
    const a = salt.hashConversation('cliente-1', 'conversa-1', NOON);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(new EventSalt('segredo-compartilhado-de-teste').hashConversation('cliente-1', 'conversa-1', NOON + 3600_000)).toBe(a);
  });

  it('hashes it differently under another secret, in the next period, and for another client', () => {
    const a = salt.hashConversation('cliente-1', 'conversa-1', NOON);
    expect(new EventSalt('outro-segredo-de-outra-instalacao').hashConversation('cliente-1', 'conversa-1', NOON)).not.toBe(a);
    expect(salt.hashConversation('cliente-1', 'conversa-1', NOON + EVENT_SALT_PERIOD_MS)).not.toBe(a);
    expect(salt.hashConversation('cliente-2', 'conversa-1', NOON)).not.toBe(a);
  });

  it('is never the unsalted hash a dictionary of ids could reverse', () => {
    const unsalted = createHash('sha256').update('cliente-1\u0000conversa-1').digest('hex').slice(0, 16);
    expect(salt.hashConversation('cliente-1', 'conversa-1', NOON)).not.toBe(unsalted);
  });

  it('draws a random secret when none is configured: two processes then disagree', () => {
    expect(EventSalt.random().hashConversation('c', 'x', NOON)).not.toBe(EventSalt.random().hashConversation('c', 'x', NOON));
  });
});

describe('emitStep', () => {
  it("publishes the conversation hashed with its bus's salt, never the ids", async () => {
    const transport = new InProcessTransport();
    const salt = new EventSalt('segredo-compartilhado-de-teste');
    const bus = new Bus(transport, 'planner', { eventSalt: salt });
    const seen: string[] = [];
    bus.listen('cota.events.>', (_s, payload) => seen.push(JSON.stringify(payload)));
    emitStep(bus, Events.plannerPlanned, { request_id: 'r1', client_id: 'cliente-1', conversation_id: 'conversa-1', outcome: 'ok', timings_ms: {} });
    await new Promise((r) => setImmediate(r));
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]).conversation_hash).toBe(salt.hashConversation('cliente-1', 'conversa-1'));
    expect(seen[0]).not.toMatch(/cliente-1|conversa-1/);
  });
});
