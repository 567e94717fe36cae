import type { ApiKind } from './crud-api-route.js';

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** `/prefix/mount/route` from its parts, empty parts left out. */
function joinPath(...parts: string[]): string {
  return `/${parts.map(trimSlashes).filter(Boolean).join('/')}`;
}

/**
 * Tells which interface of one module instance a request path addresses, before routing (body
 * parsing runs before it): the mount path must follow the application's global prefix directly.
 */
export class ApiMounts {
  private readonly mounts: ReadonlyArray<[ApiKind, string]>;

  constructor(restPath: string, rpcPath: string) {
    this.mounts = [
      ['rest', restPath],
      ['rpc', rpcPath],
    ];
  }

  /** The mount paths under the last global prefix asked for: it is read per request and rarely changes. */
  private bases: { prefix: string; paths: ReadonlyArray<[ApiKind, string]> } | undefined;

  kindOf(path: string, globalPrefix = ''): ApiKind | undefined {
    if (this.bases?.prefix !== globalPrefix) {
      this.bases = {
        prefix: globalPrefix,
        paths: this.mounts.map(([kind, mount]) => [kind, joinPath(globalPrefix, mount)]),
      };
    }
    return this.bases.paths.find(([, base]) => path === base || path.startsWith(`${base}/`))?.[0];
  }

  /** The URL pattern of one of an interface's routes (`route` relative to its mount), as Nest registers it. */
  routeUrl(kind: ApiKind, route: string, globalPrefix = ''): string {
    const [, mount] = this.mounts.find(([mounted]) => mounted === kind)!;
    return joinPath(globalPrefix, mount, route);
  }
}
