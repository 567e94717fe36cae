import type { CrudApiPolicies, CrudApiRules } from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ENDPOINT = 'http://localhost/api/rest';

/** Who calls: `id` is the recorded actor; the flags drive the policies below. */
type Caller = { id: number; historian: boolean; seesRating: boolean };
let caller: Caller = { id: 1, historian: true, seesRating: true };

/** Post records its history; `content` is write-only, so no answer or version shows it. */
const rules: CrudApiRules = { Post: { history: true, fields: { content: 'writeOnly' } } };

/** Everything allowed, but the history of posts for non-historians and `rating` for some callers. */
const policies: CrudApiPolicies<{ user: Caller }> = {
  Post: {
    read: true,
    create: true,
    update: true,
    delete: true,
    history: ({ user }: { user: Caller }) => user.historian,
    fields: { read: { rating: ({ user }) => user.seesRating } },
  },
  User: { read: true, create: true, update: true, delete: true },
};

/** An error document of one error, with its code and `source.parameter`. */
const refusal = (status: string, code: string, parameter?: string) =>
  expect.objectContaining({
    errors: [expect.objectContaining({ status, code, ...(parameter ? { source: { parameter } } : {}) })],
  });

describe.each(testProviders())('history and time travel over REST (%s)', (provider) => {
  let authorId: number;
  const t = useTestApp(provider, {
    options: {
      // A day: every change of a test is kept, and a time long before is refused.
      history: { model: 'HistoryEntry', retention: 86_400_000 },
      rules,
      policies,
      defaultPolicy: 'allow',
      context: () => ({ user: caller }),
    },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
    },
  });
  beforeEach(() => {
    caller = { id: 1, historian: true, seesRating: true };
  });

  const create = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', attributes: { title, authorId, ...extra } } })
      .expect(201);
    return Number(res.body.data.id);
  };
  const patch = (id: number, attributes: Record<string, unknown>) =>
    t
      .http()
      .patch(`/api/rest/post/${id}`)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', id: String(id), attributes } })
      .expect(200);
  const get = (url: string) => t.http().get(url).set('Accept', JSON_API);
  const history = async (id: number, query = '') =>
    (await get(`/api/rest/post/${id}/history${query}`).expect(200)).body;
  const restore = (id: number, version: number | string) =>
    t.http().post(`/api/rest/post/${id}/history/${version}/restore`).set('Accept', JSON_API);

  it('answers the versions of create and PATCH, newest first, each with the resource as REST renders it', async () => {
    const id = await create('first', { content: 'secret' });
    const afterCreate = (await get(`/api/rest/post/${id}`).expect(200)).body.data;
    caller = { ...caller, id: 2 };
    await patch(id, { title: 'second', content: 'also secret' });
    await patch(id, { published: true, rating: 4.5 });
    const now = (await get(`/api/rest/post/${id}`).expect(200)).body.data;

    const body = await history(id);
    expect(body.links).toEqual({
      self: `${ENDPOINT}/post/${id}/history`,
      related: `${ENDPOINT}/post/${id}`,
      first: `${ENDPOINT}/post/${id}/history?page%5Boffset%5D=0&page%5Blimit%5D=100`,
      prev: null,
      next: null,
    });
    const versions = body.data;
    expect(versions.map((v: any) => [v.type, v.attributes.operation, v.attributes.actor])).toEqual([
      ['versions', 'update', '2'],
      ['versions', 'update', '2'],
      ['versions', 'create', '1'],
    ]);
    const ids = versions.map((v: any) => Number(v.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const version of versions) expect(version.links).toEqual({ related: `${ENDPOINT}/post/${id}` });
    // The newest version is the resource now; the oldest the resource as created.
    expect(versions[0].attributes.data).toEqual(now.attributes);
    expect(versions[2].attributes.data).toEqual(afterCreate.attributes);
    expect(versions[0].attributes.data).not.toHaveProperty('content');
    expect(versions[0].attributes.changed.sort()).toEqual(['published', 'rating', 'updatedAt']);
    // The write-only field changed too, but is no field of the caller's.
    expect(versions[1].attributes.changed.sort()).toEqual(['title', 'updatedAt']);
    expect(versions[2].attributes.changed).not.toContain('content');
    expect(versions[2].attributes.changed).toContain('title');
    expect(new Date(versions[0].attributes.at).getTime()).toBeGreaterThanOrEqual(
      new Date(versions[2].attributes.at).getTime(),
    );
  });

  it('leaves a field the caller may not read out of data and changed', async () => {
    const id = await create('rated');
    await patch(id, { rating: 3 });
    caller = { ...caller, seesRating: false };
    const versions = (await history(id)).data;
    expect(versions[0].attributes.changed).toEqual(['updatedAt']);
    for (const version of versions) expect(version.attributes.data).not.toHaveProperty('rating');
    expect(versions[0].attributes.data).toEqual((await get(`/api/rest/post/${id}`).expect(200)).body.data.attributes);
  });

  it('records the DELETE: the history of a deleted resource is 404, a read as of before it finds it', async () => {
    const id = await create('doomed');
    const before = (await get(`/api/rest/post/${id}`).expect(200)).body;
    const [created] = (await history(id)).data;
    await t.http().delete(`/api/rest/post/${id}`).expect(204);
    const entries = await (t.db.prisma as any).historyEntry.findMany({
      where: { model: 'Post', rowKey: JSON.stringify({ id }) },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((entry: any) => [entry.operation, entry.data])).toEqual([
      ['create', expect.objectContaining({ title: 'doomed' })],
      ['delete', null],
    ]);
    expect((await get(`/api/rest/post/${id}/history`).expect(404)).body).toEqual(refusal('404', 'not-found'));
    const asOf = encodeURIComponent(created.attributes.at);
    const past = (await get(`/api/rest/post/${id}?asOf=${asOf}`).expect(200)).body;
    expect(past.data).toEqual(before.data);
  });

  it('filters by time and actor, sorts by at and pages by offset', async () => {
    const id = await create('v1');
    caller = { ...caller, id: 7 };
    await patch(id, { title: 'v2' });
    await patch(id, { title: 'v3' });
    const all = (await history(id)).data as any[];
    const titles = (body: any) => body.data.map((v: any) => v.attributes.data.title);
    expect(titles({ data: all })).toEqual(['v3', 'v2', 'v1']);
    expect(titles(await history(id, '?sort=at'))).toEqual(['v1', 'v2', 'v3']);
    expect(titles(await history(id, '?sort=-at'))).toEqual(['v3', 'v2', 'v1']);
    expect(titles(await history(id, '?filter[actor]=7'))).toEqual(['v3', 'v2']);
    expect(titles(await history(id, '?filter[actor]=1'))).toEqual(['v1']);
    const at = (index: number) => encodeURIComponent(all[index].attributes.at);
    // Inclusive bounds: each version is found by its own time.
    expect(titles(await history(id, `?filter[since]=${at(1)}`))).toEqual(
      all.filter((v) => v.attributes.at >= all[1].attributes.at).map((v) => v.attributes.data.title),
    );
    expect(titles(await history(id, `?filter[until]=${at(2)}`))).toEqual(
      all.filter((v) => v.attributes.at <= all[2].attributes.at).map((v) => v.attributes.data.title),
    );
    expect(titles(await history(id, `?filter[since]=${at(2)}&filter[until]=${at(2)}&filter[actor]=1`))).toEqual(['v1']);

    const first = await history(id, '?page[limit]=1');
    expect(titles(first)).toEqual(['v3']);
    expect(first.links.prev).toBeNull();
    expect(first.links.next).toBe(`${ENDPOINT}/post/${id}/history?page%5Boffset%5D=1&page%5Blimit%5D=1`);
    const middle = await history(id, '?sort=at&page[offset]=1&page[limit]=1');
    expect(titles(middle)).toEqual(['v2']);
    expect(middle.links).toEqual({
      self: `${ENDPOINT}/post/${id}/history?sort=at&page[offset]=1&page[limit]=1`,
      related: `${ENDPOINT}/post/${id}`,
      first: `${ENDPOINT}/post/${id}/history?sort=at&page%5Boffset%5D=0&page%5Blimit%5D=1`,
      prev: `${ENDPOINT}/post/${id}/history?sort=at&page%5Boffset%5D=0&page%5Blimit%5D=1`,
      next: `${ENDPOINT}/post/${id}/history?sort=at&page%5Boffset%5D=2&page%5Blimit%5D=1`,
    });
    const last = await history(id, '?page[offset]=2&page[limit]=5');
    expect(titles(last)).toEqual(['v1']);
    expect(last.links.next).toBeNull();
  });

  it('answers 404 for a missing resource, an unknown type and a type without history', async () => {
    expect((await get('/api/rest/post/999999/history').expect(404)).body).toEqual(refusal('404', 'not-found'));
    expect((await get('/api/rest/nothing/1/history').expect(404)).body).toEqual(refusal('404', 'unknown-type'));
    expect((await get(`/api/rest/user/${authorId}/history`).expect(404)).body).toEqual(refusal('404', 'not-found'));
    const restored = await t.http().post(`/api/rest/user/${authorId}/history/1/restore`).expect(404);
    expect(restored.body).toEqual(refusal('404', 'not-found'));
    const unknown = await t.http().post('/api/rest/nothing/1/history/1/restore').expect(404);
    expect(unknown.body).toEqual(refusal('404', 'unknown-type'));
  });

  it('refuses unknown and malformed history parameters', async () => {
    const id = await create('params');
    const cases: [string, string][] = [
      ['sort=title', 'sort'],
      ['filter[title]=x', 'filter[title]'],
      ['filter[since$gt]=2020-01-01T00:00:00Z', 'filter[since$gt]'],
      ['filter[since]=yesterday', 'filter[since]'],
      ['filter[until]=2020-01-01T00:00:00', 'filter[until]'],
      ['filter[actor]=1&filter[actor]=2', 'filter[actor]'],
      ['page[size]=1', 'page[size]'],
      ['page[limit]=0', 'page[limit]'],
      ['include=author', 'include'],
      ['fields[versions]=at', 'fields[versions]'],
      ['unknown=1', 'unknown'],
    ];
    for (const [query, parameter] of cases) {
      const res = await get(`/api/rest/post/${id}/history?${query}`).expect(400);
      expect({ query, body: res.body }).toEqual({ query, body: refusal('400', 'invalid-query-parameter', parameter) });
    }
    const asOf = await get(`/api/rest/post/${id}/history?asOf=2020-01-01T00:00:00Z`).expect(400);
    expect(asOf.body).toEqual(refusal('400', 'as-of-unsupported', 'asOf'));
  });

  it('answers 403 when the history rule denies the caller, and writes nothing on a denied restore', async () => {
    const id = await create('private');
    await patch(id, { title: 'changed' });
    const [, created] = (await history(id)).data;
    caller = { ...caller, historian: false };
    expect((await get(`/api/rest/post/${id}/history`).expect(403)).body.errors[0].status).toBe('403');
    await restore(id, created.id).expect(403);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id } })).title).toBe('changed');
  });

  it('reads the collection and a resource as of a past time, as they were then', async () => {
    const keep = await create('as-of keep', { published: false });
    const gone = await create('as-of gone', { published: false });
    const other = await create('as-of other', { published: true });
    const [lastBefore] = (await history(other)).data;
    const asOf = encodeURIComponent(lastBefore.attributes.at);
    const queries = ['', '?sort=-title', '?filter[published]=false&sort=title&page[limit]=1&page[offset]=1'];
    const list = async (query: string) => (await get(`/api/rest/post${query}`).expect(200)).body;
    const snapshots = await Promise.all(queries.map(list));
    const fetched = async (id: number) => (await get(`/api/rest/post/${id}`).expect(200)).body.data;
    const [keepThen, goneThen] = [await fetched(keep), await fetched(gone)];

    await patch(keep, { title: 'as-of kept, renamed', published: true });
    await t.http().delete(`/api/rest/post/${gone}`).expect(204);
    const born = await create('as-of born', { published: false });

    for (const [index, query] of queries.entries()) {
      const past = await list(`${query}${query ? '&' : '?'}asOf=${asOf}`);
      expect({ query, data: past.data, meta: past.meta }).toEqual({
        query,
        data: snapshots[index].data,
        meta: snapshots[index].meta,
      });
    }
    const pastAll = (await list(`?asOf=${asOf}`)).data.map((r: any) => Number(r.id));
    expect(pastAll).toContain(gone);
    expect(pastAll).not.toContain(born);
    expect((await get(`/api/rest/post/${keep}?asOf=${asOf}`).expect(200)).body.data).toEqual(keepThen);
    expect((await get(`/api/rest/post/${gone}?asOf=${asOf}`).expect(200)).body.data).toEqual(goneThen);
    expect((await get(`/api/rest/post/${born}?asOf=${asOf}`).expect(404)).body).toEqual(refusal('404', 'not-found'));
    const sparse = await get(`/api/rest/post/${keep}?asOf=${asOf}&fields[post]=title`).expect(200);
    expect(sparse.body.data.attributes).toEqual({ title: 'as-of keep' });
    // Today's answers are as they are now.
    expect((await fetched(keep)).attributes.title).toBe('as-of kept, renamed');
  });

  it('refuses what a read as of a past time cannot answer, with the parameter that asks for it', async () => {
    const id = await create('as-of refusals');
    const at = encodeURIComponent(new Date().toISOString());
    const cases: [string, string, string][] = [
      [`/api/rest/post/${id}?asOf=${at}&include=author`, 'as-of-unsupported', 'include'],
      [`/api/rest/post?asOf=${at}&include=author`, 'as-of-unsupported', 'include'],
      [`/api/rest/post?asOf=${at}&page[size]=2`, 'as-of-unsupported', 'page[size]'],
      [`/api/rest/post/${id}/comments?asOf=${at}`, 'as-of-unsupported', 'asOf'],
      [`/api/rest/post/${id}/relationships/comments?asOf=${at}`, 'as-of-unsupported', 'asOf'],
      [`/api/rest/user?asOf=${at}`, 'as-of-unsupported', 'asOf'],
      [`/api/rest/post?asOf=yesterday`, 'invalid-query-parameter', 'asOf'],
      [`/api/rest/post?asOf=2024-01-01T00:00:00`, 'invalid-query-parameter', 'asOf'],
      [`/api/rest/post/${id}?asOf=2000-01-01T00:00:00Z`, 'as-of-before-retention', ''],
    ];
    for (const [url, code, parameter] of cases) {
      const res = await get(url).expect(400);
      expect({ url, body: res.body }).toEqual({ url, body: refusal('400', code, parameter) });
    }
    const patched = await t
      .http()
      .patch(`/api/rest/post/${id}?asOf=${at}`)
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'post', id: String(id), attributes: { title: 'no' } } })
      .expect(400);
    expect(patched.body).toEqual(refusal('400', 'invalid-query-parameter', 'asOf'));
  });

  it("tags a read as of a past time by its own body: today's tag does not revalidate it", async () => {
    const id = await create('tag then');
    const [created] = (await history(id)).data;
    await patch(id, { title: 'tag now' });
    const today = await get(`/api/rest/post/${id}`).expect(200);
    const url = `/api/rest/post/${id}?asOf=${encodeURIComponent(created.attributes.at)}`;
    const past = await get(url).set('If-None-Match', today.headers.etag).expect(200);
    expect(past.body.data.attributes.title).toBe('tag then');
    expect(past.headers.etag).not.toBe(today.headers.etag);
    await get(url).set('If-None-Match', past.headers.etag).expect(304);
  });

  it('puts a resource back to a version, recorded as a version of its own', async () => {
    const id = await create('original', { rating: 1 });
    await patch(id, { title: 'edited', rating: 2, published: true });
    const [edited, created] = (await history(id)).data;
    const res = await restore(id, created.id).expect(200);
    expect(res.body.data.attributes).toEqual({
      ...created.attributes.data,
      updatedAt: res.body.data.attributes.updatedAt,
    });
    expect(res.body.links.self).toBe(`${ENDPOINT}/post/${id}`);
    const row = await t.db.prisma.post.findUniqueOrThrow({ where: { id } });
    expect([row.title, row.rating, row.published]).toEqual(['original', 1, false]);
    const versions = (await history(id)).data;
    expect(versions.map((v: any) => v.attributes.operation)).toEqual(['update', 'update', 'create']);
    expect(Number(versions[0].id)).toBeGreaterThan(Number(edited.id));
    expect(versions[0].attributes.changed.sort()).toEqual(['published', 'rating', 'title', 'updatedAt']);
    expect(versions[0].attributes.data).toEqual(res.body.data.attributes);
    // Its tag is the one a read of the resource answers, so that it can be sent in If-Match.
    expect(res.headers.etag).toBe((await get(`/api/rest/post/${id}`).expect(200)).headers.etag);
  });

  it('honours If-Match on a restore: 412 on a stale tag, nothing written', async () => {
    const id = await create('tagged');
    await patch(id, { title: 'tagged, edited' });
    const [, created] = (await history(id)).data;
    const res = await restore(id, created.id).set('If-Match', '"stale"').expect(412);
    expect(res.body.errors[0].status).toBe('412');
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id } })).title).toBe('tagged, edited');
    expect((await history(id)).data).toHaveLength(2);
    const { etag } = (await get(`/api/rest/post/${id}`).expect(200)).headers;
    await restore(id, created.id).set('If-Match', etag).expect(200);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id } })).title).toBe('tagged');
  });

  it('answers 404 for an unknown version or one of another resource, 400 for a delete', async () => {
    const id = await create('restore errors');
    const other = await create('someone else');
    const [ofOther] = (await history(other)).data;
    for (const version of ['999999999', ofOther.id, 'abc']) {
      expect((await restore(id, version).expect(404)).body).toEqual(refusal('404', 'not-found'));
    }
    // A delete, then the row back under its id (outside the module): its delete is a version of it.
    await t.http().delete(`/api/rest/post/${other}`).expect(204);
    await t.db.prisma.post.create({ data: { id: other, title: 'again', authorId } });
    const [deleted] = (await history(other)).data;
    expect(deleted.attributes).toMatchObject({ operation: 'delete', data: null });
    expect((await restore(other, deleted.id).expect(400)).body.errors[0].status).toBe('400');
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: other } })).title).toBe('again');
  });
});

describe.each(testProviders())('history of a soft-deleted type over REST (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: {
      history: { model: 'HistoryEntry' },
      rules: { Tag: { history: true, softDelete: { field: 'deletedAt' } } },
      policies: { Tag: { read: true, create: true, delete: true, readDeleted: true } },
      defaultPolicy: 'allow',
    },
  });

  it('answers the history of a deleted resource with withDeleted=true, its delete the last version', async () => {
    const created = await t
      .http()
      .post('/api/rest/tag')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: 'soft' } } })
      .expect(201);
    const id = created.body.data.id;
    await t.http().delete(`/api/rest/tag/${id}`).expect(204);
    await t.http().get(`/api/rest/tag/${id}/history`).expect(404);
    const res = await t.http().get(`/api/rest/tag/${id}/history?withDeleted=true`).expect(200);
    // A soft delete is the resource's delete to its clients: recorded as one, with no data.
    expect(res.body.data.map((v: any) => [v.attributes.operation, v.attributes.data])).toEqual([
      ['delete', null],
      ['create', created.body.data.attributes],
    ]);
  });
});
