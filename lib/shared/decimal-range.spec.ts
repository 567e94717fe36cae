import { Decimal } from '@prisma/client/runtime/client';
import fc from 'fast-check';

import { decimalNumberInRange, decimalTextInRange } from './decimal-range.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

describe('decimal range', () => {
  it.each([
    ['0', true],
    ['-0.000', true],
    ['.5', true],
    ['99999999999999999999999999999999999', true],
    ['-99999999999999999999999999999999999.999', true],
    ['9.9e34', true],
    ['1e-99999', true],
    ['100000000000000000000000000000000000', false],
    ['1e35', false],
    ['-1E35', false],
    ['0.001e38', false],
    ['1e99999', false],
    ['1e99999999999999999999', false],
  ])('reads %s as in range: %s', (text, inRange) => {
    expect(decimalTextInRange(text)).toBe(inRange);
  });

  it('agrees with decimal.js on generated decimal texts', () => {
    const digits = fc.stringOf(fc.constantFrom(...'0123456789'), { maxLength: 40 });
    const text = fc
      .tuple(fc.constantFrom('', '-', '+'), digits, fc.option(digits), fc.option(fc.integer({ min: -80, max: 80 })))
      .map(([sign, whole, fraction, exponent]) => {
        const mantissa = `${whole || '0'}${fraction === null ? '' : `.${fraction}`}`;
        return `${sign}${mantissa}${exponent === null ? '' : `e${exponent}`}`;
      });
    fc.assert(
      fc.property(text, (value) => {
        expect(decimalTextInRange(value)).toBe(new Decimal(value).abs().lt('1e35'));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('takes finite numbers below 1e35 only', () => {
    expect(decimalNumberInRange(1e34)).toBe(true);
    expect(decimalNumberInRange(-1e35)).toBe(false);
    expect(decimalNumberInRange(Infinity)).toBe(false);
    expect(decimalNumberInRange(NaN)).toBe(false);
  });
});
