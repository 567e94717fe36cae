import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { FieldMeta } from '../metadata/model-meta.types.js';
import { attributeEncoder, decodeAttribute, parseQueryValue } from './attribute-codec.js';

const { Post, Profile } = modelMeta.models;
const enums = modelMeta.enums;
const encodeAttribute = (field: FieldMeta, value: unknown) => attributeEncoder(field)(value);

describe('attribute codec', () => {
  it('encodes DateTime as ISO, Decimal and BigInt as strings, Bytes as Base64', () => {
    expect(encodeAttribute(Post.fields.publishedAt, new Date('2024-01-02T00:00:00Z'))).toBe('2024-01-02T00:00:00.000Z');
    expect(encodeAttribute(Post.fields.views, 10n)).toBe('10');
    expect(encodeAttribute(Post.fields.price, { toString: () => '1.50' })).toBe('1.50');
    expect(encodeAttribute(Profile.fields.avatar, new Uint8Array([1, 2, 255]))).toBe('AQL/');
    expect(encodeAttribute(Post.fields.content, null)).toBeNull();
    expect(encodeAttribute(Post.fields.publishedAt, null)).toBeNull();
    expect(encodeAttribute(Post.fields.status, 'DRAFT')).toBe('DRAFT');
  });

  it('decodes the same forms from request bodies', () => {
    expect(decodeAttribute(Post.fields.publishedAt, '2024-01-02T00:00:00Z', enums, '/p')).toEqual(
      new Date('2024-01-02T00:00:00Z'),
    );
    expect(decodeAttribute(Post.fields.views, '9007199254740993', enums, '/p')).toBe(9007199254740993n);
    expect(decodeAttribute(Post.fields.price, 1.5, enums, '/p')).toBe('1.5');
    expect(decodeAttribute(Profile.fields.avatar, 'AQL/', enums, '/p')).toEqual(new Uint8Array([1, 2, 255]));
    expect(decodeAttribute(Post.fields.metadata, { a: [1] }, enums, '/p')).toEqual({ a: [1] });
    expect(decodeAttribute(Post.fields.content, null, enums, '/p')).toBeNull();
  });

  it.each([
    ['rating', '1'],
    ['views', 1.5],
    ['price', 'x'],
    ['published', 1],
    ['status', 'NOPE'],
    ['publishedAt', 'soon'],
    ['title', null],
    ['metadata', null],
  ] as const)('rejects %s = %p with a pointer', (name, value) => {
    expect(() => decodeAttribute(Post.fields[name], value, enums, `/data/attributes/${name}`)).toThrow(
      expect.objectContaining({
        code: 'invalid-payload',
        options: { source: { pointer: `/data/attributes/${name}` } },
      }),
    );
  });

  it('parses query strings by type and names the parameter when it cannot', () => {
    expect(parseQueryValue(Post.fields.published, 'false', enums, 'p')).toBe(false);
    expect(parseQueryValue(Post.fields.metadata, '{"a":1}', enums, 'p')).toEqual({ a: 1 });
    expect(() => parseQueryValue(Post.fields.rating, 'abc', enums, 'filter[rating]')).toThrow(
      expect.objectContaining({
        code: 'invalid-query-parameter',
        options: { source: { parameter: 'filter[rating]' } },
      }),
    );
  });

  it.each([
    ['rating', Number.MAX_VALUE, true],
    ['views', '9223372036854775807', true],
    ['views', '-9223372036854775808', true],
    ['views', '9223372036854775808', false],
    ['views', '-9223372036854775809', false],
    ['views', `1${'0'.repeat(5000)}`, false],
    ['publishedAt', '9999-12-31T23:59:59.999Z', true],
    ['publishedAt', '+010000-01-01T00:00:00.000Z', false],
    ['publishedAt', '2023-02-29', false],
    ['publishedAt', '1', false],
  ] as const)('keeps %s = %p within the range every database stores: %p', (name, value, accepted) => {
    const decode = () => decodeAttribute(Post.fields[name], value, enums, '/p');
    if (accepted) expect(decode).not.toThrow();
    else expect(decode).toThrow(expect.objectContaining({ code: 'invalid-payload' }));
  });

  it('keeps Int within signed 32 bits in bodies and filters', () => {
    const { User } = modelMeta.models;
    expect(decodeAttribute(User.fields.id, 2 ** 31 - 1, enums, '/p')).toBe(2 ** 31 - 1);
    expect(decodeAttribute(User.fields.id, -(2 ** 31), enums, '/p')).toBe(-(2 ** 31));
    expect(() => decodeAttribute(User.fields.id, 2 ** 31, enums, '/p')).toThrow(
      expect.objectContaining({ code: 'invalid-payload' }),
    );
    expect(() => parseQueryValue(User.fields.id, '2147483648', enums, 'filter[id]')).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter' }),
    );
    expect(parseQueryValue(User.fields.id, '-2147483648', enums, 'filter[id]')).toBe(-(2 ** 31));
  });

  it('refuses non-finite floats in filters', () => {
    expect(() => parseQueryValue(Post.fields.rating, '1e999', enums, 'filter[rating]')).toThrow(
      expect.objectContaining({ code: 'invalid-query-parameter' }),
    );
    expect(parseQueryValue(Post.fields.rating, '1e3', enums, 'filter[rating]')).toBe(1000);
  });
});
