// The entity catalog is its own library (the planner and narrator read it too); re-exported here.
export * from '@cota/catalog';
export * from './query/query-builder';
export * from './query/entity-query.service';
export * from './query/measure-query';
export * from './schema/tables';
export * from './schema/views';
export * from './schema/migrations';
export { IngestError } from './ingest/csv';
export * from './ingest/run-ingest';
export type { Disagreement } from './ingest/reconcile';
export type { TableChange } from './ingest/sync';
export * from './ensure-warehouse';
export * from './derived/yields';
export * from './derived/risk';
export * from './derived/rankings';
export * from './derived/client-performance';
export * from './derived/demo-clients';
export * from './bench';
