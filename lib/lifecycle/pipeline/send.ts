import { sendApiResponse } from '../../shared/api-response.js';
import { REQUEST_ID_HEADER } from '../../telemetry/telemetry.constants.js';
import type { Stage } from './exchange.js';

/** Writes the answer of the stages after it, with the request's id, to the platform's response. */
export const send: Stage = async ({ response, contentType, call }, next) => {
  const sent = await next();
  sendApiResponse(response, sent, contentType, { [REQUEST_ID_HEADER]: call!.id }, sent.payload);
  return sent;
};
