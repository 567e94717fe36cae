import fc from 'fast-check';

import { LiveQueries } from '../../lib/changes/live-queries.js';
import {
  applyWrite,
  CALLERS,
  generatedWrites,
  headersOf,
  RELATION_HIDDEN_READS,
  usePolicyApp,
} from '../support/policy-writes.js';
import { rpcQuery } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const SEED = 2911;
const RUNS = 3;

describe.each(testProviders())('conditional GETs revalidated from changes (%s)', (provider) => {
  let postId: number;
  let userId: number;
  const t = useTestApp(provider, {
    options: { live: { debounce: 5 }, caching: { revalidate: 'changes' } },
    seed: async ({ db }) => {
      userId = (await db.prisma.user.create({ data: { email: 'r@x.test', name: 'R' } })).id;
      postId = (await db.prisma.post.create({ data: { title: 'first', authorId: userId } })).id;
      await db.prisma.comment.create({ data: { body: 'hello', postId } });
    },
  });

  const reads = () => ({
    restResource: `/api/rest/post/${postId}`,
    restInclude: `/api/rest/post?sort=id&include=comments`,
    rpcFindMany: `/api/rpc/post/findMany?${new URLSearchParams(rpcQuery({ include: { author: true }, orderBy: { id: 'asc' } }))}`,
  });
  const get = async (path: string, ifNoneMatch?: string) => {
    const request = t
      .http()
      .get(path)
      .set('Accept', path.startsWith('/api/rest') ? JSON_API : 'application/json');
    const response = await (ifNoneMatch === undefined ? request : request.set('If-None-Match', ifNoneMatch));
    return { status: response.status, etag: response.headers.etag as string, headers: response.headers };
  };
  /** Revalidates `path` with `tag` twice, the second time counting the statements it ran. */
  const revalidateTwice = async (path: string, tag: string) => {
    await get(path, tag);
    t.db.queries.length = 0;
    const second = await get(path, tag);
    return { ...second, statements: t.db.queries.length };
  };

  it('answers an unchanged read 304 without reading, with the validators of its full answer', async () => {
    for (const path of Object.values(reads())) {
      const full = await get(path);
      expect(full.status).toBe(200);
      const again = await revalidateTwice(path, full.etag);
      expect(again).toMatchObject({ status: 304, etag: full.etag, statements: 0 });
      expect(again.headers['cache-control']).toBe(full.headers['cache-control']);
      expect(again.headers.vary).toBe(full.headers.vary);
    }
  });

  it('reads again after a write through either interface to a model the read reached', async () => {
    const { restInclude, rpcFindMany } = reads();
    const include = await get(restInclude);
    await revalidateTwice(restInclude, include.etag);
    const created = await t
      .http()
      .post('/api/rpc/comment/create')
      .send({ data: { body: 'another', postId } });
    expect(created.status).toBe(201);
    const changed = await revalidateTwice(restInclude, include.etag);
    expect(changed.status).toBe(200);
    expect(changed.etag).toBe((await get(restInclude)).etag);
    expect(changed.etag).not.toBe(include.etag);

    const authors = await get(rpcFindMany);
    await revalidateTwice(rpcFindMany, authors.etag);
    const renamed = await t
      .http()
      .patch(`/api/rest/user/${userId}`)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'user', id: String(userId), attributes: { name: 'Renamed' } } });
    expect(renamed.status).toBe(200);
    const after = await get(rpcFindMany, authors.etag);
    expect(after.status).toBe(200);
    expect(after.etag).toBe((await get(rpcFindMany)).etag);
  });

  it('keeps answering 304 without reading after writes to models the read did not reach', async () => {
    const { restResource } = reads();
    const full = await get(restResource);
    await revalidateTwice(restResource, full.etag);
    const tag = await t
      .http()
      .post('/api/rpc/tag/create')
      .send({ data: { name: 'unrelated' } });
    expect(tag.status).toBe(201);
    expect(await revalidateTwice(restResource, full.etag)).toMatchObject({ status: 304, statements: 0 });
  });

  it('reads again once the application reports a commit of its own', async () => {
    const { restResource } = reads();
    const full = await get(restResource);
    await revalidateTwice(restResource, full.etag);
    await t.db.prisma.post.update({ where: { id: postId }, data: { title: 'written by the application' } });
    t.app.get(LiveQueries).committed(['Post']);
    const after = await get(restResource, full.etag);
    expect(after.status).toBe(200);
    expect(after.etag).toBe((await get(restResource)).etag);
  });

  it('answers 200 to a tag it does not know, and reads for a request it has no tag for', async () => {
    const { restResource } = reads();
    const full = await get(restResource);
    await revalidateTwice(restResource, full.etag);
    expect((await get(restResource, '"stale"')).status).toBe(200);
    t.db.queries.length = 0;
    const fields = await get(`${restResource}?fields[post]=title`, full.etag);
    expect(fields.status).toBe(200);
    expect(t.db.queries.length).toBeGreaterThan(0);
  });
});

