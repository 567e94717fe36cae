import { inSlices } from './in-slices.js';

describe('inSlices', () => {
  it('visits every item once, in order, letting other callbacks run between slices', async () => {
    const items = Array.from({ length: 1000 }, (_, index) => index);
    const visited: number[] = [];
    const slices = inSlices(items, 100, (item) => visited.push(item));
    // The first slice ran at once; a callback queued now runs before the last slice.
    let seenAt: number | undefined;
    setImmediate(() => (seenAt = visited.length));
    await slices;
    expect(visited).toEqual(items);
    expect(seenAt).toBeGreaterThanOrEqual(100);
    expect(seenAt).toBeLessThan(items.length);
  });

  it('runs fewer items than a slice without yielding', async () => {
    const visited: string[] = [];
    const slices = inSlices(new Set(['a', 'b']), 100, (item) => visited.push(item));
    expect(visited).toEqual(['a', 'b']);
    await slices;
  });
});
