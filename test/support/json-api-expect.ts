import type { Response } from 'supertest';

/** Asserts a JSON:API error response: status, media type, one error object with code and source. */
export function expectJsonApiError(res: Response, status: number, code: string, source?: Record<string, string>): void {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
    status,
    type: expect.stringMatching(/^application\/vnd\.api\+json/),
  });
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors;
  expect(error).toMatchObject({ status: String(status), code, title: expect.any(String), detail: expect.any(String) });
  if (source) expect(error.source).toEqual(source);
  // JSON:API: top-level links.self (the request URL) is always present.
  expect(res.body.links).toEqual({ self: expect.stringMatching(/^http:\/\/localhost\/api\/rest(\/|\?|$)/) });
  expect(JSON.stringify(res.body)).not.toMatch(/prisma\.|invocation|\bat \S+:\d+|SELECT |node_modules/i);
}
