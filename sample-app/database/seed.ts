import type { SamplePrismaClient } from './create-prisma-client.js';

/** Demo data for the sample app, written once into an empty database. Returns whether it wrote. */
export async function seedIfEmpty(prisma: SamplePrismaClient): Promise<boolean> {
  if ((await prisma.user.count()) > 0) return false;
  await prisma.$transaction(async (tx) => {
    const [news, howto, opinion] = await Promise.all(
      ['news', 'how-to', 'opinion'].map((name) => tx.tag.create({ data: { name } })),
    );
    const alice = await tx.user.create({
      data: {
        email: 'alice@example.com',
        name: 'Alice',
        role: 'ADMIN',
        passwordHash: 'demo-hash-alice',
        profile: { create: { bio: 'Editor in chief', settings: { theme: 'dark' }, avatar: Buffer.from('alice') } },
      },
    });
    const bob = await tx.user.create({
      data: {
        email: 'bob@example.com',
        name: 'Bob',
        passwordHash: 'demo-hash-bob',
        following: { connect: { id: alice.id } },
      },
    });
    const hello = await tx.post.create({
      data: {
        title: 'Hello, world',
        content: 'The first post.',
        status: 'PUBLISHED',
        published: true,
        publishedAt: new Date('2026-01-01T09:00:00Z'),
        rating: 4.5,
        price: '9.99',
        views: 1234n,
        metadata: { featured: true },
        authorId: alice.id,
        tags: { connect: [{ id: news!.id }, { id: opinion!.id }] },
      },
    });
    await tx.post.create({
      data: {
        title: 'Draft: indexing tips',
        content: 'Work in progress.',
        authorId: bob.id,
        tags: { connect: [{ id: howto!.id }] },
      },
    });
    const first = await tx.comment.create({ data: { body: 'Great start!', postId: hello.id, authorId: bob.id } });
    await tx.comment.create({
      data: { body: 'Thanks, Bob.', postId: hello.id, authorId: alice.id, parentId: first.id },
    });
    await tx.like.create({ data: { userId: bob.id, postId: hello.id } });
  });
  return true;
}
