import { jest } from '@jest/globals';

import { heartbeat, loadPeer, reconnectDelay } from './transport-connection.js';

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

describe('heartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  async function beats(count: number) {
    for (let i = 0; i < count; i++) await jest.advanceTimersByTimeAsync(100);
  }

  it('pings at each beat and stays quiet while the pings are answered', async () => {
    const ping = jest.fn(() => Promise.resolve());
    const silent = jest.fn();
    const stop = heartbeat(100, ping, silent);
    await beats(5);
    stop();
    await beats(5);
    expect(ping).toHaveBeenCalledTimes(5);
    expect(silent).not.toHaveBeenCalled();
  });

  it('calls silent at the beat after an unanswered ping, then starts over', async () => {
    const ping = jest.fn(() => new Promise<void>(() => undefined));
    const silent = jest.fn();
    const stop = heartbeat(100, ping, silent);
    await beats(4);
    stop();
    expect(ping).toHaveBeenCalledTimes(2);
    expect(silent).toHaveBeenCalledTimes(2);
  });

  it('takes a failed ping for an answer', async () => {
    const silent = jest.fn();
    const stop = heartbeat(100, () => Promise.reject(new Error('connection lost')), silent);
    await beats(4);
    stop();
    expect(silent).not.toHaveBeenCalled();
  });

  it('does nothing when turned off', async () => {
    const ping = jest.fn(() => Promise.resolve());
    heartbeat(false, ping, () => undefined);
    await beats(5);
    expect(ping).not.toHaveBeenCalled();
  });
});
