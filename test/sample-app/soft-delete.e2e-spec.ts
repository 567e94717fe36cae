import request from 'supertest';

import { testProviders } from '../support/test-database.js';
import { useSampleApp } from './sample-app-harness.js';

const JSON_API = 'application/vnd.api+json';
const q = (args: object) => encodeURIComponent(JSON.stringify(args));

describe.each(testProviders())('sample app: soft-deleted posts, comments and tags (%s)', (provider) => {
  const sample = useSampleApp(provider);
  let alice: number, bob: number;

  beforeAll(async () => {
    const users = await sample.db.prisma.user.findMany({ orderBy: { id: 'asc' } });
    [alice, bob] = [users[0]!.id, users[1]!.id];
  });

  const http = (user?: number) => {
    const agent = request(sample.app.getHttpServer());
    const as = <T extends { set(name: string, value: string): T }>(req: T) =>
      user === undefined ? req : req.set('x-user-id', String(user));
    return {
      get: (url: string) => as(agent.get(url)),
      post: (url: string) => as(agent.post(url)),
      delete: (url: string) => as(agent.delete(url)),
    };
  };

  /** A published post of bob's with a comment of bob's and alice's reply to it (written as stored). */
  async function thread(title: string) {
    const { prisma } = sample.db;
    const post = await prisma.post.create({ data: { title, published: true, authorId: bob } });
    const comment = await prisma.comment.create({ data: { body: `${title}: first`, postId: post.id, authorId: bob } });
    const reply = await prisma.comment.create({
      data: { body: `${title}: reply`, postId: post.id, authorId: alice, parentId: comment.id },
    });
    return { post: post.id, comments: [comment.id, reply.id] };
  }

  /** Ids of the posts and comments every interface shows the caller. */
  async function visible(user?: number) {
    const rest = await http(user).get('/api/rest/post?include=comments&page[limit]=100').expect(200);
    const rpc = await http(user)
      .get(`/api/rpc/comment/findMany?q=${q({ select: { id: true } })}`)
      .expect(200);
    return {
      posts: rest.body.data.map((post: { id: string }) => Number(post.id)),
      restComments: (rest.body.included ?? []).map((comment: { id: string }) => comment.id),
      rpcComments: rpc.body.data.map((comment: { id: string }) => comment.id),
    };
  }

  it('hides a deleted post and its comments from every reader, and its author restores exactly those', async () => {
    const { post, comments } = await thread('Soon gone');
    const earlier = await sample.db.prisma.comment.create({
      data: { body: 'deleted before', postId: post, authorId: bob },
    });
    await http(bob).delete(`/api/rest/comment/${earlier.id}`).expect(204);
    await http(bob).delete(`/api/rest/post/${post}`).expect(204);

    for (const user of [undefined, alice, bob]) {
      const seen = await visible(user);
      expect(seen.posts).not.toContain(post);
      expect([...seen.restComments, ...seen.rpcComments]).not.toEqual(expect.arrayContaining([comments[0]]));
      await http(user).get(`/api/rest/post/${post}`).expect(404);
      await http(user).get(`/api/rest/post/${post}/comments`).expect(404);
    }
    expect(await sample.db.prisma.comment.count({ where: { postId: post, deletedAt: { not: null } } })).toBe(3);

    const restored = await http(bob).post(`/api/rest/post/${post}/restore`).set('accept', JSON_API).expect(200);
    expect(Number(restored.body.data.id)).toBe(post);
    expect(restored.body.data.attributes.deletedAt).toBeNull();
    const back = await http(bob).get(`/api/rest/post/${post}/comments`).expect(200);
    expect(back.body.data.map((comment: { id: string }) => comment.id).sort()).toEqual([...comments].sort());
  });

  it('lets an admin, and no one else, list deleted posts and restore another author’s post', async () => {
    const { post } = await thread('Admin sees');
    await http(bob).delete(`/api/rest/post/${post}`).expect(204);
    const deletedOnly = `/api/rest/post?withDeleted=true&filter[deletedAt$null]=false&page[limit]=100`;
    const listed = await http(alice).get(deletedOnly).expect(200);
    expect(listed.body.data.map((row: { id: string }) => Number(row.id))).toContain(post);
    expect((await http(bob).get(deletedOnly).expect(200)).body.data).toEqual([]);
    await http().post(`/api/rest/post/${post}/restore`).expect(404);
    const restored = await http(alice)
      .post('/api/rpc/post/restore')
      .send({ where: { id: post } })
      .expect(200);
    expect(restored.body.data).toMatchObject({ id: post, deletedAt: null });
  });

  it('frees a deleted tag’s name, and refuses restoring the old tag while the name is taken', async () => {
    const old = await http(alice)
      .post('/api/rest/tag')
      .set('content-type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: 'ephemeral' } } })
      .expect(201);
    await http(alice).delete(`/api/rest/tag/${old.body.data.id}`).expect(204);
    const again = await http(bob)
      .post('/api/rest/tag')
      .set('content-type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: 'ephemeral' } } })
      .expect(201);
    await http(alice).post(`/api/rest/tag/${old.body.data.id}/restore`).expect(409);
    await http(alice).delete(`/api/rest/tag/${again.body.data.id}`).expect(204);
    await http(alice).post(`/api/rest/tag/${old.body.data.id}/restore`).expect(200);
    const named = await http(bob).get(`/api/rest/tag?filter[name]=ephemeral`).expect(200);
    expect(named.body.data.map((tag: { id: string }) => tag.id)).toEqual([old.body.data.id]);
  });
});
