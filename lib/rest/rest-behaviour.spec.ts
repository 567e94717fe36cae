import type { ApiRequest } from '../shared/api-request.js';
import { preferredReturn } from './rest-behaviour.js';

const written = { status: 201, headers: { Location: '/posts/1', ETag: '"t"' }, payload: Buffer.from('{}') };
const preferring = (prefer?: string) => ({ headers: prefer === undefined ? {} : { prefer } }) as ApiRequest;

describe('preferredReturn', () => {
  it('answers return=minimal with 204, no body, its Location and ETag kept', () => {
    expect(preferredReturn(written, preferring('respond-async, return=minimal'))).toEqual({
      status: 204,
      headers: { Location: '/posts/1', ETag: '"t"', 'Preference-Applied': 'return=minimal' },
    });
  });

  it('confirms return=representation on the answer as it is', () => {
    expect(preferredReturn(written, preferring('return="Representation"'))).toEqual({
      ...written,
      headers: { ...written.headers, 'Preference-Applied': 'return=representation' },
    });
  });

  it('leaves the answer as it is without a return preference, or with one it does not know', () => {
    expect(preferredReturn(written, preferring())).toEqual(written);
    expect(preferredReturn(written, preferring('return=headers-only'))).toEqual(written);
  });
});
