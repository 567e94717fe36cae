import type { ModulesContainer } from '@nestjs/core';

import { CRUD_API_MOUNT } from '../options/crud-api.constants.js';

/** What this file uses of Nest's modules (the values of `ModulesContainer`). */
interface NestModule {
  distance: number;
  readonly providers: ReadonlyMap<unknown, { instance: unknown }>;
}

/**
 * Moves the module instance that `mount` identifies (its `CRUD_API_MOUNT` value) ahead of every
 * other module in Nest's shutdown hooks. Nest calls `onModuleDestroy` module by module, by
 * distance from the root module, the root module first, so an application's own hook (a
 * `PrismaService` calling `$disconnect`) would otherwise run before the instance has drained
 * its requests, in whichever module it is. Nest 12 calls the HTTP adapter's `beforeClose` even
 * earlier, but Nest 11 has no step before the destroy hooks. In exchange the instance's init
 * hooks run last. Runs while Nest creates the providers, before it orders the modules for hooks.
 */
export function moveShutdownHooksFirst(modules: ModulesContainer, mount: symbol): void {
  const all = [...modules.values()] as unknown as NestModule[];
  const own = all.find((module) => module.providers.get(CRUD_API_MOUNT)?.instance === mount);
  if (own) own.distance = Math.min(...all.map((module) => module.distance)) - 1;
}
