import 'reflect-metadata';

import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { type DynamicModule, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import { createSampleDatabase, type SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import type { PrismaClientResolver } from '../../lib/index.js';
import { BENCH_DATABASE, BENCH_ENDPOINT } from '../baseline/baseline.tokens.js';
import { comparisonOf, COMPARISONS, SCENARIOS } from '../scenarios.js';
import { replayingClient } from './replaying-client.js';
import {
  decodeServerArgs,
  endpointOf,
  type RunnerMessage,
  type ServerMessage,
  type ServerStats,
} from './server-protocol.js';

// One benchmarked server: `ours` (the module over the sample client, with the scenario's own
// options if it has any) or the hand-written baseline of one scenario; a conditional GET runs the
// module on both sides. Started by the runner with `fork`; answers stats requests over IPC. Each
// server imports only the code it serves (the module, or one kind of baseline controllers), so that
// its memory is its own: the hand-written server does not carry the module's code, nor the careful
// one class-validator.

const args = decodeServerArgs(process.argv.slice(2));
const endpoint = endpointOf(args.port);
const database = createSampleDatabase(args.databaseUrl, { emitQueryEvents: true });

const stats: ServerStats = { requests: 0, queries: 0, cpuMicros: 0, peakRss: 0 };
let cpuAtReset = process.cpuUsage();
// BENCH_LOG_SQL=1 prints every statement: how to see what a scenario's SQL/request is made of.
const logSql = process.env.BENCH_LOG_SQL === '1';
function countQueries(db: SampleDatabase): void {
  (db.prisma as unknown as { $on(event: 'query', cb: (event: { query: string }) => void): void }).$on(
    'query',
    (event) => {
      stats.queries++;
      if (logSql) process.stderr.write(`[${args.side} sql] ${event.query}\n`);
    },
  );
}
countQueries(database);

const benchScenario = SCENARIOS.find((s) => s.id === args.scenario);
// What the baseline side serves: a controller, or our module with or without the scenario's options.
const baselineServes = benchScenario ? COMPARISONS[comparisonOf(benchScenario)].baselineServes : 'controller';
const servesOurs = args.side === 'ours' || baselineServes !== 'controller';
const scenarioOptions =
  args.side === 'baseline' && baselineServes === 'ours-without-options'
    ? (benchScenario?.baselineOptions ?? {})
    : undefined;

/**
 * With `BENCH_REPLICA_URLS` (the runner's replicated database): a client of each replica for the
 * servers of ours that read replicas, its statements counted with the primary's.
 */
const onReplicas = benchScenario ? comparisonOf(benchScenario) : undefined;
const replicaClients =
  (onReplicas === 'replicas' && args.side === 'ours') || onReplicas === 'replica-token'
    ? (process.env.BENCH_REPLICA_URLS ?? '').split(' ').map((url) => {
        const replica = createSampleDatabase(url, { emitQueryEvents: true });
        countQueries(replica);
        return replica.prisma;
      })
    : [];

/** Ours's client resolver class, imported with the module. */
let resolverClass: Type<PrismaClientResolver> | undefined;

async function oursModule(db: SampleDatabase): Promise<Type> {
  const [{ CrudApiModule, PrismaClientResolver }, { liveOptions }] = await Promise.all([
    import('../../lib/index.js'),
    import('../live/live-fan-out-options.js'),
  ]);
  resolverClass = PrismaClientResolver;
  const options = {
    ...(scenarioOptions ?? benchScenario?.oursOptions ?? liveOptions(args.scenario, args.databaseUrl)),
    ...(args.live ? { live: {} } : {}),
    ...(args.uncoalesced ? { coalesceReads: false as const } : {}),
    ...(replicaClients.length > 0 ? { replicas: { clients: replicaClients } } : {}),
  };
  @Module({ imports: [CrudApiModule.forRoot({ endpoint, prisma: db.prisma, modelMeta: db.modelMeta, ...options })] })
  class OursModule {}
  return OursModule;
}

async function baselineModule(db: SampleDatabase, scenario: string): Promise<DynamicModule> {
  const controllers =
    args.baseline === 'nest'
      ? (await import('../baseline/nest-team/nest-team.controllers.js')).NEST_TEAM_CONTROLLERS
      : (await import('../baseline/baseline-controllers.js')).BASELINE_CONTROLLERS;
  const controller = controllers[scenario];
  if (!controller) throw new Error(`No ${args.baseline} baseline controller for scenario "${scenario}"`);
  @Module({})
  class BaselineModule {}
  return {
    module: BaselineModule,
    controllers: [controller],
    providers: [
      { provide: BENCH_DATABASE, useValue: db },
      { provide: BENCH_ENDPOINT, useValue: endpoint },
    ],
  };
}

/**
 * The application on the platform under test. The baseline reads JSON:API bodies with the
 * platform's own JSON parser; ours brings its own body parsing.
 */
async function createApp(root: Type | DynamicModule): Promise<INestApplication> {
  const logger: ['error', 'warn'] = ['error', 'warn'];
  if (args.platform === 'fastify') {
    const fastify = await NestFactory.create<NestFastifyApplication>(root, new FastifyAdapter(), { logger });
    if (!servesOurs) {
      const parseJson = fastify.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
      fastify.useBodyParser<Server>('application/vnd.api+json', {}, (req, body, done) =>
        parseJson(req, body.toString(), done),
      );
    }
    return fastify;
  }
  const express = await NestFactory.create<NestExpressApplication>(root, { logger });
  if (!servesOurs) express.useBodyParser('json', { type: ['application/json', 'application/vnd.api+json'] });
  return express;
}

if (args.tracing) (await import('./bench-telemetry.js')).registerBenchTelemetry();
const served: SampleDatabase = args.replay
  ? { ...database, prisma: replayingClient(database.prisma, () => stats.queries++) }
  : database;
const app = await createApp(servesOurs ? await oursModule(served) : await baselineModule(served, args.scenario));
if (!servesOurs && args.baseline === 'nest') {
  const { nestTeamValidationPipe, PrismaExceptionFilter } =
    await import('../baseline/nest-team/nest-team.controllers.js');
  app.useGlobalPipes(nestTeamValidationPipe());
  app.useGlobalFilters(new PrismaExceptionFilter());
}
if (process.env.BENCH_LOG_ERRORS === '1') app.getHttpServer().prependListener('request', logErrorResponse);
await app.listen(args.port, '127.0.0.1');
app.getHttpServer().on('request', () => {
  stats.requests++;
});

/** BENCH_LOG_ERRORS=1: the status, request and body of every 4xx/5xx answer (on Node's response, whatever the platform). */
function logErrorResponse(req: IncomingMessage, res: ServerResponse): void {
  const end = res.end.bind(res) as (...rest: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (res.statusCode >= 400)
      process.stderr.write(`[${args.side} ${res.statusCode}] ${req.method} ${req.url}: ${String(chunk)}\n`);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

/** Where ours sent its reads, with replicas. */
function replicaCounts(): ServerStats['replicas'] {
  if (replicaClients.length === 0) return undefined;
  return { ...app.get(resolverClass!, { strict: false }).replicas!.counts };
}

function reply(message: ServerMessage): void {
  process.send!(message);
}

process.on('message', async (message: RunnerMessage) => {
  if (message.type === 'reset') {
    stats.requests = 0;
    stats.queries = 0;
    cpuAtReset = process.cpuUsage();
    reply({ type: 'reset' });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    reply({
      type: 'stats',
      stats: {
        ...stats,
        cpuMicros: cpu.user + cpu.system,
        peakRss: process.resourceUsage().maxRSS * 1024,
        replicas: replicaCounts(),
      },
    });
  } else if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    reply({ type: 'memory', memory: { rss, heapUsed } });
  } else if (message.type === 'stop') {
    await app.close();
    await database.prisma.$disconnect();
    // A normal exit lets `--cpu-prof` write its profile.
    process.exit(0);
  }
});
reply({ type: 'ready' });
