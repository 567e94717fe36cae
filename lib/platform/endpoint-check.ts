import { Logger } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { interfaceMounts } from '../options/interface-mounts.js';
import { mountBases, uriVersioned } from '../shared/nest-route-paths.js';

const logger = new Logger('CrudApi');

/**
 * Whether the path of `endpoint` ends with none of the paths the REST routes are served at. Only
 * the end is compared: a proxy may serve the API below a path of its own (`/shop/v1/api/rest`).
 */
function endpointMissesMount(endpoint: string, bases: readonly string[]): boolean {
  const path = new URL(endpoint).pathname.replace(/\/+$/, '');
  return !bases.some((base) => path.endsWith(base));
}

/**
 * Warns, once at start-up, when URI versioning serves the REST routes below a version that
 * `endpoint` leaves out: every JSON:API link is built from `endpoint`, so each would miss the
 * version and lead nowhere. Other versioning types keep the paths, so `endpoint` is not checked.
 */
export function warnOnEndpointOutsideMount(
  moduleRef: ModuleRef,
  options: Pick<ResolvedCrudApiOptions, 'endpoint' | 'restPath' | 'rpcPath' | 'version' | 'defaultPaths'>,
): void {
  if (!uriVersioned(moduleRef)) return;
  const bases = mountBases(moduleRef, interfaceMounts(options).rest);
  if (!endpointMissesMount(options.endpoint, bases)) return;
  logger.warn(
    `endpoint ${options.endpoint} does not end with the path URI versioning serves the REST routes at ` +
      `(${bases.join(', ')}): the JSON:API links built from it miss the version. ` +
      `Give endpoint that path, as in ${new URL(bases[0]!, options.endpoint).href}.`,
  );
}
