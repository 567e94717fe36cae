import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { isObject } from '../write/document-members.js';

type Json = Record<string, unknown>;

function invalid(message: string, pointer: string): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}

/**
 * The local ids (`lid`) of one atomic request: each `add` may name its new resource with a `lid`,
 * which later operations use instead of the id the server assigned.
 */
export class LocalIds {
  private readonly ids = new Map<string, { type: string; id: string | number }>();

  /** Records the id of the resource an `add` created under its `lid`. */
  assign(lid: string, type: string, id: string | number, pointer: string): void {
    if (this.ids.has(lid)) throw invalid(`The lid ${quoteInput(lid)} is already taken in this request.`, pointer);
    this.ids.set(lid, { type, id });
  }

  /**
   * An identifier (`{ type, lid }` → `{ type, id }`) with its `lid` replaced by the id it stands for;
   * anything else as it is, for its reader to judge. A lid must name an earlier `add` of that type.
   */
  resolve(identifier: unknown, pointer: string): unknown {
    if (!isObject(identifier) || identifier.lid === undefined) return identifier;
    const { lid, ...rest } = identifier;
    if (typeof lid !== 'string') throw invalid('"lid" must be a string.', `${pointer}/lid`);
    if (rest.id !== undefined) throw invalid('An identifier has "id" or "lid", not both.', pointer);
    const known = this.ids.get(lid);
    if (!known || known.type !== rest.type)
      throw invalid(
        `The lid ${quoteInput(lid)} names no resource of this type added earlier in this request.`,
        `${pointer}/lid`,
      );
    return { ...rest, id: known.id };
  }

  /** Relationship linkage (an identifier, `null` or a list) with every lid resolved. */
  resolveLinkage(linkage: unknown, pointer: string): unknown {
    return Array.isArray(linkage)
      ? linkage.map((item, index) => this.resolve(item, `${pointer}/${index}`))
      : this.resolve(linkage, pointer);
  }

  /** A resource object whose own `lid` (update) and relationship linkage are resolved; an `add` keeps its `lid`. */
  resolveResource(resource: unknown, keepOwnLid: boolean): unknown {
    if (!isObject(resource)) return resource;
    const own: Json = keepOwnLid ? resource : (this.resolve(resource, '/data') as Json);
    if (!isObject(own.relationships)) return own;
    const relationships = Object.fromEntries(
      Object.entries(own.relationships).map(([name, value]) => [
        name,
        isObject(value) && 'data' in value
          ? { ...value, data: this.resolveLinkage(value.data, `/data/relationships/${name}/data`) }
          : value,
      ]),
    );
    return { ...own, relationships };
  }
}
