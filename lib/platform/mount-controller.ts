import { applyDecorators, Controller, type ExceptionFilter, type Type, UseFilters } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

import { excludeFromSwaggerScan } from '../openapi/swagger-scan.js';
import { type NestMount, servedPath } from '../shared/nest-route-paths.js';
import { CRUD_API_ROUTE, type CrudApiRoute, FASTIFY_ROUTE_CONFIG_METADATA } from './crud-api-route.js';

/** Nest's metadata key of a controller's and a route handler's path (`@Controller(path)`, `@Get(path)`). */
const PATH_METADATA = 'path';

/**
 * One module instance's controller: a subclass of `base` mounted at `path` (with the instance's
 * `version`, if any), with the application's `decorators` (guards, interceptors, route metadata),
 * its errors rendered by `filter`. Each route
 * handler is the subclass's own function, marked with `route` in the route config, so that on
 * Fastify the instance's body parsing applies to its routes and to no other's.
 */
export function mountController<T>(
  base: Type<T>,
  { path, version }: NestMount,
  filter: Type<ExceptionFilter>,
  route: CrudApiRoute,
  decorators: readonly ClassDecorator[] = [],
): Type<T> {
  const Mounted = class extends (base as Type<any>) {} as Type<T>;
  for (const name of Object.getOwnPropertyNames(base.prototype)) {
    const handler: unknown = base.prototype[name];
    if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
    const own = function (this: T, ...args: unknown[]) {
      return handler.apply(this, args);
    };
    for (const key of Reflect.getMetadataKeys(handler))
      Reflect.defineMetadata(key, Reflect.getMetadata(key, handler), own);
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { [CRUD_API_ROUTE]: route }, own);
    Object.defineProperty(Mounted.prototype, name, { value: own, writable: true, configurable: true });
  }
  Controller({ path, version })(Mounted);
  // The class is this instance's own: its decorators reach no other instance's routes. Applied
  // first, so the module's filter, bound after them, is the one that answers (Nest asks the last first).
  applyDecorators(...decorators)(Mounted);
  UseFilters(filter)(Mounted);
  excludeFromSwaggerScan(Mounted);
  return Mounted;
}

/** One instance's controllers, each with the mount it serves. */
export type MountedControllers = ReadonlyArray<[Type<unknown>, NestMount]>;

/**
 * Sets each controller's path to the one it is served at (`servedPath`, which follows the global
 * prefix): called as the application initializes, once its prefix is set and before Nest reads
 * the controllers' paths to register their routes.
 */
export function settleControllerPaths(moduleRef: ModuleRef, controllers: MountedControllers): void {
  for (const [controller, mount] of controllers)
    Reflect.defineMetadata(PATH_METADATA, servedPath(moduleRef, mount), controller);
}
