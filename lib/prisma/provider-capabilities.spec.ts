import fc from 'fast-check';

import {
  RETURNING,
  supportsFullTextSearch,
  supportsInsensitiveMode,
  toFullTextQuery,
} from './provider-capabilities.js';

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 17);

describe('provider capabilities', () => {
  it('tells which databases have RETURNING, insensitive mode and full-text search', () => {
    expect(
      ['sqlite', 'postgresql', 'mysql'].map((p) => [
        RETURNING.supports(p),
        supportsInsensitiveMode(p),
        supportsFullTextSearch(p),
      ]),
    ).toEqual([
      [true, false, false],
      [true, true, true],
      [false, false, true],
    ]);
  });

  it('requires every word: tsquery `&` on PostgreSQL, boolean-mode `+` on MySQL', () => {
    expect(toFullTextQuery("it's a & | !test", 'postgresql')).toBe('it & s & a & test');
    expect(toFullTextQuery("it's a & | !test", 'mysql')).toBe('+it +s +a +test');
    expect(toFullTextQuery('!&|', 'postgresql')).toBe('');
    expect(toFullTextQuery('-"x*" (y) ~z @2', 'mysql')).toBe('+x +y +z +2');
  });

  it('leaves no operator of either syntax in any text (generated)', () => {
    const words = /^([\p{L}\p{N}]+( & [\p{L}\p{N}]+)*)?$/u;
    const required = /^(\+[\p{L}\p{N}]+( \+[\p{L}\p{N}]+)*)?$/u;
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (ascii, unicode) => {
          const text = ascii + unicode;
          expect(toFullTextQuery(text, 'postgresql')).toMatch(words);
          expect(toFullTextQuery(text, 'mysql')).toMatch(required);
        },
      ),
      { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
    );
  });
});
