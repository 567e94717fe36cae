import { MAX_QUOTED_INPUT, quoteInput } from './quote-input.js';

describe('quoteInput', () => {
  it('quotes short values whole and cuts long ones with an ellipsis', () => {
    expect(quoteInput('post')).toBe('"post"');
    expect(quoteInput(42)).toBe('"42"');
    const quoted = quoteInput('t'.repeat(1_000_000));
    expect(quoted).toBe(`"${'t'.repeat(MAX_QUOTED_INPUT)}…"`);
  });
});
