import 'reflect-metadata';

import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule, BASE_URL, PORT } from './app.module.js';
import { bundlePostsPage, servePostsPage } from './web/serve-posts-page.js';

const app = await NestFactory.create(AppModule);
app.enableShutdownHooks();
servePostsPage(app, await bundlePostsPage());
await app.listen(PORT, '127.0.0.1');

const logger = new Logger('SampleApp');
logger.log(`Page (typed RPC client + TanStack Query): ${BASE_URL}/`);
logger.log(`REST (JSON:API): ${BASE_URL}/api/rest/post?include=author&page[limit]=5`);
logger.log(`RPC (superjson): ${BASE_URL}/api/rpc/post/findMany?q=${encodeURIComponent('{"take":5}')}`);
logger.log(`OpenAPI (Swagger UI): ${BASE_URL}/api/docs`);
