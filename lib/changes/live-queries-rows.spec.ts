import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { eventually, settled } from '../../test/support/eventually.js';
import type { ChangeEvent } from '../rules/rules.types.js';
import { prepareEntityTags } from '../shared/http-caching.js';
import { LiveQueries, type LiveSubscription } from './live-queries.js';
import { ReadFootprint } from './read-footprint.js';

/** A response whose client stays: the stream's writes wait in it. */
function openResponse(): ServerResponse {
  const response = Object.assign(new PassThrough(), { writeHead: () => undefined, socket: { destroyed: false } });
  return response as unknown as ServerResponse;
}

const post = { id: 1, title: 'a', published: false, authorId: 2 };
const update = (before: object, after: object): ChangeEvent => ({
  model: 'Post',
  operation: 'update',
  id: { id: 1 },
  before: { ...post, ...before },
  after: { ...post, ...after },
  context: {},
});

describe('LiveQueries: deciding from the changed rows', () => {
  let live: LiveQueries;
  beforeAll(() => prepareEntityTags());
  beforeEach(async () => {
    live = new LiveQueries({ debounce: 0 }, modelMeta);
    await live.onApplicationBootstrap();
  });
  afterEach(() => live.onModuleDestroy());

  /**
   * A subscription whose first run read Post with `firstArgs`, and every re-run with `args` (after
   * `gate`, when given); its answer counts its runs.
   */
  function subscribe(args: unknown, gate?: () => Promise<void>, firstArgs = args): void {
    let runs = 0;
    const read = (reads: ReadFootprint, given = args) =>
      reads.note(modelMeta, modelMeta.models.Post!, 'findMany', given);
    const first = new ReadFootprint();
    read(first, firstArgs);
    const subscription: LiveSubscription = {
      shareKey: JSON.stringify(args),
      reads: first,
      judge: async () => JSON.stringify(args),
      run: async (reads) => {
        read(reads);
        await gate?.();
        return Buffer.from(String(++runs));
      },
      renderError: () => Buffer.alloc(0),
      caller: 'caller',
      connection: {},
    };
    live.open(subscription, openResponse(), { first: Buffer.from('0'), headers: {} });
  }

  it('re-runs the subscriptions whose filter the row matches before or after, and only those', async () => {
    subscribe({ where: { published: true } });
    subscribe({ where: { title: 'b' } });
    subscribe({ include: { author: true } });
    live.listener!(update({ title: 'c' }, { title: 'd' }));
    await settled();
    // Only the undecidable one (it includes another model).
    expect(live.reruns).toBe(1);
    live.listener!(update({}, { published: true }));
    await eventually(() => expect(live.reruns).toBe(3));
    live.listener!(update({ title: 'b' }, { title: 'e' }));
    await eventually(() => expect(live.reruns).toBe(5));
    // A change told by its model only concerns every subscription reading it.
    live.committed(['Post']);
    await eventually(() => expect(live.reruns).toBe(8));
  });

  it('checks a change heard during a run against what that run read so far', async () => {
    let release: () => void = () => undefined;
    const gate = () => new Promise<void>((resolve) => (release = resolve));
    // Its answer read drafts titled x; its next run reads published posts.
    subscribe({ where: { published: true } }, gate, { where: { title: 'x' } });
    live.listener!(update({ title: 'x' }, { title: 'y' }));
    await eventually(() => expect(live.reruns).toBe(1));
    // That run is under way, its query sent: a change it may have missed re-runs it once it ends.
    live.listener!(update({ published: true, title: 'q' }, { published: true, title: 'r' }));
    await settled();
    release();
    await eventually(() => expect(live.reruns).toBe(2));
    release();
  });
});
