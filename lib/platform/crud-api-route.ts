import type { ErrorFormat } from '../filters/send-api-error.js';
import { JSON_API_ERROR_FORMAT } from '../rest/rest-errors.js';
import { RPC_ERROR_FORMAT } from '../rpc/rpc-errors.js';

/** The module's two interfaces, each with its own error format. */
export type ApiKind = 'rest' | 'rpc';

/** The error format of each interface, for errors raised before routing (body parsing). */
export const ERROR_FORMATS: Readonly<Record<ApiKind, ErrorFormat>> = {
  rest: JSON_API_ERROR_FORMAT,
  rpc: RPC_ERROR_FORMAT,
};

/** Where Nest's Fastify adapter reads a route's `config` (the metadata key of `@RouteConfig`). */
export const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';

/** The key of the module's entry in a route's Fastify `config`. */
export const CRUD_API_ROUTE = 'crudApi';

/** What a route of the module carries, so the platform layer can tell it from the application's. */
export interface CrudApiRoute {
  kind: ApiKind;
  /** One per module instance: each instance sets up body parsing for its own routes. */
  instance: symbol;
}

/** The module's entry in a route config, if the route is one of the module's. */
export function crudApiRouteOf(config: unknown): CrudApiRoute | undefined {
  return (config as Record<string, CrudApiRoute> | undefined)?.[CRUD_API_ROUTE];
}
