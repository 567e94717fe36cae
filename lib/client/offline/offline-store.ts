import { createStore, del, get, set } from 'idb-keyval';

/**
 * Where an offline client keeps what must survive a reload or a restart: its queue of writes, its
 * read answers and their tags. Values are JSON text, which every storage takes.
 */
export interface OfflineStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store in one IndexedDB database of the page's origin (browsers, workers): it survives reloads. */
export function indexedDbStore(databaseName = 'nestjs-crud-api', storeName = 'offline'): OfflineStore {
  const store = createStore(databaseName, storeName);
  return {
    get: (key) => get<string>(key, store),
    set: (key, value) => set(key, value, store),
    delete: (key) => del(key, store),
  };
}

/**
 * A store in memory: it survives as long as the object does (tests, a Node process that keeps
 * nothing across restarts). Give another `OfflineStore` (a file, a database) to keep more.
 */
export function memoryStore(): OfflineStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}
