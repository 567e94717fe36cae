import { CrudApiError } from '../errors/crud-api.error.js';
import { issuesAt, RuleError } from './rule.error.js';

describe('RuleError', () => {
  it('keeps its one-issue form', () => {
    const error = new RuleError('Too short.', ['password'], 'too-short');
    expect(error).toBeInstanceOf(CrudApiError);
    expect(error.code).toBe('validation-failed');
    expect(error.message).toBe('Too short.');
    expect(error.options.issues).toEqual([{ path: ['password'], message: 'Too short.', code: 'too-short' }]);
    expect(new RuleError('No.').options.issues).toEqual([{ path: [], message: 'No.', code: 'invalid' }]);
  });

  it('carries several issues, each at its path, placed under the data path by issuesAt', () => {
    const error = new RuleError([
      { path: ['price'], message: 'Negative.', code: 'negative' },
      { message: 'Not today.' },
    ]);
    expect(error.message).toBe('2 validation issues');
    expect(issuesAt(error, ['data', 'posts', 'create', 0])).toEqual([
      { path: ['data', 'posts', 'create', 0, 'price'], message: 'Negative.', code: 'negative' },
      { path: ['data', 'posts', 'create', 0], message: 'Not today.', code: 'invalid' },
    ]);
  });

  it('needs at least one issue', () => {
    expect(() => new RuleError([])).toThrow(TypeError);
  });
});
