import { bodyBytes } from '../../shared/api-response.js';
import type { Stage } from './exchange.js';

/** The last stage: the interface's service answers, its body as the bytes sent. */
export const runService: Stage = async ({ request, run }) => {
  const { status, headers, body } = await run(request);
  return { status, headers, payload: bodyBytes(body) };
};
