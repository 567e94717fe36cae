import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';

import { hostileName as name } from '../../../test/support/hostile-names.js';
import { type AttributeSlot, compileAttributesBuilder, pickAttributes } from './attributes-builder.js';

const verbatim = (name: string): AttributeSlot => ({ name, encode: (value) => value, verbatim: true });
const encoded = (name: string, encode: (value: unknown) => unknown): AttributeSlot => ({
  name,
  encode: (value) => (value == null ? null : encode(value)),
  verbatim: false,
});

const slot = fc
  .tuple(name, fc.constantFrom('verbatim', 'date', 'text'))
  .map(([field, kind]) =>
    kind === 'verbatim'
      ? verbatim(field)
      : kind === 'date'
        ? encoded(field, (value) => (typeof value === 'number' ? new Date(value).toISOString() : `d${String(value)}`))
        : encoded(field, (value) => `<${String(value)}>`),
  );
const slots = fc.uniqueArray(slot, { selector: (s) => s.name, maxLength: 8 });
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer({ min: 0, max: 2 ** 40 }),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
);

describe('compileAttributesBuilder', () => {
  it('writes what the generic loop writes, for any names and values (generated)', () => {
    fc.assert(
      fc.property(slots, fc.array(value, { minLength: 8, maxLength: 8 }), (list, values) => {
        const row: Record<string, unknown> = Object.create(null);
        list.forEach((s, index) => {
          if (values[index] !== undefined) row[s.name] = values[index];
        });
        const built = compileAttributesBuilder(list)(row);
        expect(JSON.stringify(built)).toBe(JSON.stringify(pickAttributes(list, row)));
        expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 23) },
    );
  });

  it('defines a field named __proto__ as a member, never as the prototype', () => {
    // A row as Prisma would give it for such a field: an own member (a null-prototype object has no __proto__ setter).
    const row: Record<string, unknown> = Object.create(null);
    row.__proto__ = { polluted: true };
    row.title = 't';
    const built = compileAttributesBuilder([verbatim('__proto__'), verbatim('title')])(row);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(Object.hasOwn(built, '__proto__')).toBe(true);
    expect(JSON.stringify(built)).toBe('{"__proto__":{"polluted":true},"title":"t"}');
    expect(JSON.stringify(pickAttributes([verbatim('__proto__'), verbatim('title')], row))).toBe(
      '{"__proto__":{"polluted":true},"title":"t"}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('encodes null as null and leaves a field the row lacks out of the JSON', () => {
    const build = compileAttributesBuilder([
      verbatim('title'),
      encoded('createdAt', (v) => (v as Date).toISOString()),
      encoded('views', String),
    ]);
    expect(JSON.stringify(build({ title: 'x', createdAt: new Date(0), views: null }))).toBe(
      '{"title":"x","createdAt":"1970-01-01T00:00:00.000Z","views":null}',
    );
    expect(JSON.stringify(build({ views: 5n }))).toBe('{"views":"5"}');
  });

  it('falls back to the generic loops (attributes and relationships) where code generation from strings is disabled', () => {
    const attributesModule = fileURLToPath(new URL('./attributes-builder.ts', import.meta.url));
    const relationshipsModule = fileURLToPath(new URL('./relationships-builder.ts', import.meta.url));
    const script = `
      const { compileAttributesBuilder } = await import(${JSON.stringify(attributesModule)});
      const { compileRelationshipsBuilder } = await import(${JSON.stringify(relationshipsModule)});
      const build = compileAttributesBuilder([{ name: 'a', encode: (v) => v, verbatim: true }, { name: 'b', encode: (v) => v + 1, verbatim: false }]);
      const slot = { name: 'tags', isList: true, related: { idFields: ['id'] }, relatedShape: () => ({ type: 'tag' }) };
      const renderer = { toMany: () => ({ links: { self: 'many', related: 'many' } }), toOne: () => ({ links: { self: 'one', related: 'one' } }) };
      const relate = compileRelationshipsBuilder([slot]);
      console.log(JSON.stringify({
        compiled: [build.name === 'attributes', relate.name === 'relationships'],
        out: build({ a: 1, b: 2 }),
        included: relate(renderer, 's', {}, new Map([['tags', new Map()]])),
      }));`;
    const run = (flags: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], {
          encoding: 'utf8',
        }),
      );
    const rendered = { out: { a: 1, b: 3 }, included: { tags: { links: { self: 'many', related: 'many' } } } };
    expect(run(['--disallow-code-generation-from-strings'])).toEqual({ compiled: [false, false], ...rendered });
    expect(run([])).toEqual({ compiled: [true, true], ...rendered });
  });
});
