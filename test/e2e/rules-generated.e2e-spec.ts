/**
 * Generated write trees (fast-check, seeded; FUZZ_RUNS for a longer run, FUZZ_SEED to replay): rule-
 * relevant fields placed anywhere a User or Post is written (nested creates and updates, to-one and
 * to-many, connectOrCreate, upsert on both branches, createMany, updateMany, transactions). The
 * expected outcome is computed from where the generator put them, and compared with the answer and
 * the database: a refused write changes nothing, an accepted one stored exactly what the rules say.
 */
import fc from 'fast-check';
import { z } from 'zod';

import { type CrudApiRules, withPolicies } from '../../lib/index.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 2511);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const hash = (password: string) => `hashed:${password}`;
const rules: CrudApiRules = {
  User: {
    fields: { passwordHash: 'internal' },
    virtual: { password: { type: 'String' } },
    beforeCreate: ({ data }) => {
      if (data.password !== undefined) data.passwordHash = hash(data.password);
    },
    beforeUpdate: ({ data }) => {
      if (data.password !== undefined) data.passwordHash = hash(data.password);
    },
    validate: {
      create: z.object({ email: z.email().max(254) }),
      update: z.object({ email: z.email().max(254).optional() }),
    },
  },
  Post: { fields: { authorId: { serverSet: ({ user }) => user.id } } },
};

type Path = (string | number)[];
/** What the generator decided for one place where a User is written. */
interface UserSlot {
  kind: 'create' | 'update';
  badEmail: boolean;
  password: boolean;
  internal: boolean;
}
interface PostSlot {
  serverSet: boolean;
}
type Slot = ({ model: 'User' } & UserSlot) | ({ model: 'Post' } & PostSlot);

/** A write tree with its slots, built from the generator's choices and the world's ids. */
interface Tree {
  model: string;
  op: string;
  args: any;
  /** The slots in the tree, with the path of their data object. */
  slots: { path: Path; slot: Slot; data: Record<string, unknown> }[];
}

interface World {
  caller: number;
  other: number;
  post: number;
  comment: string;
}

let counter = 0;
const nextEmail = () => `gen${++counter}@x.test`;

function userData(slot: UserSlot): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (slot.kind === 'create' || slot.badEmail) data.email = slot.badEmail ? `not-an-email-${++counter}` : nextEmail();
  if (slot.kind === 'create') data.name = `gen ${counter}`;
  if (slot.password) data.password = `pw-${counter}`;
  if (slot.internal) data.passwordHash = 'chosen by the client';
  return data;
}

function postData(slot: PostSlot, world: World): Record<string, unknown> {
  return { title: `post ${++counter}`, ...(slot.serverSet ? { authorId: world.other } : {}) };
}

/** A valid user create that the write does not use (the other branch of an upsert). */
const validUser = () => userData({ kind: 'create', badEmail: false, password: false, internal: false });

const userSlot = (kind: UserSlot['kind']) =>
  fc.record({ kind: fc.constant(kind), badEmail: fc.boolean(), password: fc.boolean(), internal: fc.boolean() });
const postSlot = fc.record({ serverSet: fc.boolean() });

