import { createStore, del, get, set, update } from 'idb-keyval';

/**
 * Where an offline client keeps what must survive a reload or a restart: its queue of writes, its
 * read answers and their tags. Values are JSON text, which every storage takes.
 */
export interface OfflineStore {
  /**
   * Names the data: clients over stores of one name share it (the tabs of an origin share an
   * IndexedDB database), and their queues take turns sending and tell each other what they did.
   */
  readonly name?: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Changes a value with nothing else changing it in between (another tab neither); answers the new value. */
  update(key: string, change: (value: string | undefined) => string): Promise<string>;
}

/** A store in one IndexedDB database of the page's origin (browsers, workers): it survives reloads. */
export function indexedDbStore(databaseName = 'nestjs-crud-api', storeName = 'offline'): OfflineStore {
  const store = createStore(databaseName, storeName);
  return {
    name: `indexeddb:${databaseName}/${storeName}`,
    get: (key) => get<string>(key, store),
    set: (key, value) => set(key, value, store),
    delete: (key) => del(key, store),
    // One readwrite transaction: IndexedDB lets no other tab's write in between.
    update: async (key, change) => {
      let changed = '';
      await update<string>(key, (value) => (changed = change(value)), store);
      return changed;
    },
  };
}

/**
 * A store in memory: it survives as long as the object does (tests, a Node process that keeps
 * nothing across restarts). Give another `OfflineStore` (a file, a database) to keep more.
 */
export function memoryStore(): OfflineStore {
  const values = new Map<string, string>();
  return {
    name: `memory:${Math.random().toString(36).slice(2)}`,
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
    update: async (key, change) => {
      const changed = change(values.get(key));
      values.set(key, changed);
      return changed;
    },
  };
}
