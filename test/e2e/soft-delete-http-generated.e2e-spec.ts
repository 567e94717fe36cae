import fc from 'fast-check';

import type { DemoUser } from '../../fixtures/blog/policies.js';
import type { DataModelMeta } from '../../lib/index.js';
import { resourceKeys, type SoftDeleteUsers, useSoftDeleteApp } from '../support/soft-delete-fixtures.js';
import { testProviders } from '../support/test-database.js';

/**
 * Generated reads over a blog some of whose posts, comments and tags are deleted: no answer of
 * either interface names a deleted row, whoever asks, with or without `withDeleted=true` (which
 * only an admin's `readDeleted` rules answer). The same reads by an admin with `withDeleted=true`
 * are the control: they must find deleted rows, or the walk would prove nothing.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

type TypeName = 'post' | 'comment' | 'tag' | 'user';
type Caller = keyof SoftDeleteUsers | 'anonymous';

/** What the REST generator may ask of each type: relationships, include paths, filters, sorts, a sparse fieldset. */
const REST_TYPES: Record<
  TypeName,
  { relationships: string[]; includes: string[]; filters: string[]; sorts: string[]; fields: string }
> = {
  post: {
    relationships: ['author', 'comments', 'tags', 'likes'],
    includes: ['author', 'comments', 'comments.replies', 'comments.author', 'tags', 'tags.posts', 'author.posts'],
    filters: [
      'filter[published]=true',
      'filter[title$startsWith]=P-a',
      'filter[comments][body$contains]=1',
      'filter[tags][name]=tag-1',
      'filter[author][name]=alice',
      'filter[comments][author][name]=bob',
    ],
    sorts: ['title', '-id', 'author.name', '-createdAt'],
    fields: 'fields[post]=title,author,comments',
  },
  comment: {
    relationships: ['post', 'author', 'parent', 'replies'],
    includes: ['post', 'post.tags', 'author', 'parent', 'replies', 'post.comments', 'author.posts'],
    filters: [
      'filter[post][published]=true',
      'filter[body$contains]=1',
      'filter[parent$null]=false',
      'filter[post][title$startsWith]=P-b',
      'filter[replies][body$contains]=reply',
      'filter[post][tags][name]=tag-1',
    ],
    // Sorting through a relation is refused (403) unless every related row is readable: through users only.
    sorts: ['body', '-id', 'author.name'],
    fields: 'fields[comment]=body,post,replies',
  },
  tag: {
    relationships: ['posts'],
    includes: ['posts', 'posts.comments', 'posts.author'],
    filters: ['filter[posts][published]=true', 'filter[name]=tag-1', 'filter[posts][title$startsWith]=P-alice'],
    sorts: ['name', '-id'],
    fields: 'fields[tag]=name,posts',
  },
  user: {
    relationships: ['posts', 'comments', 'likes'],
    includes: ['posts', 'comments', 'posts.comments', 'posts.tags', 'comments.post', 'likes.post'],
    filters: [
      'filter[posts][title$startsWith]=P-a',
      'filter[comments][body$contains]=1',
      'filter[name]=bob',
      'filter[posts][comments][body$contains]=reply',
    ],
    sorts: ['name', '-id'],
    fields: 'fields[user]=name,posts,comments',
  },
};

const MODELS: Record<TypeName, string> = { post: 'Post', comment: 'Comment', tag: 'Tag', user: 'User' };

/** What the RPC generator may ask of each model: wheres (through relations), selections, orders. */
const RPC_MODELS: Record<TypeName, { wheres: unknown[]; selections: unknown[]; orders: unknown[] }> = {
  post: {
    wheres: [
      undefined,
      { published: true },
      { comments: { some: { body: { contains: '1' } } } },
      { tags: { some: { name: 'tag-1' } } },
      { author: { is: { name: 'alice' } } },
      { comments: { none: {} } },
      { OR: [{ title: { startsWith: 'P-a' } }, { likes: { some: {} } }] },
    ],
    selections: [
      {},
      { include: { comments: true } },
      {
        include: {
          comments: { include: { replies: true, _count: true } },
          tags: true,
          _count: { select: { comments: true, tags: true } },
        },
      },
      { select: { id: true, title: true, author: { select: { id: true, posts: { select: { id: true } } } } } },
      { include: { tags: { include: { posts: true } } } },
      { select: { id: true, _count: true } },
      { include: { likes: { include: { post: true } } } },
    ],
    orders: [undefined, { id: 'asc' }, { id: 'desc' }, { title: 'asc' }, { author: { name: 'desc' } }],
  },
  comment: {
    wheres: [
      undefined,
      { post: { is: { published: true } } },
      { replies: { some: {} } },
      { parent: { isNot: null } },
      { body: { contains: 'reply' } },
      { post: { is: { tags: { some: {} } } } },
    ],
    selections: [
      {},
      { include: { post: true } },
      { include: { replies: true, parent: true, _count: true } },
      { select: { id: true, post: { select: { id: true, comments: { select: { id: true } } } } } },
    ],
    orders: [undefined, { id: 'asc' }, { body: 'desc' }, { author: { name: 'asc' } }],
  },
  tag: {
    wheres: [
      undefined,
      { posts: { some: { published: true } } },
      { posts: { none: {} } },
      { name: { startsWith: 'tag' } },
      { posts: { every: { published: true } } },
    ],
    selections: [
      {},
      { include: { posts: true } },
      { include: { posts: { include: { comments: true } }, _count: true } },
    ],
    orders: [undefined, { id: 'asc' }, { name: 'desc' }],
  },
  user: {
    wheres: [
      undefined,
      { posts: { some: {} } },
      { comments: { some: { body: { contains: '1' } } } },
      { likes: { some: { post: { is: { published: true } } } } },
      { name: 'bob' },
    ],
    selections: [
      {},
      { include: { posts: true } },
      { include: { posts: { include: { comments: true, tags: true } }, comments: true, _count: true } },
      { select: { id: true, comments: { select: { id: true, post: { select: { id: true } } } } } },
    ],
    orders: [undefined, { id: 'asc' }, { name: 'desc' }],
  },
};

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length]!;

