import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { hostileName as name } from '../../../test/support/hostile-names.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { IncludeTree } from '../query/parse-include.js';
import {
  compileRelationshipsBuilder,
  pickRelationships,
  type RelatedRenderer,
  toOneLinkage,
} from './relationships-builder.js';
import { relationshipLinks } from './resource-links.js';
import type { RelationshipSlot, ResourceShape } from './resource-shape.js';

type Row = Record<string, unknown>;

const slotOf = (name: string, isList: boolean, foreignKeys?: string[]): RelationshipSlot => ({
  name,
  isList,
  related: { name: 'Related', idFields: ['id'] } as unknown as ModelMeta,
  foreignKeys,
  relatedShape: () => ({ type: `t-${name}` }) as ResourceShape,
});

/** CompoundDocument's contract, with loaded and included relationships marked so both paths can be compared. */
const renderer: RelatedRenderer = {
  toOne(self, slot, row, nested) {
    const loaded = row[slot.name];
    if (loaded === undefined)
      return toOneLinkage(self, slot, slot.foreignKeys?.length === 1 ? row[slot.foreignKeys[0]!] : undefined);
    return { data: null, links: { self: `loaded ${JSON.stringify(loaded)}`, related: `nested ${nested?.size}` } };
  },
  toMany(self, slot, rows, nested) {
    if (!nested) return { links: relationshipLinks(self, slot.name) };
    return { data: [], links: { self: `rows ${rows?.length}`, related: `nested ${nested.size}` } };
  },
};

const slot = fc
  .tuple(name, fc.constantFrom('many', 'one-by-key', 'one-composite', 'one-loaded'), name)
  .map(([field, kind, key]) =>
    kind === 'many'
      ? slotOf(field, true)
      : slotOf(field, false, kind === 'one-by-key' ? [key] : kind === 'one-composite' ? [key, `${key}2`] : undefined),
  );
const slots = fc.uniqueArray(slot, { selector: (s) => s.name, maxLength: 6 });
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer({ min: 0, max: 2 ** 40 }),
  fc.string({ maxLength: 4 }),
  fc.constant([{ id: 1 }]),
);

describe('compileRelationshipsBuilder', () => {
  it('writes what the generic loop writes, for any names, rows and includes (generated)', () => {
    fc.assert(
      fc.property(
        slots,
        fc.array(value, { minLength: 12, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (list, values, included) => {
          // Rows as Prisma gives them: own members only (a null-prototype object has no __proto__ setter).
          const row: Row = Object.create(null);
          const include: IncludeTree = new Map();
          list.forEach((s, index) => {
            if (values[index] !== undefined) row[s.name] = values[index];
            const key = s.foreignKeys?.[0];
            if (key !== undefined && values[index + 6] !== undefined) row[key] = values[index + 6];
            if (included[index]) include.set(s.name, new Map([['x', new Map()]]));
          });
          const built = compileRelationshipsBuilder(list)(renderer, 'http://x/api/post/1', row, include);
          expect(JSON.stringify(built)).toBe(
            JSON.stringify(pickRelationships(list, renderer, 'http://x/api/post/1', row, include)),
          );
          expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 29) },
    );
  });

  it('renders a relationship named __proto__ as a member on both paths, never as the prototype', () => {
    const list = [slotOf('__proto__', true), slotOf('author', false, ['authorId'])];
    const row: Row = { authorId: 7 };
    const expected =
      '{"__proto__":{"links":{"self":"http://x/p/1/relationships/__proto__","related":"http://x/p/1/__proto__"}},' +
      '"author":{"data":{"type":"t-author","id":7},"links":{"self":"http://x/p/1/relationships/author/7","related":"http://x/p/1/author/7"}}}';
    for (const built of [
      compileRelationshipsBuilder(list)(renderer, 'http://x/p/1', row, new Map()),
      pickRelationships(list, renderer, 'http://x/p/1', row, new Map()),
    ]) {
      expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
      expect(Object.hasOwn(built, '__proto__')).toBe(true);
      expect(JSON.stringify(built)).toBe(expected);
    }
    expect(({} as Record<string, unknown>).links).toBeUndefined();
  });

  it('takes to-one linkage from the foreign key itself, and leaves a loaded or included relation to the renderer', () => {
    const rendered: string[] = [];
    const spy: RelatedRenderer = {
      ...renderer,
      toOne: (...args) => (rendered.push(args[1].name), renderer.toOne(...args)),
    };
    const build = compileRelationshipsBuilder([slotOf('author', false, ['authorId'])]);
    expect(build(spy, 's', { authorId: 'a/b' }, new Map()).author).toEqual({
      data: { type: 't-author', id: 'a/b' },
      links: { self: 's/relationships/author/a%2Fb', related: 's/author/a%2Fb' },
    });
    expect(build(spy, 's', { authorId: null }, new Map()).author).toEqual({
      data: null,
      links: { self: 's/relationships/author', related: 's/author' },
    });
    expect(rendered).toEqual([]);
    expect(build(spy, 's', { authorId: 1, author: null }, new Map()).author!.links.self).toBe('loaded null');
    build(spy, 's', { authorId: 1 }, new Map([['author', new Map()]]));
    expect(rendered).toEqual(['author', 'author']);
  });
});
