import type { Request } from 'express';

export type ApiKind = 'rest' | 'rpc';

function mountPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|/)${escaped}(/|$)`);
}

/**
 * Tells which interface a request addresses from its URL path alone, so it works before routing
 * (body parsing) and under any global prefix: the mount path must appear as whole path segments.
 */
export class ApiMounts {
  private readonly patterns: ReadonlyArray<[ApiKind, RegExp]>;

  constructor(restPath: string, rpcPath: string) {
    this.patterns = [
      ['rest', mountPattern(restPath)],
      ['rpc', mountPattern(rpcPath)],
    ];
  }

  kindOf(request: Pick<Request, 'originalUrl' | 'url'>): ApiKind | undefined {
    const path = (request.originalUrl ?? request.url ?? '').split('?')[0] ?? '';
    return this.patterns.find(([, pattern]) => pattern.test(path))?.[0];
  }
}
