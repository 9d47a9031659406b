import { EventDef, RpcDef, SERVICES, ServiceName, StreamDef } from './define';
import { ALL_BROADCASTS, ALL_RPCS } from './registry';
import { Events } from './subjects/events';
import { PlannerSubjects } from './subjects/planner';
import { ContextSubjects } from './subjects/context';
import { ExecutorBroadcasts, ExecutorSubjects } from './subjects/executor';
import { ToolGateSubjects } from './subjects/tool-gate';
import { RagSubjects } from './subjects/rag';
import { NarratorStream, NarratorSubjects } from './subjects/narrator';
import { HealthSubjects } from './subjects/health';
import { PrivacySubjects } from './subjects/privacy';
import { AccessBroadcasts } from './subjects/access';
import { ALERTS_CONSUMER, WAREHOUSE_EVENTS_SUBJECTS, WAREHOUSE_STREAM } from './subjects/warehouse-events';

/**
 * Who may call what on the bus (issue 11, "a closed bus"). The subjects and the service that serves
 * each are declared with the subjects; this file declares the callers, read from apps/<service>/src
 * and the libraries each service runs (libs/orchestration runs in the gateway, libs/tool-gating in
 * the tool-gate). The NATS users and their permissions (deploy/nats/nats.conf, the ConfigMap in
 * deploy/base) are generated from it: a call not listed here is refused by the server.
 */

/** The read-only user of developers' event readers (`npm run events`). */
export const EVENT_READER = 'events' as const;
/** The ingest worker's user: it serves and calls nothing, it only puts the warehouse change events into their stream. */
export const FEEDS_PUBLISHER = 'ingest-worker' as const;
export type NatsUser = ServiceName | typeof EVENT_READER | typeof FEEDS_PUBLISHER;
export const NATS_USERS: readonly NatsUser[] = [...SERVICES, FEEDS_PUBLISHER, EVENT_READER];

/**
 * Who uses the warehouse change events (JetStream stream WAREHOUSE_STREAM). The executor hears every one
 * on every replica (its read cache drops what an event changed) and reads them once per event through
 * the durable consumer ALERTS_CONSUMER (the clients' alerts).
 */
export const WAREHOUSE_EVENT_LISTENERS: readonly ServiceName[] = ['executor'];
export const ALERTS_EVALUATOR: ServiceName = 'executor';

/** JetStream API subjects (nats.js asks `$JS.API.INFO` before its first JetStream call). */
const jsApi = {
  info: '$JS.API.INFO',
  streamInfo: `$JS.API.STREAM.INFO.${WAREHOUSE_STREAM}`,
  streamWrite: [`$JS.API.STREAM.CREATE.${WAREHOUSE_STREAM}`, `$JS.API.STREAM.UPDATE.${WAREHOUSE_STREAM}`],
  consumer: (name: string) => [
    `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}`,
    `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}.${name}`,
    `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}.${name}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${WAREHOUSE_STREAM}.${name}`,
    `$JS.API.CONSUMER.INFO.${WAREHOUSE_STREAM}.${name}`,
    `$JS.API.CONSUMER.MSG.NEXT.${WAREHOUSE_STREAM}.${name}`,
    `$JS.ACK.${WAREHOUSE_STREAM}.${name}.>`,
  ],
};

const gateway: ServiceName[] = ['gateway'];

