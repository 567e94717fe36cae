import fc from 'fast-check';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { DEFAULT_LIMITS } from '../options/option-table.js';
import { attributeValue } from '../rest/attribute-codec.js';
import { buildFilterWhere } from '../rest/query/parse-filter.js';
import { parseQuery } from '../rest/query/parse-query.js';
import { VisibleFields } from '../rest/visible-fields.js';
import { parseResourceDocument } from '../rest/write/parse-resource-document.js';
import { validateRpcArgs } from '../rpc/args/validate-rpc-args.js';

/**
 * Both interfaces read the same value of a scalar the same way: a REST attribute, a REST filter
 * and an RPC argument (write data and where) accept and refuse the same values, and hand Prisma
 * equal values. Through the real parsing entry points, no database.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

const registry = new ModelRegistry(modelMeta as DataModelMeta);
const post = registry.findByTypeName('post')!;
const scope = { fields: new VisibleFields(registry), idDivider: '_', maxJsonDepth: 8 };

/** What an interface made of a value: the Prisma value, or REFUSED (a 400 of that interface). */
const REFUSED = Symbol('refused');

function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    if (error instanceof CrudApiError && error.getStatus() === 400) return REFUSED;
    throw error;
  }
}

const restAttribute = (field: string, value: unknown) =>
  outcome(
    () =>
      parseResourceDocument(scope, post, {
        data: {
          type: 'post',
          attributes: { title: 't', [field]: value },
          relationships: { author: { data: { type: 'user', id: '1' } } },
        },
      }).data[field],
  );

const restFilter = (field: string, text: string) =>
  outcome(() => {
    const { filters } = parseQuery(`filter[${field}]=${encodeURIComponent(text)}`, DEFAULT_LIMITS);
    return (buildFilterWhere(scope, post, filters) as Record<string, { equals: unknown }>)[field]!.equals;
  });

const rpc = (operation: string, args: Record<string, unknown>) =>
  validateRpcArgs(args, { registry, model: post, operation, origin: 'body', limits: DEFAULT_LIMITS })!;

const rpcData = (field: string, value: unknown) =>
  outcome(() => (rpc('create', { data: { title: 't', authorId: 1, [field]: value } }).data as any)[field]);

const rpcWhere = (field: string, value: unknown) =>
  outcome(() => (rpc('findMany', { where: { [field]: value } }).where as any)[field]);

const digits = (min: number, max: number) =>
  fc.stringOf(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max });
const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));

/** Date-time texts near every edge: calendar days, times, offsets, years, the forms left out. */
const dateTimeText = fc
  .tuple(
    pick('0000', '1970', '2023', '2024', '9999', '10000', '-0001'),
    two(13),
    two(32),
    pick('T', 't', ' '),
    two(24),
    two(60),
    two(60),
    fc.option(digits(0, 10).map((fraction) => `.${fraction}`)),
    pick('', 'Z', 'z', '+01:00', '-23:59', '+24:00', '+0100', '-00:60', '+01'),
    pick('date-time', 'date', 'minutes'),
  )
  .map(([year, month, day, t, hour, minute, second, fraction, zone, form]) => {
    const date = `${year}-${month}-${day}`;
    if (form === 'date') return date;
    if (form === 'minutes') return `${date}${t}${hour}:${minute}${zone}`;
    return `${date}${t}${hour}:${minute}:${second}${fraction ?? ''}${zone}`;
  });

/** Number texts: signs, leading zeros, fractions, exponents, sizes beyond every range. */
const numberText = fc.oneof(
  fc
    .tuple(
      pick('', '-', '+'),
      pick('', '0', '00'),
      digits(0, 40),
      fc.option(digits(0, 6).map((fraction) => `.${fraction}`)),
      fc.option(fc.tuple(pick('e', 'E'), pick('', '+', '-'), digits(0, 6)).map((parts) => parts.join(''))),
    )
    .map((parts) => parts.map((part) => part ?? '').join('')),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  pick(
    '2147483647',
    '2147483648',
    '-2147483648',
    '-2147483649',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '1e35',
    '9.99e34',
    '1e400',
    'Infinity',
    'NaN',
    ' 1',
    '0x10',
  ),
);

