import { acceptsEventStream, eventBytes } from './event-stream.js';

describe('acceptsEventStream', () => {
  it.each([
    ['text/event-stream', true],
    ['application/json, text/event-stream;q=0.5', true],
    ['TEXT/EVENT-STREAM', true],
    [['application/json', 'text/event-stream'], true],
    ['text/event-stream;q=0', false],
    ['text/event-stream; q=0.000', false],
    ['application/vnd.api+json', false],
    ['text/*', false],
    [undefined, false],
  ])('%j: %s', (accept, expected) => {
    expect(acceptsEventStream(accept)).toBe(expected);
  });
});

describe('eventBytes', () => {
  it('writes a result event with its id, and an error event with its type and no id', () => {
    expect(eventBytes(Buffer.from('{"data":[]}'), { id: '"abc"' }).toString()).toBe('id: "abc"\ndata: {"data":[]}\n\n');
    expect(eventBytes(Buffer.from('{"errors":[]}'), { event: 'error' }).toString()).toBe(
      'event: error\ndata: {"errors":[]}\n\n',
    );
  });

  it('keeps multi-byte characters whole', () => {
    expect(eventBytes(Buffer.from('"é✓😀"'), { id: '"t"' }).toString()).toBe('id: "t"\ndata: "é✓😀"\n\n');
  });
});
