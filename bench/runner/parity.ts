import { baselineRequestOf, requestAt, type Scenario } from '../scenarios.js';
import { findDifference, shapeOf } from './compare-documents.js';
import type { SideRequests } from './measure.js';
import type { ServerProcess } from './server-process.js';

export interface Parity {
  /**
   * `identical`: same status and body; `same-shape`: writes whose ids and timestamps differ, or
   * reads whose two sides are sent different requests (asOf and plain) and answer alike in shape;
   * `not-modified`: a conditional GET whose full answers are identical and whose conditional
   * request ours answers 304, without a body, with the same tag.
   */
  verdict: 'identical' | 'same-shape' | 'not-modified' | 'different';
  detail?: string;
}

/** Where a request is sent: a server's origin is all the checks need. */
type Server = Pick<ServerProcess, 'origin'>;

export interface Answer {
  status: number;
  contentType: string;
  etag: string | null;
  /** Parsed JSON, else the text (`''` for no body). */
  body: unknown;
}

/** How many requests of a varied read are compared: different ids, pages and filters, one shape. */
export const PARITY_SAMPLE = 5;

/**
 * Sends the scenario's request once to each server (the baseline its `baselineRequest`, if it has
 * one) and compares the answers (links made port-neutral); of a varied read, its first
 * `PARITY_SAMPLE` requests, each a different value.
 */
export async function checkParity(scenario: Scenario, ours: Server, baseline: Server): Promise<Parity> {
  let parity: Parity = { verdict: 'identical' };
  for (let index = 0; index < (scenario.vary ? PARITY_SAMPLE : 1); index++) {
    const request = requestAt(scenario, index);
    parity = await checkRequest(request, requestAt(baselineRequestOf(scenario), index), ours, baseline);
    if (parity.detail) return scenario.vary ? { ...parity, detail: `${request.path}: ${parity.detail}` } : parity;
  }
  return parity;
}

async function checkRequest(scenario: Scenario, other: Scenario, ours: Server, baseline: Server): Promise<Parity> {
  const a = await ask(scenario, ours);
  const b = await ask(other, baseline);
  if (a.status !== b.status)
    return { verdict: 'different', detail: `status ${a.status} vs ${b.status}: ${preview(a.body)}` };
  if (a.status !== scenario.status)
    return { verdict: 'different', detail: `status ${a.status}, expected ${scenario.status}: ${preview(a.body)}` };
  if (a.contentType !== b.contentType)
    return { verdict: 'different', detail: `content-type ${a.contentType} vs ${b.contentType}` };
  const byShape = scenario.write || other.path !== scenario.path;
  const difference = byShape ? findDifference(shapeOf(a.body), shapeOf(b.body)) : findDifference(a.body, b.body);
  if (difference) return { verdict: 'different', detail: difference };
  return { verdict: byShape ? 'same-shape' : 'identical' };
}

/**
 * A conditional GET (both servers run our module): checks the full answers as `checkParity` does,
 * takes the tag of ours (its REST links name its own port, so its tag is its own), and sends ours
 * the read again with `If-None-Match: <tag>`. Throws unless that answers 304 with no body and the
 * same tag: measured otherwise, the scenario would compare two full answers under the name of a 304.
 */
export async function prepareConditional(
  read: Scenario,
  ours: Server,
  full: Server,
): Promise<{ parity: Parity; requests: SideRequests }> {
  const parity = await checkParity(read, ours, full);
  if (parity.verdict === 'different') throw new Error(`${read.id}: the full answers differ: ${parity.detail}`);
  const tag = (await ask(read, ours)).etag;
  if (!tag) throw new Error(`${read.id}: our full answer has no ETag`);
  const conditional = conditionalRequest(read, tag);
  const difference = notModifiedDifference(await ask(conditional, ours), tag);
  if (difference) throw new Error(`${read.id} with If-None-Match: ${tag}: ${difference}`);
  return { parity: { verdict: 'not-modified' }, requests: { ours: conditional, baseline: read } };
}

/** The read sent with `If-None-Match: <tag>`: a correct answer is 304. */
export function conditionalRequest(read: Scenario, tag: string): Scenario {
  return { ...read, headers: { ...read.headers, 'If-None-Match': tag }, status: 304 };
}

/** What is wrong with an answer to `If-None-Match: <tag>` of the current tag, or undefined for a proper 304. */
export function notModifiedDifference(answer: Answer, tag: string): string | undefined {
  if (answer.status !== 304) return `status ${answer.status}, expected 304: ${preview(answer.body)}`;
  if (answer.body !== '') return `a 304 with a body: ${preview(answer.body)}`;
  if (answer.etag !== tag) return `ETag ${answer.etag ?? 'missing'} on the 304, expected ${tag}`;
  return undefined;
}

async function ask(scenario: Scenario, server: Server): Promise<Answer> {
  const response = await fetch(server.origin + scenario.path, {
    method: scenario.method,
    body: scenario.body,
    headers: { ...scenario.headers, ...(scenario.contentType ? { 'content-type': scenario.contentType } : {}) },
  });
  const text = (await response.text()).replaceAll(server.origin, '{origin}');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    etag: response.headers.get('etag'),
    body,
  };
}

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
