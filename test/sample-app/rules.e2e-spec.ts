import bcrypt from 'bcryptjs';
import request from 'supertest';

import { eventually, settled } from '../support/eventually.js';
import { testProviders } from '../support/test-database.js';
import { useSampleApp } from './sample-app-harness.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

describe.each(testProviders())('sample app: write rules and the audit trail (%s)', (provider) => {
  const sample = useSampleApp(provider);
  let admin: number, bob: number;
  let counter = 0;
  const email = () => `user${++counter}@example.test`;

  beforeAll(async () => {
    admin = (await sample.db.prisma.user.findFirstOrThrow({ where: { role: 'ADMIN' } })).id;
    bob = (await sample.db.prisma.user.findFirstOrThrow({ where: { role: 'USER' } })).id;
  });

  const as = (user: number) => {
    const agent = request(sample.app.getHttpServer());
    const set = <T extends { set(name: string, value: string): T }>(req: T) => req.set('x-user-id', String(user));
    return {
      rest: (method: 'post' | 'patch', url: string, body: unknown, type = JSON_API) =>
        set(agent[method](url))
          .set('Content-Type', type)
          .set('Accept', type)
          .send(body as object),
      rpc: (method: 'post' | 'patch' | 'put', url: string, body: unknown) =>
        set(agent[method](url)).send(body as object),
      get: (url: string) => set(agent.get(url)),
    };
  };
  const userDocument = (attributes: object, id?: number) => ({
    data: { type: 'user', ...(id === undefined ? {} : { id: String(id) }), attributes },
  });
  const stored = (address: string) => sample.db.prisma.user.findUniqueOrThrow({ where: { email: address } });

  it('lets an admin create a user with a password on both interfaces, stored only as a bcrypt hash', async () => {
    const viaRest = email();
    const rest = await as(admin)
      .rest('post', '/api/rest/user', userDocument({ email: viaRest, name: 'Rest', password: 'rest password' }))
      .expect(201);
    const viaRpc = email();
    const rpc = await as(admin)
      .rpc('post', '/api/rpc/user/create', { data: { email: viaRpc, name: 'Rpc', password: 'rpc password' } })
      .expect(201);
    for (const answer of [rest.body.data.attributes, rpc.body.data]) {
      expect(answer).not.toHaveProperty('password');
      expect(answer).not.toHaveProperty('passwordHash');
    }
    expect(await bcrypt.compare('rest password', (await stored(viaRest)).passwordHash)).toBe(true);
    expect(await bcrypt.compare('rpc password', (await stored(viaRpc)).passwordHash)).toBe(true);
  });

  it.each([
    ['filter', '/api/rest/user?filter%5BpasswordHash%5D=x'],
    ['filter on the virtual field', '/api/rest/user?filter%5Bpassword%5D=x'],
    ['sort', '/api/rest/user?sort=passwordHash'],
    ['RPC where', `/api/rpc/user/findMany?q=${encodeURIComponent(JSON.stringify({ where: { passwordHash: 'x' } }))}`],
    ['RPC orderBy', `/api/rpc/user/findMany?q=${encodeURIComponent(JSON.stringify({ orderBy: { password: 'asc' } }))}`],
  ])('knows neither password field in a %s', async (_what, url) => {
    expect((await as(admin).get(url)).status).toBe(400);
  });

  it('validates emails on create and update, top-level, nested and in atomic operations', async () => {
    const bad = await as(admin)
      .rest('post', '/api/rest/user', userDocument({ email: 'not-an-email', name: 'Bad' }))
      .expect(400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ code: 'validation-failed', source: { pointer: '/data/attributes/email' } }),
    ]);
    const long = await as(admin)
      .rest('patch', `/api/rest/user/${bob}`, userDocument({ email: `${'a'.repeat(250)}@x.io` }, bob))
      .expect(400);
    expect(long.body.errors[0].source).toEqual({ pointer: '/data/attributes/email' });
    const atomic = await as(admin)
      .rest(
        'post',
        '/api/rest/operations',
        { 'atomic:operations': [{ op: 'add', data: userDocument({ email: 'nope', name: 'Atomic' }).data }] },
        ATOMIC,
      )
      .expect(400);
    expect(atomic.body.errors[0].source).toEqual({ pointer: '/atomic:operations/0/data/attributes/email' });

    const rpcPaths = async (method: 'post' | 'patch' | 'put', url: string, body: unknown) => {
      const res = await as(admin).rpc(method, url, body).expect(400);
      return res.body.error.issues.map((issue: { path: string }) => issue.path);
    };
    expect(await rpcPaths('post', '/api/rpc/user/create', { data: { email: 'not-an-email', name: 'B' } })).toEqual([
      'data.email',
    ]);
    expect(
      await rpcPaths('patch', '/api/rpc/user/update', { where: { id: bob }, data: { email: 'not-an-email' } }),
    ).toEqual(['data.email']);
    expect(
      await rpcPaths('patch', '/api/rpc/user/update', {
        where: { id: admin },
        data: {
          following: {
            create: [
              { email: email(), name: 'Ok' },
              { email: 'bad', name: 'Bad' },
            ],
          },
        },
      }),
    ).toEqual(['data.following.create[1].email']);
    expect(await sample.db.prisma.user.count({ where: { name: { in: ['Bad', 'Atomic', 'B'] } } })).toBe(0);
  });

  it('makes the caller the author of a post and refuses naming another', async () => {
    const rest = await as(bob)
      .rest('post', '/api/rest/post', { data: { type: 'post', attributes: { title: 'by bob (rest)' } } })
      .expect(201);
    const rpc = await as(bob)
      .rpc('post', '/api/rpc/post/create', { data: { title: 'by bob (rpc)' } })
      .expect(201);
    expect(rest.body.data.relationships.author.data).toEqual({ type: 'user', id: bob });
    expect(rpc.body.data.authorId).toBe(bob);
    const named = await as(bob)
      .rest('post', '/api/rest/post', {
        data: {
          type: 'post',
          attributes: { title: 'as admin' },
          relationships: { author: { data: { type: 'user', id: String(admin) } } },
        },
      })
      .expect(400);
    expect(named.body.errors[0].source).toEqual({ pointer: '/data/relationships/author' });
    await as(bob)
      .rpc('post', '/api/rpc/post/create', { data: { title: 'as admin', authorId: admin } })
      .expect(400);
    await as(bob)
      .rpc('post', '/api/rpc/post/create', { data: { title: 'as admin', author: { connect: { id: admin } } } })
      .expect(400);
    expect(await sample.db.prisma.post.count({ where: { title: 'as admin' } })).toBe(0);
  });

  it('audits every committed write with who, what and when, and nothing of a rolled-back one', async () => {
    const since = new Date(Date.now() - 1000);
    const created = await as(bob)
      .rpc('post', '/api/rpc/post/create', { data: { title: 'audited' } })
      .expect(201);
    const id = created.body.data.id;
    await as(bob)
      .rest('patch', `/api/rest/post/${id}`, {
        data: { type: 'post', id: String(id), attributes: { title: 'audited 2' } },
      })
      .expect(200);
    const failed = await as(bob).rpc('post', '/api/rpc/$transaction/sequential', [
      { model: 'post', op: 'update', args: { where: { id }, data: { title: 'rolled back' } } },
      { model: 'user', op: 'create', args: { data: { email: email(), name: 'Not by bob' } } },
    ]);
    // The second step is refused by the policies once the first has run: the transaction rolls back.
    expect(failed.status).toBe(403);
    expect(await sample.db.prisma.post.findUnique({ where: { id } })).toMatchObject({ title: 'audited 2' });
    await settled();
    await eventually(async () =>
      expect(
        await sample.db.prisma.auditEntry.findMany({
          where: { model: 'Post', recordId: String(id) },
          orderBy: { id: 'asc' },
          select: { actorId: true, operation: true, at: true },
        }),
      ).toEqual([
        { actorId: bob, operation: 'create', at: expect.any(Date) },
        { actorId: bob, operation: 'update', at: expect.any(Date) },
      ]),
    );
    const entries = await sample.db.prisma.auditEntry.findMany({ where: { recordId: String(id) } });
    expect(entries.every((entry) => entry.at >= since)).toBe(true);
    expect((await as(admin).get('/api/rest/auditEntry').expect(200)).body.data.length).toBeGreaterThan(0);
    await as(bob)
      .get('/api/rest/auditEntry')
      .expect(200)
      .expect((res) => expect(res.body.data).toEqual([]));
  });
});
