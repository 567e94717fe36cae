import { ApiMounts } from './api-mounts.js';

describe('ApiMounts.kindOf', () => {
  const mounts = new ApiMounts('api/rest', '/api/rpc/');

  it('tells the interface a path is under, the mount followed by a slash or ending the path', () => {
    expect(mounts.kindOf('/api/rest')).toBe('rest');
    expect(mounts.kindOf('/api/rest/post/1')).toBe('rest');
    expect(mounts.kindOf('/api/rpc/post/findMany')).toBe('rpc');
    expect(mounts.kindOf('/api/restless')).toBeUndefined();
    expect(mounts.kindOf('/other/api/rest')).toBeUndefined();
  });

  it('follows the global prefix when it changes between requests', () => {
    expect(mounts.kindOf('/v1/api/rest/post', 'v1')).toBe('rest');
    expect(mounts.kindOf('/api/rest/post', 'v1')).toBeUndefined();
    expect(mounts.kindOf('/api/rest/post', '')).toBe('rest');
    expect(mounts.kindOf('/v1/api/rest/post', '')).toBeUndefined();
    expect(mounts.kindOf('/v2/api/rpc/x/y', '/v2/')).toBe('rpc');
  });
});
