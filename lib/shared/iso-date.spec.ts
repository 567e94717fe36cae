import fc from 'fast-check';
import { toIsoString } from './iso-date.js';

describe('toIsoString', () => {
  it('equals Date.prototype.toISOString on every valid date, and throws its RangeError on an invalid one', () => {
    fc.assert(
      fc.property(fc.oneof(fc.date({ noInvalidDate: true }), fc.date({ min: new Date(-62167219200000 - 1e10), max: new Date(253402300800000 + 1e10) })), (date) => {
        expect(toIsoString(date)).toBe(date.toISOString());
      }),
      { seed: Number(process.env.FUZZ_SEED ?? 20261123), numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
    for (const time of [0, -1, -62167219200000, -62167219200001, 253402300799999, 253402300800000, 951782400000, 951868800000]) {
      expect(toIsoString(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(() => toIsoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
