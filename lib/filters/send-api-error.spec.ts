import { renderJsonApiError } from '../rest/rest-errors.js';
import { renderRpcError } from '../rpc/rpc-errors.js';

describe('error renderers', () => {
  const policy = {
    status: 403,
    code: 'rejected-by-policy' as const,
    title: 'Rejected by access policy',
    message: 'denied',
    ormCode: 'P2004',
    rejectedByPolicy: true,
    reason: 'ACCESS_POLICY_VIOLATION',
  };

  it('renders a JSON:API error object with a string status and the Prisma code in meta', () => {
    expect(renderJsonApiError(policy)).toEqual({
      errors: [
        {
          status: '403',
          code: 'rejected-by-policy',
          title: 'Rejected by access policy',
          detail: 'denied',
          meta: { reason: 'ACCESS_POLICY_VIOLATION', prismaCode: 'P2004' },
        },
      ],
    });
  });

  it('carries the request URL as top-level links.self when given', () => {
    expect(renderJsonApiError(policy, 'https://api.example.com/api/rest/post/1')).toMatchObject({
      links: { self: 'https://api.example.com/api/rest/post/1' },
    });
  });

  it('renders the RPC error body of the specification', () => {
    expect(renderRpcError(policy)).toEqual({
      error: { message: 'denied', orm: true, code: 'P2004', rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' },
    });
  });

  it('leaves out empty members', () => {
    const plain = {
      status: 400,
      code: 'invalid-request' as const,
      title: 'Invalid request',
      message: 'bad',
      source: { parameter: 'sort' },
    };
    expect(renderJsonApiError(plain)).toEqual({
      errors: [
        {
          status: '400',
          code: 'invalid-request',
          title: 'Invalid request',
          detail: 'bad',
          source: { parameter: 'sort' },
        },
      ],
    });
    expect(renderRpcError(plain)).toEqual({ error: { message: 'bad' } });
  });
});
