/**
 * Generated atomic operations (fast-check, seeded; FUZZ_RUNS for a longer run, FUZZ_SEED to replay):
 * each operation kind (add, update, remove, relationship add/update/remove, to-one replace), alone
 * or after an `add` whose `lid` it names, answers exactly what its single request answers on fresh
 * identical data: the same status, error codes and details, the same pointers within the operation
 * (`/atomic:operations/N` before them), and the same database state.
 */
import fc from 'fast-check';

import { type Caller, usePolicyApp } from '../support/policy-writes.js';
import { testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 4404);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
/** An id no row has. */
const MISSING = 2_000_000_000;

type PostRef = 'mine' | 'othersDraft' | 'othersPublished' | 'missing' | 'new';
type TagRef = 'tag' | 'linked' | 'missing';
type UserRef = 'alice' | 'bob' | 'missing';
type Title = string | number;
type Op =
  | { kind: 'add'; title: Title; author: UserRef; tags: TagRef[] }
  | { kind: 'update'; post: PostRef; title: Title; tags?: TagRef[] }
  | { kind: 'remove'; post: PostRef }
  | { kind: 'tags'; change: 'add' | 'update' | 'remove'; post: PostRef; tags: TagRef[] }
  | { kind: 'author'; post: PostRef; author: UserRef };
/** One operation, as `caller`, after an `add` of a post with the lid `new` when `lid` is set. */
interface Case {
  caller: Caller | 'writer';
  lid: boolean;
  op: Op;
}

const postRef = fc.constantFrom<PostRef>('mine', 'othersDraft', 'othersPublished', 'missing', 'new');
const tagRefs = fc.array(fc.constantFrom<TagRef>('tag', 'linked', 'missing'), { maxLength: 2 });
const userRef = fc.constantFrom<UserRef>('alice', 'bob', 'missing');
const title = fc.constantFrom<Title>('edited', '', 7);
const cases: fc.Arbitrary<Case> = fc.record({
  caller: fc.constantFrom<Case['caller']>('alice', 'bob', 'anonymous', 'writer'),
  lid: fc.boolean(),
  op: fc.oneof(
    fc.record({ kind: fc.constant('add' as const), title, author: userRef, tags: tagRefs }),
    fc.record(
      { kind: fc.constant('update' as const), post: postRef, title, tags: tagRefs },
      { requiredKeys: ['kind', 'post', 'title'] },
    ),
    fc.record({ kind: fc.constant('remove' as const), post: postRef }),
    fc.record({
      kind: fc.constant('tags' as const),
      change: fc.constantFrom('add' as const, 'update' as const, 'remove' as const),
      post: postRef,
      tags: tagRefs,
    }),
    fc.record({ kind: fc.constant('author' as const), post: postRef, author: userRef }),
  ),
});

/** A success answer's primary data (a single request's body, an atomic result). */
type Answer = { data?: { attributes?: Record<string, unknown> } };

/** The rows one run of a case starts from, made the same way for each run under its own marker. */
interface World {
  marker: string;
  posts: Record<Exclude<PostRef, 'new'>, number>;
  tags: Record<TagRef, number>;
  users: Record<UserRef, number>;
  /** The post the lid `new` names, once created. */
  created?: number;
}

