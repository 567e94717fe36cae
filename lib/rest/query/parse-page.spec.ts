import { parsePage } from './parse-page.js';

const refused = (parameter: string) =>
  expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } });

describe('parsePage', () => {
  it('reads offset pages, the limit capped by pageSize', () => {
    expect(parsePage({}, 100)).toEqual({ kind: 'offset', offset: 0, limit: 100 });
    expect(parsePage({ offset: '20', limit: '500' }, 100)).toEqual({ kind: 'offset', offset: 20, limit: 100 });
    expect(parsePage({}, Infinity)).toEqual({ kind: 'offset', offset: 0, limit: undefined });
  });

  it('reads cursor pages: size defaults to pageSize, the cursor keeps its side', () => {
    expect(parsePage({ size: '5' }, 100)).toEqual({ kind: 'cursor', size: 5 });
    expect(parsePage({ after: 'abc' }, 100)).toEqual({ kind: 'cursor', size: 100, direction: 'after', cursor: 'abc' });
    expect(parsePage({ before: 'abc', size: '3' }, Infinity)).toEqual({
      kind: 'cursor',
      size: 3,
      direction: 'before',
      cursor: 'abc',
    });
    expect(parsePage({ after: 'abc' }, Infinity)).toEqual({
      kind: 'cursor',
      size: undefined,
      direction: 'after',
      cursor: 'abc',
    });
  });

  it.each([
    [{ offset: '1', size: '2' }, 'page[offset]'],
    [{ limit: '1', before: 'x' }, 'page[limit]'],
    [{ after: 'x', before: 'y' }, 'page[before]'],
    [{ size: '0' }, 'page[size]'],
    [{ size: '2.5' }, 'page[size]'],
    [{ size: '101' }, 'page[size]'],
    [{ size: '99999999999999999999' }, 'page[size]'],
  ])('refuses %j naming %s', (page, parameter) => {
    expect(() => parsePage(page, 100)).toThrow(refused(parameter));
  });
});
