import { Decimal } from '@prisma/client/runtime/client';
import fc from 'fast-check';

import { isDecimalNumber, isDecimalText } from './decimal.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

describe('decimal range', () => {
  it.each([
    ['0', true],
    ['-0.000', true],
    ['007.50', true],
    ['.5', false],
    ['1.', false],
    ['+1', false],
    ['1e', false],
    [' 1', false],
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
  ])('reads %s as a Decimal in range: %s', (text, inRange) => {
    expect(isDecimalText(text)).toBe(inRange);
  });

  it('agrees with decimal.js on generated decimal texts', () => {
    const digits = fc.stringOf(fc.constantFrom(...'0123456789'), { minLength: 1, maxLength: 40 });
    const text = fc
      .tuple(fc.constantFrom('', '-'), digits, fc.option(digits), fc.option(fc.integer({ min: -80, max: 80 })))
      .map(([sign, whole, fraction, exponent]) => {
        const mantissa = `${whole}${fraction === null ? '' : `.${fraction}`}`;
        return `${sign}${mantissa}${exponent === null ? '' : `e${exponent}`}`;
      });
    fc.assert(
      fc.property(text, (value) => {
        expect(isDecimalText(value)).toBe(new Decimal(value).abs().lt('1e35'));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('takes finite numbers below 1e35 only', () => {
    expect(isDecimalNumber(1e34)).toBe(true);
    expect(isDecimalNumber(-1e35)).toBe(false);
    expect(isDecimalNumber(Infinity)).toBe(false);
    expect(isDecimalNumber(NaN)).toBe(false);
  });
});
