import type { NestMount } from '../shared/nest-route-paths.js';
import { ApiMounts } from './api-mounts.js';

describe('ApiMounts', () => {
  const rest: NestMount = { path: 'api/rest', route: ':type' };
  const rpc: NestMount = { path: 'api/rpc', route: ':model/:operation' };
  let bases: Map<NestMount, string[]>;
  let mounts: ApiMounts;

  beforeEach(() => {
    bases = new Map([
      [rest, ['/api/rest']],
      [rpc, ['/api/rpc']],
    ]);
    mounts = new ApiMounts({ rest, rpc }, (mount) => bases.get(mount)!);
  });

  it('tells the interface a path is under, the base followed by a slash or ending the path', () => {
    expect(mounts.kindOf('/api/rest')).toBe('rest');
    expect(mounts.kindOf('/api/rest/post/1')).toBe('rest');
    expect(mounts.kindOf('/api/rpc/post/findMany')).toBe('rpc');
    expect(mounts.kindOf('/api/restless')).toBeUndefined();
    expect(mounts.kindOf('/other/api/rest')).toBeUndefined();
  });

  it('reads the bases at the first request, each URI version of a mount counting', () => {
    bases.set(rest, ['/v1/api/rest', '/api/rest', '/v2/api/rest']);
    let reads = 0;
    const served = new ApiMounts({ rest, rpc }, (mount) => (reads++, bases.get(mount)!));
    expect(reads).toBe(0);
    expect(served.kindOf('/v2/api/rest/post')).toBe('rest');
    expect(served.kindOf('/api/rest/post')).toBe('rest');
    expect(served.kindOf('/v3/api/rest/post')).toBeUndefined();
    expect(reads).toBe(2);
  });

  it('recognizes the URL Nest registers for a mount’s route under each base', () => {
    bases.set(rpc, ['/p/v1/api/rpc', '/p/v2/api/rpc']);
    expect(mounts.isMountRoute('rpc', '/p/v2/api/rpc/:model/:operation')).toBe(true);
    expect(mounts.isMountRoute('rpc', '/api/rpc/:model/:operation')).toBe(false);
    expect(mounts.isMountRoute('rest', '/p/v2/api/rpc/:model/:operation')).toBe(false);
  });
});
