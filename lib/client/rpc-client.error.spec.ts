import { toRpcClientError } from './rpc-client.error.js';

describe('RpcClientError codes', () => {
  it('has the module’s code for a refusal the module raised itself', () => {
    const refused = toRpcClientError(
      403,
      JSON.stringify({ error: { message: 'No.', errorCode: 'rejected-by-policy', rejectedByPolicy: true } }),
    );
    expect([refused.code, refused.errorCode, refused.rejectedByPolicy]).toEqual([
      'rejected-by-policy',
      'rejected-by-policy',
      true,
    ]);
  });

  it('keeps Prisma’s code in code when Prisma raised the error', () => {
    const missing = toRpcClientError(
      404,
      JSON.stringify({ error: { message: 'Gone.', errorCode: 'not-found', orm: true, code: 'P2025' } }),
    );
    expect([missing.code, missing.errorCode]).toEqual(['P2025', 'not-found']);
  });

  it('has no code for an answer that is not the module’s', () => {
    const proxy = toRpcClientError(502, '<html>Bad gateway</html>');
    expect([proxy.code, proxy.errorCode]).toEqual([undefined, undefined]);
  });
});
