/** URL of a resource: `{endpoint}/{type}/{id}`. */
export function resourceUrl(endpoint: string, type: string, id: string | number): string {
  return `${endpoint}/${type}/${urlSegment(id)}`;
}

/** A number needs no escaping; ids are numbers in most schemas and this runs for every resource. */
function urlSegment(id: string | number): string | number {
  return typeof id === 'number' ? id : encodeURIComponent(id);
}

/**
 * Links of a relationship object. A non-empty to-one ends in the related id, as the
 * specification writes them; every other form ends in the relationship name.
 */
export function relationshipLinks(
  selfUrl: string,
  relationship: string,
  relatedId?: string | number,
): { self: string; related: string } {
  const suffix = relatedId === undefined ? '' : `/${urlSegment(relatedId)}`;
  return {
    self: `${selfUrl}/relationships/${relationship}${suffix}`,
    related: `${selfUrl}/${relationship}${suffix}`,
  };
}

/** `links.self` of a response: the request URL below the endpoint, query string kept as sent. */
export function requestUrl(endpoint: string, path: string, search: string): string {
  return `${endpoint}/${path}${search ? `?${search}` : ''}`;
}

/**
 * `links.self` of an error document: the URL of the request that failed, below the endpoint like
 * every other link. `path` is the request path as received (under any global prefix and version).
 * The default `api/rest` may be served as `rest` below a prefix with an `api` segment (`servedPath`).
 */
export function errorSelfUrl(endpoint: string, restPath: string, request: { path: string; query: string }): string {
  const trimmed = restPath.replace(/^\/+|\/+$/g, '');
  const [mount, at] = [trimmed, trimmed.replace(/^api\//, '')]
    .map((path) => [`/${path}`, `${request.path}/`.indexOf(`/${path}/`)] as const)
    .find(([, index]) => index >= 0) ?? ['', -1];
  const below = at < 0 ? request.path : request.path.slice(at + mount.length);
  const path = below.replace(/^\/+/, '');
  return path ? requestUrl(endpoint, path, request.query) : `${endpoint}${request.query ? `?${request.query}` : ''}`;
}
