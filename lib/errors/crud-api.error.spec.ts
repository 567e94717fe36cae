import { HttpException } from '@nestjs/common';
import fc from 'fast-check';

import { CrudApiError } from './crud-api.error.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 27);

describe('CrudApiError', () => {
  it('is an HttpException with its status, its fields unchanged, for every code and message (generated)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(ERROR_CODES) as ErrorCode[])), fc.string(), (code, message) => {
        const options = { reason: 'R', source: { pointer: '/data' } };
        const error = new CrudApiError(code, message, options);
        const { status, title } = ERROR_CODES[code];
        expect(error).toBeInstanceOf(HttpException);
        expect(error).toBeInstanceOf(Error);
        expect(error).toMatchObject({ name: 'CrudApiError', code, message, options, status, statusCode: status });
        expect(error.expose).toBe(status < 500);
        expect(error.getStatus()).toBe(status);
        // What handling other than the module's shows: the message, never a 5xx's (it may name internals).
        expect(error.getResponse()).toBe(status < 500 ? message : title);
      }),
      { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
    );
  });

  it('defaults its options to none', () => {
    expect(new CrudApiError('not-found', 'No post 1.').options).toEqual({});
  });
});
