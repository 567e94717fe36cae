import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule, BASE_URL, PORT } from './app.module.js';

const app = await NestFactory.create(AppModule);
app.enableShutdownHooks();
await app.listen(PORT, '127.0.0.1');

const logger = new Logger('SampleApp');
logger.log(`REST (JSON:API): ${BASE_URL}/api/rest/post?include=author&page[limit]=5`);
logger.log(`RPC (superjson): ${BASE_URL}/api/rpc/post/findMany?q=${encodeURIComponent('{"take":5}')}`);
