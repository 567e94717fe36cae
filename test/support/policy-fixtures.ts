import type { DemoUser } from '../../fixtures/blog/policies.js';
import type { TestDatabase } from './test-database.js';

export interface PolicyFixture {
  alice: DemoUser;
  bob: DemoUser;
  /** Post ids: Alice's and Bob's published posts, and Bob's draft. */
  posts: { alicePub: number; bobPub: number; bobDraft: number };
}

/** Two users and three posts, one of them a draft only its author may read under the sample policies. */
export async function seedPolicyBlog(db: TestDatabase): Promise<PolicyFixture> {
  const p = db.prisma;
  const user = (name: string) =>
    p.user.create({
      data: { name, email: `${name}@x.test`, passwordHash: `hash-${name}` },
      select: { id: true, role: true },
    });
  const alice = await user('alice');
  const bob = await user('bob');
  const post = async (title: string, authorId: number, published: boolean) =>
    (await p.post.create({ data: { title, authorId, published } })).id;
  return {
    alice,
    bob,
    posts: {
      alicePub: await post('alicePub', alice.id, true),
      bobPub: await post('bobPub', bob.id, true),
      bobDraft: await post('bobDraft', bob.id, false),
    },
  };
}
