/**
 * `npm run bench -- --no-db`: a Prisma client whose model operations answer from memory. The first
 * call of each model operation (`post.findMany`) goes to the real client and its result is kept;
 * every later call answers that result at once, without the database (writes are not repeated).
 * Both servers of a scenario then measure only their own code, Nest and HTTP: what the generic
 * layer costs, without the database's time and its noise.
 */

type Operation = (args?: unknown) => Promise<unknown>;
type Delegate = Record<string, Operation>;
type Client = Record<string | symbol, unknown>;

/** Arrays come back as copies: a caller may trim the page it was given (`rows.pop()`). */
function answer(result: unknown): Promise<unknown> {
  return Promise.resolve(Array.isArray(result) ? result.slice() : result);
}

/**
 * The replaying client over `real`. `onAnswer` runs once per operation answered (recorded or
 * replayed), so the server's statements-per-request count reads as it would against the database.
 * `$transaction` runs its steps on the replaying client: an array of answers in order, or the callback with this client.
 */
export function replayingClient<T extends object>(real: T, onAnswer: () => void): T {
  const recorded = new Map<string, unknown>();
  const delegates = new Map<string, Delegate>();
  const source = real as unknown as Client;

  const operation =
    (model: string, name: string): Operation =>
    async (args) => {
      const key = `${model}.${name}`;
      onAnswer();
      if (recorded.has(key)) return answer(recorded.get(key));
      const result = await (source[model] as Delegate)[name]!(args);
      recorded.set(key, result);
      return answer(result);
    };

  const delegate = (model: string): Delegate => {
    let found = delegates.get(model);
    if (!found) {
      const operations = new Map<string, Operation>();
      found = new Proxy({} as Delegate, {
        get: (_, name) => {
          if (typeof name !== 'string') return undefined;
          if (!operations.has(name)) operations.set(name, operation(model, name));
          return operations.get(name);
        },
      });
      delegates.set(model, found);
    }
    return found;
  };

  const client: Client = new Proxy(source, {
    get: (target, name) => {
      if (name === '$transaction') {
        return (steps: Promise<unknown>[] | ((tx: Client) => Promise<unknown>)) =>
          Array.isArray(steps) ? Promise.all(steps) : steps(client);
      }
      if (
        typeof name === 'string' &&
        !name.startsWith('$') &&
        !name.startsWith('_') &&
        typeof target[name] === 'object' &&
        target[name] !== null
      ) {
        return delegate(name);
      }
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return client as unknown as T;
}
