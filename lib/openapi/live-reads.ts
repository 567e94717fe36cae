import { EVENT_STREAM_MEDIA_TYPE } from '../changes/event-stream.js';
import { mapOperations } from './document-security.js';
import type { OpenApiDocument } from './openapi.types.js';

/** What a live query's stream is: the 200's content under `Accept: text/event-stream`. */
const EVENT_STREAM = {
  schema: {
    type: 'string',
    description:
      'Server-Sent Events, asked for with Accept: text/event-stream: each event is the JSON answer above (data) with its ETag (id), first at once, then after every commit that changes it; comments keep the stream open; an `error` event carries the error body, then the stream ends.',
  },
};

/** `Last-Event-ID` of a live query that reconnects. */
const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description:
    'With Accept: text/event-stream, the id (ETag) of the last event the client got: the stream starts without an event while the answer is the same.',
  schema: { type: 'string' },
};

/** The document with each GET's answer also as a live query's event stream (the `live` option). */
export function withLiveReads(document: OpenApiDocument): OpenApiDocument {
  const paths = mapOperations(document.paths, (method, operation) => {
    if (method !== 'get') return operation;
    const responses = (operation.responses ?? {}) as Record<string, { content?: object } | undefined>;
    const ok = responses['200'];
    if (!ok?.content) return operation;
    return {
      ...operation,
      parameters: [...((operation.parameters as unknown[] | undefined) ?? []), LAST_EVENT_ID],
      responses: { ...responses, 200: { ...ok, content: { ...ok.content, [EVENT_STREAM_MEDIA_TYPE]: EVENT_STREAM } } },
    };
  });
  return { ...document, paths };
}