/** Callers of every request-reply subject. */
export const RPC_CALLERS: ReadonlyArray<readonly [RpcDef, readonly ServiceName[]]> = [
  // The turn protocol (libs/orchestration, in the gateway): open → plan → act → narrate → commit.
  [ContextSubjects.open, gateway],
  [PlannerSubjects.plan, gateway],
  [ContextSubjects.commit, gateway],
  // Conversation history and the ops endpoints of the gateway.
  [ContextSubjects.history, gateway],
  [ContextSubjects.debug, gateway],
  [ContextSubjects.clear, gateway],
  // The client's conversation list, titles, deletion and feedback (the page), and the feedback export (ops).
  [ContextSubjects.list, gateway],
  [ContextSubjects.rename, gateway],
  [ContextSubjects.remove, gateway],
  [ContextSubjects.feedback, gateway],
  [ContextSubjects.feedbackExport, gateway],
  // Tool session values: only the tool gate reads and writes them (libs/tool-gating BusSessionStore).
  [ContextSubjects.sessionGet, ['tool-gate']],
  [ContextSubjects.sessionSet, ['tool-gate']],
  [ExecutorSubjects.query, gateway],
  [ExecutorSubjects.measure, gateway],
  // The planner's fund list (apps/planner fund-list.loader).
  [ExecutorSubjects.funds, ['planner']],
  // Tools run only once the tool gate resolved and approved them (libs/tool-gating BusToolRunner).
  [ExecutorSubjects.runTool, ['tool-gate']],
  // B3 statements uploaded over HTTP (POST /me/imports) and the yearly tax report's CSV download.
  [ExecutorSubjects.stageImport, gateway],
  [ExecutorSubjects.getImport, gateway],
  [ExecutorSubjects.taxReport, gateway],
  // The client's alert notifications (GET /me/notifications, the page's bell).
  [ExecutorSubjects.notifications, gateway],
  [ExecutorSubjects.notificationsRead, gateway],
  // The client's alert rules (the page's alerts panel: list, pause, resume, remove).
  [ExecutorSubjects.alerts, gateway],
  [ExecutorSubjects.alertChange, gateway],
  [ToolGateSubjects.invoke, gateway],
  [RagSubjects.retrieve, gateway],
  [RagSubjects.reindex, gateway],
  [NarratorSubjects.narrate, gateway],
  // Erasure (ClientErasure in the gateway and `npm run erase`, which runs with the gateway's user).
  [PrivacySubjects.fenceGateway, gateway],
  [PrivacySubjects.eraseContext, gateway],
  [PrivacySubjects.eraseExecutor, gateway],
  [PrivacySubjects.eraseGateway, gateway],
  // Health: the gateway's readiness asks every service; each service's exec probe (cli/health.js,
  // run in its own pod with its own user) asks its own.
  ...SERVICES.map((s) => [HealthSubjects[s], s === 'gateway' ? gateway : (['gateway', s] as ServiceName[])] as const),
];

/** Per-request streams: the owner publishes, the followers subscribe. */
export const STREAM_FOLLOWERS: ReadonlyArray<readonly [StreamDef, readonly ServiceName[]]> = [[NarratorStream, gateway]];

/** Broadcasts: the owner publishes, every replica of the subscribers receives (no queue group). */
export const BROADCAST_SUBSCRIBERS: ReadonlyArray<readonly [EventDef, readonly ServiceName[]]> = [
  [AccessBroadcasts.keysRevoked, gateway],
  [ExecutorBroadcasts.notificationCreated, gateway],
];

/** One NATS user's permissions, as the server's `permissions` block. */
export interface NatsPermissions {
  publish: { allow?: string[]; deny?: string[] };
  subscribe: { allow?: string[]; deny?: string[] };
  /** Lets a responder publish its reply to the requester's inbox (once, only while the request is open). */
  allow_responses?: boolean;
}

