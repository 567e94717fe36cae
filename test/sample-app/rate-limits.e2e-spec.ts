import request from 'supertest';

import { useSampleApp } from './sample-app-harness.js';

describe('sample app: anonymous callers are rate limited', () => {
  const sample = useSampleApp('sqlite');

  it('counts anonymous requests against "anonymous" and answers 429 once it ran out; signed-in callers are not limited', async () => {
    const agent = request(sample.app.getHttpServer());
    const first = await agent.get('/api/rest/post').expect(200);
    expect(first.headers['ratelimit-policy']).toBe('"anonymous";q=1200;w=10');
    expect(first.headers.ratelimit).toMatch(/^"anonymous";r=1198;t=\d+$/);
    // A sequential transaction of 20 lists, each including two relations, costs 80 units: the
    // 1,198 left let 14 through at once, and the bucket refills only 120 units a second.
    const step = {
      model: 'post',
      op: 'findMany',
      args: { take: 1, include: { author: { include: { comments: true } } } },
    };
    const heavy = () => agent.post('/api/rpc/$transaction/sequential').send(Array.from({ length: 20 }, () => step));
    const statuses: number[] = [];
    let refused: request.Response | undefined;
    while (!refused && statuses.length < 40) {
      const res = await heavy();
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses.slice(0, 14).every((status) => status !== 429)).toBe(true);
    expect(refused?.body.error.errorCode).toBe('too-many-requests');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const alice = (await sample.db.prisma.user.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
    const signedIn = await agent.get('/api/rest/post').set('x-user-id', String(alice)).expect(200);
    expect(signedIn.headers['ratelimit-policy']).toBeUndefined();
  });
});
