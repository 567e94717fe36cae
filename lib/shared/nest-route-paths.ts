import { type ControllerOptions, RequestMethod, VersioningType } from '@nestjs/common';
import type { ApplicationConfig, ModuleRef } from '@nestjs/core';
// Nest's own path composition (global prefix and its exclusions, URI versions), as @nestjs/swagger uses it.
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory.js';

/** A controller's version: a string, `VERSION_NEUTRAL` or a list of them (`@Controller({ version })`). */
export type RouteVersion = NonNullable<ControllerOptions['version']>;

/** One controller of the module, as Nest will route it. */
export interface NestMount {
  /** The controller path (`restPath`, `rpcPath`). */
  path: string;
  /** One of its route paths, relative to `path`: the global prefix exclusions are matched against it. */
  route: string;
  /** Its own version; without one it gets the versioning's `defaultVersion`, as Nest gives it. */
  version?: RouteVersion;
  /** `path` is the module's default (`api/rest`): see `servedPath`. */
  defaulted?: boolean;
}

/**
 * The application configuration the container holds (global prefix, versioning): set after the
 * modules are created, so it is read when needed. Nest offers modules no public accessor for it.
 */
function applicationConfigOf(moduleRef: ModuleRef): ApplicationConfig | undefined {
  return (moduleRef as unknown as { container?: { applicationConfig?: ApplicationConfig } }).container
    ?.applicationConfig;
}

/** Whether the application versions its routes in the URI (`enableVersioning({ type: VersioningType.URI })`). */
export function uriVersioned(moduleRef: ModuleRef): boolean {
  return applicationConfigOf(moduleRef)?.getVersioning()?.type === VersioningType.URI;
}

/**
 * The URL paths under which Nest serves a controller's routes, one per URI version (a single one
 * otherwise), each without a trailing slash: `/app/v1/api/rest` for `api/rest` under
 * `setGlobalPrefix('app')` and `enableVersioning({ type: URI, defaultVersion: '1' })`. Composed by
 * Nest's `RoutePathFactory` with the configuration as it is now, exclusions from the prefix included.
 */
export function mountBases(moduleRef: ModuleRef, mount: NestMount): string[] {
  return composedBases(moduleRef, { ...mount, path: servedPath(moduleRef, mount) });
}

/**
 * The controller path a mount is served at. A default path (`api/rest`, `api/rpc`, `api/docs`)
 * leaves out its `api` segment when the URL path would have one already before it (a global
 * prefix `api` or `api/v2`, not excluded): `/api/rest`, never `/api/api/rest`. Any other path is
 * served as given.
 */
export function servedPath(moduleRef: ModuleRef, mount: NestMount): string {
  const [first, ...rest] = mount.path.split('/');
  if (!mount.defaulted || first !== 'api' || rest.length === 0) return mount.path;
  const short = rest.join('/');
  const [base] = composedBases(moduleRef, { ...mount, path: short });
  return base!
    .slice(0, -short.length - 1)
    .split('/')
    .includes('api')
    ? short
    : mount.path;
}

function composedBases(moduleRef: ModuleRef, mount: NestMount): string[] {
  const config = applicationConfigOf(moduleRef);
  const route = `/${mount.route}`;
  if (!config) return [`/${mount.path}`];
  const versioningOptions = config.getVersioning();
  const paths = new RoutePathFactory(config).create(
    {
      ctrlPath: mount.path,
      methodPath: mount.route,
      globalPrefix: config.getGlobalPrefix(),
      versioningOptions,
      controllerVersion: versioningOptions ? (mount.version ?? versioningOptions.defaultVersion) : undefined,
    },
    RequestMethod.GET,
  );
  return paths.map((path) => (path.endsWith(route) ? path.slice(0, -route.length) : path));
}
