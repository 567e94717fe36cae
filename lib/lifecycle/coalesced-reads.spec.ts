import { CoalescedReads } from './coalesced-reads.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A read that runs until `release`: how a read under way is held open. */
function heldRead<T>(value: T) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { read: async () => (await held, value), release: () => release() };
}

describe('CoalescedReads', () => {
  it('starts a read at once when no run of its key is under way', () => {
    const reads = new CoalescedReads();
    let runs = 0;
    void reads.run('k', async () => ++runs);
    void reads.run('other', async () => ++runs);
    expect(runs).toBe(2);
  });

  it('runs the reads of one key that arrive while a run is under way once, after the turn, each key apart', async () => {
    const reads = new CoalescedReads();
    const runs: string[] = [];
    const first = heldRead({ key: 'a' });
    const running = reads.run('a', () => (runs.push('a'), first.read()));
    const read = (key: string) => reads.run(key, async () => (runs.push(key), { key }));
    const joined = [read('a'), read('b'), read('a'), read('a')];
    expect(runs).toEqual(['a', 'b']);
    await turn();
    expect(runs).toEqual(['a', 'b', 'a']);
    const answers = await Promise.all(joined);
    expect(answers.map(({ key }) => key)).toEqual(['a', 'b', 'a', 'a']);
    expect(answers[0]).toBe(answers[2]);
    expect(answers[0]).not.toBe(answers[1]);
    first.release();
    expect(await running).toEqual({ key: 'a' });
  });

  it('starts a shared run only once the turn ends: a read that arrives later in the turn still joins', async () => {
    const reads = new CoalescedReads();
    const first = heldRead(0);
    void reads.run('k', first.read);
    let runs = 0;
    const read = () => reads.run('k', async () => ++runs);
    const second = read();
    await Promise.resolve();
    expect(runs).toBe(0);
    const third = read();
    expect(await Promise.all([second, third])).toEqual([1, 1]);
    first.release();
  });

  it('gives a read that arrives once the shared run has started a run of its own', async () => {
    const reads = new CoalescedReads();
    const first = heldRead(1);
    const second = heldRead(2);
    const started: number[] = [];
    const answers = [
      reads.run('k', () => (started.push(1), first.read())),
      reads.run('k', () => (started.push(2), second.read())),
    ];
    await turn();
    expect(started).toEqual([1, 2]);
    answers.push(reads.run('k', async () => (started.push(3), 3)));
    await turn();
    expect(started).toEqual([1, 2, 3]);
    first.release();
    second.release();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
  });

  it('shares a read between those that come after one of the same turn that already ended', async () => {
    const reads = new CoalescedReads();
    await reads.run('k', async () => 0);
    let runs = 0;
    const read = () => reads.run('k', async () => ++runs);
    const later = [read(), read()];
    expect(runs).toBe(0);
    expect(await Promise.all(later)).toEqual([1, 1]);
  });

  it('reads at once again when the runs of a key are over and their turn ended', async () => {
    const reads = new CoalescedReads();
    await reads.run('k', async () => 1);
    await turn();
    let runs = 0;
    void reads.run('k', async () => ++runs);
    expect(runs).toBe(1);
  });

  it('fails every read that joined a run that fails, and keeps nothing of it', async () => {
    const reads = new CoalescedReads();
    const failure = new Error('down');
    const first = heldRead(0);
    void reads.run('k', first.read);
    const failing = () => reads.run('k', () => Promise.reject(failure));
    const outcomes = await Promise.allSettled([failing(), failing()]);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    first.release();
    await turn();
    let runs = 0;
    void reads.run('k', async () => ++runs);
    expect(runs).toBe(1);
  });
});
