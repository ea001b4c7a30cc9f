import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { Acquisition } from '../../src/analysis';
import { acquisitionsHeldAt, findManualAcquisitions, getAcquisition, isHeldAt } from '../../src/analysis';
import { parse } from './parse';

function only(code: string, resources?: { acquire: string; release: string; module?: string }[]): Acquisition {
  const parsed = parse(code);
  const found = findManualAcquisitions(parsed.sourceCode, { resources });
  assert.equal(found.length, 1, `expected one acquisition, found ${found.length}`);
  return found[0] as Acquisition;
}

function none(code: string): void {
  const parsed = parse(code);
  assert.deepEqual(findManualAcquisitions(parsed.sourceCode).map((a) => a.acquireText), []);
}

function releaseTexts(code: string, a: Acquisition): string[] {
  return a.releaseCalls.map((r) => code.slice(r.call.range[0], r.call.range[1]));
}

describe('findManualAcquisitions: libraries', () => {
  it('async-mutex acquire bound to a release function', () => {
    const code = `import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function f() {
  const release = await mutex.acquire();
  try { await work(); } finally { release(); }
}`;
    const a = only(code);
    assert.equal(a.kind, 'lock');
    assert.equal(a.library, 'async-mutex');
    assert.equal(a.resultRole, 'releaseFunction');
    assert.equal(a.displayName, 'release');
    assert.equal(a.acquireText, 'mutex.acquire()');
    assert.deepEqual(releaseTexts(code, a), ['release()']);
    assert.equal(a.releaseCalls[0]?.finallyOf?.type, AST_NODE_TYPES.TryStatement);
    assert.equal(a.releaseCalls[0]?.form, 'releaseFunction');
  });

  it('async-mutex Semaphore with [value, release] destructuring', () => {
    const code = `import { Semaphore } from 'async-mutex';
const sem = new Semaphore(4);
async function f() {
  const [value, release] = await sem.acquire();
  await work(value);
  release();
}`;
    const a = only(code);
    assert.equal(a.kind, 'permit');
    assert.equal(a.displayName, 'release');
    assert.deepEqual(releaseTexts(code, a), ['release()']);
    assert.equal(a.releaseCalls[0]?.finallyOf, null);
  });

  it('withTimeout-wrapped mutex released through the owner', () => {
    const code = `import { Mutex, withTimeout } from 'async-mutex';
const lock = withTimeout(new Mutex(), 500);
async function f() {
  await lock.acquire();
  await work();
  lock.release();
}`;
    const a = only(code);
    assert.equal(a.resultRole, null);
    assert.equal(a.displayName, 'lock');
    assert.deepEqual(releaseTexts(code, a), ['lock.release()']);
    assert.equal(a.releaseCalls[0]?.form, 'ownerMethod');
  });

  it('async-sema and await-lock', () => {
    const sema = only(`import { Sema } from 'async-sema';
const s = new Sema(3);
async function f() { await s.acquire(); await work(); s.release(); }`);
    assert.equal(sema.kind, 'permit');
    assert.equal(sema.library, 'async-sema');
    const awaitLock = only(`import AwaitLock from 'await-lock';
const l = new AwaitLock();
async function f() { await l.acquireAsync(); await work(); l.release(); }`);
    assert.equal(awaitLock.kind, 'lock');
    assert.equal(awaitLock.releaseCalls.length, 1);
  });

  it('pg and mysql2 pool clients', () => {
    const code = `import { Pool } from 'pg';
const pool = new Pool();
async function f() {
  const client = await pool.connect();
  await client.query('select 1');
  client.release();
}`;
    const pg = only(code);
    assert.equal(pg.kind, 'dbClient');
    assert.equal(pg.resultRole, 'resource');
    assert.deepEqual(releaseTexts(code, pg), ['client.release()']);
    const mysql = only(`import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
async function f() { const conn = await pool.getConnection(); await conn.execute('x'); conn.release(); }`);
    assert.equal(mysql.kind, 'dbClient');
    assert.equal(mysql.releaseCalls.length, 1);
  });

  it('generic-pool: pool.release(res) and pool.destroy(res)', () => {
    const code = `import { createPool } from 'generic-pool';
const pool = createPool(factory);
async function f() {
  const res = await pool.acquire();
  if (bad(res)) { await pool.destroy(res); return; }
  await use(res);
  await pool.release(res);
}`;
    const a = only(code);
    assert.equal(a.kind, 'pooledResource');
    assert.deepEqual(releaseTexts(code, a), ['pool.destroy(res)', 'pool.release(res)']);
  });

  it('proper-lockfile lock → release() and unlock(file)', () => {
    const code = `import lockfile from 'proper-lockfile';
async function f(file) {
  const release = await lockfile.lock(file);
  await work();
  await release();
}
async function g(file) {
  await lockfile.lock(file);
  await work();
  await lockfile.unlock(file);
}`;
    const parsed = parse(code);
    const found = findManualAcquisitions(parsed.sourceCode);
    assert.equal(found.length, 2);
    assert.equal(found[0]?.kind, 'fileLock');
    assert.deepEqual(releaseTexts(code, found[0] as Acquisition), ['release()']);
    assert.deepEqual(releaseTexts(code, found[1] as Acquisition), ['lockfile.unlock(file)']);
  });

  it('redlock acquire → lock.release()', () => {
    const code = `import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function f() {
  const lock = await redlock.acquire(['k'], 5000);
  await work();
  await lock.release();
}`;
    const a = only(code);
    assert.equal(a.kind, 'distributedLock');
    assert.deepEqual(releaseTexts(code, a), ['lock.release()']);
  });

  it('resources setting pairs', () => {
    const code = `async function f(store) {
  await store.lockAsync('k');
  await work();
  store.unlock('k');
}`;
    const a = only(code, [{ acquire: 'lockAsync', release: 'unlock' }]);
    assert.equal(a.recognizedBy, 'setting');
    assert.deepEqual(releaseTexts(code, a), ["store.unlock('k')"]);
    none(code);
  });

  it('evident pairing on an unknown object', () => {
    const code = `async function f(gate) {
  await gate.acquire();
  await work();
  gate.release();
}`;
    const a = only(code);
    assert.equal(a.recognizedBy, 'pairing');
    assert.equal(a.library, null);
  });
});