/** JSON numbers near every edge (`1e400` reads as Infinity in both interfaces' JSON). */
const jsonNumber = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 31) - 2, max: 2 ** 31 + 1 }),
  pick(2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53, 2 ** 53 - 1, -0, 1e35, Infinity, -Infinity),
);

const jsonScalar = fc.oneof(jsonNumber, fc.boolean(), dateTimeText, numberText, fc.string());

const FIELDS = ['title', 'status', 'published', 'rating', 'price', 'views', 'publishedAt', 'metadata'];
/** Fields whose JSON value is a string: a filter's text is that string. */
const TEXT_FIELDS = ['title', 'status', 'price', 'views', 'publishedAt'];
/** The text of a number in a filter is the JSON number it names. */
const NUMBER_FIELDS = { rating: /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/, authorId: /^-?\d+$/ };

const property = (arbitrary: fc.Arbitrary<unknown>, check: (value: any) => void) =>
  fc.assert(fc.property(arbitrary, check), { seed: SEED, numRuns: RUNS });

describe('scalar values: REST and RPC agree', () => {
  it.each(FIELDS)('%s: a REST attribute and RPC write data take the same JSON values, as equal values', (field) => {
    property(jsonScalar, (value) => {
      expect(rpcData(field, value)).toEqual(restAttribute(field, value));
    });
  });

  it('authorId (Int, set through a relationship on REST): a REST attribute value and RPC write data and where take the same JSON values', () => {
    const authorId = post.fields.authorId!;
    property(fc.oneof(jsonNumber, numberText), (value) => {
      const decoded = attributeValue(authorId, value, registry.meta.enums);
      const rest = 'value' in decoded ? decoded.value : REFUSED;
      expect(rpcData('authorId', value)).toEqual(rest);
      expect(rpcWhere('authorId', value)).toEqual(rest);
    });
  });

  it.each(TEXT_FIELDS)('%s: a REST filter and an RPC where take the same texts, as equal values', (field) => {
    property(fc.oneof(dateTimeText, numberText, fc.string()), (text) => {
      fc.pre(!text.includes(','));
      expect(rpcWhere(field, text)).toEqual(restFilter(field, text));
    });
  });

  it.each(Object.entries(NUMBER_FIELDS))(
    '%s: a REST filter takes the number texts whose number an RPC where takes',
    (field, grammar) => {
      property(numberText, (text) => {
        expect(restFilter(field, text)).toEqual(grammar.test(text) ? rpcWhere(field, Number(text)) : REFUSED);
      });
    },
  );

  it.each([
    ['2024-01-01T00:00:00', REFUSED],
    ['2024-01-01', REFUSED],
    ['2024-02-30T00:00:00Z', REFUSED],
    ['2024-01-01T00:00:00+01:00', new Date('2023-12-31T23:00:00Z')],
  ])('publishedAt %s: the same on both interfaces', (text, expected) => {
    for (const read of [restAttribute, restFilter, rpcData, rpcWhere])
      expect(read('publishedAt', text)).toEqual(expected);
  });

  it.each([
    ['+1', REFUSED],
    ['.5', REFUSED],
    ['1.', REFUSED],
    ['007.50', '007.50'],
    ['-1.5e-3', '-1.5e-3'],
  ])('price %s: the same on both interfaces', (text, expected) => {
    for (const read of [restAttribute, restFilter, rpcData, rpcWhere]) expect(read('price', text)).toEqual(expected);
  });

  it.each([
    ['+1', REFUSED],
    ['-0009223372036854775808', -9223372036854775808n],
    ['9223372036854775808', REFUSED],
  ])('views %s: the same on both interfaces', (text, expected) => {
    for (const read of [restAttribute, restFilter, rpcData, rpcWhere]) expect(read('views', text)).toEqual(expected);
  });
});
