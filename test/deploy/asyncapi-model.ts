import {
  ALERTS_CONSUMER,
  ALL_BROADCASTS,
  ALL_RPCS,
  BROADCAST_SUBSCRIBERS,
  ERROR_CODES,
  EventDef,
  Events,
  NarratorStream,
  RpcDef,
  WAREHOUSE_EVENT_LISTENERS,
  WAREHOUSE_EVENT_SAMPLES,
  WAREHOUSE_STREAM,
  WarehouseEvents,
  type WarehouseEventName,
} from '@cota/contracts';
import { JsonSchema, zodToJsonSchema } from './zod-json-schema';

/**
 * The AsyncAPI 3.0 document as the contracts define it today. `docs/asyncapi.yaml` must equal
 * it (the deploy test compares them); `UPDATE_ASYNCAPI=1` makes that test rewrite the file.
 */

/** `cota.rag.retrieve.v1` -> `cota_rag_retrieve_v1` (AsyncAPI ids allow letters, digits, _ and -). */
export const channelId = (subject: string): string => subject.replace(/[^A-Za-z0-9]/g, '_');

const pascal = (subject: string): string =>
  subject
    .replace(/^cota\./, '')
    .replace(/\.v\d+$/, '')
    .split(/[.\-]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');

const WIRE_ERROR: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', enum: [...ERROR_CODES] },
    message: { type: 'string' },
    service: { type: 'string' },
    details: { type: 'object', additionalProperties: {} },
  },
  required: ['code', 'message'],
};

/** What every request carries besides its payload (libs/messaging/src/call-scope.ts). */
const REQUEST_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    'Cota-Deadline': {
      type: 'string',
      pattern: '^[0-9]+$',
      description:
        "Absolute deadline of the question, epoch milliseconds (set by the gateway). The caller waits the time left or the subject's timeout, whichever is smaller; a handler answers TIMEOUT without running when it has passed.",
    },
    'Cota-Request-Id': { type: 'string', description: 'The request id, for logs and correlation.' },
    traceparent: {
      type: 'string',
      pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
      description: 'W3C trace context of the calling span (OpenTelemetry, when tracing is on); the handled message becomes its child.',
    },
  },
};

/** The bus wraps every reply: `{ok: true, data}` or `{ok: false, error}` (libs/messaging/src/bus.ts). */
function replyEnvelope(ref: string): JsonSchema {
  return {
    oneOf: [
      { type: 'object', properties: { ok: { const: true }, data: { $ref: ref } }, required: ['ok', 'data'] },
      { type: 'object', properties: { ok: { const: false }, error: { $ref: '#/components/schemas/WireError' } }, required: ['ok', 'error'] },
    ],
  };
}

