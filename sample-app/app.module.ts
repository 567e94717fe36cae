import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import type { SampleDatabase } from '../fixtures/blog/database/create-prisma-client.js';
import { samplePolicies } from '../fixtures/blog/policies.js';
import { auditEntry, sampleRules } from '../fixtures/blog/rules.js';
import { CrudApiModule } from '../lib/index.js';
import { DatabaseModule, SAMPLE_DATABASE } from './database/database.module.js';
import { DemoAuthGuard } from './demo-auth.js';

export const PORT = Number(process.env.PORT ?? 3000);
export const BASE_URL = process.env.BASE_URL ?? `http://localhost:${PORT}`;

/** A user's application: one import gives both APIs over the sample schema. */
@Module({
  imports: [
    CrudApiModule.forRootAsync({
      // OpenAPI documents at /api/docs/rest.json and /api/docs/rpc.json, Swagger UI at /api/docs.
      openapi: { title: 'Sample blog API' },
      imports: [DatabaseModule],
      inject: [SAMPLE_DATABASE],
      useFactory: (database: SampleDatabase) => ({
        endpoint: `${BASE_URL}/api/rest`,
        prisma: database.prisma,
        modelMeta: database.modelMeta,
        policies: samplePolicies,
        // Hashed passwords, validated emails, server-set authors: fixtures/blog/rules.ts. Every
        // change of a post is recorded, so the page shows its versions and the posts as of a time.
        rules: { ...sampleRules, Post: { ...sampleRules.Post, history: true } },
        history: { model: 'HistoryEntry' },
        operations: { AuditEntry: { readOnly: true } },
        // A write sent with an Idempotency-Key runs once; its retries get the stored answer.
        idempotency: { model: 'IdempotencyKey' },
        // Any GET sent with Accept: text/event-stream streams its answer as it changes.
        live: {},
        // Callers without an x-user-id share nothing but their address: 1,200 units per 10 s each
        // (a read of one post costs 1, a list 2, a write 3: docs/rate-limits.md), then 429.
        rateLimits: { limits: [{ name: 'anonymous', limit: 1200, window: 10, when: (context) => !context.user }] },
        // The audit trail: one entry per committed change, written after the commit.
        onChange: async (event) => {
          await database.prisma.auditEntry.create({ data: auditEntry(event) });
        },
      }),
    }),
    DatabaseModule,
  ],
  // Demo stand-in for authentication (x-user-id header): see demo-auth.ts.
  providers: [{ provide: APP_GUARD, useClass: DemoAuthGuard }],
})
export class AppModule {}
