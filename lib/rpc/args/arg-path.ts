import { jsonPointer } from '../../shared/json-pointer.js';

/**
 * Where a value sits in the arguments, as a linked list so that descending costs nothing and the
 * JSON pointer is only rendered for an error.
 */
export interface ArgPath {
  readonly up: ArgPath | undefined;
  readonly key: string | number;
}

export const ROOT: ArgPath | undefined = undefined;

export function child(path: ArgPath | undefined, key: string | number): ArgPath {
  return { up: path, key };
}

/** The keys of a path, from the root. */
export function argKeys(path: ArgPath | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let node = path; node; node = node.up) keys.push(node.key);
  return keys.reverse();
}

/** The RFC 6901 JSON pointer of a path (`/where/author/is/name`). */
export function toPointer(path: ArgPath | undefined): string {
  return jsonPointer(argKeys(path));
}

/** An argument path as a client reads it: keys joined by dots, array indices in brackets (`data.posts.create[0].title`). */
export function formatArgPath(keys: readonly (string | number)[]): string {
  return keys.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key),
    '',
  );
}
