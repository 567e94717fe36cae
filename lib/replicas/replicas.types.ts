import type { PrismaClientLike } from '../prisma/prisma-client-like.js';

/**
 * The `replicas` option (PostgreSQL streaming replicas, docs/replicas.md): reads of both
 * interfaces go to the replicas, and a caller never reads a state older than its own acknowledged
 * writes, whose answers carry a consistency token.
 */
export interface CrudApiReplicas {
  /** A Prisma client for each replica server (the `prisma` option's is the primary's). */
  clients: PrismaClientLike[];
  /** How stale a read without a token may be, in ms: older replicas serve none. */
  maxLag?: number;
  /**
   * What a read with a token does when no replica has replayed it yet: `wait` up to `maxWait` ms
   * for one, then read the primary; `primary` reads the primary at once.
   */
  behind?: 'wait' | 'primary';
  maxWait?: number;
  /** Longest wait for a replica's answer to a read, in ms; then the read runs on the primary. */
  readTimeout?: number;
  /** How often each server's position is read, in ms. */
  pollInterval?: number;
  /** The request and response header that carries the token. */
  header?: string;
  /** A cookie that carries it too, set on the answers of writes; `false`: none. */
  cookie?: string | false;
}

export type ResolvedReplicas = Required<CrudApiReplicas>;
