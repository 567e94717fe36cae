import util from 'node:util';

import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';

import { CrudApiOpenApi } from '../../lib/index.js';
import { type Exchange, OpenApiContract } from './openapi-contract.js';

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/**
 * Contracts by the documents' text: apps with the same schema and options share compiled
 * validators, across the test files a Jest worker runs. Jest gives each file its own module
 * registry, where compiling the validators again costs a second or two; Node's built-in modules are
 * the same object in every file, so the map lives on one of them.
 */
const contracts: Map<string, OpenApiContract> = ((util as unknown as Record<symbol, Map<string, OpenApiContract>>)[
  Symbol.for('crud-api.test.openapi-contracts')
] ??= new Map());

/** Each app's contract, looked up once (`http()` is called for every request). */
const appContracts = new WeakMap<INestApplication, OpenApiContract | undefined>();

/** The contract of the app's module instance, or undefined when its `openapi` extra is off. */
export function contractOf(app: INestApplication): OpenApiContract | undefined {
  if (appContracts.has(app)) return appContracts.get(app);
  const openApi = openApiOf(app);
  let contract: OpenApiContract | undefined;
  if (openApi) {
    const documents = [openApi.document('rest'), openApi.document('rpc')];
    const key = JSON.stringify(documents);
    contract = contracts.get(key) ?? new OpenApiContract(documents);
    contracts.set(key, contract);
  }
  appContracts.set(app, contract);
  return contract;
}

/** The module's documents provider; Nest throws when there is none (the `openapi` extra is off). */
function openApiOf(app: INestApplication): CrudApiOpenApi | undefined {
  try {
    return app.get(CrudApiOpenApi, { strict: false });
  } catch {
    return undefined;
  }
}

interface SentRequest {
  method: string;
  path: string;
  getHeader(name: string): unknown;
}

interface SupertestTest {
  _data?: unknown;
  end(callback: (error: unknown, response: any) => void): unknown;
}

/** The exchange a supertest request and its response make. */
function exchangeOf(test: SupertestTest, response: any): Exchange {
  const sent = response.req as SentRequest;
  return {
    method: sent.method,
    url: sent.path,
    requestContentType: sent.getHeader('content-type') as string | undefined,
    requestBody: typeof test._data === 'string' ? safeJson(test._data) : test._data,
    status: response.status,
    responseContentType: response.headers['content-type'],
    responseText: response.text ?? '',
    responseHeaders: response.headers,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The contract's verdict; a check that throws is a failure of the request too, never a hang of the test. */
function checkSafely(contract: OpenApiContract, exchange: Exchange): string | undefined {
  try {
    return contract.check(exchange);
  } catch (error) {
    return `${exchange.method} ${exchange.url.slice(0, 200)}: the check failed: ${(error as Error).message}`;
  }
}

/** Makes every request of the test fail when its exchange does not match the contract. */
function checkedTest<T extends SupertestTest>(test: T, contract: OpenApiContract): T {
  const end = test.end.bind(test);
  test.end = (callback) =>
    end((error, response) => {
      const problem = !error && response?.req ? checkSafely(contract, exchangeOf(test, response)) : undefined;
      callback(problem ? new Error(`OpenAPI contract: ${problem}`) : error, response);
    });
  return test;
}

/**
 * A supertest agent on the app whose every exchange is checked against the module's OpenAPI
 * documents (when it serves them and `checked`): responses must be documented, refused requests refused.
 */
export function contractAgent(app: INestApplication, checked = true): TestAgent {
  const agent = request(app.getHttpServer()) as unknown as TestAgent;
  const contract = checked ? contractOf(app) : undefined;
  if (!contract) return agent;
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !METHODS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => checkedTest(value.apply(target, args), contract);
    },
  });
}
