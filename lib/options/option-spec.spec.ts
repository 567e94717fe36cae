import fc from 'fast-check';

import { defaultsOf, withDefaults } from './option-spec.js';

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 45);

const names = fc.constantFrom('a', 'b', 'c', 'd');
const value = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(false));

describe('withDefaults', () => {
  it('takes each given value, and the default of each one left out or undefined (generated)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(names, value),
        fc.dictionary(names, fc.option(value, { nil: undefined })),
        (defaults, given) => {
          const copy = { ...given };
          const resolved = withDefaults(defaults, given) as Record<string, unknown>;
          for (const name of ['a', 'b', 'c', 'd'])
            expect(resolved[name]).toBe(given[name] !== undefined ? given[name] : defaults[name]);
          expect(Object.values(resolved)).not.toContain(undefined);
          expect(given).toStrictEqual(copy);
        },
      ),
      { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
    );
  });

  it('gives the defaults when the option is left out', () => {
    expect(withDefaults({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe('defaultsOf', () => {
  it("takes the entries' defaults, falsy ones included, and leaves out the entries without one", () => {
    expect(
      defaultsOf({
        a: { rules: [], default: 0 },
        b: { rules: [], documented: 'none' },
        c: { rules: [], default: false },
      }),
    ).toStrictEqual({ a: 0, c: false });
  });
});
