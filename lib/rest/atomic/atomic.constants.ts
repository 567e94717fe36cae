import { JSON_API_MEDIA_TYPE } from '../json-api.constants.js';

/** The URI of JSON:API 1.1's Atomic Operations extension. */
export const ATOMIC_EXTENSION = 'https://jsonapi.org/ext/atomic';
/** The media type of atomic requests and their answers. */
export const ATOMIC_MEDIA_TYPE = `${JSON_API_MEDIA_TYPE}; ext="${ATOMIC_EXTENSION}"`;
/** The route of atomic requests, relative to the REST mount (the path of the extension's examples). */
export const ATOMIC_ROUTE = 'operations';
