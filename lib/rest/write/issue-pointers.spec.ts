import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import { RuleError, validationFailed } from '../../rules/rule.error.js';
import { resourceIssuePointer, withIssuePointers } from './issue-pointers.js';

const post = modelMeta.models.Post!;
const like = modelMeta.models.Like!;

describe('resourceIssuePointer', () => {
  it.each([
    [post, ['data', 'title'], '/data/attributes/title'],
    [post, ['data', 'metadata', 'tags', 0], '/data/attributes/metadata/tags/0'],
    [post, ['data', 'password'], '/data/attributes/password'],
    [post, ['data', 'authorId'], '/data/relationships/author'],
    [post, ['data', 'author', 'connect', 'id'], '/data/relationships/author'],
    [post, ['data', 'tags', 'set', 0], '/data/relationships/tags'],
    [like, ['data', 'postId'], '/data/relationships/post'],
    [post, ['data', 'a/b'], '/data/attributes/a~1b'],
    [post, ['data'], '/data'],
    [post, ['where', 'id'], undefined],
    [post, [], undefined],
  ] as const)('%# %j → %s', (model, path, pointer) => {
    expect(resourceIssuePointer(model, path)).toBe(pointer);
  });
});

describe('withIssuePointers', () => {
  it('sets each issue’s pointer and keeps the message, the code and the paths', () => {
    const error = validationFailed([
      { path: ['data', 'title'], message: 'Too short', code: 'too_small' },
      { path: ['where'], message: 'Odd', code: 'invalid' },
    ]);
    const mapped = withIssuePointers(error, (path) => resourceIssuePointer(post, path)) as CrudApiError;
    expect(mapped).toBeInstanceOf(CrudApiError);
    expect(mapped).toMatchObject({ code: 'validation-failed', message: '2 validation issues' });
    expect(mapped.options.issues).toEqual([
      { path: ['data', 'title'], message: 'Too short', code: 'too_small', pointer: '/data/attributes/title' },
      { path: ['where'], message: 'Odd', code: 'invalid' },
    ]);
  });

  it('leaves any other error as it is', () => {
    const other = new CrudApiError('invalid-payload', 'x');
    const plain = new Error('x');
    expect(withIssuePointers(other, () => '/data')).toBe(other);
    expect(withIssuePointers(plain, () => '/data')).toBe(plain);
    expect((withIssuePointers(new RuleError('No', ['x']), () => '/data') as CrudApiError).options.issues).toEqual([
      { path: ['x'], message: 'No', code: 'invalid', pointer: '/data' },
    ]);
  });
});