describe('findManualAcquisitions: finding the calls', () => {
  it('whatever the spacing, with names that contain an acquire name left alone', () => {
    const code = `async function f(gate, other) {
  // gate.acquire() in a comment, and 'gate.acquire()' in a string
  const text = 'gate.acquire()';
  await other.reacquire();
  other.unlock();
  await gate . acquire ( );
  await work(text);
  gate.release();
}`;
    assert.equal(only(code).acquireText, 'gate . acquire()');
  });

  it('a team-declared acquire name with characters that mean something in a pattern', () => {
    const code = `async function f(store) {
  await store.$take('k');
  await work();
  store.$put('k');
}`;
    assert.equal(only(code, [{ acquire: '$take', release: '$put' }]).acquireText, 'store.$take()');
  });
});

describe('findManualAcquisitions: not manual acquisitions', () => {
  it('an acquire with no release counterpart on the same object (a token bucket)', () => {
    none(`async function f(bucket, other) { await bucket.acquire(); await work(); other.release(); }`);
  });

  it('callback forms and one-shot queries', () => {
    none(`import { Mutex } from 'async-mutex';
import { Pool } from 'pg';
const m = new Mutex();
const pool = new Pool();
async function f() {
  await m.runExclusive(async () => work());
  await pool.query('select 1');
  pool.connect((err, client, done) => done());
}`);
  });

  it('p-limit and async-lock objects are callback APIs', () => {
    none(`import AsyncLock from 'async-lock';
const lock = new AsyncLock();
async function f() { await lock.acquire('k', async () => work()); lock.release?.(); }`);
  });

  it('a pg Client connect is not a pool checkout', () => {
    none(`import { Client } from 'pg';
const client = new Client();
async function f() { await client.connect(); await client.query('x'); }`);
  });
});

describe('findManualAcquisitions: connections a function opens for itself', () => {
  it('pg Client made and ended in the function: connect() → client.end()', () => {
    const code = `import { Client } from 'pg';
async function f() {
  const client = new Client();
  await client.connect();
  await client.query('x');
  await client.end();
}`;
    const a = only(code);
    assert.equal(a.kind, 'connection');
    assert.equal(a.library, 'pg');
    assert.equal(a.acquireText, 'client.connect()');
    assert.deepEqual(releaseTexts(code, a), ['client.end()']);
  });

  it('mysql2/promise createConnection and mongodb MongoClient.connect resolve to the connection', () => {
    const mysql = `const mysql = require('mysql2/promise');
async function f() {
  const conn = await mysql.createConnection({});
  await conn.query('x');
  await conn.end();
}`;
    const m = only(mysql);
    assert.equal(m.kind, 'connection');
    assert.equal(m.resultRole, 'resource');
    assert.deepEqual(releaseTexts(mysql, m), ['conn.end()']);
    const mongo = `import { MongoClient } from 'mongodb';
async function f(url) {
  const client = await MongoClient.connect(url);
  await client.db().command({ ping: 1 });
  await client.close();
}`;
    const g = only(mongo);
    assert.equal(g.kind, 'connection');
    assert.deepEqual(releaseTexts(mongo, g), ['client.close()']);
  });

  it('the client handed on is an escape: returned, or stored on the caller\'s object', () => {
    const code = `import { Client } from 'pg';
async function f(state) {
  const client = new Client();
  try { await client.connect(); } catch (e) { await client.end(); throw e; }
  state.client = client;
}`;
    assert.equal(only(code).escape?.kind, 'stored');
  });

  it('not one: never closed in the function, kept by the module, or a parameter', () => {
    none(`import { Client } from 'pg';
async function f() { const client = new Client(); await client.connect(); return client; }`);
    none(`import { Client } from 'pg';
const client = new Client();
async function f() { await client.connect(); await client.query('x'); await client.end(); }`);
    none(`const mysql = require('mysql2/promise');
async function f(conn) { conn = await mysql.createConnection({}); await conn.query('x'); await conn.end(); }`);
    none(`const mysql = require('mysql2/promise');
let conn;
async function f() { conn = await mysql.createConnection({}); await conn.query('x'); await conn.end(); }`);
  });
});

