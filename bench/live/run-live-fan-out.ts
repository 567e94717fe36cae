import { mkdir, writeFile } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import path from 'node:path';

import type { BenchOptions } from '../bench-options.js';
import { createBenchDatabase } from '../dataset/bench-database.js';
import { DEFAULT_DATASET, seedDataset } from '../dataset/seed-dataset.js';
import { ServerProcess } from '../runner/server-process.js';
import { CALLER_HEADERS, EDITOR_ID, LIVE_ACROSS, LIVE_FAN_OUT, LIVE_POLICIES } from './live-fan-out-options.js';

// `npm run bench -- --live-fan-out`: `subscribers` live queries on one server of ours, then writes
// one at a time; for each, how long until every subscriber got its new answer, and the server CPU
// the write and its fan-out took. Twice: all subscribers on one query (one shared re-run), then
// each on a query of its own (one re-run each), which gives the cost of a re-run; on PostgreSQL a
// third time with the writes on a second instance (the PostgreSQL change transport between them).
// Then the measurement of issue 46 (`measurePolicies`): every subscriber its own caller through
// policies, each write changing the answer of 1% of them.

const log = (message: string) => process.stderr.write(`[live] ${message}\n`);

const WRITES = 10;
/** The seeded author of the posts written. */
const AUTHOR_ID = 1;
const DELIVERY_TIMEOUT_MS = 30_000;

/** One live query's connection, counting the result events it read. */
interface Subscriber {
  events: number;
  /** When each result event arrived (performance.now()). */
  arrivals: number[];
  response: IncomingMessage;
}

interface FanOutRow {
  /** One query for all, one query each, or one query for all on another instance than the writes. */
  mode: 'shared' | 'distinct' | 'across';
  subscribers: number;
  writes: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** CPU of the subscribers' server per write (the write's own request included unless `across`). */
  cpuMsPerWrite: number;
}

/** Every subscriber its own caller (a user and a session of its own), each write concerning 1% of them. */
export interface PoliciesRow {
  subscribers: number;
  writes: number;
  /** Subscribers whose answer each write changes (their users' drafts were written). */
  concernedPerWrite: number;
  /** From sending the write until each concerned subscriber got its new answer. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Events the other subscribers received after the writes: 0 when nobody unconcerned is sent anything. */
  unconcernedEvents: number;
  /** Server CPU per write, from the write until the server is idle again (re-runs of the unconcerned included). */
  cpuMsPerWrite: number;
  /**
   * The server's CPU while nothing is written, per second: the streams' heartbeats (every
   * `live.heartbeat`, 15 s by default), which land in some writes' windows and not in others'.
   */
  idleCpuMsPerSecond: number;
  /**
   * `cpuMsPerWrite` over the writes during which no subscriber heard a heartbeat (`quietWrites`
   * of them): what the write itself costs, its fan-out included, without the streams' upkeep.
   */
  quietCpuMsPerWrite: number;
  quietWrites: number;
  /** Server RSS and heap after a full collection, per open idle stream (its socket included). */
  rssPerIdleStreamKb: number;
  heapPerIdleStreamKb: number;
}

export interface FanOutReport {
  db: string;
  startedAt: string;
  rows: FanOutRow[];
  policies: PoliciesRow;
  /** Server CPU of one re-run and its send: the distinct mode's extra CPU per extra query (not with `--policies-only`). */
  rerunCpuMs?: number;
}

