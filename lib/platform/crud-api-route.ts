import type { ApiKind } from '../filters/send-api-error.js';

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