/** The reply inbox of a user (NatsTransport sets it as the connection's inbox prefix). */
export const inboxOf = (user: string) => `_INBOX.${user.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** The environment variable the NATS server reads the user's password from. */
export const natsPasswordVariable = (user: NatsUser) => `COTA_NATS_PASSWORD_${user.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

const uniq = (xs: string[]) => [...new Set(xs)];

/** Every user's permissions, derived from the registry and the callers above. */
export function natsPermissions(): Record<NatsUser, NatsPermissions> {
  const declared = new Set([...RPC_CALLERS, ...BROADCAST_SUBSCRIBERS].map(([d]) => d.subject));
  const undeclared = [...ALL_RPCS, ...ALL_BROADCASTS].filter((r) => !declared.has(r.subject)).map((r) => r.subject);
  if (undeclared.length) throw new Error(`bus-access: no callers declared for ${undeclared.join(', ')}`);

  const out = {} as Record<NatsUser, NatsPermissions>;
  for (const s of SERVICES) {
    const calls = RPC_CALLERS.filter(([, callers]) => callers.includes(s)).map(([d]) => d.subject);
    const serves = ALL_RPCS.filter((r) => r.service === s);
    const streams = STREAM_FOLLOWERS.filter(([d]) => d.service === s).map(([d]) => `${d.prefix}.>`);
    const follows = STREAM_FOLLOWERS.filter(([, f]) => f.includes(s)).map(([d]) => `${d.prefix}.>`);
    const broadcasts = BROADCAST_SUBSCRIBERS.filter(([d]) => d.service === s).map(([d]) => d.subject);
    const hears = BROADCAST_SUBSCRIBERS.filter(([, f]) => f.includes(s)).map(([d]) => d.subject);
    const warehouse = WAREHOUSE_EVENT_LISTENERS.includes(s) ? [WAREHOUSE_EVENTS_SUBJECTS] : [];
    const evaluator = s === ALERTS_EVALUATOR ? [jsApi.info, jsApi.streamInfo, ...jsApi.consumer(ALERTS_CONSUMER)] : [];
    out[s] = {
      publish: { allow: uniq([...calls, `cota.events.${s}.>`, ...streams, ...broadcasts, ...evaluator]) },
      subscribe: {
        // Its own subjects, in its own queue group only; its own reply inbox; the streams it follows; the broadcasts it hears.
        allow: uniq([...serves.map((r) => `${r.subject} ${r.service}`), ...(calls.length || evaluator.length ? [`${inboxOf(s)}.>`] : []), ...follows, ...hears, ...warehouse]),
      },
      allow_responses: serves.length > 0,
    };
  }
  // The stream's only writer: the change events, the stream's creation, and the stream's acks on its inbox.
  out[FEEDS_PUBLISHER] = {
    publish: { allow: [WAREHOUSE_EVENTS_SUBJECTS, jsApi.info, jsApi.streamInfo, ...jsApi.streamWrite] },
    subscribe: { allow: [`${inboxOf(FEEDS_PUBLISHER)}.>`] },
  };
  // Reads the live telemetry and replays the stream through its own ephemeral consumers (npm run events --since).
  out[EVENT_READER] = {
    publish: {
      allow: [
        jsApi.info,
        jsApi.streamInfo,
        `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}`,
        `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}.*`,
        `$JS.API.CONSUMER.CREATE.${WAREHOUSE_STREAM}.*.>`,
        `$JS.API.CONSUMER.INFO.${WAREHOUSE_STREAM}.*`,
        `$JS.API.CONSUMER.MSG.NEXT.${WAREHOUSE_STREAM}.*`,
        `$JS.API.CONSUMER.DELETE.${WAREHOUSE_STREAM}.*`,
      ],
      deny: [
        ...jsApi.consumer(ALERTS_CONSUMER).filter((x) => x.includes(`.${ALERTS_CONSUMER}`) && !x.startsWith('$JS.ACK')),
        `$JS.API.CONSUMER.DELETE.${WAREHOUSE_STREAM}.${ALERTS_CONSUMER}`,
      ],
    },
    subscribe: { allow: ['cota.events.>', `${inboxOf(EVENT_READER)}.>`] },
  };
  return out;
}

const q = (s: string) => JSON.stringify(s);
const list = (xs: string[]) => `[${xs.map(q).join(', ')}]`;

function renderRule(rule: { allow?: string[]; deny?: string[] }): string {
  const parts: string[] = [];
  if (rule.allow) parts.push(`allow: ${list(rule.allow)}`);
  if (rule.deny) parts.push(`deny: ${list(rule.deny)}`);
  return `{ ${parts.join(', ')} }`;
}

/**
 * The NATS server configuration (users and permissions). Passwords are never in it: each is read
 * from the server's environment (`$COTA_NATS_PASSWORD_<USER>`), so the server does not start when one
 * is missing. Committed as deploy/nats/nats.conf and in deploy/base/nats-config.yaml; test/deploy
 * fails when they differ from this (regenerate: UPDATE_NATS_AUTH=1 npx jest --config jest.config.cjs test/deploy).
 */
export function renderNatsConfig(): string {
  const perms = natsPermissions();
  const users = NATS_USERS.map((u) => {
    const p = perms[u];
    const lines = [
      `    {`,
      `      user: ${q(u)}`,
      `      password: $${natsPasswordVariable(u)}`,
      `      permissions: {`,
      `        publish: ${renderRule(p.publish)}`,
      `        subscribe: ${renderRule(p.subscribe)}`,
      ...(p.allow_responses ? [`        allow_responses: true`] : []),
      `      }`,
      `    }`,
    ];
    return lines.join('\n');
  });
  return [
    '# Cota NATS users: one per service plus the read-only event reader.',
    '# Generated from libs/contracts (bus-access.ts); do not edit by hand.',
    '# Regenerate: UPDATE_NATS_AUTH=1 npx jest --config jest.config.cjs test/deploy',
    '# Passwords come from the server environment: ' + NATS_USERS.map((u) => natsPasswordVariable(u)).join(', '),
    'authorization {',
    '  users: [',
    users.join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** Every telemetry event is namespaced by the service that publishes it (its only publish right on events). */
export function eventsOutsideTheirNamespace(): string[] {
  return Object.values(Events)
    .filter((e) => !e.subject.startsWith(`cota.events.${e.service}.`))
    .map((e) => e.subject);
}
