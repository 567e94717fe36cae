import { renderJsonApiError } from '../rest/rest-errors.js';
import { renderRpcError } from '../rpc/rpc-errors.js';
import { RuleError, validationFailed } from '../rules/rule.error.js';
import { describeError } from './error-description.js';
import { mergePrismaErrorMap } from './prisma-error-map.js';

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
      error: {
        message: 'denied',
        errorCode: 'rejected-by-policy',
        orm: true,
        code: 'P2004',
        rejectedByPolicy: true,
        reason: 'ACCESS_POLICY_VIOLATION',
      },
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
    expect(renderRpcError(plain)).toEqual({ error: { message: 'bad', errorCode: 'invalid-request' } });
  });

  describe('a rule refusal (validation-failed) with issues', () => {
    const refusal = {
      status: 400,
      code: 'validation-failed' as const,
      title: 'Validation failed',
      message: '2 validation issues',
      issues: [
        { path: ['data', 'email'], message: 'Not an email', code: 'invalid_format', pointer: '/data/attributes/email' },
        { path: ['data', 'posts', 'create', 0, 'title'], message: 'Too short', code: 'too_small' },
      ],
    };
    const object = (detail: string, issue: string, pointer?: string) => ({
      status: '400',
      code: 'validation-failed',
      title: 'Validation failed',
      detail,
      ...(pointer ? { source: { pointer } } : {}),
      meta: { issue },
    });

    it('carries the issues of a rule refusal from the error to its description', () => {
      const error = validationFailed(refusal.issues);
      expect(describeError(error, mergePrismaErrorMap())).toEqual(refusal);
      expect(describeError(new RuleError('No'), mergePrismaErrorMap()).issues).toEqual([
        { path: [], message: 'No', code: 'invalid' },
      ]);
    });

    it('renders one JSON:API error object per issue, at its pointer', () => {
      expect(renderJsonApiError(refusal)).toEqual({
        errors: [object('Not an email', 'invalid_format', '/data/attributes/email'), object('Too short', 'too_small')],
      });
    });

    it('points into the failing operation of an atomic request', () => {
      expect(renderJsonApiError({ ...refusal, index: 2 })).toEqual({
        errors: [
          object('Not an email', 'invalid_format', '/atomic:operations/2/data/attributes/email'),
          object('Too short', 'too_small', '/atomic:operations/2'),
        ],
      });
    });

    it('lists the issues in the RPC body with their argument paths', () => {
      expect(renderRpcError({ ...refusal, index: 1 })).toEqual({
        error: {
          message: '2 validation issues',
          errorCode: 'validation-failed',
          meta: { index: 1 },
          issues: [
            { path: 'data.email', message: 'Not an email', code: 'invalid_format' },
            { path: 'data.posts.create[0].title', message: 'Too short', code: 'too_small' },
          ],
        },
      });
    });
  });
});
