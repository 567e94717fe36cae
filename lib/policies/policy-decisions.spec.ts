import type { CrudApiPolicies } from './policy.types.js';
import { policyDecisions } from './policy-set.js';

type Context = { user?: { id: number; role: string }; session?: string };

const policies: CrudApiPolicies<Context> = {
  Post: {
    read: (ctx: Context) =>
      ctx.user?.role === 'ADMIN' ? true : { OR: [{ published: true }, { authorId: ctx.user?.id }] },
    update: { published: false },
    fields: { read: { views: (ctx) => ctx.user?.role === 'ADMIN' }, write: { published: (ctx) => !!ctx.user } },
  },
  User: { read: true },
};

describe('policyDecisions', () => {
  it('is the same for contexts that differ only where no rule reads', () => {
    const ada = (session: string) => ({ user: { id: 1, role: 'USER' }, session });
    expect(policyDecisions(policies, ada('a'))).toEqual(policyDecisions(policies, ada('b')));
  });

  it('differs where any rule decides differently: rows, a field read or a field write', () => {
    const decisions = [
      {},
      { user: { id: 1, role: 'USER' } },
      { user: { id: 2, role: 'USER' } },
      { user: { id: 1, role: 'ADMIN' } },
    ].map((ctx) => JSON.stringify(policyDecisions(policies, ctx)));
    expect(new Set(decisions).size).toBe(decisions.length);
  });

  it('throws what a rule throws for the context', () => {
    const failing: CrudApiPolicies<Context> = { Post: { read: (ctx: Context) => ({ authorId: ctx.user!.id }) } };
    expect(() => policyDecisions(failing, {})).toThrow(TypeError);
  });
});
