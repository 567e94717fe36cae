import type { NestMount } from '../shared/nest-route-paths.js';
import type { ApiKind } from './crud-api-route.js';

/**
 * Tells which interface of one module instance a request path addresses, before routing (body
 * parsing runs before it): the path must be under one of the URL paths Nest serves the interface's
 * controller at (`bases`, which follow the global prefix, its exclusions and URI versions).
 */
export class ApiMounts {
  private readonly mounts: ReadonlyArray<[ApiKind, NestMount]>;

  constructor(
    mounts: Readonly<Record<ApiKind, NestMount>>,
    /** Read per request: the application sets its prefix and versioning after the module is created. */
    private readonly bases: (mount: NestMount) => string[],
  ) {
    this.mounts = [
      ['rest', mounts.rest],
      ['rpc', mounts.rpc],
    ];
  }

  kindOf(path: string): ApiKind | undefined {
    return this.mounts.find(([, mount]) =>
      this.bases(mount).some((base) => path === base || path.startsWith(`${base}/`)),
    )?.[0];
  }

  /** Whether `url` is the URL pattern Nest registers for the `route` of an interface's mount. */
  isMountRoute(kind: ApiKind, url: string): boolean {
    return this.mounts.some(
      ([mounted, mount]) => mounted === kind && this.bases(mount).some((base) => url === `${base}/${mount.route}`),
    );
  }
}
