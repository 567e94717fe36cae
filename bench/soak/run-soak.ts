import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { BenchOptions } from '../bench-options.js';
import { createBenchDatabase } from '../dataset/bench-database.js';
import { DEFAULT_DATASET, seedDataset } from '../dataset/seed-dataset.js';
import { ServerProcess } from '../runner/server-process.js';
import type { ServerMemory } from '../server/server-protocol.js';
import { HttpClient } from './http-client.js';
import { isExpectedStatus, pickOperation } from './soak-operations.js';
import {
  countByOperation,
  formatSoakReport,
  type MemorySample,
  type SoakReport,
  type SoakSample,
  summarizeIntervals,
} from './soak-report.js';
import { verifyWrites, WriteLedger } from './write-ledger.js';

// `npm run bench -- --soak`: one server of ours under a mixed read/write load on both interfaces,
// `connections` clients in a closed loop (as fast as it answers), then every acknowledged write
// looked up in the database.

const log = (message: string) => process.stderr.write(`[soak] ${message}\n`);

/** Unmeasured load first: JIT tiers, pools and caches settle before the start RSS is taken. */
const WARM_UP_SECONDS = 15;
const ERROR_SAMPLES = 10;
const LOOKUP_CHUNK = 500;

interface LoadState {
  ledger: WriteLedger;
  samples: SoakSample[];
  errorSamples: string[];
  /** Samples are kept from this time on (performance.now() milliseconds). */
  measuredFrom: number;
  /** Per client, its own posts: each is written by one client only, so its last acknowledged write is well defined. */
  ownPosts: number[][];
  /** Makes every written title unique. */
  writes: number;
}

export async function runSoak(options: BenchOptions): Promise<SoakReport> {
  const handle = await createBenchDatabase(options);
  try {
    log(`${options.db}: seeding ${DEFAULT_DATASET.posts} posts`);
    await seedDataset(handle, DEFAULT_DATASET);
    const server = await ServerProcess.start(
      { side: 'ours', scenario: 'soak', databaseUrl: handle.url },
      { exposeGc: true },
    );
    const client = new HttpClient(server.origin, options.connections);
    const state: LoadState = {
      ledger: new WriteLedger(),
      samples: [],
      errorSamples: [],
      measuredFrom: Number.POSITIVE_INFINITY,
      ownPosts: Array.from({ length: options.connections }, () => []),
      writes: 0,
    };
    let memory: { start: MemorySample; end: MemorySample; peakRssMb: number };
    let durationSeconds: number;
    try {
      log(`warming up for ${WARM_UP_SECONDS} s`);
      await runClients(client, state, options.connections, performance.now() + WARM_UP_SECONDS * 1000);
      const start = toSample(await server.memory(), 0);
      state.measuredFrom = performance.now();
      log(
        `measuring for ${options.soakDuration} s at ${options.connections} connections (RSS after warm-up ${start.rssMb.toFixed(0)} MB)`,
      );
      await runClients(client, state, options.connections, state.measuredFrom + options.soakDuration * 1000);
      durationSeconds = (performance.now() - state.measuredFrom) / 1000;
      const end = toSample(await server.memory(), durationSeconds * 1000);
      memory = { start, end, peakRssMb: (await server.stats()).peakRss / 2 ** 20 };
    } finally {
      client.close();
      await server.stop();
    }
    log('verifying acknowledged writes in the database');
    const writes = verifyWrites(state.ledger, await lookUpPosts(handle.prisma, state.ledger.ids()));
    const report: SoakReport = {
      durationSeconds,
      connections: options.connections,
      requests: state.samples.length,
      requestsPerSecond: state.samples.length / durationSeconds,
      errors: state.samples.filter((sample) => !sample.ok).length,
      operations: countByOperation(state.samples),
      intervals: summarizeIntervals(state.samples),
      memory,
      writes,
      errorSamples: state.errorSamples,
    };
    await writeReport(report, options);
    return report;
  } finally {
    await handle.drop();
  }
}

