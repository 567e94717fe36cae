/** The HTTP platforms the e2e suites run on: jest's projects set `CRUD_API_PLATFORM` per project. */
export type TestPlatform = 'express' | 'fastify';

export function testPlatform(): TestPlatform {
  return (globalThis as { CRUD_API_PLATFORM?: TestPlatform }).CRUD_API_PLATFORM ?? 'express';
}
