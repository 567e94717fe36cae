import { type RouteKind, softDeleteParameters } from './soft-delete-parameters.js';

const refusal = (parameter: string) =>
  expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } });

describe('softDeleteParameters', () => {
  it('is off for every route when neither parameter is given', () => {
    for (const kind of ['read', 'write', 'delete'] as RouteKind[])
      expect(softDeleteParameters({}, kind)).toEqual({ withDeleted: false, hardDelete: false });
  });

  it('reads deleted rows on reads, removes for good on DELETE, and purges with both', () => {
    expect(softDeleteParameters({ withDeleted: 'true' }, 'read')).toEqual({ withDeleted: true, hardDelete: false });
    expect(softDeleteParameters({ hardDelete: 'true' }, 'delete')).toEqual({ withDeleted: false, hardDelete: true });
    expect(softDeleteParameters({ withDeleted: 'true', hardDelete: 'true' }, 'delete')).toEqual({
      withDeleted: true,
      hardDelete: true,
    });
  });

  it.each(['yes', 'True', '1', 'false', ''])('refuses the value %j on any route', (value) => {
    for (const kind of ['read', 'write', 'delete'] as RouteKind[]) {
      expect(() => softDeleteParameters({ withDeleted: value }, kind)).toThrow(refusal('withDeleted'));
      expect(() => softDeleteParameters({ hardDelete: value }, kind)).toThrow(refusal('hardDelete'));
    }
  });

  it.each([
    [{ withDeleted: 'true' }, 'write', 'withDeleted'],
    [{ withDeleted: 'true' }, 'delete', 'withDeleted'],
    [{ hardDelete: 'true' }, 'read', 'hardDelete'],
    [{ hardDelete: 'true' }, 'write', 'hardDelete'],
    [{ withDeleted: 'true', hardDelete: 'true' }, 'write', 'hardDelete'],
  ] as const)('refuses %j on a %s route, naming %s', (own, kind, parameter) => {
    expect(() => softDeleteParameters(own, kind)).toThrow(refusal(parameter));
  });
});
