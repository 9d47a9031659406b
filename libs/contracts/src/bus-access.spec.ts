import { ALL_RPCS } from './registry';
import { SERVICES } from './define';
import { ContextSubjects } from './subjects/context';
import { ExecutorSubjects } from './subjects/executor';
import { PlannerSubjects } from './subjects/planner';
import { AccessBroadcasts } from './subjects/access';
import { ALERTS_CONSUMER, WAREHOUSE_EVENTS_SUBJECTS, WAREHOUSE_STREAM } from './subjects/warehouse-events';
import {
  BROADCAST_SUBSCRIBERS,
  EVENT_READER,
  eventsOutsideTheirNamespace,
  FEEDS_PUBLISHER,
  natsPermissions,
  renderNatsConfig,
  RPC_CALLERS,
  WAREHOUSE_EVENT_LISTENERS,
} from './bus-access';

describe('bus access (NATS permissions generated from the contracts)', () => {
  const perms = natsPermissions();

  it('declares the callers of every request-reply subject, once', () => {
    const declared = RPC_CALLERS.map(([d]) => d.subject);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...declared].sort()).toEqual(ALL_RPCS.map((r) => r.subject).sort());
  });

  it('lets each service subscribe only to its own subjects, in its own queue group', () => {
    for (const s of SERVICES) {
      const subs = perms[s].subscribe.allow!;
      for (const entry of subs) {
        const [subject, queue] = entry.split(' ');
        if (queue !== undefined) {
          expect(queue).toBe(s);
          expect(ALL_RPCS.find((r) => r.subject === subject)?.service).toBe(s);
        } else {
          const hears = BROADCAST_SUBSCRIBERS.some(([d, subscribers]) => d.subject === subject && subscribers.includes(s));
          const warehouse = subject === WAREHOUSE_EVENTS_SUBJECTS && WAREHOUSE_EVENT_LISTENERS.includes(s);
          expect(subject === `_INBOX.${s}.>` || subject.startsWith('cota.narrator.delta.v1') || hears || warehouse).toBe(true);
        }
      }
      expect(perms[s].allow_responses).toBe(true);
      expect(perms[s].publish.allow).toContain(`cota.events.${s}.>`);
      expect(perms[s].publish.allow!.filter((p) => p.startsWith('cota.events.'))).toEqual([`cota.events.${s}.>`]);
    }
  });

  it('keeps the pipeline to the gateway and tool runs to the tool gate', () => {
    const publishers = (subject: string) => SERVICES.filter((s) => perms[s].publish.allow!.includes(subject));
    expect(publishers(PlannerSubjects.plan.subject)).toEqual(['gateway']);
    expect(publishers(ExecutorSubjects.query.subject)).toEqual(['gateway']);
    expect(publishers(ExecutorSubjects.runTool.subject)).toEqual(['tool-gate']);
    expect(publishers(ExecutorSubjects.funds.subject)).toEqual(['planner']);
    expect(publishers(ContextSubjects.sessionSet.subject)).toEqual(['tool-gate']);
    expect(publishers('cota.planner.health.v1').sort()).toEqual(['gateway', 'planner']);
  });

  it('lets every gateway hear key revocations, published by gateways only, outside the events the reader sees', () => {
    const subject = AccessBroadcasts.keysRevoked.subject;
    expect(SERVICES.filter((s) => perms[s].publish.allow!.includes(subject))).toEqual(['gateway']);
    // No queue group: every replica receives it.
    expect(SERVICES.filter((s) => perms[s].subscribe.allow!.includes(subject))).toEqual(['gateway']);
    expect(subject.startsWith('cota.events.')).toBe(false);
  });

  it('gives the event reader read-only access to events: live telemetry and replays through its own consumers', () => {
    const reader = perms[EVENT_READER];
    expect(reader.subscribe.allow).toEqual(['cota.events.>', '_INBOX.events.>']);
    // Only JetStream API requests on the warehouse stream: never an event, never the alerts' durable consumer.
    expect(reader.publish.allow!.every((p) => p.startsWith('$JS.API.'))).toBe(true);
    expect(reader.publish.allow!.some((p) => p.startsWith('cota.'))).toBe(false);
    expect(reader.publish.deny).toEqual(
      expect.arrayContaining([`$JS.API.CONSUMER.MSG.NEXT.${WAREHOUSE_STREAM}.${ALERTS_CONSUMER}`, `$JS.API.CONSUMER.DELETE.${WAREHOUSE_STREAM}.${ALERTS_CONSUMER}`]),
    );
    expect(eventsOutsideTheirNamespace()).toEqual([]);
  });

  it('lets only the ingest worker write the warehouse change events, and the executor hear and evaluate them', () => {
    const writers = Object.entries(perms).filter(([, p]) => p.publish.allow?.includes(WAREHOUSE_EVENTS_SUBJECTS));
    expect(writers.map(([u]) => u)).toEqual([FEEDS_PUBLISHER]);
    expect(perms[FEEDS_PUBLISHER].subscribe.allow).toEqual(['_INBOX.ingest-worker.>']);
    expect(perms.executor.subscribe.allow).toContain(WAREHOUSE_EVENTS_SUBJECTS);
    expect(perms.executor.publish.allow).toContain(`$JS.API.CONSUMER.MSG.NEXT.${WAREHOUSE_STREAM}.${ALERTS_CONSUMER}`);
    expect(perms.gateway.publish.allow!.some((p) => p.startsWith('$JS.'))).toBe(false);
  });

  it('renders a server config with one user per service and no password in it', () => {
    const conf = renderNatsConfig();
    for (const s of [...SERVICES, EVENT_READER]) expect(conf).toContain(`user: "${s}"`);
    expect(conf).toContain('password: $COTA_NATS_PASSWORD_TOOL_GATE');
    expect(conf).not.toMatch(/password: "/);
  });
});