/** Each template places slots in one write shape; `build` lays the generated slots into arguments. */
const TEMPLATES: { slots: fc.Arbitrary<Slot>[]; build: (slots: Slot[], world: World) => Tree }[] = [
  {
    // A user with nested posts.
    slots: [userSlot('create'), postSlot, postSlot].map((a, i) => tagged(a, i === 0 ? 'User' : 'Post')),
    build: ([u, p1, p2], world) =>
      tree(
        'user',
        'create',
        (put) => ({
          data: {
            ...put(['data'], u!),
            posts: { create: [put(['data', 'posts', 'create', 0], p1!), put(['data', 'posts', 'create', 1], p2!)] },
          },
        }),
        world,
      ),
  },
  {
    // An update of a user creating a post.
    slots: [tagged(userSlot('update'), 'User'), tagged(postSlot, 'Post')],
    build: ([u, p], world) =>
      tree(
        'user',
        'update',
        (put) => ({
          where: { id: world.caller },
          data: { ...put(['data'], u!), posts: { create: put(['data', 'posts', 'create'], p!) } },
        }),
        world,
      ),
  },
  {
    // A post whose new comment creates its author (to-one create two levels down).
    slots: [tagged(postSlot, 'Post'), tagged(userSlot('create'), 'User')],
    build: ([p, u], world) =>
      tree(
        'post',
        'create',
        (put) => ({
          data: {
            ...put(['data'], p!),
            comments: {
              create: { body: 'c', author: { create: put(['data', 'comments', 'create', 'author', 'create'], u!) } },
            },
          },
        }),
        world,
      ),
  },
  {
    // connectOrCreate's create branch.
    slots: [tagged(userSlot('create'), 'User')],
    build: ([u], world) =>
      tree(
        'comment',
        'create',
        (put) => ({
          data: {
            body: 'c',
            post: { connect: { id: world.post } },
            author: {
              connectOrCreate: {
                where: { email: nextEmail() },
                create: put(['data', 'author', 'connectOrCreate', 'create'], u!),
              },
            },
          },
        }),
        world,
      ),
  },
  {
    // upsert, create branch (a new email).
    slots: [tagged(userSlot('create'), 'User')],
    build: ([c], world) =>
      tree(
        'user',
        'upsert',
        (put) => ({ where: { email: nextEmail() }, create: put(['create'], c!), update: {} }),
        world,
      ),
  },
  {
    // upsert, update branch (the caller).
    slots: [tagged(userSlot('update'), 'User')],
    build: ([u], world) =>
      tree(
        'user',
        'upsert',
        (put) => ({ where: { id: world.caller }, create: validUser(), update: put(['update'], u!) }),
        world,
      ),
  },
  {
    // createMany of users.
    slots: [tagged(userSlot('create'), 'User'), tagged(userSlot('create'), 'User')],
    build: ([a, b], world) =>
      tree('user', 'createMany', (put) => ({ data: [put(['data', 0], a!), put(['data', 1], b!)] }), world),
  },
  {
    // A nested to-one update of a post's author, and a nested to-one upsert of a comment's author.
    slots: [tagged(userSlot('update'), 'User')],
    build: ([u], world) =>
      tree(
        'post',
        'update',
        (put) => ({
          where: { id: world.post },
          data: { title: 'updated', author: { update: put(['data', 'author', 'update'], u!) } },
        }),
        world,
      ),
  },
  {
    slots: [tagged(userSlot('update'), 'User')],
    build: ([u], world) =>
      tree(
        'comment',
        'update',
        (put) => ({
          where: { id: world.comment },
          data: {
            author: {
              upsert: {
                create: validUser(),
                update: put(['data', 'author', 'upsert', 'update'], u!),
              },
            },
          },
        }),
        world,
      ),
  },
  {
    // updateMany of users.
    slots: [tagged(userSlot('update'), 'User')],
    build: ([u], world) =>
      tree('user', 'updateMany', (put) => ({ where: { id: world.other }, data: put(['data'], u!) }), world),
  },
];

function tagged(arbitrary: fc.Arbitrary<UserSlot | PostSlot>, model: 'User' | 'Post'): fc.Arbitrary<Slot> {
  return arbitrary.map((slot) => ({ model, ...slot }) as Slot);
}

function tree(
  model: string,
  op: string,
  build: (put: (path: Path, slot: Slot) => Record<string, unknown>) => any,
  world: World,
): Tree {
  const slots: Tree['slots'] = [];
  const args = build((path, slot) => {
    const data = slot.model === 'User' ? userData(slot) : postData(slot, world);
    slots.push({ path, slot, data });
    return data;
  });
  return { model, op, args, slots };
}

