/**
 * Issue #11, the engine itself: `withPolicies` called as a hand-written endpoint would, with input
 * produced by `JSON.parse` (so `"__proto__"` is an own key). Includes a generated test that puts a
 * prototype key at a random position of a random valid argument tree (fast-check, seeded;
 * FUZZ_RUNS=500 for a longer run, FUZZ_SEED to replay another seed).
 */
import { Body, Controller, Headers, type INestApplication, Module, Param, Patch, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import fc from 'fast-check';
import request from 'supertest';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import { CrudApiError, withPolicies } from '../../lib/index.js';
import {
  parseWithKey,
  probeState,
  PROTOTYPE_KEYS,
  seedAdversarialWorld,
  WORLD,
} from '../support/adversarial-fixtures.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

type Caller = 'anon' | 'admin' | 'alice' | 'bob';

const { alice, bob, admin, posts: P, comments: C, tags: T } = WORLD;
const USERS: Record<Caller, DemoUser | undefined> = { anon: undefined, admin, alice, bob };

/** Valid argument trees, one per operation shape: the generated test hides a prototype key somewhere inside. */
const CASES: { model: string; op: string; args: object }[] = [
  {
    model: 'user',
    op: 'findMany',
    args: {
      where: {
        AND: [
          { name: { startsWith: 'a' } },
          { OR: [{ posts: { some: { published: true } } }, { NOT: { email: 'x' } }] },
        ],
      },
      orderBy: [{ name: 'asc' }],
      select: { id: true, posts: { where: { published: true }, select: { title: true } } },
    },
  },
  {
    model: 'post',
    op: 'findMany',
    args: {
      where: {
        author: { is: { name: 'bob' } },
        comments: { every: { body: { contains: 'x' } } },
        tags: { none: { name: 'x' } },
      },
      include: { author: true, _count: { select: { comments: true } } },
      cursor: { id: P.alicePub },
      take: 5,
    },
  },
  {
    model: 'comment',
    op: 'findFirst',
    args: { where: { post: { title: 'alicePub' }, author: { isNot: null } }, orderBy: { createdAt: 'desc' } },
  },
  {
    model: 'user',
    op: 'groupBy',
    args: { by: ['role'], having: { id: { _count: { gt: 0 } } }, _count: { _all: true }, orderBy: { role: 'asc' } },
  },
  {
    model: 'post',
    op: 'aggregate',
    args: { where: { published: true }, _max: { rating: true }, _count: { _all: true } },
  },
  { model: 'user', op: 'count', args: { where: { posts: { some: { title: 'x' } } } } },
  {
    model: 'user',
    op: 'update',
    args: {
      where: { id: alice.id },
      data: {
        name: 'alice2',
        posts: { update: { where: { id: P.alicePub }, data: { title: 't' } } },
        profile: { update: { bio: 'b' } },
      },
    },
  },
  {
    model: 'post',
    op: 'update',
    args: {
      where: { id: P.alicePub },
      data: {
        title: 't',
        metadata: { a: { b: [1, { c: 2 }] } },
        author: { connect: { id: alice.id } },
        comments: { update: { where: { id: C.aliceOnAlicePub }, data: { body: 'b' } } },
      },
    },
  },
  {
    model: 'post',
    op: 'updateMany',
    args: { where: { authorId: alice.id, title: { not: 'x' } }, data: { rating: 1 } },
  },
  { model: 'post', op: 'create', args: { data: { title: 'n', authorId: alice.id, metadata: { k: 'v' } } } },
  {
    model: 'comment',
    op: 'create',
    args: { data: { body: 'c', post: { connect: { id: P.alicePub } }, author: { connect: { id: alice.id } } } },
  },
  {
    model: 'post',
    op: 'createMany',
    args: {
      data: [
        { title: 'a', authorId: alice.id },
        { title: 'b', authorId: alice.id },
      ],
    },
  },
  {
    model: 'post',
    op: 'upsert',
    args: { where: { id: P.alicePub }, create: { title: 'x', authorId: alice.id }, update: { title: 'y' } },
  },
  { model: 'post', op: 'deleteMany', args: { where: { title: 'nothing', authorId: alice.id } } },
  { model: 'tag', op: 'update', args: { where: { id: T.news }, data: { name: 'news2' } } },
];

/** What the generated test puts under the prototype key. */
const PAYLOADS: unknown[] = [
  { role: 'ADMIN' },
  { passwordHash: { startsWith: 'hash' } },
  { authorId: bob.id },
  { id: { gt: 0 } },
  {},
  'x',
  1,
];

/** Paths to every object (not array) of a tree, the root included. */
function objectPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPaths(item, [...path, index]));
  if (value === null || typeof value !== 'object') return [];
  return [path, ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, [...path, key]))];
}

