import { findPrototypeKey } from './prototype-keys.js';

describe('findPrototypeKey', () => {
  it('finds own prototype keys that JSON.parse creates, at any position', () => {
    expect(findPrototypeKey(JSON.parse('{"data":{"__proto__":{"role":"ADMIN"}}}'))).toEqual(['data', '__proto__']);
    expect(findPrototypeKey(JSON.parse('{"where":{"OR":[{"id":1},{"constructor":{}}]}}'))).toEqual([
      'where',
      'OR',
      '1',
      'constructor',
    ]);
    expect(findPrototypeKey({ a: [{ b: { prototype: 1 } }] })).toEqual(['a', '0', 'b', 'prototype']);
    expect(findPrototypeKey(JSON.parse('{"__proto__":1}'))).toEqual(['__proto__']);
  });

  it('accepts ordinary arguments, values of other classes and literal prototype names as values', () => {
    expect(
      findPrototypeKey({ where: { name: '__proto__' }, data: { at: new Date(0), tags: ['constructor'] } }),
    ).toBeUndefined();
    expect(findPrototypeKey(null)).toBeUndefined();
    expect(findPrototypeKey('x')).toBeUndefined();
  });

  it('walks nesting far deeper than the call stack allows', () => {
    let deep: unknown = JSON.parse('{"__proto__":{}}');
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(findPrototypeKey(deep)).toHaveLength(200_001);
  });
});
