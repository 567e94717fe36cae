/**
 * Under access policies, a client may not choose the value of a primary key the database generates
 * (403 `client-id-not-allowed`, as REST answers): on RPC, a chosen id told whether a row the caller
 * cannot read has it (a unique violation or a created row). Every create path is probed with the id
 * of a hidden row and with a missing id: both answers must be the same refusal, and change nothing.
 */
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiPolicies } from '../../lib/index.js';
import { normalizeAnswer, probeState, seedAdversarialWorld, WORLD } from '../support/adversarial-fixtures.js';
import { rawRest } from '../support/adversarial-http.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Caller = 'admin' | 'alice';
type Method = 'post' | 'patch';

const { alice, admin, posts: P, comments: C, tags: T, missing: M } = WORLD;
const USERS: Record<Caller, DemoUser> = { admin, alice };
const FREE_TAG = 8999;

/** Nested creates need an unconditional create rule: posts get one here, and an id rule for admins. */
const policies: CrudApiPolicies = {
  ...samplePolicies,
  Post: {
    ...samplePolicies.Post,
    create: true,
    update: true,
    fields: { write: { id: (ctx: { user?: DemoUser }) => ctx.user?.role === 'ADMIN' } },
  },
};

// [label, path, args for an id, the id of a row the caller cannot read, an id no row has]
type Probe = [string, Method, string, (id: any) => unknown, string | number, string | number];

const TOP_LEVEL: Probe[] = [
  ['create', 'post', 'post/create', (id) => ({ data: { id, title: 'x', authorId: alice.id } }), P.bobDraft, M.post],
  [
    'create (cuid id)',
    'post',
    'comment/create',
    (id) => ({ data: { id, body: 'x', postId: P.alicePub, authorId: alice.id } }),
    C.onBobDraft,
    M.comment,
  ],
  [
    'createMany',
    'post',
    'post/createMany',
    (id) => ({ data: [{ title: 'a' }, { id, title: 'x' }] }),
    P.bobDraft,
    M.post,
  ],
  [
    'upsert',
    'post',
    'post/upsert',
    (id) => ({ where: { id }, create: { id, title: 'x', authorId: alice.id }, update: {} }),
    P.bobDraft,
    M.post,
  ],
];

const update = (data: unknown) => ({ where: { id: alice.id }, data });
const NESTED: Probe[] = [
  [
    'nested create',
    'patch',
    'user/update',
    (id) => update({ posts: { create: { id, title: 'x' } } }),
    P.bobDraft,
    M.post,
  ],
  [
    'nested createMany',
    'patch',
    'user/update',
    (id) => update({ posts: { createMany: { data: [{ id, title: 'x' }] } } }),
    P.bobDraft,
    M.post,
  ],
  [
    'nested upsert',
    'patch',
    'user/update',
    (id) => update({ posts: { upsert: { where: { id }, create: { id, title: 'x' }, update: {} } } }),
    P.bobDraft,
    M.post,
  ],
  [
    'nested connectOrCreate',
    'patch',
    'post/update',
    (id) => ({
      where: { id: P.alicePub },
      data: { tags: { connectOrCreate: { where: { name: 'fresh' }, create: { id, name: 'fresh' } } } },
    }),
    T.secret,
    FREE_TAG,
  ],
  [
    'a create two levels deep',
    'patch',
    'user/update',
    (id) => update({ posts: { create: { title: 'x', tags: { create: { id, name: 'fresh' } } } } }),
    T.secret,
    FREE_TAG,
  ],
];

describe.each(testProviders())('client-chosen ids under access policies (%s)', (provider) => {
  let caller: DemoUser | undefined;
  const rpc = (who: Caller, method: Method, path: string, args: unknown) => {
    caller = USERS[who];
    return callRpc(t, method, path, args);
  };

  const t = useTestApp(provider, {
    options: { policies, context: () => ({ user: caller }) },
    seed: ({ db }) => seedAdversarialWorld(db),
  });

  const probes = [...TOP_LEVEL, ...NESTED];
  if (provider !== 'mysql') {
    probes.push([
      'createManyAndReturn',
      'post',
      'post/createManyAndReturn',
      (id) => ({ data: [{ id, title: 'x' }] }),
      P.bobDraft,
      M.post,
    ]);
  }

  it.each(probes)('%s: the same 403 for a hidden and a missing id, nothing written', async (...probe) => {
    const [, method, path, args, hiddenId, missingId] = probe;
    const hidden = await probeState(t.db, () => rpc('alice', method, path, args(hiddenId)));
    const missing = await probeState(t.db, () => rpc('alice', method, path, args(missingId)));
    expect({ status: hidden.result.status, policyRejection: hidden.result.body?.error?.rejectedByPolicy }).toEqual({
      status: 403,
      policyRejection: undefined,
    });
    expect(normalizeAnswer(missing.result.status, missing.result.body, [missingId])).toBe(
      normalizeAnswer(hidden.result.status, hidden.result.body, [hiddenId]),
    );
    expect(hidden.after).toBe(hidden.before);
    expect(missing.after).toBe(missing.before);
  });

  it('accepts the same writes without an id', async () => {
    const res = await rpc('alice', 'post', 'post/create', { data: { title: 'x', authorId: alice.id } });
    expect(res.status).toBe(201);
    await t.db.prisma.post.delete({ where: { id: res.data.id } });
  });

  it('lets a caller choose the id where the field write rule allows it', async () => {
    const res = await rpc('admin', 'post', 'post/create', { data: { id: M.post, title: 'x', authorId: admin.id } });
    expect({ status: res.status, id: res.data?.id }).toEqual({ status: 201, id: M.post });
    await t.db.prisma.post.delete({ where: { id: M.post } });
  });

  it('answers as REST does', async () => {
    caller = alice;
    const body = { data: { type: 'post', id: String(M.post), attributes: { title: 'x' } } };
    const res = await rawRest(t, 'post', 'post', JSON.stringify(body));
    expect({ status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
      status: 403,
      code: 'client-id-not-allowed',
    });
  });
});
