import fc from 'fast-check';

import { parseIsoDateTime, toIsoString } from './date-time.js';

describe('toIsoString', () => {
  it('equals Date.prototype.toISOString on every valid date, and throws its RangeError on an invalid one', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.date({ noInvalidDate: true }),
          fc.date({ min: new Date(-62167219200000 - 1e10), max: new Date(253402300800000 + 1e10) }),
        ),
        (date) => {
          expect(toIsoString(date)).toBe(date.toISOString());
        },
      ),
      { seed: Number(process.env.FUZZ_SEED ?? 20261123), numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
    for (const time of [
      0, -1, -62167219200000, -62167219200001, 253402300799999, 253402300800000, 951782400000, 951868800000,
    ]) {
      expect(toIsoString(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(() => toIsoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('parseIsoDateTime', () => {
  it.each([
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05.678901+01:30', '2024-01-02T01:34:05.678Z'],
    ['2024-01-02T03:04:05.1234567890Z', '2024-01-02T03:04:05.123Z'],
    ['2024-02-29T23:59:59.999-01:00', '2024-03-01T00:59:59.999Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['0050-06-01T00:00:00-00:00', '0050-06-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseIsoDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '1',
    'yesterday',
    '2023-02-29T00:00:00Z',
    '2024-02-30T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2024-01-02T24:00:00Z',
    '2024-01-02T12:60:00Z',
    '2024-01-02T12:00:60Z',
    '2024-01-02T12:00:00+24:00',
    '+275760-09-13T00:00:00Z',
    '-000001-01-01T00:00:00Z',
    '10000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-01:00',
    '0000-01-01T00:00:00+01:00',
    '2024-01-02 03:04:05Z',
    '2024-01-02',
    '2024-01-02T03:04Z',
    '2024-01-02T03:04:05',
    '2024-01-02T03:04:05+0100',
    '2024-01-02t03:04:05z',
    '2024-01-02T03:04:05.Z',
  ])('refuses %s', (text) => {
    expect(parseIsoDateTime(text)).toBeUndefined();
  });
});
