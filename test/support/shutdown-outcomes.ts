import http from 'node:http';

/** One write a client sent while an application shut down, and how it ended: an answer, or no connection. */
export interface ShutdownOutcome {
  kind: string;
  /** What it creates, to find in the database afterwards. */
  names: string[];
  sentAfterSignal: boolean;
  status?: number;
  code?: string;
  retryAfter?: string | null;
  connection?: string | null;
  networkError?: string;
}

/** A write request: its path, media type and body. */
export interface WriteRequest {
  path: string;
  type: string;
  body: unknown;
  headers?: Record<string, string>;
}

/** Sends `write` to the application at `url` and fills `outcome` in with how it ended. */
export async function sendWrite(url: string, write: WriteRequest, outcome: ShutdownOutcome): Promise<ShutdownOutcome> {
  try {
    const res = await fetch(`${url}${write.path}`, {
      method: 'POST',
      headers: { 'content-type': write.type, accept: write.type, ...write.headers },
      body: JSON.stringify(write.body),
    });
    recordAnswer(outcome, res.status, await res.text(), (name) => res.headers.get(name));
  } catch (error) {
    outcome.networkError = String((error as Error).cause ?? error);
  }
  return outcome;
}

/**
 * Sends `write` through `agent` (Node's own client: a keep-alive agent reuses its idle connection,
 * as a service's HTTP client does) and fills `outcome` in with how it ended.
 */
export function sendWriteThrough(
  agent: http.Agent,
  url: string,
  write: WriteRequest,
  outcome: ShutdownOutcome,
): Promise<ShutdownOutcome> {
  return new Promise((resolve) => {
    const headers = { 'content-type': write.type, accept: write.type, ...write.headers };
    const request = http.request(`${url}${write.path}`, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        recordAnswer(outcome, res.statusCode!, text, (name) => [res.headers[name] ?? null].flat()[0]!);
        resolve(outcome);
      });
    });
    request.on('error', (error) => {
      outcome.networkError = String(error);
      resolve(outcome);
    });
    request.end(JSON.stringify(write.body));
  });
}

function recordAnswer(
  outcome: ShutdownOutcome,
  status: number,
  text: string,
  header: (name: string) => string | null,
): void {
  const ok = status >= 200 && status < 300;
  Object.assign(outcome, {
    status,
    code: ok ? undefined : (JSON.parse(text).errors?.[0]?.code ?? JSON.parse(text).error?.errorCode),
    retryAfter: header('retry-after'),
    connection: header('connection'),
  });
}

/**
 * What a graceful shutdown may answer: the write's normal status (`normalStatus` of its kind);
 * after the signal only, no connection (the server closed) or 503 `shutting-down` with
 * `Retry-After` and `Connection: close` (or Fastify's own bare 503 once Nest closes the server).
 * Whether a late request reaches the server while it drains depends on the machine's load.
 */
export function expectGracefulOutcomes(
  outcomes: readonly ShutdownOutcome[],
  normalStatus: (kind: string) => number,
): void {
  for (const outcome of outcomes) {
    if (outcome.networkError) {
      expect(outcome.sentAfterSignal).toBe(true);
    } else if (outcome.status === 503 && outcome.retryAfter === null) {
      expect([outcome.sentAfterSignal, outcome.connection]).toEqual([true, 'close']);
    } else {
      expectAnswered(outcome, normalStatus);
    }
  }
}

/** An answer, no reset: the write's normal status, or 503 `shutting-down` with `Retry-After` and `Connection: close`. */
export function expectAnswered(outcome: ShutdownOutcome, normalStatus: (kind: string) => number): void {
  if (outcome.status === 503) {
    expect([outcome.code, outcome.retryAfter, outcome.connection]).toEqual(['shutting-down', '1', 'close']);
  } else {
    const { kind, status, networkError } = outcome;
    expect({ kind, status, networkError }).toEqual({ kind, status: normalStatus(kind), networkError: undefined });
  }
}

/** The names of the writes the application acknowledged (answered 2xx). */
export const acknowledgedNames = (outcomes: readonly ShutdownOutcome[]): string[] =>
  outcomes.filter((o) => o.status !== undefined && o.status < 300).flatMap((o) => o.names);