export async function runLiveFanOut(options: BenchOptions): Promise<FanOutReport> {
  const handle = await createBenchDatabase(options);
  const startedAt = new Date();
  try {
    await seedDataset(handle, DEFAULT_DATASET);
    const rows = options.policiesOnly ? [] : await measureModes(options, handle.url);
    const policiesServer = await ServerProcess.start(
      { side: 'ours', scenario: LIVE_POLICIES, databaseUrl: handle.url },
      { exposeGc: true, cpuProfDir: options.cpuProf },
    );
    let policies: PoliciesRow;
    try {
      policies = await measurePolicies(policiesServer, options.subscribers);
    } finally {
      await policiesServer.stop();
    }
    const report: FanOutReport = { db: options.db, startedAt: startedAt.toISOString(), rows, policies };
    const [shared, distinct] = rows;
    if (shared && distinct) {
      report.rerunCpuMs = (distinct.cpuMsPerWrite - shared.cpuMsPerWrite) / (options.subscribers - 1);
      log(`one re-run (and its send): ${report.rerunCpuMs.toFixed(3)} ms of server CPU`);
    }
    await mkdir(options.out, { recursive: true });
    const file = path.join(
      options.out,
      `live-fan-out-${options.db}-${startedAt.toISOString().replaceAll(':', '-')}.json`,
    );
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`written to ${file}`);
    return report;
  } finally {
    await handle.drop();
  }
}

