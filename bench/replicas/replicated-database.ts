import { createPgCluster, createPgReplica, type PgCluster } from '../../test/support/pg-cluster.js';
import type { TestDatabase } from '../../test/support/test-database.js';
import type { BenchOptions } from '../bench-options.js';
import { createBenchDatabase } from '../dataset/bench-database.js';

/** A PostgreSQL primary of the bench's own, for the scenarios of the `replicas` comparison. */
export interface ReplicatedDatabase {
  primary: PgCluster;
  replicas: PgCluster[];
  /** Each replica's URL of the bench database, space-separated: the servers' `BENCH_REPLICA_URLS`. */
  replicaUrls: string;
  remove(): Promise<void>;
}

/** The bench database on a primary of its own (seed it, then `addReplicas`). */
export async function createPrimaryDatabase(
  options: BenchOptions,
): Promise<{ primary: PgCluster; handle: TestDatabase }> {
  const primary = await createPgCluster();
  try {
    return { primary, handle: await createBenchDatabase({ ...options, db: 'postgres', postgresUrl: primary.url }) };
  } catch (error) {
    await primary.remove();
    throw error;
  }
}

/** Two streaming replicas of the seeded primary (pg_basebackup), and their URLs of its database. */
export async function addReplicas(primary: PgCluster, databaseUrl: string): Promise<ReplicatedDatabase> {
  const replicas = [await createPgReplica(primary), await createPgReplica(primary)];
  const database = new URL(databaseUrl).pathname;
  const replicaUrls = replicas
    .map((replica) => {
      const url = new URL(replica.url);
      url.pathname = database;
      return url.toString();
    })
    .join(' ');
  return {
    primary,
    replicas,
    replicaUrls,
    remove: async () => {
      await Promise.all(replicas.map((replica) => replica.remove()));
      await primary.remove();
    },
  };
}
