import { z } from 'zod';
import { defineBroadcast, defineRpc } from '../define';
import { QueryParams, QueryResult } from '../common';
import { MeasureResult, StructuredQuestion } from '../question';

export const QueryRequest = z.object({
  request_id: z.string().min(1),
  /** The authenticated client (client entities are always filtered by it). */
  client_id: z.string().min(1),
  entity: z.string().min(1).max(64),
  params: QueryParams,
});

/** A structured question to compute (aggregations in SQL built from the measure catalog). */
export const MeasureRequest = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  question: StructuredQuestion,
});

export const FundsRequest = z.object({});
export const Fund = z.object({ ticker: z.string(), name: z.string().nullable(), cnpj: z.string().nullable() });
export const FundsResponse = z.object({ funds: z.array(Fund) });

/** Runs a tool whose arguments the tool gate already resolved and approved. */
export const ToolRunRequest = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  conversation_id: z.string().min(1),
  name: z.string().min(1).max(64),
  args: z.record(z.unknown()),
});
export const ToolRunResponse = z.object({
  name: z.string(),
  ok: z.boolean(),
  result: z.unknown(),
  /** Session values the tool sets (e.g. active_report_id). */
  session_updates: z.array(z.object({ key: z.string(), value: z.unknown(), ttl_seconds: z.number().int().positive().nullable() })),
});

/** A row of a B3 statement, by line, and why it was left out or refused. */
export const ImportIssue = z.object({ line: z.number().int().nonnegative(), reason: z.string() });

/** An uploaded B3 statement: staged (previewed; nothing in the ledger) or confirmed. */
export const ImportView = z.object({
  import_id: z.string(),
  status: z.enum(['staged', 'confirmed']),
  file_name: z.string(),
  conversation_id: z.string().nullable(),
  summary: z.record(z.unknown()),
  preview: z.string(),
  added: z.number().int().nullable(),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
});

/** Largest statement accepted, in bytes (its base64 must fit a NATS message of 1 MB). */
export const MAX_STATEMENT_BYTES = 512 * 1024;

/** A B3 statement uploaded by the client (the gateway read the multipart body), to read, check and stage. */
export const StageImportRequest = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  conversation_id: z.string().min(1).max(128).nullable(),
  file_name: z.string().min(1).max(255),
  content_base64: z
    .string()
    .min(1)
    .max(Math.ceil(MAX_STATEMENT_BYTES / 3) * 4 + 4),
});
/** The staged import, or why the file was refused (`errors` by line; nothing written). */
export const StageImportResponse = z.object({ import: ImportView.nullable(), message: z.string(), errors: z.array(ImportIssue) });

export const GetImportRequest = z.object({ client_id: z.string().min(1), import_id: z.string().min(1).max(64) });
export const GetImportResponse = z.object({ import: ImportView.nullable() });

/** The client's yearly income-tax report as CSV (from the ledger). */
export const TaxReportRequest = z.object({ client_id: z.string().min(1), year: z.number().int().min(2000).max(2100) });
export const TaxReportResponse = z.object({ file_name: z.string(), csv: z.string(), empty: z.boolean() });

/** A notification of the client's alerts (libs/alerts), as the page shows it. */
export const ClientNotification = z.object({
  notification_id: z.number().int().positive(),
  rule_id: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
  read: z.boolean(),
});
export type ClientNotification = z.infer<typeof ClientNotification>;
/** The client's newest notifications and how many are unread. */
export const NotificationsRequest = z.object({
  client_id: z.string().min(1),
  limit: z.number().int().min(1).max(100).default(50),
});
export const NotificationsResponse = z.object({ notifications: z.array(ClientNotification), unread: z.number().int().nonnegative() });
/** Marks the client's notifications read, up to `up_to` (null: all). */
export const NotificationsReadRequest = z.object({ client_id: z.string().min(1), up_to: z.number().int().positive().nullable() });
export const NotificationsReadResponse = z.object({ marked: z.number().int().nonnegative(), unread: z.number().int().nonnegative() });

/** One of the client's alert rules, as the page's alerts panel shows it (numbered as in the chat). */
export const ClientAlert = z.object({
  alert_id: z.string(),
  /** Its position in the client's list (oldest first): the number the chat's "remover alerta 2" takes. */
  number: z.number().int().positive(),
  /** The rule in words ("quando o XPML11 anunciar um provento"). */
  description: z.string(),
  status: z.enum(['active', 'paused']),
  created_at: z.string(),
});
export type ClientAlert = z.infer<typeof ClientAlert>;
export const AlertsRequest = z.object({ client_id: z.string().min(1) });
export const AlertsResponse = z.object({ alerts: z.array(ClientAlert) });
/** Pauses, resumes or removes one of the client's alerts (`found` false: the client has no such alert); `alerts` is the list after it. */
export const AlertChangeRequest = z.object({ client_id: z.string().min(1), alert_id: z.string().min(1).max(64), action: z.enum(['pause', 'resume', 'remove']) });
export const AlertChangeResponse = z.object({ found: z.boolean(), changed: z.boolean(), message: z.string(), alerts: z.array(ClientAlert) });

/** A notification just written for a client: every gateway replica pushes it to that client's open streams. */
export const NotificationCreated = z.object({ client_id: z.string().min(1), notification: ClientNotification });
export type NotificationCreated = z.infer<typeof NotificationCreated>;
export const ExecutorBroadcasts = {
  notificationCreated: defineBroadcast({ subject: 'cota.executor.notification-created.v1', service: 'executor', payload: NotificationCreated }),
};

export const ExecutorSubjects = {
  query: defineRpc({ subject: 'cota.executor.query.v1', service: 'executor', request: QueryRequest, response: QueryResult, timeoutMs: 10000, idempotent: true }),
  measure: defineRpc({ subject: 'cota.executor.measure.v1', service: 'executor', request: MeasureRequest, response: MeasureResult, timeoutMs: 10000, idempotent: true }),
  funds: defineRpc({ subject: 'cota.executor.funds.v1', service: 'executor', request: FundsRequest, response: FundsResponse, idempotent: true }),
  runTool: defineRpc({ subject: 'cota.executor.run-tool.v1', service: 'executor', request: ToolRunRequest, response: ToolRunResponse, timeoutMs: 15000 }),
  stageImport: defineRpc({ subject: 'cota.executor.stage-import.v1', service: 'executor', request: StageImportRequest, response: StageImportResponse, timeoutMs: 20000 }),
  getImport: defineRpc({ subject: 'cota.executor.get-import.v1', service: 'executor', request: GetImportRequest, response: GetImportResponse, idempotent: true }),
  taxReport: defineRpc({ subject: 'cota.executor.tax-report.v1', service: 'executor', request: TaxReportRequest, response: TaxReportResponse, timeoutMs: 15000, idempotent: true }),
  notifications: defineRpc({ subject: 'cota.executor.notifications.v1', service: 'executor', request: NotificationsRequest, response: NotificationsResponse, idempotent: true }),
  notificationsRead: defineRpc({ subject: 'cota.executor.notifications-read.v1', service: 'executor', request: NotificationsReadRequest, response: NotificationsReadResponse }),
  alerts: defineRpc({ subject: 'cota.executor.alerts.v1', service: 'executor', request: AlertsRequest, response: AlertsResponse, idempotent: true }),
  alertChange: defineRpc({ subject: 'cota.executor.alert-change.v1', service: 'executor', request: AlertChangeRequest, response: AlertChangeResponse }),
};
