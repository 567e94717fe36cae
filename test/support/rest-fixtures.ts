import type { TestDatabase } from './test-database.js';

/** Ids of the rows `seedBlog` writes. */
export interface BlogFixture {
  alice: number;
  bob: number;
  carol: number;
  profile: string;
  hello: number;
  draft: number;
  percent: number;
  news: number;
  tech: number;
  firstComment: string;
  reply: string;
  anonymous: string;
}

/** A small blog covering every field type and relation kind of the sample schema. */
export async function seedBlog(db: TestDatabase): Promise<BlogFixture> {
  const prisma = db.prisma;
  const alice = await prisma.user.create({ data: { email: 'alice@example.com', name: 'Alice', role: 'ADMIN' } });
  const bob = await prisma.user.create({ data: { email: 'bob@example.com', name: 'Bob' } });
  const carol = await prisma.user.create({ data: { email: 'carol@example.com', name: 'Carol' } });
  const profile = await prisma.profile.create({
    data: {
      userId: alice.id,
      bio: 'Writes things',
      avatar: new Uint8Array([1, 2, 3, 255]),
      settings: { theme: 'dark', sizes: [1, 2] },
    },
  });
  const news = await prisma.tag.create({ data: { name: 'news' } });
  const tech = await prisma.tag.create({ data: { name: 'tech' } });
  const keywords = (list: string[]) => (db.provider === 'postgresql' ? { keywords: list } : {});
  const hello = await prisma.post.create({
    data: {
      title: 'Hello World',
      content: 'The first post',
      status: 'PUBLISHED',
      published: true,
      rating: 4.5,
      price: '9.99',
      views: 12345678901234n,
      metadata: { featured: true },
      publishedAt: new Date('2024-01-02T03:04:05.000Z'),
      authorId: alice.id,
      tags: { connect: [{ id: news.id }, { id: tech.id }] },
      ...keywords(['intro', 'hello']),
    } as never,
  });
  const draft = await prisma.post.create({
    data: { title: 'Second_draft', content: null, rating: 1, authorId: alice.id, ...keywords([]) } as never,
  });
  const percent = await prisma.post.create({
    data: {
      title: '100% Prisma',
      content: 'Search engines index words',
      status: 'PUBLISHED',
      published: true,
      rating: 3,
      price: '120.50',
      authorId: bob.id,
      tags: { connect: [{ id: tech.id }] },
      ...keywords(['prisma']),
    } as never,
  });
  const firstComment = await prisma.comment.create({ data: { body: 'Nice post', postId: hello.id, authorId: bob.id } });
  const reply = await prisma.comment.create({
    data: { body: 'Thanks!', postId: hello.id, authorId: alice.id, parentId: firstComment.id },
  });
  const anonymous = await prisma.comment.create({ data: { body: 'Anonymous remark', postId: percent.id } });
  await prisma.like.create({ data: { userId: bob.id, postId: hello.id } });
  await prisma.like.create({ data: { userId: carol.id, postId: hello.id } });
  await prisma.user.update({ where: { id: bob.id }, data: { following: { connect: [{ id: alice.id }] } } });
  return {
    alice: alice.id,
    bob: bob.id,
    carol: carol.id,
    profile: profile.id,
    hello: hello.id,
    draft: draft.id,
    percent: percent.id,
    news: news.id,
    tech: tech.id,
    firstComment: firstComment.id,
    reply: reply.id,
    anonymous: anonymous.id,
  };
}

/** A JSON:API document creating a post of `authorId` titled `title`. */
export const postDocument = (title: string, authorId: number) => ({
  data: {
    type: 'post',
    attributes: { title },
    relationships: { author: { data: { type: 'user', id: authorId } } },
  },
});
