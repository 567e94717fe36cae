import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';

import { eventually } from '../../test/support/eventually.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { prepareEntityTags } from '../shared/http-caching.js';
import { LiveQueries, type LiveSubscription } from './live-queries.js';
import { ReadFootprint } from './read-footprint.js';

const modelMeta = { provider: 'sqlite', models: {}, enums: {} } as unknown as DataModelMeta;

/** A response whose client stays: the stream's writes wait in it. */
function openResponse(): ServerResponse {
  const response = Object.assign(new PassThrough(), { writeHead: () => undefined, socket: { destroyed: false } });
  return response as unknown as ServerResponse;
}

describe('LiveQueries: faults of a re-run', () => {
  beforeAll(() => prepareEntityTags());
  afterEach(() => jest.restoreAllMocks());

  it('logs a re-run whose failure escapes the streams, instead of leaving its rejection unhandled', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const live = new LiveQueries({ debounce: 0 }, modelMeta);
    await live.onApplicationBootstrap();
    const reads = new ReadFootprint();
    reads.models.add('Post');
    const subscription: LiveSubscription = {
      shareKey: 'posts',
      reads,
      judge: async () => 'posts',
      run: async () => Promise.reject(new Error('the query failed')),
      // A fault where the failure is answered: nothing catches it inside the re-run.
      renderError: () => {
        throw new Error('the error renderer failed');
      },
      caller: 'caller',
      connection: {},
    };
    live.open(subscription, openResponse(), { first: Buffer.from('[]'), headers: {} });
    live.committed(['Post']);
    await eventually(() =>
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('the error renderer failed'), expect.any(String)),
    );
    await live.onModuleDestroy();
  });
});
