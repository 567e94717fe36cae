import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Database from 'better-sqlite3';

import { withAsyncBusyTimeout } from '../../lib/index.js';
import { longestStall } from '../support/longest-stall.js';

const INSERT = {
  sql: 'INSERT INTO item (name) VALUES (?)',
  args: ['a'],
  argTypes: [{ scalarType: 'string' as const, arity: 'scalar' as const }],
};
const COUNT = { sql: 'SELECT count(*) AS n FROM item', args: [], argTypes: [] };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withAsyncBusyTimeout', () => {
  let file: string;
  let locker: Database.Database;

  beforeEach(() => {
    file = path.join(os.tmpdir(), `busy-${process.pid}-${Math.random().toString(36).slice(2)}.db`);
    locker = new Database(file);
    locker.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)');
  });

  afterEach(async () => {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
    await rm(file, { force: true });
  });

  const connect = (timeout: number) =>
    withAsyncBusyTimeout(new PrismaBetterSqlite3({ url: `file:${file}` }), { timeout }).connect();

  it('waits for another connection’s lock without holding up the process, then runs the statement', async () => {
    const adapter = await connect(5000);
    locker.exec('BEGIN EXCLUSIVE');
    setTimeout(() => locker.exec('COMMIT'), 400);
    const { stallMs, result } = await longestStall(() => adapter.executeRaw(INSERT));
    expect(result).toEqual({ status: 'fulfilled', value: 1 });
    expect(stallMs).toBeLessThan(200);
    expect(locker.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 1 });
    await adapter.dispose();
  });

  it('fails with the database’s busy error once the timeout has passed, having kept the process running', async () => {
    const adapter = await connect(300);
    locker.exec('BEGIN EXCLUSIVE');
    const started = Date.now();
    const { stallMs, result } = await longestStall(() => adapter.queryRaw(COUNT));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.status).toBe('rejected');
    const reason = (result as PromiseRejectedResult).reason as { name: string; cause: { originalCode: string } };
    expect(reason.name).toBe('DriverAdapterError');
    expect(reason.cause.originalCode).toMatch(/^SQLITE_BUSY/);
    expect(stallMs).toBeLessThan(200);
    await adapter.dispose();
  });

  it('retries the statements of a transaction, its COMMIT included', async () => {
    const adapter = await connect(5000);
    const transaction = await adapter.startTransaction();
    locker.exec('BEGIN EXCLUSIVE');
    setTimeout(() => locker.exec('COMMIT'), 200);
    await expect(transaction.executeRaw(INSERT)).resolves.toBe(1);
    // Another reader holds the commit off, in rollback-journal mode, until it finishes.
    locker.exec('BEGIN');
    locker.prepare('SELECT count(*) FROM item').get();
    setTimeout(() => locker.exec('COMMIT'), 200);
    await expect(transaction.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] })).resolves.toBe(0);
    await transaction.commit();
    expect(locker.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 1 });
    await adapter.dispose();
  });

  it('holds writes made outside an open transaction until it ends; reads see committed rows at once', async () => {
    const adapter = await connect(5000);
    const transaction = await adapter.startTransaction();
    await transaction.executeRaw(INSERT);
    const write = adapter.executeRaw(INSERT);
    let written = false;
    void write.then(() => (written = true));
    // The read does not wait, and does not see the transaction's row.
    await expect(adapter.queryRaw(COUNT)).resolves.toMatchObject({ rows: [[0]] });
    await wait(50);
    expect(written).toBe(false);
    await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
    await transaction.rollback();
    await expect(write).resolves.toBe(1);
    await expect(adapter.queryRaw(COUNT)).resolves.toMatchObject({ rows: [[1]] });
    expect(locker.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 1 });
    await adapter.dispose();
  });

  it('fails a write whose turn does not come within the timeout as a busy database, with no effect', async () => {
    const adapter = await connect(200);
    const transaction = await adapter.startTransaction();
    const started = Date.now();
    const late = adapter.executeRaw(INSERT);
    await expect(late).rejects.toMatchObject({
      name: 'DriverAdapterError',
      cause: { kind: 'SocketTimeout', originalCode: 'SQLITE_BUSY' },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await transaction.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] });
    await transaction.commit();
    await expect(adapter.executeRaw(INSERT)).resolves.toBe(1);
    expect(locker.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 1 });
    await adapter.dispose();
  });

  it('sets up both connections with what sets one up: settings and attached databases', async () => {
    const adapter = await connect(5000);
    const other = `${file}-attached`;
    const statement = (sql: string) => ({ sql, args: [], argTypes: [] });
    try {
      await adapter.executeRaw(statement('PRAGMA case_sensitive_like = ON'));
      await expect(adapter.queryRaw(statement("SELECT 'a' LIKE 'A' AS m"))).resolves.toMatchObject({ rows: [[0]] });
      await adapter.executeRaw(statement(`ATTACH DATABASE '${other}' AS other`));
      await adapter.executeRaw(statement('CREATE TABLE other.note (id INTEGER PRIMARY KEY)'));
      await expect(adapter.queryRaw(statement('SELECT count(*) AS n FROM other.note'))).resolves.toMatchObject({
        rows: [[0]],
      });
    } finally {
      await adapter.dispose();
      await rm(other, { force: true });
    }
  });

  it('in memory, with one connection only, holds reads made outside an open transaction too', async () => {
    const adapter = await withAsyncBusyTimeout(new PrismaBetterSqlite3({ url: 'file::memory:' })).connect();
    await adapter.executeScript('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)');
    const transaction = await adapter.startTransaction();
    await transaction.executeRaw(INSERT);
    const read = adapter.queryRaw(COUNT);
    let answered = false;
    void read.then(() => (answered = true));
    await wait(30);
    expect(answered).toBe(false);
    await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
    await transaction.rollback();
    await expect(read).resolves.toMatchObject({ rows: [[0]] });
    await adapter.dispose();
  });

  it('is needed: the driver runs a statement made outside an open transaction inside it', async () => {
    const adapter = await new PrismaBetterSqlite3({ url: `file:${file}` }).connect();
    const transaction = await adapter.startTransaction();
    await adapter.executeRaw(INSERT);
    await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
    await transaction.rollback();
    expect(locker.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 0 });
    await adapter.dispose();
  });

  it('gives transactions the connection in turn, first come first served, and statements theirs between', async () => {
    const adapter = await connect(5000);
    const order: string[] = [];
    const first = await adapter.startTransaction();
    const second = adapter.startTransaction().then((tx) => (order.push('second'), tx));
    const between = adapter.executeRaw(INSERT).then(() => order.push('statement'));
    const third = adapter.startTransaction().then((tx) => (order.push('third'), tx));
    await wait(30);
    expect(order).toEqual([]);
    await first.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] });
    await first.commit();
    const next = await second;
    expect(order).toEqual(['second']);
    await next.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] });
    await next.commit();
    const last = await third;
    await between;
    expect(order).toEqual(['second', 'statement', 'third']);
    await last.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] });
    await last.commit();
    await expect(adapter.queryRaw(COUNT)).resolves.toMatchObject({ rows: [[1]] });
    await adapter.dispose();
  });

  it('does not retry other errors', async () => {
    const adapter = await connect(5000);
    const started = Date.now();
    await expect(adapter.queryRaw({ sql: 'SELECT * FROM missing', args: [], argTypes: [] })).rejects.toMatchObject({
      name: 'DriverAdapterError',
    });
    expect(Date.now() - started).toBeLessThan(100);
    await adapter.dispose();
  });

  it('is needed: the driver’s own busy timeout holds the whole process up', async () => {
    const adapter = await new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 600 }).connect();
    locker.exec('BEGIN EXCLUSIVE');
    const { stallMs, result } = await longestStall(async () => {
      await wait(20);
      return adapter.queryRaw(COUNT);
    });
    expect(result.status).toBe('rejected');
    expect(stallMs).toBeGreaterThanOrEqual(500);
    await adapter.dispose();
  });

  it('returns factories of other providers unchanged, and refuses a bad timeout', () => {
    const postgres = new PrismaPg({ connectionString: 'postgresql://127.0.0.1:1/none' });
    expect(withAsyncBusyTimeout(postgres)).toBe(postgres);
    const sqlite = new PrismaBetterSqlite3({ url: `file:${file}` });
    expect(() => withAsyncBusyTimeout(sqlite, { timeout: -1 })).toThrow(RangeError);
    expect(() => withAsyncBusyTimeout(sqlite, { timeout: Number.NaN })).toThrow(RangeError);
  });
});
