import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client';
import { SuperJSON } from 'superjson';

import { type DecimalConstructor, registerPrismaTypes } from '../../rpc/prisma-superjson-types.js';
import type { OfflineStore } from '../offline/offline-store.js';

/** The store's key of the persisted queries. */
const QUERIES_KEY = 'queries';

/**
 * A TanStack Query persister keeping the hooks' cached reads in an offline store (docs/offline.md),
 * for `PersistQueryClientProvider`: Dates, BigInts, Decimals and Bytes come back as they were read.
 */
export function rpcPersister(store: OfflineStore, options: { decimal?: DecimalConstructor } = {}): Persister {
  const serializer = registerPrismaTypes(new SuperJSON(), options.decimal ?? null);
  return {
    persistClient: (client) => store.set(QUERIES_KEY, serializer.stringify(client)),
    restoreClient: async () => {
      const text = await store.get(QUERIES_KEY);
      return text === undefined ? undefined : serializer.parse<PersistedClient>(text);
    },
    removeClient: () => store.delete(QUERIES_KEY),
  };
}
