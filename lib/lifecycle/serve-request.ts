import { type ApiRequest, type PlatformRequest, toApiRequest } from '../shared/api-request.js';
import { type ApiResponse, type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import {
  beginRequest,
  finishRequest,
  keepCallForFilter,
  type RequestScope,
  runInRequest,
} from '../telemetry/request-telemetry.js';
import { REQUEST_ID_HEADER } from '../telemetry/telemetry.constants.js';
import type { RequestDrain } from './request-drain.js';

/**
 * Serves one request of a controller: admits it (`RequestDrain`), begins it (id, span), runs
 * `run` with its span active and writes the answer with its `X-Request-Id`. A failure is answered
 * by the interface's filter (`sendApiError`), which finds the request's call and ends it there.
 */
export async function serveRequest(
  drain: RequestDrain,
  raw: PlatformRequest,
  response: PlatformResponse,
  scope: RequestScope,
  run: (request: ApiRequest) => Promise<ApiResponse>,
  contentType: string,
): Promise<void> {
  const admitted = drain.admit(response);
  const call = beginRequest(raw, scope);
  try {
    const answer = await runInRequest(call, () => run(toApiRequest(raw)));
    sendApiResponse(response, answer, contentType, { [REQUEST_ID_HEADER]: call.id });
    finishRequest(call, answer.status);
  } catch (error) {
    keepCallForFilter(raw, call);
    throw error;
  } finally {
    drain.release(admitted);
  }
}
