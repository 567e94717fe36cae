/**
 * Generated sequences of requests on both interfaces by several callers, against a reference that
 * keeps each caller's buckets by the cost table of docs/rate-limits.md: every answer's status and
 * its `RateLimit` header equal the reference's (windows of an hour: nothing refills meanwhile).
 */
import request from 'supertest';

import { REQUEST_COSTS } from '../../lib/limits/request-cost.js';
import { seededRandom } from '../support/seeded-random.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const { read, write, relation } = REQUEST_COSTS;
const q = (args: object) => encodeURIComponent(JSON.stringify(args));
const ATOMIC = 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"';

/** A request, what it costs, and whether it writes. */
interface Sent {
  send: (agent: ReturnType<typeof request>, ids: { post: number; author: number }) => request.Test;
  cost: number;
  writes: boolean;
}

const REQUESTS: Sent[] = [
  { send: (a, { post }) => a.get(`/api/rest/post/${post}`), cost: read.one, writes: false },
  { send: (a) => a.get('/api/rest/post'), cost: read.many, writes: false },
  { send: (a) => a.get('/api/rest/post?include=author'), cost: read.many + relation, writes: false },
  {
    send: (a) => a.get('/api/rest/post?include=author,comments.author'),
    cost: read.many + 3 * relation,
    writes: false,
  },
  {
    send: (a, { post }) => a.get(`/api/rpc/post/findUnique?q=${q({ where: { id: post } })}`),
    cost: read.one,
    writes: false,
  },
  {
    send: (a) =>
      a.get(`/api/rpc/post/findMany?q=${q({ include: { author: { include: { comments: true } } }, take: 2 })}`),
    cost: read.many + 2 * relation,
    writes: false,
  },
  { send: (a) => a.get('/api/rpc/post/count'), cost: read.many, writes: false },
  {
    send: (a, { author }) => a.post('/api/rpc/post/create').send({ data: { title: 'generated', authorId: author } }),
    cost: write.one,
    writes: true,
  },
  {
    send: (a, { author }) =>
      a.post('/api/rpc/$transaction/sequential').send([
        { model: 'post', op: 'create', args: { data: { title: 'in tx', authorId: author } } },
        { model: 'post', op: 'findMany', args: { take: 1 } },
      ]),
    cost: write.one + read.many,
    writes: true,
  },
  {
    send: (a, { author }) =>
      a
        .post('/api/rest/operations')
        .set('Content-Type', ATOMIC)
        .set('Accept', ATOMIC)
        .send({
          'atomic:operations': [
            { op: 'add', data: { type: 'post', attributes: { title: 'atomic', authorId: author } } },
          ],
        }),
    cost: write.one,
    writes: true,
  },
];

const LIMITS = [
  { name: 'all', limit: 40, window: 3600 },
  { name: 'writes', limit: 10, window: 3600, operations: ['write'] },
];

/** The units of `limit` a request spends: writes count against `writes` only for their write steps. */
function costOf(limit: (typeof LIMITS)[number], sent: Sent, index: number): number {
  if (!limit.operations) return sent.cost;
  if (!sent.writes) return 0;
  return REQUESTS[index] === REQUESTS[8] ? write.one : sent.cost;
}

describe.each([1, 2, 3])('rate limits, generated sequence (seed %i)', (seed) => {
  let t: TestApp;
  let ids: { post: number; author: number };
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      options: {
        context: (req: any) => ({ user: { id: req.headers['x-user'] } }),
        rateLimits: { limits: LIMITS },
        idempotency: undefined,
      },
    });
    const author = await t.db.prisma.user.create({ data: { email: `g${seed}@x.test`, name: 'G' } });
    const post = await t.db.prisma.post.create({ data: { title: 'seeded', authorId: author.id } });
    ids = { post: post.id, author: author.id };
  });
  afterAll(() => t.close());

  it('answers every request as the reference buckets say', async () => {
    const rng = seededRandom(seed);
    const left = new Map<string, number>();
    for (let step = 0; step < 60; step++) {
      const user = `user-${rng.int(3)}`;
      const index = rng.int(REQUESTS.length);
      const sent = REQUESTS[index]!;
      // The limits are taken one by one: a request refused by one still spent what it cost the others.
      let refused = false;
      const expected: Record<string, number> = {};
      for (const limit of LIMITS) {
        const cost = costOf(limit, sent, index);
        if (cost === 0) continue;
        const key = `${limit.name}:${user}`;
        const units = left.get(key) ?? limit.limit;
        if (units >= cost) left.set(key, units - cost);
        else refused = true;
        expected[limit.name] = left.get(key) ?? limit.limit;
      }
      const res = await sent.send(request(t.app.getHttpServer()), ids).set('X-User', user);
      const context = `step ${step}: ${user} sent request ${index}`;
      if (refused) expect({ context, status: res.status }).toEqual({ context, status: 429 });
      else expect({ context, ok: res.status < 300 }).toEqual({ context, ok: true });
      const header: Record<string, number> = {};
      for (const item of String(res.headers.ratelimit ?? '')
        .split(/,\s*/)
        .filter(Boolean)) {
        const [, name, r] = /^"([^"]+)";r=(\d+)/.exec(item)!;
        header[name!] = Number(r);
      }
      expect({ context, header }).toEqual({ context, header: expected });
    }
  });
});
