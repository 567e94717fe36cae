import { Decimal } from '@prisma/client/runtime/client';

import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { rpcBody, rpcQuery } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** Numbers no database stores for the field's type: 1e35 and more is beyond Prisma's `DECIMAL(65,30)`. */
const OUT_OF_RANGE = {
  price: ['1e99999', '-1e99999', '1e400', '1e35', '100000000000000000000000000000000000'],
  views: ['9223372036854775808', '-9223372036854775809'],
  rating: ['1e309', '-1e400'],
  authorId: ['2147483648', '-2147483649'],
} as const;
const CASES = Object.entries(OUT_OF_RANGE).flatMap(([field, values]) => values.map((value) => [field, value]));
/** `authorId` is no attribute: JSON:API sets it through the `author` relationship. */
const ATTRIBUTE_CASES = CASES.filter(([field]) => field !== 'authorId');

/**
 * Out-of-range numbers are refused before they reach the database, the same on every database:
 * SQLite stored `1e99999` as Infinity and PostgreSQL and MySQL matched nothing in filters.
 */
describe.each(testProviders())('numbers out of range for their field (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });
  const posts = () => t.db.prisma.post.count();
  const createPost = (attributes: Record<string, unknown>) =>
    t
      .http()
      .post('/api/rest/post')
      .set('content-type', 'application/vnd.api+json')
      .send({
        data: {
          type: 'post',
          attributes,
          relationships: { author: { data: { type: 'user', id: String(f.alice) } } },
        },
      });

  it.each(CASES)('refuses the REST filter %s=%s with its parameter named', async (field, value) => {
    const res = await t.http().get(`/api/rest/post?filter[${field}]=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      code: 'invalid-query-parameter',
      source: { parameter: `filter[${field}]` },
    });
  });

  it.each(ATTRIBUTE_CASES)('refuses the REST attribute %s=%s and writes nothing', async (field, value) => {
    const before = await posts();
    const attributes = {
      title: 'out of range',
      [field]: field === 'price' || field === 'views' ? value : Number(value),
    };
    const res = await createPost(attributes);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ code: 'validation-failed', source: { pointer: `/data/attributes/${field}` } }),
    ]);
    expect(await posts()).toBe(before);
  });

  it.each(['1e99999', '-1e400', '1e35'])(
    'refuses the Decimal %s in RPC arguments, in every wire form',
    async (value) => {
      const before = await posts();
      const data = { title: 'out of range', authorId: f.alice };
      for (const price of [value, new Decimal(value)]) {
        const create = await t
          .http()
          .post('/api/rpc/post/create')
          .send(rpcBody({ data: { ...data, price } }));
        expect(create.status).toBe(400);
        const read = await t
          .http()
          .get('/api/rpc/post/findMany')
          .query(rpcQuery({ where: { price: { lt: price } } }));
        expect(read.status).toBe(400);
      }
      const asNumber = await t
        .http()
        .post('/api/rpc/post/create')
        .send({ data: { ...data, price: Number(value) } });
      expect(asNumber.status).toBe(400);
      expect(await posts()).toBe(before);
    },
  );

  it('refuses bigints and integers beyond their type in RPC arguments', async () => {
    for (const where of [{ views: 2n ** 63n }, { views: '-9223372036854775809' }, { authorId: 2 ** 31 }]) {
      const read = await t.http().get('/api/rpc/post/findMany').query(rpcQuery({ where }));
      expect(read.status).toBe(400);
    }
  });

  it('still takes the largest Decimal every database stores, by filter, attribute and RPC', async () => {
    const largest = '-99999999999999999999999999999999999.5';
    const filter = await t.http().get(`/api/rest/post?filter[price$lt]=${largest}`);
    expect(filter.status).toBe(200);
    const rest = await createPost({ title: 'largest', price: largest });
    expect(rest.status).toBe(201);
    const rpc = await t
      .http()
      .post('/api/rpc/post/create')
      .send(rpcBody({ data: { title: 'largest', authorId: f.alice, price: new Decimal(largest) } }));
    expect(rpc.status).toBe(201);
  });
});