/** The arguments as JSON text with `key` added at `path`, then parsed as a body parser would. */
function withKeyAt(args: object, path: (string | number)[], key: string, payload: unknown): any {
  const copy = JSON.parse(JSON.stringify(args));
  const target = path.reduce((node, step) => node[step], copy);
  Object.defineProperty(target, key, { value: payload, enumerable: true, configurable: true, writable: true });
  return JSON.parse(JSON.stringify(copy));
}

const isBadRequest = (error: unknown) => error instanceof CrudApiError && error.status === 400;

describe.each(testProviders())('adversarial access policies in the engine (%s)', (provider) => {
  let db: TestDatabase;
  const as = (who: Caller) =>
    withPolicies(db.prisma, {
      policies: samplePolicies,
      modelMeta: db.modelMeta,
      context: { user: USERS[who] },
    }) as any;
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (value) => ({ value, error: undefined as unknown }),
      (error: unknown) => ({ value: undefined, error }),
    );

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    await seedAdversarialWorld(db);
  });
  afterAll(() => db.drop());

  it("the generated argument trees are valid without a prototype key (so a refusal is the key's doing)", async () => {
    for (const { model, op, args } of CASES) {
      const { result } = await probeState(db, () => outcome(as('alice')[model][op](JSON.parse(JSON.stringify(args)))));
      // Success, a policy refusal or "not found" are all fine; an invalid argument tree is a broken case.
      const error = result.error as { status?: number; code?: string } | undefined;
      const valid = error === undefined || error.status === 403 || error.code === 'P2025';
      expect({ model, op, valid, error: valid ? undefined : String(error) }).toEqual({
        model,
        op,
        valid: true,
        error: undefined,
      });
    }
  });

  it('refuses a prototype key at any position of any argument tree with 400 and changes nothing (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: CASES.length - 1 }),
        fc.nat(),
        fc.constantFrom(...PROTOTYPE_KEYS),
        fc.constantFrom(...PAYLOADS),
        fc.constantFrom<Caller>('anon', 'alice', 'bob', 'admin'),
        async (caseIndex, positionIndex, key, payload, who) => {
          const { model, op, args } = CASES[caseIndex]!;
          const paths = objectPaths(args);
          const path = paths[positionIndex % paths.length]!;
          const input = withKeyAt(args, path, key, payload);
          const { result, before, after } = await probeState(db, () => outcome(as(who)[model][op](input)));
          const where = `${who} ${model}.${op} with "${key}" at ${JSON.stringify(path)}`;
          expect({ where, refusedWith400: isBadRequest(result.error), unchanged: after === before }).toEqual({
            where,
            refusedWith400: true,
            unchanged: true,
          });
        },
      ),
      { seed: Number(process.env.FUZZ_SEED ?? 11), numRuns: Number(process.env.FUZZ_RUNS ?? 40), endOnFailure: true },
    );
  });

  describe("the issue's reproductions, with each prototype key", () => {
    const table: [string, Caller, string, string, string][] = [
      [
        'role through update data',
        'alice',
        'user',
        'update',
        `{"where":{"id":${alice.id}},"data":{"$KEY":{"role":"ADMIN"}}}`,
      ],
      [
        'passwordHash through upsert',
        'alice',
        'user',
        'upsert',
        `{"where":{"id":${alice.id}},"create":{"name":"x","email":"x@x"},"update":{"$KEY":{"passwordHash":"pwned"}}}`,
      ],
      [
        "other users' comments through nested update",
        'alice',
        'post',
        'update',
        `{"where":{"id":${P.alicePub}},"data":{"$KEY":{"comments":{"update":{"where":{"id":"${C.bobOnAlicePub}"},"data":{"body":"pwned"}}}}}}`,
      ],
      [
        'hidden field read out through where',
        'anon',
        'user',
        'findMany',
        `{"where":{"$KEY":{"passwordHash":{"startsWith":"hash-a"}},"id":${alice.id}}}`,
      ],
      [
        'hidden rows through a some filter',
        'alice',
        'user',
        'count',
        `{"where":{"posts":{"some":{"$KEY":{"title":"bobDraft"}}}}}`,
      ],
      [
        'a connect selector',
        'alice',
        'comment',
        'update',
        `{"where":{"id":"${C.aliceOnAlicePub}"},"data":{"post":{"connect":{"id":${P.alicePub},"$KEY":{"published":false}}}}}`,
      ],
      ['the whole table through deleteMany', 'alice', 'post', 'deleteMany', `{"where":{"$KEY":{"id":{"gt":0}}}}`],
      [
        'groupBy having',
        'anon',
        'user',
        'groupBy',
        `{"by":["role"],"having":{"$KEY":{"passwordHash":{"_max":{"gt":"a"}}}}}`,
      ],
      [
        'a Json value',
        'alice',
        'post',
        'update',
        `{"where":{"id":${P.alicePub}},"data":{"metadata":{"$KEY":{"polluted":true}}}}`,
      ],
    ];
    const rows = table.flatMap(([label, who, model, op, json]) =>
      PROTOTYPE_KEYS.map((key) => [key, label, who, model, op, json] as const),
    );
    it.each(rows)('%s: %s', async (key, _label, who, model, op, json) => {
      const { result, before, after } = await probeState(db, () =>
        outcome(as(who)[model][op](parseWithKey(json, key))),
      );
      expect({ refusedWith400: isBadRequest(result.error), unchanged: after === before }).toEqual({
        refusedWith400: true,
        unchanged: true,
      });
    });
  });

  describe('updates are checked again after the change, in the same transaction', () => {
    const violation = { status: 403, options: { reason: 'ACCESS_POLICY_VIOLATION' } };
    const table: [string, string, string, object][] = [
      ['post authorId', 'post', 'update', { where: { id: P.alicePub }, data: { authorId: bob.id } }],
      [
        'post author.connect',
        'post',
        'update',
        { where: { id: P.aliceDraft }, data: { author: { connect: { id: bob.id } } } },
      ],
      ['post updateMany', 'post', 'updateMany', { where: { authorId: alice.id }, data: { authorId: bob.id } }],
      [
        "post upsert's update",
        'post',
        'upsert',
        { where: { id: P.alicePub }, create: { title: 'x', authorId: alice.id }, update: { authorId: bob.id } },
      ],
      ['profile userId', 'profile', 'update', { where: { id: WORLD.aliceProfile }, data: { userId: bob.id } }],
    ];
    it.each(table)('%s: 403 ACCESS_POLICY_VIOLATION, unchanged', async (_label, model, op, args) => {
      const { result, before, after } = await probeState(db, () => outcome(as('alice')[model][op](args)));
      expect(result.error).toBeInstanceOf(CrudApiError);
      expect(result.error).toMatchObject(violation);
      expect(after).toBe(before);
    });

    it('rolls back the whole interactive transaction', async () => {
      const { result, before, after } = await probeState(db, () =>
        outcome(
          as('alice').$transaction(async (tx: any) => {
            await tx.post.update({ where: { id: P.aliceDraft }, data: { title: 'renamed' } });
            await tx.post.update({ where: { id: P.alicePub }, data: { authorId: bob.id } });
          }),
        ),
      );
      expect(result.error).toMatchObject(violation);
      expect(after).toBe(before);
    });
  });

  describe('in a hand-written Nest controller (no CrudApiModule)', () => {
    let app: INestApplication;

    @Controller('hand')
    class HandWrittenController {
      private client(userId?: string) {
        const user = Object.values(USERS).find((u) => u && String(u.id) === userId);
        return withPolicies(db.prisma, { policies: samplePolicies, modelMeta: db.modelMeta, context: { user } }) as any;
      }

      @Patch('posts/:id')
      update(@Param('id') id: string, @Body() data: object, @Headers('x-user-id') userId?: string) {
        return this.client(userId).post.update({ where: { id: Number(id) }, data });
      }

      @Post('users/search')
      search(@Body() where: object, @Headers('x-user-id') userId?: string) {
        return this.client(userId).user.findMany({ where });
      }
    }

    @Module({ controllers: [HandWrittenController] })
    class HandWrittenModule {}

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({ imports: [HandWrittenModule] }).compile();
      app = moduleRef.createNestApplication({ logger: false });
      await app.init();
    });
    afterAll(() => app.close());

    const send = (method: 'patch' | 'post', path: string, who: Caller, body: string) => {
      const r = request(app.getHttpServer())[method](path).set('Content-Type', 'application/json');
      return (USERS[who] ? r.set('x-user-id', String(USERS[who]!.id)) : r).send(body);
    };

    it.each([
      ["updating another user's post", 403, 'patch', `/hand/posts/${P.bobPub}`, 'alice', '{"title":"x"}'],
      ['handing a post to another user', 403, 'patch', `/hand/posts/${P.alicePub}`, 'alice', `{"authorId":${bob.id}}`],
      [
        'a prototype key in data',
        400,
        'patch',
        `/hand/posts/${P.alicePub}`,
        'alice',
        `{"__proto__":{"authorId":${bob.id}}}`,
      ],
      ['a hidden field in where', 400, 'post', '/hand/users/search', 'anon', '{"passwordHash":"x"}'],
      [
        'a prototype key in where',
        400,
        'post',
        '/hand/users/search',
        'anon',
        '{"__proto__":{"passwordHash":{"startsWith":"hash"}}}',
      ],
    ] as const)('%s answers %s, the database unchanged', async (_label, status, method, path, who, body) => {
      const { result, before, after } = await probeState(db, () => send(method, path, who, body));
      expect(result.status).toBe(status);
      expect(after).toBe(before);
    });

    it('still serves permitted requests', async () => {
      const res = await send('post', '/hand/users/search', 'anon', '{"name":"bob"}');
      expect(res.status).toBe(201);
      expect(res.body.map((u: { id: number }) => u.id)).toEqual([bob.id]);
      expect(res.body[0]).not.toHaveProperty('passwordHash');
    });
  });
});
