import fc from 'fast-check';

import { decodeChangeNotice, encodeChangeNotice, POSTGRES_PAYLOAD_LIMIT } from './change-notice-codec.js';
import type { ChangeNotice } from './change-transport.js';

const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261126), numRuns: Number(process.env.FUZZ_RUNS ?? 500) };

/** Names with quotes, escapes, control characters, astral and lone surrogate code units. */
const oddName = fc.oneof(
  fc.constantFrom('', '*', '"', '\\', '\u0000', '\n', '\u2028', '😀', '\ud800', 'é', '__proto__', '{"models":"*"}'),
  fc.string16bits({ maxLength: 12 }),
  fc.fullUnicodeString({ maxLength: 12 }),
);
const notice = fc.record({
  models: fc.oneof(fc.constant('*' as const), fc.array(oddName, { maxLength: 40 })),
  origin: fc.string16bits({ maxLength: 40 }),
});
const bytes = (message: string) => Buffer.byteLength(message);

/** Models whose encoded notice is about `POSTGRES_PAYLOAD_LIMIT + offset` bytes: one long name of `filler` characters. */
function aroundTheLimit(filler: string, offset: number, origin: string): ChangeNotice {
  const frame = bytes(encodeChangeNotice({ models: [''], origin }));
  const count = Math.max(
    0,
    Math.floor((POSTGRES_PAYLOAD_LIMIT + offset - frame) / bytes(JSON.stringify(filler).slice(1, -1))),
  );
  return { models: [filler.repeat(count)], origin };
}

describe('change notice messages', () => {
  it('decode what they encode, whatever the names', () => {
    fc.assert(
      fc.property(notice, (sent) => {
        expect(decodeChangeNotice(encodeChangeNotice(sent))).toEqual(sent);
      }),
      RUNS,
    );
  });

  it('keep the models that fit in the limit and say * for the others, never longer than it', () => {
    const filler = fc.constantFrom('a', 'é', '€', '😀', '"', '\u0001', '\ud800');
    fc.assert(
      fc.property(filler, fc.integer({ min: -40, max: 40 }), fc.string({ maxLength: 20 }), (char, offset, origin) => {
        const sent = aroundTheLimit(char, offset, origin);
        const message = encodeChangeNotice(sent, POSTGRES_PAYLOAD_LIMIT);
        const fits = bytes(encodeChangeNotice(sent)) <= POSTGRES_PAYLOAD_LIMIT;
        expect(bytes(message)).toBeLessThanOrEqual(POSTGRES_PAYLOAD_LIMIT);
        expect(decodeChangeNotice(message)).toEqual(fits ? sent : { models: '*', origin });
      }),
      RUNS,
    );
  });

  it('keep a list of exactly the limit and not one byte more', () => {
    const exact = aroundTheLimit('a', 0, 'a');
    expect(bytes(encodeChangeNotice(exact))).toBe(POSTGRES_PAYLOAD_LIMIT);
    expect(decodeChangeNotice(encodeChangeNotice(exact, POSTGRES_PAYLOAD_LIMIT))).toEqual(exact);
    const over = { models: [`${exact.models[0]}a`], origin: 'a' };
    expect(decodeChangeNotice(encodeChangeNotice(over, POSTGRES_PAYLOAD_LIMIT))).toEqual({ models: '*', origin: 'a' });
  });

  it.each([
    '',
    'not json',
    'null',
    '[]',
    '{"models":["A"]}',
    '{"models":[1],"origin":"a"}',
    '{"models":"A","origin":"a"}',
  ])('read a message of another format (%j) as * from no instance', (message) => {
    expect(decodeChangeNotice(message)).toEqual({ models: '*', origin: '' });
  });
});
