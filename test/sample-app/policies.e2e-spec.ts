import request from 'supertest';

import { testProviders } from '../support/test-database.js';
import { useSampleApp } from './sample-app-harness.js';

describe.each(testProviders())('sample app: demo authentication and policies (%s)', (provider) => {
  const sample = useSampleApp(provider);
  let ids: { alice: number; bob: number; draft: number };

  beforeAll(async () => {
    const users = await sample.db.prisma.user.findMany({ orderBy: { id: 'asc' } });
    const draft = await sample.db.prisma.post.findFirstOrThrow({ where: { published: false } });
    ids = { alice: users[0]!.id, bob: users[1]!.id, draft: draft.id };
  });

  const http = (user?: number) => {
    const agent = request(sample.app.getHttpServer());
    const as = <T extends { set(name: string, value: string): T }>(req: T) =>
      user === undefined ? req : req.set('x-user-id', String(user));
    return { get: (url: string) => as(agent.get(url)), patch: (url: string) => as(agent.patch(url)) };
  };

  it('shows anonymous callers published posts, and authors their drafts too', async () => {
    expect((await http().get('/api/rest/post').expect(200)).body.meta.total).toBe(1);
    expect((await http(ids.bob).get('/api/rest/post').expect(200)).body.meta.total).toBe(2);
    await http(ids.alice).get(`/api/rest/post/${ids.draft}`).expect(404);
    const draft = await http(ids.bob)
      .get(`/api/rpc/post/findUnique?q=${encodeURIComponent(JSON.stringify({ where: { id: ids.draft } }))}`)
      .expect(200);
    expect(draft.body.data).toMatchObject({ title: 'Draft: indexing tips' });
  });

  it('never returns passwordHash and lets only authors edit their posts', async () => {
    const users = await http(ids.bob).get('/api/rpc/user/findMany').expect(200);
    expect(users.body.data.every((user: object) => !('passwordHash' in user))).toBe(true);
    const hello = await sample.db.prisma.post.findFirstOrThrow({ where: { title: 'Hello, world' } });
    const res = await http(ids.bob)
      .patch('/api/rpc/post/update')
      .send({ where: { id: hello.id }, data: { title: 'Mine now' } })
      .expect(403);
    expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' });
  });

  it('answers an unknown demo user with 401 in the interface format', async () => {
    const res = await http(999_999).get('/api/rest/post').expect(401);
    expect(res.body.errors[0]).toMatchObject({ status: '401', code: 'unauthorized' });
  });
});
