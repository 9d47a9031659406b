import { QueryParams, QueryResult, queryParams } from '@cota/contracts';

/**
 * Reads one catalog entity (client entities are always scoped to `clientId` by the warehouse).
 * In the executor this is its EntityQueryService, in process: the tools use the same catalog,
 * SQL building and client scoping as every answer instead of SQL of their own.
 */
export interface WarehouseQuery {
  query(entity: string, params: Partial<QueryParams>, ctx: { request_id: string; client_id: string }): Promise<QueryResult>;
}

/** Full QueryParams from the few a tool sets (the rest are the entity defaults). */
export { queryParams };
