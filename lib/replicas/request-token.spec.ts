import type { IncomingHttpHeaders } from 'node:http';

import { DEFAULT_REPLICAS } from '../options/option-table.js';
import type { ResolvedReplicas } from './replicas.types.js';
import { tokenHeaders, tokenReader } from './request-token.js';

const requestToken = (headers: IncomingHttpHeaders, replicas: ResolvedReplicas) => tokenReader(replicas)(headers);
const settings = (cookie: string | false): ResolvedReplicas => ({ ...DEFAULT_REPLICAS, clients: [], cookie }) as never;

describe('request tokens', () => {
  it('reads the header first, then the cookie when there is one', () => {
    expect(requestToken({ 'consistency-token': '0/10', cookie: 'ct=0/20' }, settings('ct'))).toBe(0x10n);
    expect(requestToken({ cookie: 'a=b; ct=0/20; c=d' }, settings('ct'))).toBe(0x20n);
    expect(requestToken({ cookie: 'ct=0/20' }, settings(false))).toBeUndefined();
    expect(requestToken({}, settings('ct'))).toBeUndefined();
  });

  it('refuses a token that names no position, from the header or the cookie', () => {
    expect(() => requestToken({ 'consistency-token': 'soon' }, settings(false))).toThrow(
      expect.objectContaining({ code: 'invalid-request' }),
    );
    expect(() => requestToken({ cookie: 'ct=' }, settings('ct'))).toThrow(
      expect.objectContaining({ code: 'invalid-request' }),
    );
  });

  it('answers the header, and the cookie when there is one', () => {
    expect(tokenHeaders('0/1', settings(false))).toEqual({ 'Consistency-Token': '0/1' });
    expect(tokenHeaders('0/1', settings('ct'))['Set-Cookie']).toBe('ct=0/1; Path=/; HttpOnly; SameSite=Lax');
  });
});
