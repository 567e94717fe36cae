import { Decimal } from '@prisma/client/runtime/client';
import fc from 'fast-check';

/**
 * Random results of Prisma operations on the sample models, for comparing RPC serializers:
 * rows with every scalar type the models use (and nulls), nested includes, `_count`, aggregate
 * and groupBy results. `hostile` adds what a database or a client's Json can hold but a fast path
 * may not expect: NaN/±Infinity/-0 floats, invalid and far dates, keys with dots, backslashes and
 * array-index names, the same Date, Decimal or row object reached twice.
 */
export function rpcResultArbitrary({ hostile }: { hostile: boolean }): fc.Arbitrary<unknown> {
  const sharedDates = [new Date('2025-01-01T00:00:00.000Z'), new Date(0)];
  const sharedDecimals = [new Decimal('9.99'), new Decimal('-0.5')];
  const date = fc.oneof(
    fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2200, 0, 1)), noInvalidDate: true }),
    hostile ? fc.date() : fc.date({ noInvalidDate: true }),
    fc.constantFrom(...sharedDates),
  );
  const decimal = fc.oneof(
    fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }))
      .map(([digits, exponent]) => new Decimal(`${digits}e${exponent}`)),
    fc.constantFrom(...sharedDecimals),
  );
  const bigint = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, 1n, 13n));
  const float = hostile
    ? fc.double()
    : fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0));
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 24 }),
    fc.uint8Array({ maxLength: 8 }).map((array) => Buffer.from(array)),
  );
  const text = fc.string({ maxLength: 12 });
  const trickyKey = fc.oneof(
    text,
    fc.constantFrom('a.b', 'c\\d', '.', '\\', '', '0', '1', '7', '01', '4294967295', 'x.0'),
  );
  const json: fc.Arbitrary<unknown> = hostile
    ? fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          fc.oneof(text, fc.boolean(), fc.constant(null), fc.double()),
          fc.array(tie('value'), { maxLength: 4 }),
          fc.dictionary(trickyKey, tie('value'), { maxKeys: 4 }),
        ),
      })).value
    : fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
  const userFields = {
    id: fc.nat(),
    email: text,
    name: text,
    role: fc.constantFrom('USER', 'ADMIN'),
    passwordHash: text,
    createdAt: date,
  };
  const user = fc.record(userFields);
  const profile = fc.record({
    id: fc.uuid(),
    bio: optional(text),
    avatar: optional(bytes),
    settings: optional(json),
    userId: fc.nat(),
  });
  const tag = fc.record({ id: fc.nat(), name: text });
  const comment = fc.record(
    {
      id: text,
      body: text,
      createdAt: date,
      postId: fc.nat(),
      authorId: optional(fc.nat()),
      parentId: optional(text),
      author: optional(user),
    },
    { requiredKeys: ['id', 'body', 'createdAt', 'postId', 'authorId', 'parentId'] },
  );
  const postScalars = {
    id: fc.nat(),
    title: text,
    content: optional(text),
    status: fc.constantFrom('DRAFT', 'PUBLISHED', 'ARCHIVED'),
    published: fc.boolean(),
    rating: float,
    price: decimal,
    views: bigint,
    metadata: optional(json),
    publishedAt: optional(date),
    createdAt: date,
    updatedAt: date,
    authorId: fc.nat(),
  };
  const post = fc.record(
    {
      ...postScalars,
      author: fc.record(
        { ...userFields, profile: optional(profile) },
        { requiredKeys: ['id', 'email', 'name', 'role', 'passwordHash', 'createdAt'] },
      ),
      tags: fc.array(tag, { maxLength: 3 }),
      comments: fc.array(comment, { maxLength: 3 }),
      _count: fc.record({ comments: fc.nat(), tags: fc.nat(), likes: fc.nat() }, { requiredKeys: [] }),
    },
    { requiredKeys: Object.keys(postScalars) as (keyof typeof postScalars)[] },
  );
  const posts = fc.array(post, { maxLength: 6 });
  const sharingRows = fc
    .tuple(posts, fc.boolean())
    .map(([rows, share]) =>
      share && rows.length > 1 && rows[0]!.author
        ? rows.map((row, index) => (index === 1 ? { ...row, author: rows[0]!.author } : row))
        : rows,
    );
  const aggregate = fc.record(
    {
      _count: fc.oneof(fc.nat(), fc.record({ _all: fc.nat(), title: fc.nat() }, { requiredKeys: ['_all'] })),
      _avg: fc.record(
        { rating: optional(float), price: optional(decimal), views: optional(float) },
        { requiredKeys: [] },
      ),
      _sum: fc.record(
        { rating: optional(float), price: optional(decimal), views: optional(bigint) },
        { requiredKeys: [] },
      ),
      _min: fc.record(
        { createdAt: optional(date), price: optional(decimal), title: optional(text) },
        { requiredKeys: [] },
      ),
      _max: fc.record(
        { createdAt: optional(date), views: optional(bigint), published: optional(fc.boolean()) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );
  const groupBy = fc.array(
    fc
      .tuple(fc.constantFrom('DRAFT', 'PUBLISHED', 'ARCHIVED'), optional(date), aggregate)
      .map(([status, publishedAt, aggregates]) => ({ status, publishedAt, ...aggregates })),
    { maxLength: 4 },
  );
  const shapes: fc.Arbitrary<unknown>[] = [
    posts,
    optional(post),
    fc.array(fc.record({ ...userFields, profile: optional(profile) }, { requiredKeys: ['id', 'email'] }), {
      maxLength: 4,
    }),
    aggregate,
    groupBy,
    fc.nat(),
    fc.record({ count: fc.nat() }),
  ];
  if (hostile)
    shapes.push(
      sharingRows,
      date,
      decimal,
      bigint,
      bytes,
      fc.constant(undefined),
      json,
      fc.array(fc.oneof(bigint, date, post), { maxLength: 4 }),
    );
  return fc.oneof(...shapes);
}