const types = fc.constantFrom<TypeName>('post', 'comment', 'tag', 'user');
const callers = fc.constantFrom<Caller>('alice', 'bob', 'carol', 'admin', 'anonymous');

const restReads = fc.record({
  type: types,
  route: fc.constantFrom('collection', 'collection', 'resource', 'related', 'relationship'),
  row: fc.nat(),
  relationship: fc.nat(),
  includes: fc.array(fc.nat(), { maxLength: 2 }),
  filters: fc.array(fc.nat(), { maxLength: 2 }),
  sort: fc.option(fc.nat(), { nil: undefined }),
  page: fc.constantFrom('none', 'offset', 'cursor'),
  limit: fc.integer({ min: 1, max: 6 }),
  offset: fc.integer({ min: 0, max: 8 }),
  sparse: fc.boolean(),
  caller: callers,
});

const rpcReads = fc.record({
  type: types,
  operation: fc.constantFrom('findMany', 'findMany', 'findFirst', 'findUnique', 'count', 'aggregate', 'groupBy'),
  where: fc.nat(),
  selection: fc.nat(),
  order: fc.nat(),
  row: fc.nat(),
  cursor: fc.boolean(),
  take: fc.option(fc.integer({ min: -4, max: 6 }), { nil: undefined }),
  skip: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  caller: callers,
});

