import type { ApiKind } from '../filters/send-api-error.js';

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * Tells which interface of one module instance a request path addresses, before routing (body
 * parsing runs before it): the mount path must follow the application's global prefix directly.
 */
export class ApiMounts {
  private readonly mounts: ReadonlyArray<[ApiKind, string]>;

  constructor(restPath: string, rpcPath: string) {
    this.mounts = [
      ['rest', trimSlashes(restPath)],
      ['rpc', trimSlashes(rpcPath)],
    ];
  }

  kindOf(path: string, globalPrefix = ''): ApiKind | undefined {
    const prefix = trimSlashes(globalPrefix);
    return this.mounts.find(([, mount]) => {
      const base = `/${prefix ? `${prefix}/` : ''}${mount}`;
      return path === base || path.startsWith(`${base}/`);
    })?.[0];
  }
}