export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { WireError: WIRE_ERROR, RequestHeaders: REQUEST_HEADERS };

  const rpcs = [...ALL_RPCS].sort((a, b) => a.subject.localeCompare(b.subject));
  for (const rpc of rpcs as RpcDef[]) {
    const id = channelId(rpc.subject);
    const name = pascal(rpc.subject);
    schemas[`${name}Request`] = zodToJsonSchema(rpc.request);
    schemas[`${name}Response`] = zodToJsonSchema(rpc.response);
    messages[`${name}Request`] = {
      name: `${name}Request`,
      title: `${rpc.subject} request`,
      contentType: 'application/json',
      headers: { $ref: '#/components/schemas/RequestHeaders' },
      payload: { $ref: `#/components/schemas/${name}Request` },
    };
    messages[`${name}Reply`] = {
      name: `${name}Reply`,
      title: `${rpc.subject} reply`,
      contentType: 'application/json',
      payload: replyEnvelope(`#/components/schemas/${name}Response`),
    };
    channels[id] = {
      address: rpc.subject,
      title: rpc.subject,
      description:
        `Request-reply served by the ${rpc.service} service (NATS queue group '${rpc.service}'). Callers wait ${rpc.timeoutMs} ms by default` +
        ` (less when the question's deadline is nearer). ${retryNote(rpc)}` +
        ' A full bulkhead answers UNAVAILABLE at once (details.overloaded, details.retry_after_s).',
      messages: { request: { $ref: `#/components/messages/${name}Request` } },
    };
    channels[`${id}_reply`] = {
      address: null,
      title: `${rpc.subject} reply`,
      description: "The requester's NATS inbox (reply subject of the request).",
      messages: { reply: { $ref: `#/components/messages/${name}Reply` } },
    };
    operations[id] = {
      action: 'receive',
      title: `${rpc.service} serves ${rpc.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/request` }],
      reply: { channel: { $ref: `#/channels/${id}_reply` }, messages: [{ $ref: `#/channels/${id}_reply/messages/reply` }] },
    };
  }

  schemas.TelemetryEvent = zodToJsonSchema(Object.values(Events)[0].payload);
  messages.TelemetryEvent = {
    name: 'TelemetryEvent',
    title: 'Telemetry of one step',
    contentType: 'application/json',
    payload: { $ref: '#/components/schemas/TelemetryEvent' },
  };
  const events = (Object.entries(Events) as Array<[string, EventDef]>).sort((a, b) => a[1].subject.localeCompare(b[1].subject));
  for (const [key, ev] of events) {
    const id = channelId(ev.subject);
    channels[id] = {
      address: ev.subject,
      title: ev.subject,
      description: `Telemetry published by the ${ev.service} service (Events.${key}), fire-and-forget; conversation ids are hashed, no secrets or raw client data.`,
      messages: { event: { $ref: '#/components/messages/TelemetryEvent' } },
    };
    operations[id] = {
      action: 'send',
      title: `${ev.service} publishes ${ev.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/event` }],
    };
  }

  for (const b of [...ALL_BROADCASTS].sort((x, y) => x.subject.localeCompare(y.subject))) {
    const id = channelId(b.subject);
    const name = pascal(b.subject);
    const subscribers = BROADCAST_SUBSCRIBERS.find(([d]) => d.subject === b.subject)?.[1] ?? [];
    schemas[name] = zodToJsonSchema(b.payload);
    messages[name] = { name, title: b.subject, contentType: 'application/json', payload: { $ref: `#/components/schemas/${name}` } };
    channels[id] = {
      address: b.subject,
      title: b.subject,
      description: `Broadcast published by the ${b.service} service, fire-and-forget; every replica of ${subscribers.join(', ')} receives it (no queue group).`,
      messages: { broadcast: { $ref: `#/components/messages/${name}` } },
    };
    operations[id] = {
      action: 'send',
      title: `${b.service} publishes ${b.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/broadcast` }],
    };
    operations[`${id}_receive`] = {
      action: 'receive',
      title: `every ${subscribers.join(', ')} replica receives ${b.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/broadcast` }],
    };
  }

  // Warehouse change events: published by the ingest worker into the JetStream stream, read by the executor.
  const changes = (Object.entries(WarehouseEvents) as Array<[WarehouseEventName, (typeof WarehouseEvents)[WarehouseEventName]]>).sort((a, b) =>
    a[1].subject.localeCompare(b[1].subject),
  );
  for (const [key, ev] of changes) {
    const id = channelId(ev.subject);
    const name = pascal(ev.subject);
    schemas[name] = zodToJsonSchema(ev.payload);
    messages[name] = {
      name,
      title: ev.subject,
      contentType: 'application/json',
      headers: {
        type: 'object',
        properties: { 'Nats-Msg-Id': { type: 'string', description: 'The event_id: the stream stores a message id once within its duplicate window.' } },
      },
      payload: { $ref: `#/components/schemas/${name}` },
      examples: [{ name: key, payload: WAREHOUSE_EVENT_SAMPLES[key] }],
    };
    channels[id] = {
      address: ev.subject,
      title: ev.subject,
      description:
        `A change the live feeds committed to the warehouse (WarehouseEvents.${key}), published by the ingest worker from its outbox after the run's commit ` +
        `into the JetStream stream ${WAREHOUSE_STREAM} (file storage, limits retention: policies/feeds.yaml events). Every ${WAREHOUSE_EVENT_LISTENERS.join(', ')} replica hears it ` +
        `(its read cache drops what changed); the durable consumer '${ALERTS_CONSUMER}' evaluates the clients' alerts once per event.`,
      messages: { event: { $ref: `#/components/messages/${name}` } },
    };
    operations[id] = {
      action: 'send',
      title: `ingest-worker publishes ${ev.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/event` }],
    };
    operations[`${id}_receive`] = {
      action: 'receive',
      title: `${WAREHOUSE_EVENT_LISTENERS.join(', ')} receives ${ev.subject}`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/event` }],
    };
  }

  // Per-request answer stream (chat page): one subject per request id.
  schemas.AnswerDelta = zodToJsonSchema(NarratorStream.payload);
  channels.narrator_delta = {
    address: `${NarratorStream.prefix}.{request_id}`,
    title: `${NarratorStream.prefix}.<request_id>`,
    description:
      'Guarded sentences of an answer while a model writes it, for one request (the gateway relays them as server-sent events on POST /ask/stream). Only published when the narrate request sets `stream`.',
    parameters: { request_id: { description: 'The request id, with characters outside [A-Za-z0-9_-] replaced by _.' } },
    messages: { delta: { name: 'AnswerDelta', contentType: 'application/json', payload: { $ref: '#/components/schemas/AnswerDelta' } } },
  };
  operations.narrator_delta = {
    action: 'send',
    title: `narrator publishes ${NarratorStream.prefix}.<request_id>`,
    channel: { $ref: '#/channels/narrator_delta' },
    messages: [{ $ref: '#/channels/narrator_delta/messages/delta' }],
  };

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Cota messaging (NATS)',
      version: '1.0.0',
      description:
        'Every NATS subject of Cota: request-reply subjects served by the seven services, the telemetry events ' +
        '`cota.events.<service>.<event>.v1`, the warehouse change events `cota.events.warehouse.<event>.v1` (kept in a JetStream stream), and the broadcasts every replica of a service receives. Generated from libs/contracts (test/deploy/asyncapi-model.ts); ' +
        'regenerate with `UPDATE_ASYNCAPI=1 npx jest --config jest.config.cjs test/deploy`.',
    },
    defaultContentType: 'application/json',
    servers: {
      nats: { host: 'nats:4222', protocol: 'nats', description: 'NATS_URL of the deployment (docker-compose: nats://nats:4222).' },
    },
    channels,
    operations,
    components: { schemas, messages },
  };
}

function retryNote(rpc: RpcDef): string {
  if (rpc.mustLand) return 'Safe to repeat and must not be lost: the gateway tries it again while the question has time left.';
  return rpc.idempotent ? 'Idempotent: a caller may retry it.' : 'Not idempotent: never retried.';
}
