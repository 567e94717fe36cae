import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

function postAtomic(t: TestAppHandle, body: unknown, headers: Record<string, string> = {}) {
  return t
    .http()
    .post('/api/rest/operations')
    .set({ 'Content-Type': ATOMIC, Accept: ATOMIC, ...headers })
    .send(JSON.stringify(body));
}

const ops = (...operations: unknown[]) => ({ 'atomic:operations': operations });

describe.each(testProviders())('JSON:API atomic operations (%s)', (provider) => {
  let author: { id: number };

  const t = useTestApp(provider, {
    options: { transactions: { maxOperations: 6 } },
    seed: async () => {
      author = await t.db.prisma.user.create({ data: { email: 'atomic@x.test', name: 'Atomic' } });
    },
  });

  it('adds, updates and links resources in order, later operations naming earlier ones by lid', async () => {
    const res = await postAtomic(
      t,
      ops(
        { op: 'add', data: { type: 'user', lid: 'u', attributes: { email: 'lid@x.test', name: 'Lid' } } },
        {
          op: 'add',
          data: {
            type: 'post',
            lid: 'p',
            attributes: { title: 'by lid' },
            relationships: { author: { data: { type: 'user', lid: 'u' } } },
          },
        },
        { op: 'add', data: { type: 'tag', lid: 't', attributes: { name: 'atomic-tag' } } },
        { op: 'add', ref: { type: 'post', lid: 'p', relationship: 'tags' }, data: [{ type: 'tag', lid: 't' }] },
        { op: 'update', data: { type: 'post', lid: 'p', attributes: { title: 'by lid, edited' } } },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(ATOMIC);
    expect(res.body.jsonapi).toEqual({ version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] });
    const results = res.body['atomic:results'];
    expect(results).toHaveLength(5);
    expect(results[0].data).toMatchObject({ type: 'user', attributes: { email: 'lid@x.test' } });
    expect(results[3]).toEqual({});
    expect(results[4].data).toMatchObject({
      type: 'post',
      id: results[1].data.id,
      attributes: { title: 'by lid, edited' },
    });
    const post = await t.db.prisma.post.findUniqueOrThrow({
      where: { id: Number(results[1].data.id) },
      include: { tags: true, author: true },
    });
    expect(post).toMatchObject({
      title: 'by lid, edited',
      author: { email: 'lid@x.test' },
      tags: [{ name: 'atomic-tag' }],
    });
  });

  it('replaces a to-one relationship, removes to-many members and resources', async () => {
    const post = await t.db.prisma.post.create({
      data: { title: 'rel', authorId: author.id, tags: { create: [{ name: 'keep' }, { name: 'drop' }] } },
      include: { tags: true },
    });
    const other = await t.db.prisma.user.create({ data: { email: 'other@x.test', name: 'Other' } });
    const drop = post.tags.find((tag) => tag.name === 'drop')!;
    const res = await postAtomic(
      t,
      ops(
        {
          op: 'update',
          ref: { type: 'post', id: String(post.id), relationship: 'author' },
          data: { type: 'user', id: String(other.id) },
        },
        {
          op: 'remove',
          ref: { type: 'post', id: String(post.id), relationship: 'tags' },
          data: [{ type: 'tag', id: String(drop.id) }],
        },
        { op: 'remove', ref: { type: 'tag', id: String(drop.id) } },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body['atomic:results']).toEqual([{}, {}, {}]);
    const after = await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id }, include: { tags: true } });
    expect(after.authorId).toBe(other.id);
    expect(after.tags.map((tag) => tag.name)).toEqual(['keep']);
    expect(await t.db.prisma.tag.count({ where: { id: drop.id } })).toBe(0);
  });

  it('rolls everything back when an operation fails, pointing into it', async () => {
    const before = await snapshotDatabase(t.db);
    const res = await postAtomic(
      t,
      ops(
        { op: 'add', data: { type: 'tag', attributes: { name: 'rolled-back' } } },
        { op: 'update', data: { type: 'post', id: '999999', attributes: { title: 'missing' } } },
      ),
    );
    expect(res.status).toBe(404);
    // Explained as the single request's: the resource is not found, at the id the operation names.
    expect(res.body.errors[0]).toMatchObject({
      code: 'not-found',
      detail: 'No post with id "999999".',
      source: { pointer: '/atomic:operations/1/data/id' },
    });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it.each([
    ['a body without atomic:operations', { data: [] }, '/data'],
    ['an empty list', ops(), '/atomic:operations'],
    [
      'too many operations',
      ops(...Array.from({ length: 7 }, () => ({ op: 'remove', ref: { type: 'tag', id: '1' } }))),
      '/atomic:operations',
    ],
    ['an unknown op', ops({ op: 'upsert', data: {} }), '/atomic:operations/0/op'],
    ['an operation that is not an object', ops('add'), '/atomic:operations/0'],
    [
      'a stray operation member',
      ops({ op: 'remove', ref: { type: 'tag', id: '1' }, extra: 1 }),
      '/atomic:operations/0/extra',
    ],
    ['href', ops({ op: 'remove', href: '/tag/1' }), '/atomic:operations/0/href'],
    ['remove without ref', ops({ op: 'remove' }), '/atomic:operations/0'],
    ['add without data', ops({ op: 'add' }), '/atomic:operations/0'],
    ['an unknown lid', ops({ op: 'remove', ref: { type: 'tag', lid: 'nope' } }), '/atomic:operations/0/ref/lid'],
    [
      'a lid of another type',
      ops(
        { op: 'add', data: { type: 'tag', lid: 'x', attributes: { name: 'lid-type' } } },
        { op: 'remove', ref: { type: 'user', lid: 'x' } },
      ),
      '/atomic:operations/1/ref/lid',
    ],
    [
      'a lid taken twice',
      ops(
        { op: 'add', data: { type: 'tag', lid: 'x', attributes: { name: 'l1' } } },
        { op: 'add', data: { type: 'tag', lid: 'x', attributes: { name: 'l2' } } },
      ),
      '/atomic:operations/1/data/lid',
    ],
    [
      'an unknown attribute',
      ops({ op: 'add', data: { type: 'tag', attributes: { nme: 'x' } } }),
      '/atomic:operations/0/data/attributes/nme',
    ],
    ['an unknown type', ops({ op: 'add', data: { type: 'nope', attributes: {} } }), '/atomic:operations/0/data/type'],
    [
      'an unknown relationship',
      ops({ op: 'add', ref: { type: 'post', id: '1', relationship: 'nope' }, data: [] }),
      '/atomic:operations/0/ref/relationship',
    ],
    [
      'adding to a to-one relationship',
      ops({ op: 'add', ref: { type: 'post', id: '1', relationship: 'author' }, data: { type: 'user', id: '1' } }),
      '/atomic:operations/0/op',
    ],
    [
      'a prototype key',
      JSON.parse('{"atomic:operations":[{"op":"add","data":{"type":"tag","attributes":{"__proto__":{"name":"x"}}}}]}'),
      '/atomic:operations/0/data/attributes/__proto__',
    ],
  ])('refuses %s with a 4xx pointing at it, nothing written', async (_what, body, pointer) => {
    const before = await snapshotDatabase(t.db);
    const res = await postAtomic(t, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it.each([
    ['JSON:API without the extension', { 'Content-Type': 'application/vnd.api+json' }, 415],
    ['another extension', { 'Content-Type': 'application/vnd.api+json; ext="https://example.com/ext"' }, 415],
    ['application/json', { 'Content-Type': 'application/json' }, 415],
    [
      'an Accept with another extension only',
      { Accept: 'application/vnd.api+json; ext="https://example.com/ext"' },
      406,
    ],
    ['an Accept without JSON', { Accept: 'text/html' }, 406],
  ])('negotiates: %s answers %i', async (_what, headers, status) => {
    const res = await postAtomic(t, ops({ op: 'remove', ref: { type: 'tag', id: '1' } }), headers);
    expect(res.status).toBe(status);
  });

  it('accepts a plain JSON:API Accept and answers in the extension', async () => {
    const res = await postAtomic(t, ops({ op: 'add', data: { type: 'tag', attributes: { name: 'accept-plain' } } }), {
      Accept: 'application/vnd.api+json',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(ATOMIC);
  });
});

describe.each(testProviders())('JSON:API atomic operations under access policies (%s)', (provider) => {
  let caller: DemoUser | undefined;
  let alice: DemoUser;
  let posts: Awaited<ReturnType<typeof seedPolicyBlog>>['posts'];

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: async () => {
      ({ alice, posts } = await seedPolicyBlog(t.db));
      caller = alice;
    },
  });

  it('rolls back the operations before one the policies refuse', async () => {
    const before = await snapshotDatabase(t.db);
    const res = await postAtomic(
      t,
      ops(
        {
          op: 'add',
          data: {
            type: 'post',
            attributes: { title: 'alice atomic' },
            relationships: { author: { data: { type: 'user', id: String(alice.id) } } },
          },
        },
        { op: 'update', data: { type: 'post', id: String(posts.bobPub), attributes: { title: 'stolen' } } },
      ),
    );
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({
      code: 'rejected-by-policy',
      source: { pointer: '/atomic:operations/1' },
    });
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('answers a hidden field like an unknown one', async () => {
    const res = await postAtomic(
      t,
      ops({ op: 'update', data: { type: 'user', id: String(alice.id), attributes: { passwordHash: 'x' } } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/atomic:operations/0/data/attributes/passwordHash');
  });
});
