import { assertJsonDepth } from './json-depth.js';

/** `[[[...]]]` nested `depth` arrays deep, built without recursion. */
function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

const refusal = (pointer: string) =>
  expect.objectContaining({ code: 'invalid-payload', options: { source: { pointer } } });

describe('assertJsonDepth', () => {
  it('accepts values up to the limit, scalars not counted', () => {
    expect(() => assertJsonDepth(nestedArrays(3), 3)).not.toThrow();
    expect(() => assertJsonDepth({ a: { b: 'x' } }, 2)).not.toThrow();
    expect(() => assertJsonDepth('text', 0)).not.toThrow();
  });

  it('refuses the first container past the limit, pointing at it', () => {
    expect(() => assertJsonDepth(nestedArrays(4), 3)).toThrow(refusal('/0/0/0'));
    expect(() => assertJsonDepth({ data: { attributes: { metadata: { a: {} } } } }, 4)).toThrow(
      refusal('/data/attributes/metadata/a'),
    );
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(() => assertJsonDepth(nestedArrays(1_000_000), 32)).toThrow(
      expect.objectContaining({ code: 'invalid-payload' }),
    );
  });

  it('prefixes pointers with the path given', () => {
    expect(() => assertJsonDepth([[1]], 1, { path: ['args'] })).toThrow(refusal('/args/0'));
  });
});