function toSample(memory: ServerMemory, at: number): MemorySample {
  return { at, rssMb: memory.rss / 2 ** 20, heapUsedMb: memory.heapUsed / 2 ** 20 };
}

/** `connections` clients, each in a loop until `until`, each writing only its own posts. */
async function runClients(client: HttpClient, state: LoadState, connections: number, until: number): Promise<void> {
  await Promise.all(Array.from({ length: connections }, (_, worker) => clientLoop(client, state, worker, until)));
}

async function clientLoop(client: HttpClient, state: LoadState, worker: number, until: number): Promise<void> {
  const own = state.ownPosts[worker]!;
  while (performance.now() < until) {
    let operation = pickOperation(Math.random());
    if ((operation.kind === 'update' || operation.kind === 'delete') && own.length === 0)
      operation = pickOperation(0.5);
    const ownIndex = Math.floor(Math.random() * own.length);
    const input = {
      seededPost: 1 + Math.floor(Math.random() * DEFAULT_DATASET.posts),
      ownPost: own[ownIndex] ?? 0,
      title: `soak ${worker}-${++state.writes}`,
      user: 1 + Math.floor(Math.random() * DEFAULT_DATASET.users),
    };
    const { method, path: url, body, contentType } = operation.request(input);
    const started = performance.now();
    let ok = false;
    let detail = '';
    try {
      const answer = await client.request(method, url, body, contentType);
      ok = isExpectedStatus(operation, answer.status);
      if (!ok) detail = `${answer.status} ${answer.body.slice(0, 300)}`;
      else recordWrite(state.ledger, operation.kind, input, own, ownIndex, operation.createdId?.(answer.body));
    } catch (error) {
      detail = (error as Error).message;
    }
    if (!ok && operation.kind !== 'read' && operation.kind !== 'create') {
      state.ledger.forget(input.ownPost);
      own.splice(ownIndex, 1);
    }
    if (!ok && state.errorSamples.length < ERROR_SAMPLES)
      state.errorSamples.push(`${operation.name} ${method} ${url}: ${detail}`);
    if (started >= state.measuredFrom) {
      state.samples.push({
        at: started - state.measuredFrom,
        latencyMs: performance.now() - started,
        operation: operation.name,
        ok,
      });
    }
  }
}

function recordWrite(
  ledger: WriteLedger,
  kind: string,
  input: { ownPost: number; title: string },
  own: number[],
  ownIndex: number,
  createdId?: number,
): void {
  if (kind === 'create' && createdId !== undefined) {
    ledger.created(createdId, input.title);
    own.push(createdId);
  } else if (kind === 'update') {
    ledger.updated(input.ownPost, input.title);
  } else if (kind === 'delete') {
    ledger.removed(input.ownPost);
    own.splice(ownIndex, 1);
  }
}

type PostLookup = { post: { findMany(args: unknown): Promise<{ id: number; title: string }[]> } };

async function lookUpPosts(prisma: unknown, ids: number[]): Promise<{ id: number; title: string }[]> {
  const found: { id: number; title: string }[] = [];
  for (let from = 0; from < ids.length; from += LOOKUP_CHUNK) {
    const chunk = ids.slice(from, from + LOOKUP_CHUNK);
    found.push(
      ...(await (prisma as PostLookup).post.findMany({
        where: { id: { in: chunk } },
        select: { id: true, title: true },
      })),
    );
  }
  return found;
}

async function writeReport(report: SoakReport, options: BenchOptions): Promise<void> {
  const file = path.join(options.out, `soak-${options.db}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await mkdir(options.out, { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n## Soak: ${options.db}\n\n${formatSoakReport(report)}`);
  if (report.errorSamples.length > 0)
    console.log(`\nFirst errors:\n${report.errorSamples.map((line) => `- ${line}`).join('\n')}`);
  console.log(`\nResults: ${file}`);
}
