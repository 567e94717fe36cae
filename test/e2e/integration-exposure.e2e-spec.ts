import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const q = (args: object) => encodeURIComponent(JSON.stringify(args));

describe.each(testProviders())('exposure options on both interfaces (%s)', (provider) => {
  describe('models: only User and Post', () => {
    let userId: number;
    let postId: number;
    const t = useTestApp(provider, {
      options: { models: ['User', 'post'] },
      seed: async () => {
        const user = await t.db.prisma.user.create({
          data: { email: 'a@example.com', name: 'A', profile: { create: { bio: 'hidden' } } },
        });
        const post = await t.db.prisma.post.create({
          data: { title: 'P', authorId: user.id, tags: { create: [{ name: 'hidden' }] } },
        });
        const tag = await t.db.prisma.tag.findFirstOrThrow();
        userId = user.id;
        postId = post.id;
        expect(tag.name).toBe('hidden');
      },
    });

    it('answers 404 for a hidden model on RPC', async () => {
      const res = await t.http().get('/api/rpc/tag/findMany').expect(404);
      expect(res.body).toEqual({ error: { errorCode: 'unknown-type', message: expect.stringContaining('tag') } });
      await t.http().post('/api/rpc/profile/create').send({ data: { userId } }).expect(404);
    });

    it('refuses RPC arguments that reach a hidden model through a relation', async () => {
      const include = await t
        .http()
        .get(`/api/rpc/user/findMany?q=${q({ include: { profile: true } })}`)
        .expect(400);
      expect(include.body).toEqual({
        error: {
          errorCode: 'invalid-argument',
          message: 'Invalid argument at "/include/profile": unknown key "profile".',
        },
      });
      await t
        .http()
        .get(`/api/rpc/post/count?q=${q({ where: { tags: { some: { name: 'hidden' } } } })}`)
        .expect(400);
      await t
        .http()
        .post('/api/rpc/user/create')
        .send({ data: { email: 'b@example.com', name: 'B', profile: { create: {} } } })
        .expect(400);
      expect(await t.db.prisma.user.count({ where: { email: 'b@example.com' } })).toBe(0);
    });

    it('answers 404 for a hidden model on REST', async () => {
      const list = await t.http().get('/api/rest/tag').expect(404);
      expect(list.body.errors[0]).toMatchObject({ status: '404', code: 'unknown-type' });
      await t.http().get('/api/rest/tag/1').expect(404);
      await t
        .http()
        .post('/api/rest/tag')
        .set('content-type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'x' } } })
        .expect(404);
    });

    it('leaves hidden relationships out of REST documents and includes', async () => {
      const user = await t.http().get(`/api/rest/user/${userId}`).expect(200);
      expect(Object.keys(user.body.data.relationships).sort()).toEqual(['followers', 'following', 'posts']);
      const post = await t.http().get(`/api/rest/post/${postId}`).expect(200);
      expect(Object.keys(post.body.data.relationships)).toEqual(['author']);
      expect(JSON.stringify(post.body)).not.toMatch(/tags|likes|comments/);
      const include = await t.http().get('/api/rest/post?include=tags').expect(400);
      expect(include.body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
      await t.http().get(`/api/rest/user/${userId}/profile`).expect(404);
      await t.http().get(`/api/rest/user/${userId}/relationships/profile`).expect(404);
    });
  });

  describe('operations: Tag read-only, Post without deleteMany', () => {
    let tagId: number;
    let postIds: number[];
    const t = useTestApp(provider, {
      options: { operations: { Tag: { readOnly: true }, post: { exclude: ['deleteMany'] } } },
      seed: async () => {
        const user = await t.db.prisma.user.create({ data: { email: 'a@example.com', name: 'A' } });
        tagId = (await t.db.prisma.tag.create({ data: { name: 'kept' } })).id;
        postIds = await Promise.all(
          ['a', 'b'].map(async (title) => (await t.db.prisma.post.create({ data: { title, authorId: user.id } })).id),
        );
      },
    });

    it('serves reads of a read-only model on both interfaces', async () => {
      expect((await t.http().get('/api/rpc/tag/count').expect(200)).body).toEqual({ data: 1 });
      expect((await t.http().get(`/api/rest/tag/${tagId}`).expect(200)).body.data.attributes).toEqual({
        name: 'kept',
        deletedAt: null,
      });
    });

    it('refuses writes to a read-only model on RPC (400) and REST (403)', async () => {
      const rpc = await t
        .http()
        .post('/api/rpc/tag/create')
        .send({ data: { name: 'new' } })
        .expect(400);
      expect(rpc.body.error.message).toMatch(/not available/);
      await t
        .http()
        .delete(`/api/rpc/tag/delete?q=${q({ where: { id: tagId } })}`)
        .expect(400);
      const rest = await t
        .http()
        .post('/api/rest/tag')
        .set('content-type', JSON_API)
        .send({ data: { type: 'tag', attributes: { name: 'new' } } })
        .expect(403);
      expect(rest.body.errors[0]).toMatchObject({ status: '403', code: 'forbidden' });
      await t
        .http()
        .patch(`/api/rest/tag/${tagId}`)
        .set('content-type', JSON_API)
        .send({ data: { type: 'tag', id: String(tagId), attributes: { name: 'renamed' } } })
        .expect(403);
      await t.http().delete(`/api/rest/tag/${tagId}`).expect(403);
      expect(await t.db.prisma.tag.findMany()).toEqual([{ id: tagId, name: 'kept', deletedAt: null }]);
    });

    it('drops only the excluded operation', async () => {
      const rpc = await t
        .http()
        .delete(`/api/rpc/post/deleteMany?q=${q({})}`)
        .expect(400);
      expect(rpc.body.error.message).toMatch(/deleteMany/);
      expect(await t.db.prisma.post.count()).toBe(2);
      await t
        .http()
        .delete(`/api/rpc/post/delete?q=${q({ where: { id: postIds[0] } })}`)
        .expect(200);
      await t.http().delete(`/api/rest/post/${postIds[1]}`).expect(204);
      expect(await t.db.prisma.post.count()).toBe(0);
    });
  });
});