describe.each(testProviders())('write rules on generated write trees (%s)', (provider) => {
  let db: TestDatabase;
  let world: World;
  const client = () =>
    withPolicies(db.prisma, { rules, modelMeta: db.modelMeta, context: { user: { id: world.caller } } }) as any;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    const caller = await db.prisma.user.create({ data: { email: 'caller@x.test', name: 'Caller' } });
    const other = await db.prisma.user.create({ data: { email: 'other@x.test', name: 'Other' } });
    const post = await db.prisma.post.create({ data: { title: 'seed', authorId: caller.id } });
    const comment = await db.prisma.comment.create({ data: { body: 'seed', postId: post.id, authorId: other.id } });
    world = { caller: caller.id, other: other.id, post: post.id, comment: comment.id };
  });
  afterAll(() => db.drop());

  it('refuses a prototype key smuggling a server-set or internal column into any slot, changing nothing', async () => {
    const template = fc
      .nat({ max: TEMPLATES.length - 1 })
      .chain((index) => fc.tuple(fc.constant(index), fc.tuple(...TEMPLATES[index]!.slots), fc.nat()));
    await fc.assert(
      fc.asyncProperty(template, fc.constantFrom('__proto__', 'constructor'), async ([index, slots, at], key) => {
        const { model, op, args, slots: placed } = TEMPLATES[index]!.build(slots, world);
        const { data } = placed[at % placed.length]!;
        const payload = { authorId: world.other, passwordHash: 'smuggled' };
        Object.defineProperty(data, key, { value: payload, enumerable: true, configurable: true, writable: true });
        // As a body parser hands it over: JSON text parsed, the key an own property.
        const parsed = JSON.parse(JSON.stringify(args));
        const before = await snapshotDatabase(db);
        await expect(client()[model][op](parsed)).rejects.toMatchObject({ status: 400 });
        expect(await snapshotDatabase(db)).toBe(before);
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('refuses exactly what the rules refuse, at its path, and stores exactly what they say', async () => {
    const template = fc
      .nat({ max: TEMPLATES.length - 1 })
      .chain((index) => fc.tuple(fc.constant(index), fc.tuple(...TEMPLATES[index]!.slots)));
    await fc.assert(
      fc.asyncProperty(template, fc.boolean(), async ([index, slots], inTransaction) => {
        const { model, op, args, slots: placed } = TEMPLATES[index]!.build(slots, world);
        const before = await snapshotDatabase(db);
        const run = (c: any) => c[model][op](args);
        const outcome = await (inTransaction ? client().$transaction((tx: any) => run(tx)) : run(client())).then(
          (value: unknown) => ({ value, error: undefined as any }),
          (error: unknown) => ({ value: undefined, error: error as any }),
        );
        // Refusals of what a client may not send stop the walk at the first one (parents first);
        // validation issues are collected over the whole tree.
        const refusal = placed.find(
          ({ slot }) => (slot.model === 'User' && slot.internal) || (slot.model === 'Post' && slot.serverSet),
        );
        const badEmails = placed.filter(({ slot }) => slot.model === 'User' && slot.badEmail);
        if (refusal || badEmails.length > 0) {
          expect(outcome.error).toBeDefined();
          expect(await snapshotDatabase(db)).toBe(before);
          if (refusal?.slot.model === 'User') expect(outcome.error.code).toBe('invalid-argument');
          else if (refusal) {
            expect(outcome.error.code).toBe('validation-failed');
            expect(outcome.error.options.issues.map((issue: { path: Path }) => issue.path)).toEqual([
              [...refusal.path, 'authorId'],
            ]);
          } else {
            const paths = outcome.error.options.issues
              .map((issue: { path: Path }) => JSON.stringify(issue.path))
              .sort();
            expect(paths).toEqual(badEmails.map(({ path }) => JSON.stringify([...path, 'email'])).sort());
          }
          return;
        }
        expect(outcome.error).toBeUndefined();
        for (const { slot, data } of placed) {
          if (slot.model !== 'User' || !slot.password) continue;
          const stored = await db.prisma.user.findFirst({ where: { passwordHash: hash(String(data.password)) } });
          expect(stored).not.toBeNull();
        }
        const posts = await db.prisma.post.findMany({
          where: { title: { in: placed.map(({ data }) => String(data.title)) } },
        });
        // Clients only ever named `other` as author: no accepted write let them.
        for (const post of posts) expect(post.authorId).not.toBe(world.other);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
