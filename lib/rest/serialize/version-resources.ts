import { SCALAR_CODECS } from '../../scalars/scalar-codecs.js';
import { VERSION_TYPE } from '../../shared/history.constants.js';
import type { RowVersion } from '../../shared/row-version.js';
import { JSON_API_VERSION } from '../json-api.constants.js';
import { pickAttributes } from './attributes-builder.js';
import type { PaginationLinks } from './pagination-links.js';
import type { ResourceShape } from './resource-shape.js';

/** One recorded change of a resource, as `GET /:type/:id/history` renders it. */
export interface VersionResource {
  type: typeof VERSION_TYPE;
  /** The version's number, as text. */
  id: string;
  attributes: {
    operation: RowVersion['operation'];
    at: string;
    actor: string | null;
    requestId: string | null;
    changed: string[];
    /** The resource's attributes after the change, as its resource object renders them; null for a delete. */
    data: Record<string, unknown> | null;
  };
  links: { related: string };
}

const formatTime = SCALAR_CODECS.DateTime.format;

/** A version as a resource object: its row's values written as the type's attributes are, `links.related` the resource. */
export function versionResource(shape: ResourceShape, version: RowVersion, related: string): VersionResource {
  const { operation, at, actor, requestId, changed, data } = version;
  return {
    type: VERSION_TYPE,
    id: String(version.version),
    attributes: {
      operation,
      at: formatTime(at) as string,
      actor,
      requestId,
      changed,
      data: data && pickAttributes(shape.attributes, data),
    },
    links: { related },
  };
}

/** The collection document of a resource's versions: `links.related` is the resource, with the page's links. */
export function versionsDocument(
  shape: ResourceShape,
  versions: readonly RowVersion[],
  links: { self: string; related: string } & PaginationLinks,
): object {
  return {
    jsonapi: { version: JSON_API_VERSION },
    links,
    data: versions.map((version) => versionResource(shape, version, links.related)),
  };
}
