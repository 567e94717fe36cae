import type { NestMount } from '../shared/nest-route-paths.js';
import type { ResolvedCrudApiOptions } from './crud-api-options.interface.js';

/** The REST collection route, relative to the mount path. */
export const REST_COLLECTION_ROUTE = ':type';

/** The RPC route, relative to the mount path. */
export const RPC_ROUTE = ':model/:operation';

/** The interfaces' controllers of one instance as Nest routes them, each with one of its routes. */
export function interfaceMounts(
  options: Pick<ResolvedCrudApiOptions, 'restPath' | 'rpcPath' | 'version' | 'defaultPaths'>,
): Readonly<Record<'rest' | 'rpc', NestMount>> {
  const { version, defaultPaths } = options;
  return {
    rest: { path: options.restPath, route: REST_COLLECTION_ROUTE, version, defaulted: defaultPaths?.rest },
    rpc: { path: options.rpcPath, route: RPC_ROUTE, version, defaulted: defaultPaths?.rpc },
  };
}
