import { expectJsonApiError } from '../support/json-api-expect.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { TEST_ENDPOINT as E, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';

describe.each(testProviders())('REST writes (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });

  const send = (method: 'post' | 'patch' | 'put' | 'delete', url: string, body?: unknown) => {
    const req = t.http()[method](`/api/rest${url}`).set('Content-Type', JSON_API);
    return body === undefined ? req : req.send(JSON.stringify(body));
  };
  const postCount = () => t.db.prisma.post.count();

  describe('create', () => {
    it('creates a resource with typed attributes and relationships: 201, Location, document', async () => {
      const res = await send('post', '/post', {
        data: {
          type: 'post',
          attributes: {
            title: 'Created',
            status: 'ARCHIVED',
            price: '12.34',
            views: '9007199254740993',
            rating: 2.5,
            publishedAt: '2025-05-06T07:08:09.000Z',
            metadata: { nested: [1, { a: null }] },
          },
          relationships: {
            author: { data: { type: 'user', id: f.bob } },
            tags: { data: [{ type: 'tag', id: f.news }] },
          },
        },
      }).expect(201);
      const id = res.body.data.id;
      expect(typeof id).toBe('number');
      expect(res.headers.location).toBe(`${E}/post/${id}`);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body).toMatchObject({ jsonapi: { version: '1.1' }, links: { self: `${E}/post/${id}` } });
      expect(res.body.data.links.self).toBe(res.headers.location);
      expect(res.body.data.attributes).toMatchObject({
        title: 'Created',
        status: 'ARCHIVED',
        price: '12.34',
        views: '9007199254740993',
        publishedAt: '2025-05-06T07:08:09.000Z',
        metadata: { nested: [1, { a: null }] },
        authorId: f.bob,
      });
      const stored = await t.db.prisma.post.findUnique({ where: { id }, include: { tags: true } });
      expect(stored!.views).toBe(9007199254740993n);
      expect(stored!.tags.map((tag) => tag.id)).toEqual([f.news]);
      await t.db.prisma.post.delete({ where: { id } });
    });

    it('accepts Bytes as Base64 and connects a to-one from the referenced side', async () => {
      const user = await t.db.prisma.user.create({ data: { email: 'dave@example.com', name: 'Dave' } });
      const res = await send('post', '/profile', {
        data: {
          type: 'profile',
          attributes: { avatar: 'AAEC', bio: null },
          relationships: { user: { data: { type: 'user', id: user.id } } },
        },
      }).expect(201);
      expect(res.body.data.attributes).toMatchObject({ avatar: 'AAEC', bio: null, userId: user.id });
      const userDoc = await t.http().get(`/api/rest/user/${user.id}`).expect(200);
      expect(userDoc.body.data.relationships.profile.data).toEqual({ type: 'profile', id: res.body.data.id });
    });

    it('uses a client-generated id when the id has no default, and refuses one otherwise (403)', async () => {
      const like = await send('post', '/like', { data: { type: 'like', id: `${f.alice}_${f.percent}` } }).expect(201);
      expect(like.body.data.id).toBe(`${f.alice}_${f.percent}`);
      expect(like.headers.location).toBe(`${E}/like/${f.alice}_${f.percent}`);
      const viaRelationships = await send('post', '/like', {
        data: {
          type: 'like',
          relationships: {
            user: { data: { type: 'user', id: f.carol } },
            post: { data: { type: 'post', id: f.percent } },
          },
        },
      }).expect(201);
      expect(viaRelationships.body.data.id).toBe(`${f.carol}_${f.percent}`);
      expectJsonApiError(
        await send('post', '/like', { data: { type: 'like', id: `${f.carol}_${f.percent}` } }),
        409,
        'conflict',
        { pointer: '/data/id' },
      );
      expectJsonApiError(
        await send('post', '/post', { data: { type: 'post', id: 999, attributes: { title: 'x' } } }),
        403,
        'client-id-not-allowed',
        {
          pointer: '/data/id',
        },
      );
      expectJsonApiError(await send('post', '/like', { data: { type: 'like', id: 'nope' } }), 400, 'invalid-payload', {
        pointer: '/data/id',
      });
    });

    it('answers 409 when data.type does not match the endpoint', async () => {
      expectJsonApiError(
        await send('post', '/post', { data: { type: 'user', attributes: { title: 'x' } } }),
        409,
        'conflict',
        { pointer: '/data/type' },
      );
    });

    it('answers 400 with source.pointer for malformed documents', async () => {
      const bad = async (body: unknown, pointer: string) =>
        expectJsonApiError(await send('post', '/post', body), 400, 'invalid-payload', { pointer });
      // A value that does not fit its field is an issue of the write's data.
      const badValue = async (body: unknown, pointer: string) =>
        expectJsonApiError(await send('post', '/post', body), 400, 'validation-failed', { pointer });
      await bad({}, '');
      await bad([], '');
      await bad({ data: [] }, '/data');
      await bad({ data: { attributes: {} } }, '/data/type');
      await bad({ data: { type: 'post', attributes: [] } }, '/data/attributes');
      await bad({ data: { type: 'post', attributes: { nothing: 1 } } }, '/data/attributes/nothing');
      await bad({ data: { type: 'post', attributes: { author: 1 } } }, '/data/attributes/author');
      await bad({ data: { type: 'post', attributes: { id: 1 } } }, '/data/attributes/id');
      await badValue({ data: { type: 'post', attributes: { title: 5 } } }, '/data/attributes/title');
      await badValue({ data: { type: 'post', attributes: { rating: 'high' } } }, '/data/attributes/rating');
      await badValue({ data: { type: 'post', attributes: { views: 1.5 } } }, '/data/attributes/views');
      await badValue({ data: { type: 'post', attributes: { price: 'ten' } } }, '/data/attributes/price');
      await badValue(
        { data: { type: 'post', attributes: { publishedAt: 'yesterday' } } },
        '/data/attributes/publishedAt',
      );
      await badValue({ data: { type: 'post', attributes: { status: 'GONE' } } }, '/data/attributes/status');
      await badValue({ data: { type: 'post', attributes: { published: 'yes' } } }, '/data/attributes/published');
      await badValue({ data: { type: 'post', attributes: { title: null } } }, '/data/attributes/title');
      await bad({ data: { type: 'post', relationships: { nothing: { data: null } } } }, '/data/relationships/nothing');
      await bad(
        { data: { type: 'post', relationships: { author: { type: 'user', id: 1 } } } },
        '/data/relationships/author/type',
      );
      await bad({ data: { type: 'post', relationships: { author: { data: [] } } } }, '/data/relationships/author/data');
      await bad(
        { data: { type: 'post', relationships: { tags: { data: { type: 'tag', id: 1 } } } } },
        '/data/relationships/tags/data',
      );
      await bad(
        { data: { type: 'post', relationships: { author: { data: { type: 'tag', id: 1 } } } } },
        '/data/relationships/author/data/type',
      );
      await bad(
        { data: { type: 'post', relationships: { author: { data: { id: 1 } } } } },
        '/data/relationships/author/data',
      );
      const avatar = await send('post', '/profile', {
        data: { type: 'profile', attributes: { avatar: 'not base64!' } },
      });
      expectJsonApiError(avatar, 400, 'validation-failed', { pointer: '/data/attributes/avatar' });
      expect(await postCount()).toBe(3);
    });

    it('names the missing required attribute or relationship (400 with source.pointer)', async () => {
      const before = await postCount();
      const noTitle = await send('post', '/post', {
        data: { type: 'post', relationships: { author: { data: { type: 'user', id: f.bob } } } },
      });
      expectJsonApiError(noTitle, 400, 'invalid-payload', { pointer: '/data/attributes/title' });
      const noAuthor = await send('post', '/post', { data: { type: 'post', attributes: { title: 'orphan' } } });
      expectJsonApiError(noAuthor, 400, 'invalid-payload', { pointer: '/data/relationships/author' });
      expect(noAuthor.body.errors[0].detail).toBe('Relationship "author" is required.');
      const noLikeParts = await send('post', '/like', {
        data: { type: 'like', relationships: { user: { data: { type: 'user', id: f.bob } } } },
      });
      expectJsonApiError(noLikeParts, 400, 'invalid-payload', { pointer: '/data/relationships/post' });
      expect(await postCount()).toBe(before);
    });

    it('answers 404 for a missing related resource and writes nothing', async () => {
      const before = await postCount();
      expectJsonApiError(
        await send('post', '/post', {
          data: {
            type: 'post',
            attributes: { title: 'Orphan' },
            relationships: {
              author: { data: { type: 'user', id: f.alice } },
              tags: { data: [{ type: 'tag', id: 424242 }] },
            },
          },
        }),
        404,
        'not-found',
        { pointer: '/data/relationships/tags/data' },
      );
      expectJsonApiError(
        await send('post', '/post', {
          data: {
            type: 'post',
            attributes: { title: 'Orphan' },
            relationships: { author: { data: { type: 'user', id: 'x' } } },
          },
        }),
        404,
        'not-found',
      );
      expect(await postCount()).toBe(before);
    });

    it('rolls the whole create back when the data layer refuses part of it', async () => {
      const before = await t.db.prisma.user.count();
      // The profile is connected (moved) first by Prisma, then the duplicate email fails: nothing may remain.
      const res = await send('post', '/user', {
        data: {
          type: 'user',
          attributes: { email: 'alice@example.com', name: 'Copy' },
          relationships: { posts: { data: [{ type: 'post', id: f.draft }] } },
        },
      });
      expectJsonApiError(res, 400, 'constraint-violation');
      expect(await t.db.prisma.user.count()).toBe(before);
      expect((await t.db.prisma.post.findUnique({ where: { id: f.draft } }))!.authorId).toBe(f.alice);
    });
  });

  describe('update', () => {
    it('updates partially with PATCH and PUT alike', async () => {
      const before = (await t.http().get(`/api/rest/post/${f.draft}`).expect(200)).body.data.attributes;
      const patched = await send('patch', `/post/${f.draft}`, {
        data: { type: 'post', id: String(f.draft), attributes: { rating: 2 } },
      }).expect(200);
      expect(patched.body.links.self).toBe(`${E}/post/${f.draft}`);
      expect(patched.body.data.attributes).toMatchObject({ ...before, rating: 2, updatedAt: expect.any(String) });
      const put = await send('put', `/post/${f.draft}`, {
        data: { type: 'post', attributes: { content: 'Now with content' } },
      }).expect(200);
      expect(put.body.data.attributes).toMatchObject({ title: before.title, rating: 2, content: 'Now with content' });
    });

    it('replaces relationships only: a to-many entirely, a to-one by identifier or null', async () => {
      const res = await send('patch', `/post/${f.draft}?include=tags`, {
        data: {
          type: 'post',
          relationships: {
            tags: { data: [{ type: 'tag', id: f.tech }] },
            author: { data: { type: 'user', id: f.bob } },
          },
        },
      }).expect(200);
      expect(res.body.data.relationships.tags.data).toEqual([{ type: 'tag', id: f.tech }]);
      expect(res.body.data.relationships.author.data).toEqual({ type: 'user', id: f.bob });
      expect(res.body.included.map((r: { id: number }) => r.id)).toEqual([f.tech]);
      const cleared = await send('patch', `/post/${f.draft}`, {
        data: { type: 'post', relationships: { tags: { data: [] } } },
      }).expect(200);
      expect(
        (await t.db.prisma.tag.findUnique({ where: { id: f.tech }, include: { posts: true } }))!.posts.map((p) => p.id),
      ).not.toContain(f.draft);
      expect(cleared.body.data.attributes.authorId).toBe(f.bob);
      const comment = await t.db.prisma.comment.create({ data: { body: 'temp', postId: f.draft, authorId: f.alice } });
      const orphaned = await send('patch', `/comment/${comment.id}`, {
        data: { type: 'comment', relationships: { author: { data: null } } },
      }).expect(200);
      expect(orphaned.body.data.relationships.author.data).toBeNull();
      expect(orphaned.body.data.attributes.authorId).toBeNull();
      expectJsonApiError(
        await send('patch', `/post/${f.draft}`, { data: { type: 'post', relationships: { author: { data: null } } } }),
        400,
        'invalid-payload',
        { pointer: '/data/relationships/author/data' },
      );
    });

    it('leaves the resource untouched when a referenced resource is missing', async () => {
      const res = await send('patch', `/post/${f.percent}`, {
        data: {
          type: 'post',
          attributes: { title: 'Changed' },
          relationships: { tags: { data: [{ type: 'tag', id: 777777 }] } },
        },
      });
      expectJsonApiError(res, 404, 'not-found', { pointer: '/data/relationships/tags/data' });
      expect((await t.db.prisma.post.findUnique({ where: { id: f.percent } }))!.title).toBe('100% Prisma');
    });

    it('updates attributes with one Prisma update: a single statement where the database has RETURNING', async () => {
      t.db.queries.length = 0;
      await send('patch', `/post/${f.draft}`, {
        data: { type: 'post', id: String(f.draft), attributes: { rating: 2 } },
      }).expect(200);
      // MySQL has no RETURNING: Prisma's update itself finds the row, updates it and reads it back in its own transaction.
      const statements = provider === 'mysql' ? [/^SELECT/i, /^UPDATE/i, /^SELECT/i, /COMMIT/] : [/^UPDATE/i];
      expect(t.db.queries).toEqual(statements.map((statement) => expect.stringMatching(statement)));
    });

    it('answers 404 for a missing resource and 409 for a type or id mismatch', async () => {
      expectJsonApiError(
        await send('patch', '/post/999999', { data: { type: 'post', attributes: { title: 'x' } } }),
        404,
        'not-found',
      );
      expectJsonApiError(
        await send('patch', '/post/abc', { data: { type: 'post', attributes: { title: 'x' } } }),
        404,
        'not-found',
      );
      expectJsonApiError(await send('patch', `/post/${f.draft}`, { data: { type: 'user' } }), 409, 'conflict', {
        pointer: '/data/type',
      });
      expectJsonApiError(
        await send('patch', `/post/${f.draft}`, { data: { type: 'post', id: f.hello } }),
        409,
        'conflict',
        { pointer: '/data/id' },
      );
    });
  });

  describe('delete', () => {
    it('deletes with 204 and no body, then the resource is gone', async () => {
      const tag = await t.db.prisma.tag.create({ data: { name: 'doomed' } });
      const res = await send('delete', `/tag/${tag.id}`).expect(204);
      expect(res.text).toBe('');
      expectJsonApiError(await t.http().get(`/api/rest/tag/${tag.id}`), 404, 'not-found');
      expectJsonApiError(await send('delete', `/tag/${tag.id}`), 404, 'not-found');
      expectJsonApiError(await send('delete', `/like/${f.alice}_abc`), 404, 'not-found');
    });
  });

  describe('relationship endpoints', () => {
    let post: number;
    beforeAll(async () => {
      post = (await t.db.prisma.post.create({ data: { title: 'Linked', authorId: f.alice } })).id;
    });

    it('adds to a to-many relationship idempotently and answers with the linkage', async () => {
      const body = { data: [{ type: 'tag', id: f.news }] };
      const first = await send('post', `/post/${post}/relationships/tags`, body).expect(200);
      expect(first.body.data).toEqual([{ type: 'tag', id: f.news }]);
      expect(first.body.meta).toEqual({ total: 1 });
      expect(first.body.links).toMatchObject({
        self: `${E}/post/${post}/relationships/tags`,
        related: `${E}/post/${post}/tags`,
      });
      const again = await send('post', `/post/${post}/relationships/tags`, {
        data: [
          { type: 'tag', id: f.news },
          { type: 'tag', id: f.tech },
        ],
      }).expect(200);
      expect(again.body.data).toEqual([
        { type: 'tag', id: f.news },
        { type: 'tag', id: f.tech },
      ]);
    });

    it('removes from a to-many relationship', async () => {
      const res = await send('delete', `/post/${post}/relationships/tags`, {
        data: [{ type: 'tag', id: f.news }],
      }).expect(200);
      expect(res.body.data).toEqual([{ type: 'tag', id: f.tech }]);
    });

    it('replaces a to-many relationship entirely', async () => {
      const res = await send('patch', `/post/${post}/relationships/tags`, {
        data: [{ type: 'tag', id: f.news }],
      }).expect(200);
      expect(res.body.data).toEqual([{ type: 'tag', id: f.news }]);
      const cleared = await send('patch', `/post/${post}/relationships/tags`, { data: [] }).expect(200);
      expect(cleared.body).toMatchObject({ data: [], meta: { total: 0 } });
    });

    it('replaces a to-one relationship with an identifier or null', async () => {
      const res = await send('patch', `/post/${post}/relationships/author`, {
        data: { type: 'user', id: f.carol },
      }).expect(200);
      expect(res.body).toEqual({
        jsonapi: { version: '1.1' },
        data: { type: 'user', id: f.carol },
        links: { self: `${E}/post/${post}/relationships/author`, related: `${E}/post/${post}/author/${f.carol}` },
      });
      const comment = await t.db.prisma.comment.create({ data: { body: 'x', postId: post, authorId: f.alice } });
      const cleared = await send('patch', `/comment/${comment.id}/relationships/author`, { data: null }).expect(200);
      expect(cleared.body.data).toBeNull();
      expectJsonApiError(
        await send('patch', `/user/${f.carol}/relationships/profile`, { data: null }),
        400,
        'invalid-payload',
        { pointer: '/data' },
      );
    });

    it('answers 400 for POST or DELETE on a to-one and for linkage of the wrong shape', async () => {
      expectJsonApiError(
        await send('post', `/post/${post}/relationships/author`, { data: { type: 'user', id: f.bob } }),
        400,
        'invalid-request',
      );
      expectJsonApiError(
        await send('delete', `/post/${post}/relationships/author`, { data: { type: 'user', id: f.bob } }),
        400,
        'invalid-request',
      );
      expectJsonApiError(
        await send('post', `/post/${post}/relationships/tags`, { data: { type: 'tag', id: f.news } }),
        400,
        'invalid-payload',
        { pointer: '/data' },
      );
      expectJsonApiError(
        await send('post', `/post/${post}/relationships/tags`, { data: [{ type: 'user', id: f.news }] }),
        400,
        'invalid-payload',
        { pointer: '/data/0/type' },
      );
      expectJsonApiError(await send('post', `/post/${post}/relationships/tags`, {}), 400, 'invalid-payload');
      expectJsonApiError(
        await send('patch', `/post/${post}/relationships/author`, { data: null }),
        400,
        'invalid-payload',
        { pointer: '/data' },
      );
    });

    it('answers 404 for a missing parent, related resource or relationship', async () => {
      expectJsonApiError(await send('post', `/post/999999/relationships/tags`, { data: [] }), 404, 'not-found');
      expectJsonApiError(
        await send('post', `/post/${post}/relationships/tags`, { data: [{ type: 'tag', id: 555555 }] }),
        404,
        'not-found',
        { pointer: '/data' },
      );
      expectJsonApiError(
        await send('post', `/post/${post}/relationships/nothing`, { data: [] }),
        404,
        'unknown-relationship',
      );
    });
  });
});
