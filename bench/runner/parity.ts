import type { Scenario } from '../scenarios.js';
import { findDifference, shapeOf } from './compare-documents.js';
import type { ServerProcess } from './server-process.js';

export interface Parity {
  /** `identical`: same status and body; `same-shape`: writes whose ids and timestamps differ. */
  verdict: 'identical' | 'same-shape' | 'different';
  detail?: string;
}

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

/** Sends the scenario's request once to each server and compares the answers (links made port-neutral). */
export async function checkParity(scenario: Scenario, ours: ServerProcess, baseline: ServerProcess): Promise<Parity> {
  const a = await ask(scenario, ours);
  const b = await ask(scenario, baseline);
  if (a.status !== b.status)
    return { verdict: 'different', detail: `status ${a.status} vs ${b.status}: ${preview(a.body)}` };
  if (a.status !== scenario.status)
    return { verdict: 'different', detail: `status ${a.status}, expected ${scenario.status}: ${preview(a.body)}` };
  if (a.contentType !== b.contentType)
    return { verdict: 'different', detail: `content-type ${a.contentType} vs ${b.contentType}` };
  const difference = scenario.write ? findDifference(shapeOf(a.body), shapeOf(b.body)) : findDifference(a.body, b.body);
  if (difference) return { verdict: 'different', detail: difference };
  return { verdict: scenario.write ? 'same-shape' : 'identical' };
}

async function ask(scenario: Scenario, server: ServerProcess): Promise<Answer> {
  const response = await fetch(server.origin + scenario.path, {
    method: scenario.method,
    body: scenario.body,
    headers: scenario.contentType ? { 'content-type': scenario.contentType } : {},
  });
  const text = (await response.text()).replaceAll(server.origin, '{origin}');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body };
}

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
