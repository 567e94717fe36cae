import { loadPeer, reconnectDelay } from './transport-connection.js';

describe('reconnectDelay', () => {
  it('doubles from the initial delay up to the maximum, each wait between a half and the whole', () => {
    const reconnect = { initialDelay: 100, maxDelay: 1000 };
    const ceilings = [100, 200, 400, 800, 1000, 1000];
    ceilings.forEach((ceiling, attempt) => {
      for (let draw = 0; draw < 50; draw++) {
        const delay = reconnectDelay(attempt, reconnect);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    });
  });

  it('stays at the maximum however many attempts failed', () => {
    expect(reconnectDelay(10_000, { initialDelay: 1, maxDelay: 50 })).toBeLessThanOrEqual(50);
  });
});

describe('loadPeer', () => {
  it('says which package to install when the optional peer is missing', async () => {
    await expect(loadPeer(() => import('crud-api-no-such-package' as string), 'no-such', 'aTransport')).rejects.toThrow(
      'aTransport needs the package "no-such": npm install no-such',
    );
  });
});
