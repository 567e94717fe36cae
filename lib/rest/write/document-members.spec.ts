import { assertNoDocument } from './document-members.js';

describe('assertNoDocument', () => {
  it.each([undefined, {}])('accepts %j', (body) => {
    expect(() => assertNoDocument(body)).not.toThrow();
  });

  it.each([{ data: null }, { meta: {} }, [], '', 'x', 0, null])('refuses %j at the document', (body) => {
    expect(() => assertNoDocument(body)).toThrow(
      expect.objectContaining({ code: 'invalid-payload', options: { source: { pointer: '' } } }),
    );
  });
});