/** The shared and distinct modes on one server, and on PostgreSQL across two instances. */
async function measureModes(options: BenchOptions, databaseUrl: string): Promise<FanOutRow[]> {
  const server = await ServerProcess.start({ side: 'ours', scenario: LIVE_FAN_OUT, databaseUrl });
  const rows: FanOutRow[] = [];
  try {
    rows.push(await measure('shared', server, server, options.subscribers));
    rows.push(await measure('distinct', server, server, options.subscribers));
    if (options.db === 'postgres') {
      // A second instance, both with the PostgreSQL transport: writes on one, subscribers on the other.
      const [writer, reader] = await Promise.all(
        [0, 1].map(() => ServerProcess.start({ side: 'ours', scenario: LIVE_ACROSS, databaseUrl })),
      );
      try {
        rows.push(await measure('across', writer!, reader!, options.subscribers));
      } finally {
        await Promise.all([writer!.stop(), reader!.stop()]);
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}

/**
 * `count` live queries on `reader` (one query, or one each for `distinct`), then `WRITES` writes on
 * `writer`, one at a time: each one's delivery latency to every subscriber, and `reader`'s CPU.
 */
async function measure(
  mode: FanOutRow['mode'],
  writer: ServerProcess,
  reader: ServerProcess,
  count: number,
): Promise<FanOutRow> {
  const title = `fan-out ${mode}`;
  const query = (n: number) =>
    encodeURIComponent(JSON.stringify({ where: mode === 'distinct' ? { title, id: { gt: -n } } : { title } }));
  log(`${mode}: opening ${count} live queries`);
  const subscribers = await openAll(reader.origin, count, (n) => `/api/rpc/post/count?q=${query(n)}`);
  await until(() => subscribers.every((s) => s.events >= 1), 'first answers');
  const latencies: number[] = [];
  let cpuMicros = 0;
  for (let write = 1; write <= WRITES; write++) {
    await reader.reset();
    const sent = performance.now();
    await post(writer.origin, AUTHOR_ID, title);
    await until(() => subscribers.every((s) => s.events >= write + 1), `write ${write} delivered`);
    cpuMicros += (await reader.stats()).cpuMicros;
    for (const subscriber of subscribers) latencies.push(subscriber.arrivals[write]! - sent);
  }
  for (const subscriber of subscribers) subscriber.response.destroy();
  const row: FanOutRow = {
    mode,
    subscribers: count,
    writes: WRITES,
    ...latencySummary(latencies),
    cpuMsPerWrite: cpuMicros / WRITES / 1000,
  };
  log(
    `${mode}: p50 ${row.latencyP50Ms.toFixed(1)} ms, p99 ${row.latencyP99Ms.toFixed(1)} ms, CPU ${row.cpuMsPerWrite.toFixed(1)} ms per write`,
  );
  return row;
}

/** p50, p99 and max of latencies in milliseconds (sorted in place). */
export function latencySummary(latencies: number[]): Pick<FanOutRow, 'latencyP50Ms' | 'latencyP99Ms' | 'latencyMaxMs'> {
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]!;
  return { latencyP50Ms: at(0.5), latencyP99Ms: at(0.99), latencyMaxMs: latencies.at(-1)! };
}

/** The drafts' query every subscriber of `measurePolicies` streams: through its policy, its own drafts. */
const OWN_DRAFTS = `/api/rpc/post/findMany?q=${encodeURIComponent(
  JSON.stringify({ where: { published: false }, select: { id: true, title: true }, orderBy: { id: 'asc' } }),
)}`;
const CONCERNED_SHARE = 0.01;
const POLICY_WRITES = 10;
/** How long the server's CPU must stay (nearly) idle before a write counts as fully handled. */
const IDLE_WINDOW_MS = 250;
/** Two periods of the default heartbeat (`live.heartbeat`, 15 s): the idle CPU's measurement. */
const IDLE_MEASURE_MS = 30_000;

/** Who subscriber `n` of `count` is, and which subscribers the write `write` concerns: see `measurePolicies`. */
export function policyCallers(count: number, users: number) {
  const subscribedUsers = Math.min(count, users);
  const authorsPerWrite = Math.max(1, Math.round(subscribedUsers * CONCERNED_SHARE));
  return {
    userOf: (n: number) => (n % subscribedUsers) + 1,
    /** The authors whose drafts write `write` changes: a block of its own, so every write concerns others. */
    authorsOf: (write: number) =>
      Array.from({ length: authorsPerWrite }, (_, k) => ((write * authorsPerWrite + k) % subscribedUsers) + 1),
  };
}

/**
 * `count` live queries on `server`, subscriber n a caller of its own (a seeded user, n spread evenly
 * over them, and session n), each streaming its own drafts through the read policy; then writes one
 * at a time, each changing the drafts of 1% of the subscribed users: the delivery latency to their
 * subscribers, the events the others got (none is right), the server CPU until it is idle again,
 * and the memory each idle stream holds.
 */
async function measurePolicies(server: ServerProcess, count: number): Promise<PoliciesRow> {
  const callers = policyCallers(count, DEFAULT_DATASET.users);
  const before = await server.memory();
  log(`policies: opening ${count} live queries, each its own caller`);
  const subscribers = await openAll(
    server.origin,
    count,
    () => OWN_DRAFTS,
    (n) => ({
      [CALLER_HEADERS.user]: String(callers.userOf(n)),
      [CALLER_HEADERS.session]: String(n),
    }),
  );
  await until(() => subscribers.every((s) => s.events >= 1), 'first answers');
  const after = await server.memory();
  const idleMicrosPerMs = await idleCpu(server);
  const latencies: number[] = [];
  let cpuMicros = 0;
  let quietMicros = 0;
  let quietWrites = 0;
  let unconcernedEvents = 0;
  let concernedPerWrite = 0;
  for (let write = 0; write < POLICY_WRITES; write++) {
    const authors = new Set(callers.authorsOf(write));
    const concerned = subscribers.flatMap((_, n) => (authors.has(callers.userOf(n)) ? [n] : []));
    concernedPerWrite = concerned.length;
    const seen = subscribers.map((s) => s.events);
    const beatsBefore = heartbeatsHeard;
    await server.reset();
    const sent = performance.now();
    await updateDrafts(server.origin, [...authors], `live policies ${write}`);
    await until(() => concerned.every((n) => subscribers[n]!.events > seen[n]!), `write ${write} delivered`);
    const writeMicros = await untilIdle(server);
    cpuMicros += writeMicros;
    if (heartbeatsHeard === beatsBefore) {
      quietMicros += writeMicros;
      quietWrites++;
    }
    subscribers.forEach((s, n) => {
      if (authors.has(callers.userOf(n))) latencies.push(s.arrivals[seen[n]!]! - sent);
      else unconcernedEvents += s.events - seen[n]!;
    });
  }
  for (const subscriber of subscribers) subscriber.response.destroy();
  const row: PoliciesRow = {
    subscribers: count,
    writes: POLICY_WRITES,
    concernedPerWrite,
    ...latencySummary(latencies),
    unconcernedEvents,
    cpuMsPerWrite: cpuMicros / POLICY_WRITES / 1000,
    idleCpuMsPerSecond: idleMicrosPerMs,
    quietCpuMsPerWrite: quietWrites > 0 ? quietMicros / quietWrites / 1000 : Number.NaN,
    quietWrites,
    rssPerIdleStreamKb: (after.rss - before.rss) / count / 1024,
    heapPerIdleStreamKb: (after.heapUsed - before.heapUsed) / count / 1024,
  };
  log(
    `policies: ${concernedPerWrite} of ${count} concerned per write, p99 ${row.latencyP99Ms.toFixed(1)} ms, ` +
      `${unconcernedEvents} events to the others, CPU ${row.cpuMsPerWrite.toFixed(1)} ms per write ` +
      `(${row.quietCpuMsPerWrite.toFixed(1)} ms over the ${quietWrites} writes without a heartbeat; ` +
      `${row.idleCpuMsPerSecond.toFixed(1)} ms/s idle), ` +
      `${row.rssPerIdleStreamKb.toFixed(1)} KB RSS per idle stream`,
  );
  return row;
}

/** The server's CPU over two heartbeat periods without writes, in µs per ms (ms per s). */
async function idleCpu(server: ServerProcess): Promise<number> {
  await server.reset();
  const start = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MEASURE_MS));
  return (await server.stats()).cpuMicros / (performance.now() - start);
}

