export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';
export const JSON_API_VERSION = '1.1';