describe.each(testProviders())('soft delete over HTTP, generated reads (%s)', (provider) => {
  const app = useSoftDeleteApp(provider);
  const { as, rpc, users } = app;
  /** Every id of each type, deleted or not (`type:id` keys of the deleted ones apart). */
  const ids = {} as Record<TypeName, (number | string)[]>;
  const deleted = new Set<string>();

  const user = (caller: Caller): DemoUser | undefined => (caller === 'anonymous' ? undefined : users[caller]);

  beforeAll(async () => {
    const p = app.t.db.prisma;
    const authors = [users.alice, users.bob, users.carol];
    const tags = [];
    for (let i = 0; i < 5; i++) tags.push(await p.tag.create({ data: { name: `tag-${i}` } }));
    let n = 0;
    for (const author of authors) {
      const name = author === users.alice ? 'alice' : author === users.bob ? 'bob' : 'carol';
      for (let i = 0; i < 4; i++, n++) {
        const post = await p.post.create({
          data: {
            title: `P-${name}-${i}`,
            published: i % 2 === 0,
            authorId: author.id,
            tags: { connect: [{ id: tags[n % 5]!.id }, { id: tags[(n + 2) % 5]!.id }] },
          },
        });
        const comments = [];
        for (let c = 0; c < 3; c++) {
          comments.push(
            await p.comment.create({
              data: { body: `${post.title} comment ${c}`, postId: post.id, authorId: authors[(n + c) % 3]!.id },
            }),
          );
        }
        await p.comment.create({
          data: { body: `${post.title} reply`, postId: post.id, parentId: comments[0]!.id, authorId: author.id },
        });
        await p.like.create({ data: { userId: authors[(n + 1) % 3]!.id, postId: post.id } });
      }
    }
    const postId = async (title: string) => (await p.post.findFirstOrThrow({ where: { title } })).id;
    // Deleted through the API, as their owners would: posts (with their comments), a comment with its reply, a tag.
    await as(users.alice)
      .delete(`/api/rest/post/${await postId('P-alice-0')}`)
      .expect(204);
    await as(users.alice)
      .delete(`/api/rest/post/${await postId('P-alice-1')}`)
      .expect(204);
    await as(users.bob)
      .delete(`/api/rest/post/${await postId('P-bob-2')}`)
      .expect(204);
    const carols = await postId('P-carol-3');
    await as(users.carol).delete(`/api/rest/post/${carols}`).expect(204);
    await as(users.carol).post(`/api/rest/post/${carols}/restore`).expect(200);
    const replied = await p.comment.findFirstOrThrow({ where: { body: 'P-carol-0 comment 0' } });
    const byAuthor = users[(['alice', 'bob', 'carol'] as const)[authors.findIndex((a) => a.id === replied.authorId)]!];
    await as(byAuthor).delete(`/api/rest/comment/${replied.id}`).expect(204);
    await as(users.admin).delete(`/api/rest/tag/${tags[1]!.id}`).expect(204);

    for (const type of Object.keys(MODELS) as TypeName[]) {
      const rows: { id: number | string; deletedAt?: Date | null }[] = await (p as any)[type].findMany();
      ids[type] = rows.map((row) => row.id);
      for (const row of rows) if (row.deletedAt) deleted.add(`${type}:${row.id}`);
    }
    expect(deleted.size).toBeGreaterThanOrEqual(4 + 4 + 4 + 2 + 1);
  });

  const models = () => (app.t.db.modelMeta as DataModelMeta).models;
  const modelOf = (type: string) => models()[`${type[0]!.toUpperCase()}${type.slice(1)}`]!;

  /** The URL of a generated REST read: what it reads (collection or not), and whether the URL names a row. */
  function restUrl(read: RestRead) {
    const id = pick(ids[read.type], read.row);
    const relationship = pick(REST_TYPES[read.type].relationships, read.relationship);
    const field = modelOf(read.type).fields[relationship]!;
    const [path, target, collection] =
      read.route === 'collection'
        ? [`/api/rest/${read.type}`, read.type, true]
        : read.route === 'resource'
          ? [`/api/rest/${read.type}/${id}`, read.type, false]
          : [
              `/api/rest/${read.type}/${id}/${read.route === 'related' ? '' : 'relationships/'}${relationship}`,
              field.type.toLowerCase(),
              field.isList,
            ];
    // Likes are read through posts and users only: their type has no generated parameters.
    const own = REST_TYPES[target as TypeName] as (typeof REST_TYPES)[TypeName] | undefined;
    const query: string[] = [];
    const includes = new Set(
      own && read.route !== 'relationship' ? read.includes.map((i) => pick(own.includes, i)) : [],
    );
    if (includes.size) query.push(`include=${[...includes].join(',')}`);
    if (collection && own) {
      query.push(...new Set(read.filters.map((i) => pick(own.filters, i))));
      const sort = read.sort === undefined ? undefined : pick(own.sorts, read.sort);
      // A cursor page is ordered by columns of its own type.
      if (sort && !(read.page === 'cursor' && sort.includes('.'))) query.push(`sort=${sort}`);
    }
    if (collection && read.page === 'offset') query.push(`page[offset]=${read.offset}`, `page[limit]=${read.limit}`);
    if (collection && read.page === 'cursor') query.push(`page[size]=${read.limit}`);
    if (read.sparse && own) query.push(own.fields);
    return {
      url: query.length ? `${path}?${query.join('&')}` : path,
      collection,
      namesRow: read.route !== 'collection',
    };
  }

  /**
   * Who reads each generated request: its caller; a caller without `readDeleted` with `withDeleted=true`
   * (which must see live rows only); and the control, an admin with `withDeleted=true`.
   */
  const readers = (caller: Caller): [Caller, boolean][] => [
    [caller, false],
    [caller === 'admin' ? 'bob' : caller, true],
    ['admin', true],
  ];
  const isControl = (caller: Caller, withDeleted: boolean) => caller === 'admin' && withDeleted;

  it('names no deleted row in any REST answer, while the control finds them', async () => {
    const reads = fc.sample(restReads, { seed: SEED, numRuns: RUNS });
    let found = 0;
    let answered = 0;
    for (const read of reads) {
      const { url, collection, namesRow } = restUrl(read);
      for (const [caller, withDeleted] of readers(read.caller)) {
        const sent = withDeleted ? `${url}${url.includes('?') ? '&' : '?'}withDeleted=true` : url;
        const res = await as(user(caller)).get(sent);
        const context = `${caller} GET ${sent} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect([context, res.status === 200 || (namesRow && res.status === 404)]).toEqual([context, true]);
        if (res.status !== 200) continue;
        answered += 1;
        const named = [...resourceKeys(res.body)].filter((key) => deleted.has(key));
        if (isControl(caller, withDeleted)) {
          found += named.length;
          continue;
        }
        expect([context, named]).toEqual([context, []]);
        // A count that took deleted rows in would not match the rows of the page.
        const total = res.body.meta?.total;
        if (collection && total !== undefined && read.page !== 'cursor') {
          const [offset, limit] = read.page === 'offset' ? [read.offset, read.limit] : [0, 100];
          expect([context, res.body.data.length]).toEqual([context, Math.max(0, Math.min(limit, total - offset))]);
        }
      }
    }
    expect(found).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(reads.length * 2);
  });

  /** The arguments of a generated RPC read. */
  function rpcArgs(read: RpcRead): Record<string, unknown> {
    const spec = RPC_MODELS[read.type];
    const where = pick(spec.wheres, read.where);
    const filtered = where === undefined ? {} : { where };
    const selection = pick(spec.selections, read.selection) as object;
    const orderBy = pick(spec.orders, read.order);
    switch (read.operation) {
      case 'findUnique':
        return { where: { id: pick(ids[read.type], read.row) }, ...selection };
      case 'count':
        return filtered;
      case 'aggregate':
        return { ...filtered, _count: { _all: true }, _min: { id: true }, _max: { id: true } };
      case 'groupBy':
        return { ...filtered, by: ['id'], _count: { _all: true } };
      default:
        return {
          ...filtered,
          ...selection,
          ...(orderBy === undefined ? {} : { orderBy }),
          ...(read.cursor ? { cursor: { id: pick(ids[read.type], read.row) } } : {}),
          // findFirst takes 1 or -1 only.
          ...(read.take === undefined
            ? {}
            : { take: read.operation === 'findFirst' ? Math.sign(read.take) || 1 : read.take }),
          ...(read.skip === undefined ? {} : { skip: read.skip }),
        };
    }
  }

  /**
   * The deleted rows an RPC answer holds, walking nested rows by the relations of their model, and
   * the relation counts (`_count`) that disagree with the related rows beside them.
   */
  function walkRpc(value: unknown, model: string, found: { deleted: string[]; counts: string[] }) {
    if (Array.isArray(value)) {
      for (const item of value) walkRpc(item, model, found);
      return found;
    }
    if (typeof value !== 'object' || value === null) return found;
    const row = value as Record<string, unknown>;
    const type = `${model[0]!.toLowerCase()}${model.slice(1)}`;
    if ((typeof row.id === 'number' || typeof row.id === 'string') && deleted.has(`${type}:${row.id}`))
      found.deleted.push(`${type}:${row.id}`);
    for (const [key, child] of Object.entries(row)) {
      const field = models()[model]!.fields[key];
      if (field?.kind === 'relation') walkRpc(child, field.type, found);
    }
    if (typeof row._count === 'object' && row._count !== null) {
      for (const [relation, count] of Object.entries(row._count)) {
        const rows = row[relation];
        if (Array.isArray(rows) && rows.length !== count)
          found.counts.push(`${type}.${relation}: ${count} ≠ ${rows.length}`);
      }
    }
    return found;
  }

  it('names no deleted row in any RPC answer, counts only what it shows, while the control finds them', async () => {
    const reads = fc.sample(rpcReads, { seed: SEED, numRuns: RUNS });
    let found = 0;
    for (const read of reads) {
      const args = rpcArgs(read);
      const model = MODELS[read.type];
      for (const [caller, withDeleted] of readers(read.caller)) {
        const extras = withDeleted ? { query: { withDeleted: 'true' } } : {};
        const call = (operation: string, callArgs: unknown) =>
          rpc(user(caller), 'get', `${read.type}/${operation}`, callArgs, extras);
        const reply = await call(read.operation, args);
        const context = `${caller}${withDeleted ? ' withDeleted' : ''} ${read.type}/${read.operation} ${JSON.stringify(args)} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
        expect([context, reply.status]).toEqual([context, 200]);
        const walked = walkRpc(reply.data, model, { deleted: [], counts: [] });
        if (read.operation === 'aggregate') {
          for (const id of [reply.data._min.id, reply.data._max.id])
            if (deleted.has(`${read.type}:${id}`)) walked.deleted.push(`${read.type}:${id}`);
        }
        expect([context, walked.counts]).toEqual([context, []]);
        if (read.operation === 'count' || read.operation === 'aggregate') {
          // The count is of the rows a findMany with the same where answers.
          const rows = (
            await call('findMany', { ...('where' in args ? { where: args.where } : {}), select: { id: true } })
          ).data;
          walkRpc(rows, model, walked);
          const count = read.operation === 'count' ? reply.data : reply.data._count._all;
          expect([context, count]).toEqual([context, rows.length]);
        }
        if (isControl(caller, withDeleted)) found += walked.deleted.length;
        else expect([context, walked.deleted]).toEqual([context, []]);
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});

type RestRead = typeof restReads extends fc.Arbitrary<infer R> ? R : never;
type RpcRead = typeof rpcReads extends fc.Arbitrary<infer R> ? R : never;
