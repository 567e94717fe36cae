import { CONSISTENCY_TOKEN_HEADER } from '../../lib/shared/consistency-token.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import type { BenchOptions } from '../bench-options.js';
import { DEFAULT_DATASET } from '../dataset/seed-dataset.js';
import { ServerProcess } from '../runner/server-process.js';

const JSON_API = 'application/vnd.api+json';
/** Callers at once, each sending its requests one after the other. */
const CALLERS = 40;
const WRITE_SHARE = 0.2;

/** Where a mixed load's reads went (`replicas` scenarios, docs/performance.md#read-replicas). */
export interface MixedLoadResult {
  callers: number;
  seconds: number;
  reads: number;
  writes: number;
  errors: number;
  /** Shares of the reads: served by a replica (after waiting for it to replay the token), sent to the primary for a token, for lag. */
  replicaShare: number;
  waitedShare: number;
  primaryForTokenShare: number;
  primaryForLagShare: number;
  /** Reads that failed on a replica and ran again on the primary. */
  retriedOnPrimary: number;
}

/**
 * `CALLERS` callers on one server of ours with replicas, for `options.duration * rounds` seconds:
 * each renames its own post (a fifth of its requests) and reads posts at random, sending back the
 * token of its last write as the typed client does. Then the server's counts of where reads went.
 */
export async function measureMixedLoad(databaseUrl: string, scenario: string, options: BenchOptions) {
  const server = await ServerProcess.start({ side: 'ours', scenario, databaseUrl, platform: options.platform });
  const random = seededRandom(46);
  const seconds = Math.max(10, options.duration * options.rounds);
  const until = Date.now() + seconds * 1000;
  const totals = { reads: 0, writes: 0, errors: 0 };
  const caller = async (index: number) => {
    const postId = index + 1;
    let token: string | undefined;
    for (let n = 0; Date.now() < until; n++) {
      const writes = random.next() < WRITE_SHARE;
      const headers: Record<string, string> = token ? { [CONSISTENCY_TOKEN_HEADER]: token } : {};
      const res = writes
        ? await fetch(`${server.origin}/api/rest/post/${postId}`, {
            method: 'PATCH',
            headers: { ...headers, 'content-type': JSON_API },
            body: JSON.stringify({
              data: { type: 'post', id: String(postId), attributes: { title: `${index} ${n}` } },
            }),
          })
        : await fetch(`${server.origin}/api/rest/post/${1 + random.int(DEFAULT_DATASET.posts)}`, { headers });
      await res.arrayBuffer();
      if (!res.ok) totals.errors++;
      if (writes) {
        totals.writes++;
        token = res.headers.get(CONSISTENCY_TOKEN_HEADER) ?? token;
      } else totals.reads++;
    }
  };
  try {
    await Promise.all(Array.from({ length: CALLERS }, (_unused, index) => caller(index)));
    const counts = (await server.stats()).replicas!;
    const reads = counts.replica + counts.primaryForToken + counts.primaryForLag;
    return {
      callers: CALLERS,
      seconds,
      ...totals,
      replicaShare: counts.replica / reads,
      waitedShare: counts.waited / reads,
      primaryForTokenShare: counts.primaryForToken / reads,
      primaryForLagShare: counts.primaryForLag / reads,
      retriedOnPrimary: counts.retriedOnPrimary,
    } satisfies MixedLoadResult;
  } finally {
    await server.stop();
  }
}
