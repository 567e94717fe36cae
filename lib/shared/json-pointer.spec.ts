import { jsonPointer } from './json-pointer.js';

describe('jsonPointer', () => {
  it('escapes ~ and / (RFC 6901)', () => {
    expect(jsonPointer(['data', 'attributes', 'a/b~c', 0])).toBe('/data/attributes/a~1b~0c/0');
    expect(jsonPointer([])).toBe('');
  });

  it('stops at the parent of a member name too long to quote', () => {
    expect(jsonPointer(['data', 'attributes', 'x'.repeat(101), 'y'])).toBe('/data/attributes');
  });
});