describe('escapes and releases in callbacks', () => {
  it('returned and stored resources', () => {
    const returned = only(`import { Pool } from 'pg';
const pool = new Pool();
async function f() { const client = await pool.connect(); return client; }`);
    assert.equal(returned.escape?.kind, 'returned');
    const stored = only(`import { Mutex } from 'async-mutex';
class Job { m = new Mutex(); async start() { this.release = await this.m.acquire(); } }`);
    assert.equal(stored.escape?.kind, 'stored');
  });

  it('passed to a function', () => {
    const a = only(`import { Pool } from 'pg';
const pool = new Pool();
async function f() { const client = await pool.connect(); await migrate(client); }`);
    assert.equal(a.escape?.kind, 'passed');
  });

  it('a release in a listener is in a nested function', () => {
    const a = only(`import { Pool } from 'pg';
const pool = new Pool();
async function f() { const client = await pool.connect(); stream.on('end', () => client.release()); }`);
    assert.equal(a.releaseCalls[0]?.inNestedFunction, true);
    assert.equal(a.escape?.kind, 'closure');
  });

  it('a let declared before a try and released in finally', () => {
    const code = `import { Mutex } from 'async-mutex';
const m = new Mutex();
async function f() {
  let release;
  try { release = await m.acquire(); await work(); } finally { release?.(); }
}`;
    const a = only(code);
    assert.deepEqual(releaseTexts(code, a), ['release?.()']);
    assert.notEqual(a.releaseCalls[0]?.finallyOf, null);
  });
});

describe('isHeldAt / acquisitionsHeldAt', () => {
  const code = `import { Mutex } from 'async-mutex';
const m = new Mutex();
async function f() {
  before();
  const release = await m.acquire();
  try {
    await inside();
  } finally {
    release();
  }
  after();
}
async function g() {
  const release = await m.acquire();
  middle();
  if (x) { release(); return; }
  branch();
  release();
  tail();
}`;
  const parsed = parse(code);
  const call = (text: string) => parsed.find(AST_NODE_TYPES.CallExpression, text);

  it('the region between acquire and a finally release', () => {
    const a = getAcquisition(parsed.sourceCode, call('m.acquire()'));
    assert.ok(a);
    assert.equal(isHeldAt(a, call('before()')), false);
    assert.equal(isHeldAt(a, call('inside()')), true);
    assert.equal(isHeldAt(a, call('after()')), false);
    assert.equal(isHeldAt(a, call('middle()')), false, 'another function');
  });

  it('a release inside a branch does not end the region for later code', () => {
    assert.deepEqual(acquisitionsHeldAt(parsed.sourceCode, call('middle()')).length, 1);
    assert.deepEqual(acquisitionsHeldAt(parsed.sourceCode, call('branch()')).length, 1);
    assert.deepEqual(acquisitionsHeldAt(parsed.sourceCode, call('tail()')).length, 0);
  });

  it('heldRange spans from the acquire to the last release', () => {
    const [first, second] = findManualAcquisitions(parsed.sourceCode);
    assert.ok(first && second);
    assert.equal(code.slice(first.heldRange[0], first.heldRange[1]).trim().endsWith('release()'), true);
    assert.equal(second.releaseCalls.length, 2);
  });
});