/** Waits until the server used under 5% of a core over `IDLE_WINDOW_MS`; answers its CPU µs since the last reset. */
async function untilIdle(server: ServerProcess): Promise<number> {
  let cpu = (await server.stats()).cpuMicros;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const now = (await server.stats()).cpuMicros;
    if (now - cpu < IDLE_WINDOW_MS * 1000 * 0.05) return now;
    cpu = now;
  }
}

/** Heartbeat comments the subscribers heard, all together: whether one fell in a write's window. */
let heartbeatsHeard = 0;

/** Opens `count` live queries, each on a connection of its own, a few hundred at a time. */
async function openAll(
  origin: string,
  count: number,
  pathOf: (n: number) => string,
  headersOf: (n: number) => Record<string, string> = () => ({}),
): Promise<Subscriber[]> {
  const subscribers: Subscriber[] = [];
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, i) =>
      open(origin + pathOf(start + i), headersOf(start + i)),
    );
    subscribers.push(...(await Promise.all(batch)));
  }
  return subscribers;
}

function open(url: string, headers: Record<string, string>): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { ...headers, Accept: 'text/event-stream' }, agent: false }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`live query refused: ${response.statusCode}`));
        return;
      }
      const subscriber: Subscriber = { events: 0, arrivals: [], response };
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith(':')) heartbeatsHeard++;
          if (!line.startsWith('data: ')) continue;
          subscriber.arrivals[subscriber.events++] = performance.now();
        }
      });
      response.on('error', () => undefined);
      resolve(subscriber);
    });
    sent.on('error', reject);
    sent.end();
  });
}

async function post(origin: string, authorId: number, title: string): Promise<void> {
  const response = await fetch(`${origin}/api/rpc/post/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { title, authorId }, select: { id: true } }),
  });
  if (response.status !== 201) throw new Error(`write answered ${response.status}: ${await response.text()}`);
}

/** One RPC `post.updateMany`: the drafts of `authors` get `title`. */
async function updateDrafts(origin: string, authors: number[], title: string): Promise<void> {
  const response = await fetch(`${origin}/api/rpc/post/updateMany`, {
    method: 'PATCH',
    headers: {
      'Content-Type': 'application/json',
      [CALLER_HEADERS.user]: String(EDITOR_ID),
      [CALLER_HEADERS.session]: 'writer',
    },
    body: JSON.stringify({ where: { authorId: { in: authors }, published: false }, data: { title } }),
  });
  const text = await response.text();
  if (response.status !== 200 || !/"count":[1-9]/.test(text))
    throw new Error(`write answered ${response.status}: ${text}`);
}

async function until(test: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  while (!test()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${DELIVERY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
