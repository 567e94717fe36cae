import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { CrudApiLimits } from '../../options/crud-api-options.interface.js';
import type { VisibleFields } from '../visible-fields.js';

/** Included relationships by name, each with the relationships included below it. */
export type IncludeTree = Map<string, IncludeTree>;

function bad(message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter: 'include' } });
}

/** `include=author.profile,comments` as a tree, checked against the model and the limits. */
export function parseInclude(
  fields: VisibleFields,
  model: ModelMeta,
  include: string | undefined,
  limits: Required<CrudApiLimits>,
): IncludeTree {
  const tree: IncludeTree = new Map();
  if (include === undefined || include === '') return tree;
  const paths = include.split(',');
  if (paths.length > limits.maxIncludePaths) throw bad(`At most ${limits.maxIncludePaths} include paths are allowed.`);
  for (const path of paths) {
    const names = path.split('.');
    if (names.length > limits.maxIncludeDepth)
      throw bad(`Include paths are limited to a depth of ${limits.maxIncludeDepth}.`);
    let node = tree;
    let current = model;
    for (const name of names) {
      const field = fields.field(current, name);
      if (!field?.relation) throw bad(`Unknown relationship path ${quoteInput(path)} in include.`);
      current = fields.registry.findByModelName(field.type)!;
      const child = node.get(name) ?? new Map();
      node.set(name, child);
      node = child;
    }
  }
  return tree;
}
