import { type ApiRequest, type PlatformRequest, toApiRequest } from '../shared/api-request.js';
import { type ApiResponse, type PlatformResponse, sendApiResponse } from '../shared/api-response.js';
import { beginRequest, finishRequest, type RequestScope, runInRequest } from './request-telemetry.js';
import { REQUEST_ID_HEADER } from './telemetry.constants.js';

/**
 * Serves one request of a controller: begins it (id, span), runs `run` with its span active and
 * writes the answer with its `X-Request-Id`. A failure is answered by the interface's filter
 * (`sendApiError`), which ends the request there.
 */
export async function serveRequest(
  raw: PlatformRequest,
  response: PlatformResponse,
  scope: RequestScope,
  run: (request: ApiRequest) => Promise<ApiResponse>,
  contentType: string,
): Promise<void> {
  const call = beginRequest(raw, scope);
  const answer = await runInRequest(call, () => run(toApiRequest(raw)));
  sendApiResponse(response, answer, contentType, { [REQUEST_ID_HEADER]: call.id });
  finishRequest(call, answer.status);
}
