import fc from 'fast-check';

import { CrudApiError } from '../../errors/crud-api.error.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { cursorCodec } from './cursor-codec.js';
import type { SortKey } from './sort-keys.js';

const scalar = (name: string, type: string, isOptional = false) =>
  ({ name, type, kind: 'scalar', isOptional, isList: false }) as FieldMeta;
const fields = {
  id: scalar('id', 'Int'),
  title: scalar('title', 'String'),
  publishedAt: scalar('publishedAt', 'DateTime', true),
  views: scalar('views', 'BigInt'),
};
const post = { name: 'Post', idFields: ['id'], uniqueConstraints: [], fields } as unknown as ModelMeta;
const keys: SortKey[] = [
  { field: fields.publishedAt, descending: true },
  { field: fields.views, descending: false },
  { field: fields.id, descending: false },
];
const codec = cursorCodec(post, keys, {});
const refusal = expect.objectContaining({
  code: 'invalid-query-parameter',
  options: { source: { parameter: 'page[after]' } },
});
const forge = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');

describe('cursorCodec', () => {
  it('round-trips the key values of a row as Prisma values, nulls of optional fields included', () => {
    const row = { id: 7, title: 'x', publishedAt: new Date('2024-05-06T07:08:09.010Z'), views: 12345678901234567n };
    const cursor = codec.encode(row);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor, 'page[after]')).toEqual([row.publishedAt, row.views, 7]);
    expect(codec.decode(codec.encode({ ...row, publishedAt: null }), 'page[after]')).toEqual([null, row.views, 7]);
  });

  it('refuses cursors of another sort, another model, the wrong arity or value types', () => {
    const good = JSON.parse(Buffer.from(codec.encode({ id: 1, publishedAt: null, views: 1n }), 'base64url').toString());
    const other = cursorCodec(post, keys.slice(1), {}).encode({ id: 1, views: 1n });
    const otherModel = cursorCodec({ ...post, name: 'Page' }, keys, {}).encode({ id: 1, publishedAt: null, views: 1n });
    for (const text of [
      other,
      otherModel,
      forge({ ...good, v: [null, '1'] }),
      forge({ ...good, v: [null, '1', 'one'] }),
      forge({ ...good, v: [null, null, 1] }),
      forge({ ...good, v: ['not a date', '1', 1] }),
      forge({ ...good, v: [null, '1', 2 ** 31] }),
      forge({ ...good, extra: 1 }),
      forge([good.s, good.v]),
      forge('text'),
      `${codec.encode({ id: 1, publishedAt: null, views: 1n })}=`,
      'a+b/',
      '',
    ]) {
      expect(() => codec.decode(text, 'page[after]')).toThrow(refusal);
    }
  });

  it('answers any text with values or a 400, never another error (generated)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.json().map((json) => Buffer.from(json).toString('base64url')),
      fc.anything().map((v) => forge({ s: 'Post:-publishedAt,views,id', v: [v, v, v] })),
    );
    fc.assert(
      fc.property(text, (cursor) => {
        try {
          expect(codec.decode(cursor, 'page[after]')).toHaveLength(3);
        } catch (error) {
          expect(error).toBeInstanceOf(CrudApiError);
          expect(error).toEqual(refusal);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 11) },
    );
  });
});