describe('findManualAcquisitions: usage evidence', () => {
  function all(code: string): Acquisition[] {
    return [...findManualAcquisitions(parse(code).sourceCode)];
  }

  it('an imported pool whose connection is released is a pool', () => {
    const code = `import pool from '../db';
async function f() {
  const client = await pool.connect();
  await client.query('SELECT 1');
  client.release();
}`;
    const a = only(code);
    assert.equal(a.recognizedBy, 'usage');
    assert.equal(a.kind, 'dbClient');
    assert.equal(a.resultRole, 'resource');
    assert.deepEqual(releaseTexts(code, a), ['client.release()']);
  });

  it("mysql2's releaseConnection shows the same pair", () => {
    const code = `async function f(db) {
  const conn = await db.getConnection();
  await conn.execute('SELECT 1');
  db.releaseConnection(conn);
}`;
    const a = only(code);
    assert.equal(a.kind, 'dbClient');
    assert.deepEqual(releaseTexts(code, a), ['db.releaseConnection(conn)']);
  });

  it('a resource handed back to the receiver is a pooled resource', () => {
    const code = `async function f(browsers) {
  const browser = await browsers.acquire();
  await browser.render();
  await browsers.release(browser);
}`;
    const a = only(code);
    assert.equal(a.kind, 'pooledResource');
    assert.deepEqual(releaseTexts(code, a), ['browsers.release(browser)']);
  });

  it('an acquired function that is called is a lock', () => {
    const code = `async function f(gate) {
  const done = await gate.acquire();
  await work();
  done();
}`;
    const a = only(code);
    assert.equal(a.kind, 'lock');
    assert.equal(a.resultRole, 'releaseFunction');
  });

  it('one pair makes the other acquires of the same receiver acquisitions', () => {
    const code = `import pool from '../db';
async function a() {
  const client = await pool.connect();
  try { await client.query('a'); } finally { client.release(); }
}
async function b() {
  const other = await pool.connect();
  await other.query('b');
}`;
    const found = all(code);
    assert.deepEqual(found.map((x) => [x.displayName, x.recognizedBy, x.releaseCalls.length]), [['client', 'usage', 1], ['other', 'usage', 0]]);
  });

  it('this.pool in one class is one receiver across its methods', () => {
    const code = `class Repo {
  async a() {
    const c = await this.pool.connect();
    try { await c.query('a'); } finally { c.release(); }
  }
  async b() {
    const c = await this.pool.connect();
    return c.query('b');
  }
}`;
    assert.deepEqual(all(code).map((x) => x.recognizedBy), ['usage', 'usage']);
  });

  it('evidence on one receiver says nothing about another', () => {
    const code = `async function f(a, b) {
  const one = await a.connect();
  one.release();
  const two = await b.connect();
  await two.query('x');
}`;
    assert.deepEqual(all(code).map((x) => x.displayName), ['one']);
  });

  it('the same name in two scopes is two receivers', () => {
    const code = `async function f(pool) {
  const c = await pool.connect();
  c.release();
}
async function g(pool) {
  const c = await pool.connect();
  await c.query('x');
}`;
    assert.equal(all(code).length, 1);
  });

  it('no pair, no acquisition: one-shot queries, a dropped connect result, a socket', () => {
    none(`import pool from '../db';
async function f() {
  await pool.query('SELECT 1');
  await pool.run(task);
}`);
    none(`async function f(client) {
  await client.connect();
  await client.query('SELECT 1');
  await client.end();
}`);
    none(`async function f(net) {
  const socket = await net.connect(8080);
  socket.write('hello');
  socket.end();
}`);
  });

  it('an unawaited connect is not evidence', () => {
    none(`async function f(pool) {
  const pending = pool.connect();
  pending.release();
}`);
  });
});

describe('findManualAcquisitions: a release function destructured from the result', () => {
  it('`const { release } = await x.lock()` with `release()` called is a lock with that release', () => {
    const code = `async function f(manager) {
  const { nonce, release } = await manager.lock('a');
  await send(nonce);
  release();
}`;
    const a = only(code);
    assert.equal(a.recognizedBy, 'usage');
    assert.equal(a.resultRole, 'releaseFunction');
    assert.equal(a.resourceNode?.name, 'release');
    assert.deepEqual(releaseTexts(code, a), ['release()']);
  });

  it('a pattern without `release` shows nothing', () => {
    none(`async function f(manager) {
  const { nonce, done } = await manager.lock('a');
  done();
}`);
  });

  it('a destructured release never called shows nothing', () => {
    none(`async function f(manager) {
  const { release } = await manager.acquire();
  keep(release);
}`);
  });
});

describe('findManualAcquisitions: a wrapper that hands its acquire on', () => {
  it('an awaited promisified getConnection whose result is returned is a connection', () => {
    const code = `const getConnection = (pool) => new Promise((resolve, reject) => {
  pool.getConnection((err, connection) => (err ? reject(err) : resolve(connection)));
});
export async function open(pool) {
  const connection = await getConnection(pool);
  return connection;
}`;
    const a = only(code);
    assert.equal(a.kind, 'dbClient');
    assert.equal(a.resourceNode?.name, 'connection');
    assert.equal(a.escape?.kind, 'returned');
  });

  it('an awaited call whose result is returned but that acquires nothing is not one', () => {
    none(`const load = (db) => new Promise((resolve) => db.get((err, row) => resolve(row)));
export async function open(db) {
  const row = await load(db);
  return row;
}`);
  });
});
