import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { jsonPointer } from '../../shared/json-pointer.js';
import { relationOfForeignKey } from '../serialize/resource-members.js';

type ArgumentPath = readonly (string | number)[];

/**
 * The JSON:API pointer of a rule issue of a resource write, from its argument path
 * (`['data', field, ...rest]`): a relation field or a foreign key is its relationship, any other
 * field (a column, a virtual field) its attribute, down to the member the issue names.
 */
export function resourceIssuePointer(model: ModelMeta, path: ArgumentPath): string | undefined {
  const [root, name, ...rest] = path;
  if (root !== 'data') return undefined;
  if (name === undefined) return '/data';
  const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
  const relation = field?.relation ? field : field?.isForeignKey ? relationOfForeignKey(model, field.name) : undefined;
  return relation
    ? jsonPointer(['data', 'relationships', relation.name])
    : jsonPointer(['data', 'attributes', name, ...rest]);
}

/**
 * A rule refusal (`validation-failed`) with each issue's `pointer` from `pointerOf`, unless the
 * parser gave it one (a value of the wrong type); any other error as it is.
 */
export function withIssuePointers(error: unknown, pointerOf: (path: ArgumentPath) => string | undefined): unknown {
  if (!(error instanceof CrudApiError) || error.code !== 'validation-failed' || !error.options.issues) return error;
  const issues = error.options.issues.map((issue) => {
    const pointer = issue.pointer ?? pointerOf(issue.path);
    return pointer === undefined ? issue : { ...issue, pointer };
  });
  return new CrudApiError('validation-failed', error.message, { ...error.options, issues });
}
