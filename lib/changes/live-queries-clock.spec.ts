import type { DataModelMeta } from '../metadata/model-meta.types.js';
import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import { LiveQueries } from './live-queries.js';

const modelMeta = { provider: 'sqlite', models: {}, enums: {} } as unknown as DataModelMeta;

/** A transport the test connects and disconnects, and delivers other instances' notices through. */
function testTransport(): ChangeTransport & { listening: boolean; deliver(notice: ChangeNotice): void } {
  let receive: (notice: ChangeNotice) => void = () => undefined;
  return {
    listening: true,
    start: async (listener) => {
      receive = listener;
    },
    publish: async () => undefined,
    close: async () => undefined,
    deliver: (notice) => receive(notice),
  };
}

describe('LiveQueries: what it knows unchanged', () => {
  const started: LiveQueries[] = [];
  const startLive = async (transport?: ChangeTransport) => {
    const live = new LiveQueries({ transport }, modelMeta);
    await live.onApplicationBootstrap();
    started.push(live);
    return live;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((live) => live.onModuleDestroy()));
  });

  it('knows a model unchanged until a commit or another instance names it, or says *', async () => {
    const transport = testTransport();
    const live = await startLive(transport);
    const since = live.now;
    live.committed(['User']);
    expect(live.changedSince(['Post'], since)).toBe(false);
    expect(live.changedSince(['User'], since)).toBe(true);
    transport.deliver({ models: ['Post'], origin: 'another instance' });
    expect(live.changedSince(['Post'], since)).toBe(true);
    const later = live.now;
    transport.deliver({ models: '*', origin: 'reconnect' });
    expect(live.changedSince(['Comment'], later)).toBe(true);
  });

  it('knows nothing unchanged while its transport is not listening: other instances go unheard', async () => {
    const transport = testTransport();
    const live = await startLive(transport);
    const since = live.now;
    transport.listening = false;
    expect(live.changedSince(['Post'], since)).toBe(true);
    expect(live.changedSince([], live.now)).toBe(true);
    // Listening again, the '*' it delivers is what tells of the commits missed meanwhile.
    transport.listening = true;
    expect(live.changedSince(['Post'], live.now)).toBe(false);
    transport.deliver({ models: '*', origin: 'reconnect' });
    expect(live.changedSince(['Post'], since)).toBe(true);
  });

  it('without a transport, hears only the commits of the process', async () => {
    const live = await startLive();
    const since = live.now;
    expect(live.changedSince(['Post'], since)).toBe(false);
    live.committed(['Post']);
    expect(live.changedSince(['Post'], since)).toBe(true);
  });
});
