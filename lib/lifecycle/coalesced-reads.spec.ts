import { CoalescedReads } from './coalesced-reads.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescedReads', () => {
  it('runs the reads of one key that arrive in one turn once, and each key apart', async () => {
    const reads = new CoalescedReads();
    const runs: string[] = [];
    const read = (key: string) => reads.run(key, async () => (runs.push(key), { key }));
    const answers = await Promise.all([read('a'), read('b'), read('a'), read('a')]);
    expect(runs).toEqual(['a', 'b']);
    expect(answers.map(({ key }) => key)).toEqual(['a', 'b', 'a', 'a']);
    expect(answers[0]).toBe(answers[2]);
  });

  it('starts no run before the turn ends: a read that arrives in the same turn still joins', async () => {
    const reads = new CoalescedReads();
    let runs = 0;
    const read = () => reads.run('k', async () => ++runs);
    const first = read();
    await Promise.resolve();
    expect(runs).toBe(0);
    const second = read();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
  });

  it('gives a read that arrives once a run has started a run of its own', async () => {
    const reads = new CoalescedReads();
    let release!: () => void;
    const started: number[] = [];
    const first = reads.run('k', async () => {
      started.push(1);
      await new Promise<void>((resolve) => (release = resolve));
      return 1;
    });
    await turn();
    expect(started).toEqual([1]);
    const second = reads.run('k', async () => (started.push(2), 2));
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(started).toEqual([1, 2]);
  });

  it('fails every read that joined a run that fails, and keeps nothing of it', async () => {
    const reads = new CoalescedReads();
    const failure = new Error('down');
    const failing = () => reads.run('k', () => Promise.reject(failure));
    const outcomes = await Promise.allSettled([failing(), failing()]);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(await reads.run('k', async () => 'again')).toBe('again');
  });
});