describe.each(testProviders())('conditional GETs revalidated from changes, trusted briefly (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: { live: {}, caching: { revalidate: 'changes', trustFor: 100 } },
    seed: ({ db }) => db.prisma.user.create({ data: { email: 'brief@x.test', name: 'Brief' } }),
  });

  it('reads again once a tag is older than trustFor: a commit it never heard of shows then', async () => {
    const get = (ifNoneMatch: string) =>
      t.http().get('/api/rest/user').set('Accept', JSON_API).set('If-None-Match', ifNoneMatch);
    const full = await t.http().get('/api/rest/user').set('Accept', JSON_API);
    await get(full.headers.etag);
    await t.db.prisma.user.create({ data: { email: 'unheard@x.test', name: 'Unheard' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const after = await get(full.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data).toHaveLength(2);
  });
});

/**
 * Under relation-based read rules, callers revalidating after generated writes get `304` exactly
 * when their tag is the one a full read answers them then, and otherwise that read's answer: a tag
 * known for one caller is never another's, and no write the module made is missed.
 */
describe.each(testProviders())('conditional GETs revalidated from changes under policies (%s)', (provider) => {
  const {
    rows: writtenRows,
    request,
    rpcWrite,
  } = usePolicyApp(provider, {
    live: { debounce: 5 },
    caching: { revalidate: 'changes', vary: ['x-user'] },
  });

  it("answers every caller's revalidation as a full read of theirs would", async () => {
    const rows = await writtenRows();
    /** The last tags any caller was answered for each read: a caller also revalidates with others' and old ones. */
    const tags = new Map(RELATION_HIDDEN_READS.map((path) => [path, [] as string[]]));
    const check = async () => {
      for (const caller of CALLERS) {
        for (const path of RELATION_HIDDEN_READS) {
          const full = await request('GET', path, headersOf(caller));
          expect(full.status).toBe(200);
          const current = full.headers.get('etag')!;
          const known = tags.get(path)!;
          if (!known.includes(current)) known.splice(0, Math.max(0, known.length - 3), current);
          for (const tag of known) {
            for (let repeat = 0; repeat < 2; repeat++) {
              const answer = await request('GET', path, { ...headersOf(caller), 'If-None-Match': tag });
              const expected = tag === current ? { status: 304, text: '' } : { status: 200, text: full.text };
              expect({ caller, path, tag, status: answer.status, text: answer.text }).toEqual({
                caller,
                path,
                tag,
                ...expected,
              });
              expect(answer.headers.get('etag')).toBe(current);
            }
          }
        }
      }
    };
    for (const plan of fc.sample(generatedWrites, { seed: SEED, numRuns: RUNS })) {
      await check();
      for (const write of plan) {
        await applyWrite(write, rows, rpcWrite);
        await check();
      }
    }
  });
});
