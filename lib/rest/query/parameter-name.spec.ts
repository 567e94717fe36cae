import fc from 'fast-check';

import { isMemberName, readParameterName } from './parameter-name.js';

const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261127), numRuns: Number(process.env.FUZZ_RUNS ?? 2000) };

// JSON:API 1.1 §"Member Names", written out as character lists independently of the module's pattern.
const GLOBAL = [...'azAZ09mQ5', 'é', '日', '\u0080', '😀'];
const INNER = ['-', '_', ' '];
const RESERVED = [...'+,.[]!"#$%&\'()*/:;<=>?@\\^`{|}~', '\u007f', '\u0000', '\u001f', '\n'];

const globalChar = fc.constantFrom(...GLOBAL);
const innerChar = fc.constantFrom(...GLOBAL, ...INNER);

/** A legal member name: globally allowed characters at both ends, `-`, `_` and space only between. */
const legalMember = fc.oneof(
  globalChar,
  fc.tuple(globalChar, fc.array(innerChar, { maxLength: 5 }), globalChar).map(([a, mid, b]) => a + mid.join('') + b),
);

/** An illegal member name: empty, `-`/`_`/space at an end, or a reserved or control character anywhere. */
const illegalMember = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom(...INNER), legalMember).map(([c, m]) => c + m),
  fc.tuple(legalMember, fc.constantFrom(...INNER)).map(([m, c]) => m + c),
  fc
    .tuple(fc.string({ maxLength: 3 }), fc.constantFrom(...RESERVED), fc.string({ maxLength: 3 }))
    .map(([a, c, b]) => a + c + b),
);

/** A base name with a character outside a-z: implementation-specific. */
const customBase = legalMember.filter((name) => /[^a-z]/.test(name));
const reservedBase = fc
  .stringMatching(/^[a-z]{1,8}$/)
  .filter((name) => !/^(filter|sort|page|include|fields)$/.test(name));
const brackets = (members: string[]) => members.map((m) => `[${m}]`).join('');
const legalBrackets = fc.array(fc.oneof(legalMember, fc.constant('')), { maxLength: 3 });

describe('isMemberName', () => {
  it('accepts every generated legal member name and refuses every generated illegal one', () => {
    fc.assert(
      fc.property(legalMember, illegalMember, (legal, illegal) => {
        expect([isMemberName(legal), isMemberName(illegal)]).toEqual([true, false]);
      }),
      RUNS,
    );
  });
});

describe('readParameterName', () => {
  it('reads a name once: a later request shares its frozen reading, also after many other names', () => {
    const first = readParameterName('page[limit]');
    expect(readParameterName('page[limit]')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual({ kind: 'family', family: 'page', selectors: ['limit'] });
    expect(Object.isFrozen((first as { selectors: readonly string[] }).selectors)).toBe(true);
    for (let n = 0; n < 300; n++) readParameterName(`filter[field${n}]`);
    expect(readParameterName('filter[late$gt]')).toEqual({ kind: 'family', family: 'filter', selectors: ['late$gt'] });
    expect(readParameterName('filter]late[')).toBeUndefined();
    const late = readParameterName('fields[late]');
    expect(readParameterName('fields[late]')).toBe(late);
    // A long name is read alike, but not kept.
    const long = `filter[${'a'.repeat(200)}]`;
    expect(readParameterName(long)).toEqual({ kind: 'family', family: 'filter', selectors: ['a'.repeat(200)] });
    expect(readParameterName(long)).not.toBe(readParameterName(long));
  });

  it('ignores an implementation-specific name: a legal base with a character outside a-z, legal members', () => {
    fc.assert(
      fc.property(customBase, legalBrackets, (base, members) => {
        fc.pre(!['withDeleted', 'hardDelete', 'asOf'].includes(base));
        expect(readParameterName(base + brackets(members))).toEqual({ kind: 'ignored' });
      }),
      RUNS,
    );
  });

  it('reads the JSON:API families with legal members, and a last filter member with its operator', () => {
    const family = fc.constantFrom('filter', 'sort', 'page', 'include', 'fields');
    fc.assert(
      fc.property(family, legalBrackets, legalMember, legalMember, (name, members, field, operator) => {
        expect(readParameterName(name + brackets(members))).toEqual({
          kind: 'family',
          family: name,
          selectors: members,
        });
        const selectors = [...members, `${field}$${operator}`];
        expect(readParameterName(`filter${brackets(selectors)}`)).toEqual({
          kind: 'family',
          family: 'filter',
          selectors,
        });
      }),
      RUNS,
    );
  });

  it('refuses an all-a-z name JSON:API reserves, whatever its members', () => {
    fc.assert(
      fc.property(reservedBase, legalBrackets, (base, members) => {
        expect(readParameterName(base + brackets(members))).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('refuses an illegal base or an illegal member in any position, in any family', () => {
    const base = fc.oneof(customBase, fc.constantFrom('filter', 'sort', 'page', 'fields', 'withDeleted'));
    fc.assert(
      fc.property(
        base,
        illegalMember.filter((name) => name !== ''),
        legalBrackets,
        legalBrackets,
        (name, illegal, before, after) => {
          // `_` is the cache buster; `a$b` is a filter's last member with its operator.
          fc.pre(illegal !== '_' && !(name === 'filter' && illegal.includes('$')));
          // A bracket in an illegal base name would split it: `X[y]` is the legal `X` with member `y`.
          if (!/[[\]]/.test(illegal)) expect(readParameterName(illegal + brackets(after))).toBeUndefined();
          expect(readParameterName(name + brackets([...before, illegal, ...after]))).toBeUndefined();
        },
      ),
      RUNS,
    );
  });

  it('refuses a name whose brackets do not pair', () => {
    const garble = fc.constantFrom('[', ']', '][', '[[', ']]');
    fc.assert(
      fc.property(
        fc.oneof(customBase, fc.constant('filter')),
        legalBrackets,
        garble,
        legalBrackets,
        (base, a, g, b) => {
          expect(readParameterName(base + brackets(a) + g + brackets(b))).toBeUndefined();
        },
      ),
      RUNS,
    );
  });

  it.each(['__proto__[x]', 'filterisbn]', 'filter]title[', 'filter\u0000[title]', 'filter(title)', 'a_', '-a', ''])(
    'refuses %j',
    (name) => expect(readParameterName(name)).toBeUndefined(),
  );

  it("keeps the cache buster `_` and reads the module's own parameters by their exact names only", () => {
    expect(readParameterName('_')).toEqual({ kind: 'ignored' });
    expect(readParameterName('withDeleted')).toEqual({ kind: 'own', name: 'withDeleted' });
    expect(readParameterName('hardDelete')).toEqual({ kind: 'own', name: 'hardDelete' });
    expect(readParameterName('asOf')).toEqual({ kind: 'own', name: 'asOf' });
    expect(readParameterName('asOf[x]')).toBeUndefined();
    expect([readParameterName('_[x]'), readParameterName('__'), readParameterName('withDeleted[x]')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
