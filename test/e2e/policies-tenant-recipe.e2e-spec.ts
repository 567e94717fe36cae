import type { CrudApiPolicies } from '../../lib/index.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/**
 * The tenant isolation recipe of docs/rules.md, with users as the tenants and posts as their rows:
 * a foreign key follows the visibility of the row it names, so sorting and grouping by the tenant
 * key are refused unless the read rule also requires the related row readable (its relation form).
 */
interface TenantContext {
  user: { id: number };
}

const tenant = ({ user }: TenantContext) => ({ id: user.id });
const keyOnly: CrudApiPolicies<TenantContext> = {
  User: { read: tenant, create: true, update: true, delete: true },
  Post: { read: ({ user }: TenantContext) => ({ authorId: user.id }), create: true, update: true, delete: true },
};
const withRelation: CrudApiPolicies<TenantContext> = {
  ...keyOnly,
  Post: { ...keyOnly.Post, read: (context: TenantContext) => ({ authorId: context.user.id, author: tenant(context) }) },
};

describe.each(testProviders())('the tenant recipe (%s)', (provider) => {
  describe.each([
    { rule: 'the key alone', policies: keyOnly, status: 403 },
    { rule: 'the key and the relation form', policies: withRelation, status: 200 },
  ])('with $rule in the read rule', ({ policies, status }) => {
    let own = 0;
    const t = useTestApp(provider, {
      options: { policies, context: () => ({ user: { id: own } }) },
      seed: async () => {
        const [mine, theirs] = await Promise.all(
          ['mine', 'theirs'].map((name) => t.db.prisma.user.create({ data: { name, email: `${name}@x.test` } })),
        );
        own = mine!.id;
        for (const [title, authorId] of [
          ['b', mine!.id],
          ['a', mine!.id],
          ['other', theirs!.id],
        ] as const)
          await t.db.prisma.post.create({ data: { title, authorId } });
      },
    });

    it(`answers ${status} to sorting and grouping by the tenant key`, async () => {
      const sorted = await t.http().get('/api/rest/post?sort=-authorId,title');
      const grouped = await callRpc(t, 'get', 'post/groupBy', { by: ['authorId'], _count: { _all: true } });
      expect([sorted.status, grouped.status]).toEqual([status, status]);
      if (status !== 200) return;
      expect(sorted.body.data.map((post: { attributes: { title: string } }) => post.attributes.title)).toEqual([
        'a',
        'b',
      ]);
      expect(grouped.data).toEqual([{ authorId: own, _count: { _all: 2 } }]);
    });
  });
});
