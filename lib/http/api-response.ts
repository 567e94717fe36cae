import type { Response } from 'express';

/** What a service returns to its controller: status, headers and an already-shaped body. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function sendApiResponse(res: Response, response: ApiResponse, contentType: string): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  if (response.body === undefined) {
    res.end();
    return;
  }
  // A Buffer keeps Express from appending `charset=utf-8`: JSON:API forbids media type parameters
  // other than `ext` and `profile`, and JSON is UTF-8 by definition.
  res.type(contentType).send(Buffer.from(JSON.stringify(response.body)));
}