describe.each(testProviders())('atomic operations answer as their single requests (%s)', (provider) => {
  const { t, rows, request } = usePolicyApp(provider, {});
  let worlds = 0;

  async function world(): Promise<World> {
    const { users } = await rows();
    const marker = `w${++worlds}-`;
    const p = t.db.prisma;
    const alice = users.alice!.id;
    const bob = users.bob!.id;
    const post = async (name: string, authorId: number, published: boolean) =>
      (await p.post.create({ data: { title: `${marker}${name}`, authorId, published } })).id;
    const tag = async (name: string) => (await p.tag.create({ data: { name: `${marker}${name}` } })).id;
    const linked = await tag('linked');
    const posts = {
      mine: await post('mine', alice, false),
      othersDraft: await post('othersDraft', bob, false),
      othersPublished: await post('othersPublished', bob, true),
      missing: MISSING,
    };
    for (const id of [posts.mine, posts.othersPublished])
      await p.post.update({ where: { id }, data: { tags: { connect: { id: linked } } } });
    return {
      marker,
      posts,
      tags: { tag: await tag('tag'), linked, missing: MISSING },
      users: { alice, bob, missing: MISSING },
    };
  }

  const headers = (caller: Case['caller']): Record<string, string> =>
    caller === 'writer' ? { 'x-writer': '1' } : caller === 'anonymous' ? {} : { 'x-user': caller };
  const postId = (w: World, ref: PostRef) => String(ref === 'new' ? w.created : w.posts[ref]);
  const tagLinkage = (w: World, tags: TagRef[]) => tags.map((tag) => ({ type: 'tag', id: String(w.tags[tag]) }));
  const userLinkage = (w: World, user: UserRef) => ({ type: 'user', id: String(w.users[user]) });
  /** A post reference of an atomic operation: by id, or by the lid of the post the first operation adds. */
  const atomicRef = (w: World, ref: PostRef) =>
    ref === 'new' ? { type: 'post', lid: 'new' } : { type: 'post', id: postId(w, ref) };
  const titleOf = (w: World, value: Title) => (typeof value === 'string' ? `${w.marker}${value}` : value);

  const newPost = (w: World) => ({
    type: 'post',
    attributes: { title: `${w.marker}lid` },
    relationships: { author: { data: userLinkage(w, 'alice') } },
  });

  function resourceData(w: World, op: Extract<Op, { kind: 'add' | 'update' }>, atomic: boolean) {
    const relationships =
      op.kind === 'add'
        ? { author: { data: userLinkage(w, op.author) }, tags: { data: tagLinkage(w, op.tags) } }
        : op.tags && { tags: { data: tagLinkage(w, op.tags) } };
    const identity = op.kind === 'add' ? {} : atomic ? atomicRef(w, op.post) : { id: postId(w, op.post) };
    return {
      type: 'post',
      ...identity,
      attributes: { title: titleOf(w, op.title) },
      ...(relationships ? { relationships } : {}),
    };
  }

  /** The single request of an operation: method, path, body. */
  function single(w: World, op: Op): [string, string, unknown?] {
    const url = (ref: PostRef) => `/api/rest/post/${postId(w, ref)}`;
    const tagsMethod = { add: 'POST', update: 'PATCH', remove: 'DELETE' } as const;
    switch (op.kind) {
      case 'add':
        return ['POST', '/api/rest/post', { data: resourceData(w, op, false) }];
      case 'update':
        return ['PATCH', url(op.post), { data: resourceData(w, op, false) }];
      case 'remove':
        return ['DELETE', url(op.post)];
      case 'tags':
        return [tagsMethod[op.change], `${url(op.post)}/relationships/tags`, { data: tagLinkage(w, op.tags) }];
      case 'author':
        return ['PATCH', `${url(op.post)}/relationships/author`, { data: userLinkage(w, op.author) }];
    }
  }

  /** The same operation in an atomic request. */
  function operation(w: World, op: Op): object {
    switch (op.kind) {
      case 'add':
      case 'update':
        return { op: op.kind, data: resourceData(w, op, true) };
      case 'remove':
        return { op: 'remove', ref: atomicRef(w, op.post) };
      case 'tags':
        return { op: op.change, ref: { ...atomicRef(w, op.post), relationship: 'tags' }, data: tagLinkage(w, op.tags) };
      case 'author':
        return {
          op: 'update',
          ref: { ...atomicRef(w, op.post), relationship: 'author' },
          data: userLinkage(w, op.author),
        };
    }
  }

  /** The world's ids by the names of their rows: `<post mine>`, `<tag linked>`... */
  function idNames(w: World): Map<string, string> {
    return new Map<string, string>([
      ...Object.entries(w.posts).map(([name, id]) => [String(id), `<post ${name}>`] as const),
      ...Object.entries(w.tags).map(([name, id]) => [String(id), `<tag ${name}>`] as const),
      ...Object.entries(w.users).map(([name, id]) => [String(id), `<user ${name}>`] as const),
      ...(w.created === undefined ? [] : [[String(w.created), '<post new>'] as const]),
    ]);
  }

  /** A JSON value with the world's ids in its texts, and its marker, replaced by names: the same for both runs of a case. */
  function normalized(w: World, value: unknown, names = idNames(w)): unknown {
    if (typeof value === 'string')
      return value.replaceAll(w.marker, '').replace(/\b\d+\b/g, (id) => names.get(id) ?? id);
    if (Array.isArray(value)) return value.map((item) => normalized(w, item, names));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalized(w, item, names)]));
    return value;
  }

  /** A success answer's attributes, normalized, without the times the database set. */
  function attributesOf(w: World, answer: Answer): unknown {
    const attributes = answer.data?.attributes;
    if (!attributes) return undefined;
    const { createdAt: _created, updatedAt: _updated, ...kept } = attributes;
    return normalized(w, kept);
  }

  /** The world's posts and tags as stored, with names for ids; created posts by title. */
  async function state(w: World): Promise<unknown> {
    const posts = await t.db.prisma.post.findMany({
      where: { title: { startsWith: w.marker } },
      select: { id: true, title: true, published: true, authorId: true, tags: { select: { id: true } } },
      orderBy: { id: 'asc' },
    });
    const tags = await t.db.prisma.tag.findMany({ where: { name: { startsWith: w.marker } }, orderBy: { id: 'asc' } });
    const name = (id: number) => normalized(w, String(id)) as string;
    const named = normalized(w, {
      posts: posts.map((post) => ({
        ...post,
        id: name(post.id),
        authorId: name(post.authorId),
        tags: post.tags.map((tag) => name(tag.id)).sort(),
      })),
      tags: tags.map((tag) => tag.name),
    }) as { posts: { id: string; title: string }[] };
    // Posts created by the case have no name: they are told apart by title.
    for (const post of named.posts) if (/^\d+$/.test(post.id)) post.id = 'created';
    named.posts.sort((a, b) => `${a.title} ${a.id}`.localeCompare(`${b.title} ${b.id}`));
    return named;
  }

  /** An error answer's objects, their details normalized. */
  function errorsOf(w: World, body: unknown) {
    const { errors } = body as {
      errors: { status: string; code: string; detail: string; source?: { pointer?: string } }[];
    };
    return errors.map(({ status, code, detail, source }) => ({
      status,
      code,
      detail: normalized(w, detail),
      pointer: source?.pointer,
    }));
  }

  async function runSingle(c: Case) {
    const w = await world();
    const as = headers(c.caller);
    if (c.lid) {
      const created = await request('POST', '/api/rest/post', as, { data: newPost(w) });
      expect(created.status).toBe(201);
      w.created = Number(JSON.parse(created.text).data.id);
    }
    const before = await state(w);
    const [method, path, body] = single(w, c.op);
    const res = await request(method, path, as, body);
    const failed = res.status >= 400;
    return {
      status: res.status,
      errors: failed ? errorsOf(w, JSON.parse(res.text)) : [],
      data: !failed && res.text ? attributesOf(w, JSON.parse(res.text)) : undefined,
      before,
      after: await state(w),
    };
  }

  async function runAtomic(c: Case) {
    const w = await world();
    const before = await state(w);
    const operations = [...(c.lid ? [{ op: 'add', data: { ...newPost(w), lid: 'new' } }] : []), operation(w, c.op)];
    const res = await request(
      'POST',
      '/api/rest/operations',
      { ...headers(c.caller), 'Content-Type': ATOMIC, Accept: ATOMIC },
      { 'atomic:operations': operations },
    );
    const results = res.status === 200 ? JSON.parse(res.text)['atomic:results'] : [];
    if (c.lid && results.length) w.created = Number(results[0].data.id);
    return {
      status: res.status,
      errors: res.status >= 400 ? errorsOf(w, JSON.parse(res.text)) : [],
      data: results.length ? attributesOf(w, results.at(-1)) : undefined,
      before,
      after: await state(w),
    };
  }

  it('answers every operation kind as its single request, with the same database state', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (generated) => {
        // A lid names a post its caller adds: someone who may; without one, `new` is the caller's own post.
        const c: Case = {
          ...generated,
          caller: generated.lid && !['alice', 'writer'].includes(generated.caller) ? 'alice' : generated.caller,
          op:
            !generated.lid && 'post' in generated.op && generated.op.post === 'new'
              ? { ...generated.op, post: 'mine' }
              : generated.op,
        };
        const one = await runSingle(c);
        const atomic = await runAtomic(c);
        const index = c.lid ? 1 : 0;
        const prefix = `/atomic:operations/${index}`;
        if (one.status >= 400) {
          expect({ case: c, status: atomic.status }).toEqual({ case: c, status: one.status });
          // Where the single request names nothing of its body (its id is in the URL), the operation's
          // pointer names the operation, or its `ref` or `data`.
          const expected = one.errors.map((error) => ({
            ...error,
            pointer:
              error.pointer === undefined ? expect.stringMatching(`^${prefix}(/|$)`) : `${prefix}${error.pointer}`,
          }));
          expect({ case: c, errors: atomic.errors }).toEqual({ case: c, errors: expected });
          // Nothing is written: the failing request alone, every operation of the atomic one.
          expect(one.after).toEqual(one.before);
          expect(atomic.after).toEqual(atomic.before);
        } else {
          expect({ case: c, status: atomic.status, errors: atomic.errors }).toEqual({
            case: c,
            status: 200,
            errors: [],
          });
          expect({ case: c, data: atomic.data }).toEqual({ case: c, data: one.data });
          expect({ case: c, state: atomic.after }).toEqual({ case: c, state: one.after });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
