import type { NestMount } from '../shared/nest-route-paths.js';
import type { ApiKind } from './crud-api-route.js';

/**
 * Tells which interface of one module instance a request path addresses, before routing (body
 * parsing runs before it): the path must be under one of the URL paths Nest serves the interface's
 * controller at (`bases`, which follow the global prefix, its exclusions and URI versions).
 */
export class ApiMounts {
  private readonly mounts: ReadonlyArray<[ApiKind, NestMount]>;
  /** Each mount's bases as the first request found them: Nest's routes no longer change then. */
  private served?: ReadonlyArray<[ApiKind, string[]]>;

  constructor(
    mounts: Readonly<Record<ApiKind, NestMount>>,
    /** Not read before needed: the application sets its prefix and versioning after the module is created. */
    private readonly bases: (mount: NestMount) => string[],
  ) {
    this.mounts = [
      ['rest', mounts.rest],
      ['rpc', mounts.rpc],
    ];
  }

  /** Called per request, once the application serves requests: its routes are registered by then. */
  kindOf(path: string): ApiKind | undefined {
    this.served ??= this.mounts.map(([kind, mount]) => [kind, this.bases(mount)]);
    return this.served.find(([, bases]) => bases.some((base) => path === base || path.startsWith(`${base}/`)))?.[0];
  }

  /** Whether `url` is the URL pattern Nest registers for the `route` of an interface's mount. */
  isMountRoute(kind: ApiKind, url: string): boolean {
    return this.mounts.some(
      ([mounted, mount]) => mounted === kind && this.bases(mount).some((base) => url === `${base}/${mount.route}`),
    );
  }
}
