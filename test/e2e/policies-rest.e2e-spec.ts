import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiPolicies } from '../../lib/index.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const policyError = (reason: string) => ({
  links: { self: expect.any(String) },
  errors: [
    {
      status: '403',
      code: 'rejected-by-policy',
      title: expect.any(String),
      detail: expect.any(String),
      meta: { reason },
    },
  ],
});

describe.each(testProviders())('access policies over REST (%s)', (provider) => {
  let caller: DemoUser | undefined;
  let alice: DemoUser, bob: DemoUser;
  const ids: Record<string, number> = {};
  const as = (user: DemoUser | undefined) => {
    caller = user;
    return t.http();
  };
  const send = (request: ReturnType<ReturnType<TestAppHandle['http']>['post']>, body: object) =>
    request.set('Content-Type', JSON_API).send(body);

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: async () => {
      const p = t.db.prisma;
      const seeded = await seedPolicyBlog(t.db);
      ({ alice, bob } = seeded);
      Object.assign(ids, seeded.posts);
      await p.comment.create({ data: { body: 'on draft', postId: ids.bobDraft!, authorId: bob.id } });
      await p.comment.create({ data: { body: 'on pub', postId: ids.bobPub!, authorId: bob.id } });
    },
  });

  const titles = (data: { attributes: { title: string } }[]) => data.map((r) => r.attributes.title).sort();

  it('lists only readable rows, with meta.total counting only them', async () => {
    const res = await as(alice).get('/api/rest/post').expect(200);
    expect(titles(res.body.data)).toEqual(['alicePub', 'bobPub']);
    expect(res.body.meta.total).toBe(2);
    const own = await as(bob).get('/api/rest/post').expect(200);
    expect(own.body.meta.total).toBe(3);
    expect((await as(undefined).get('/api/rest/comment').expect(200)).body.meta.total).toBe(1);
  });

  it('answers 404 for a row the caller may not read, on every URL form', async () => {
    await as(alice).get(`/api/rest/post/${ids.bobDraft}`).expect(404);
    await as(alice).get(`/api/rest/post/${ids.bobDraft}/comments`).expect(404);
    await as(alice).get(`/api/rest/post/${ids.bobDraft}/relationships/comments`).expect(404);
    await as(bob).get(`/api/rest/post/${ids.bobDraft}`).expect(200);
  });

  it('filters related resources, relationship linkage and included resources', async () => {
    const related = await as(alice).get(`/api/rest/user/${bob.id}/posts`).expect(200);
    expect(titles(related.body.data)).toEqual(['bobPub']);
    expect(related.body.meta.total).toBe(1);
    const linkage = await as(alice).get(`/api/rest/user/${bob.id}/relationships/posts`).expect(200);
    expect(linkage.body.data).toEqual([{ type: 'post', id: ids.bobPub }]);
    const comments = await as(alice).get(`/api/rest/user/${bob.id}/comments`).expect(200);
    expect(comments.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).toEqual(['on pub']);
    const included = await as(alice).get('/api/rest/post?include=comments').expect(200);
    expect(included.body.included.map((c: { attributes: { body: string } }) => c.attributes.body)).toEqual(['on pub']);
  });

  it('refuses a create outside the rule with 403 ACCESS_POLICY_VIOLATION and writes nothing', async () => {
    const before = await t.db.prisma.post.count();
    const body = {
      data: {
        type: 'post',
        attributes: { title: 'forged' },
        relationships: { author: { data: { type: 'user', id: String(bob.id) } } },
      },
    };
    const res = await send(as(alice).post('/api/rest/post'), body).expect(403);
    expect(res.body).toEqual(policyError('ACCESS_POLICY_VIOLATION'));
    expect(await t.db.prisma.post.count()).toBe(before);
    body.data.relationships.author.data.id = String(alice.id);
    await send(as(alice).post('/api/rest/post'), body).expect(201);
  });

  it('refuses update and delete of rows outside the rule (403, unchanged); invisible rows are 404', async () => {
    const patch = { data: { type: 'post', id: String(ids.bobPub), attributes: { title: 'hijacked' } } };
    expect((await send(as(alice).patch(`/api/rest/post/${ids.bobPub}`), patch).expect(403)).body).toEqual(
      policyError('ACCESS_POLICY_VIOLATION'),
    );
    await as(alice).delete(`/api/rest/post/${ids.bobPub}`).expect(403);
    await send(as(alice).patch(`/api/rest/post/${ids.bobDraft}`), {
      data: { type: 'post', id: String(ids.bobDraft), attributes: { title: 'x' } },
    }).expect(404);
    await as(alice).delete(`/api/rest/post/${ids.bobDraft}`).expect(404);
    expect(await t.db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({ title: 'bobPub' });
  });

  it('checks relationship changes against the related rows', async () => {
    // Adding bob's post to alice's posts would rewrite its author: bob's post is not alice's to change.
    const res = await send(as(alice).post(`/api/rest/user/${alice.id}/relationships/posts`), {
      data: [{ type: 'post', id: String(ids.bobPub) }],
    }).expect(403);
    expect(res.body).toEqual(policyError('ACCESS_POLICY_VIOLATION'));
    // A post alice cannot see does not exist for her.
    await send(as(alice).post(`/api/rest/post/${ids.alicePub}/relationships/comments`), {
      data: [{ type: 'comment', id: 'nope' }],
    }).expect(404);
    expect(await t.db.prisma.post.findUnique({ where: { id: ids.bobPub } })).toMatchObject({ authorId: bob.id });
  });

  it('never renders a hidden field, in primary data or included resources', async () => {
    const users = await as(alice).get('/api/rest/user').expect(200);
    expect(users.body.data).toHaveLength(2);
    for (const user of users.body.data) expect(user.attributes).not.toHaveProperty('passwordHash');
    expect(users.body.data[0].attributes).toHaveProperty('email');
    const included = await as(alice).get('/api/rest/post?include=author').expect(200);
    expect(included.body.included).toHaveLength(2);
    for (const user of included.body.included) expect(user.attributes).not.toHaveProperty('passwordHash');
    const related = await as(alice).get(`/api/rest/post/${ids.alicePub}/author`).expect(200);
    expect(related.body.data.attributes).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(users.body) + JSON.stringify(included.body)).not.toContain('hash-');
  });

  it('treats a hidden field as unknown in filter, sort and fields', async () => {
    const filter = await as(alice).get('/api/rest/user?filter[passwordHash]=hash-bob').expect(400);
    expect(JSON.stringify(filter.body.errors)).not.toContain('hash-bob');
    await as(alice).get('/api/rest/user?sort=passwordHash').expect(400);
    await as(alice).get(`/api/rest/user?filter[passwordHash$startsWith]=hash`).expect(400);
    await as(alice).get('/api/rest/post?sort=author.passwordHash').expect(400);
    await as(alice).get('/api/rest/post?filter[author][passwordHash]=hash-bob').expect(400);
  });

  describe('with a readable row whose to-one target is not readable', () => {
    let commentId: string;
    const policies = { ...samplePolicies, Comment: { ...samplePolicies.Comment, read: true } } as CrudApiPolicies;
    const r = useTestApp(provider, {
      options: { policies, context: () => ({ user: caller }) },
      seed: async () => {
        const author = await r.db.prisma.user.create({ data: { name: 'carol', email: 'carol@x.test' } });
        const draft = await r.db.prisma.post.create({ data: { title: 'draft', authorId: author.id } });
        commentId = (await r.db.prisma.comment.create({ data: { body: 'visible', postId: draft.id } })).id;
      },
    });

    it('renders empty linkage instead of the id of the invisible row', async () => {
      caller = undefined;
      const res = await r.http().get(`/api/rest/comment/${commentId}`).expect(200);
      expect(res.body.data.relationships.post.data).toBeNull();
      expect(res.body.data.attributes.body).toBe('visible');
      const related = await r.http().get(`/api/rest/comment/${commentId}/post`).expect(200);
      expect(related.body.data).toBeNull();
      const linkage = await r.http().get(`/api/rest/comment/${commentId}/relationships/post`).expect(200);
      expect(linkage.body.data).toBeNull();
    });
  });

  describe('with a result the caller may not read', () => {
    const secretTags: CrudApiPolicies = { Tag: { read: { name: { not: { startsWith: 'secret' } } }, create: true } };
    const r = useTestApp(provider, { options: { policies: secretTags } });

    it('keeps the write and answers 403 with reason RESULT_NOT_READABLE', async () => {
      const res = await r
        .http()
        .post('/api/rest/tag')
        .set('Content-Type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'secret-rest' } } })
        .expect(403);
      expect(res.body).toEqual(policyError('RESULT_NOT_READABLE'));
      expect(await r.db.prisma.tag.count({ where: { name: 'secret-rest' } })).toBe(1);
    });
  });
});
