import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRuleTester } from '../ruleTester';

const ruleTester = createRuleTester();

// `as never`: the rule tester pins an older @typescript-eslint/utils, whose RuleModule type differs only nominally.
// Each invalid error carries the full message as a comment, for reading; messageId, position,
// output and every suggestion's output are what is asserted.
ruleTester.run<MessageId, Options>('release-in-finally', rule as never, {
  valid: [
    // Locks taken in order before one \`try\`: the second acquire waits until granted, it does not fail.
    `
import { Semaphore } from 'async-sema';
const global = new Semaphore(8);
const perUser = new Semaphore(2);
export async function upload(chunk) {
  await global.acquire();
  await perUser.acquire();
  try {
    await store(chunk);
  } finally {
    perUser.release();
    global.release();
  }
}
`,
  {
    // released in finally
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
  },
  {
    // let declared before the try, acquired and released inside it
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  let release;
  try {
    release = await mutex.acquire();
    await process(job);
  } finally {
    release?.();
  }
}
`,
  },
  {
    // early return and throw inside the guarded try are covered by finally
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    if (!job) return null;
    if (job.bad) throw new Error('bad');
    return await process(job);
  } finally {
    release();
  }
}
`,
  },
  {
    // returning a plain value from the guarded try
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
function format(job) {
  return String(job.id);
}
async function handle(job) {
  const release = await mutex.acquire();
  try {
    const result = await process(job);
    return format(result);
  } finally {
    release();
  }
}
`,
  },
  {
    // runExclusive releases however the callback ends
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  return mutex.runExclusive(async () => process(job));
}
`,
  },
  {
    // Semaphore and withTimeout objects used through runExclusive
    code: `
import { Semaphore, withTimeout } from 'async-mutex';
const sem = withTimeout(new Semaphore(3), 500);
async function fetchOne(url) {
  await sem.runExclusive(async () => download(url));
}
`,
  },
  {
    // only a constant assignment between acquire and release: nothing can throw
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
let counter = 0;
async function bump() {
  const release = await mutex.acquire();
  counter += 1;
  release();
}
`,
  },
  {
    // Date.now() cannot throw
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
let last = 0;
async function stamp() {
  const release = await mutex.acquire();
  last = Date.now();
  release();
}
`,
  },
  {
    // a try/catch that handles and both paths release
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
    release();
  } catch (err) {
    release();
    throw err;
  }
}
`,
  },
  {
    // a catch that swallows, then the release: every path reaches it
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } catch (err) {
    console.error(err);
  }
  release();
}
`,
  },
  {
    // both branches release before leaving
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
let ready = false;
async function handle() {
  const release = await mutex.acquire();
  if (ready) {
    release();
    return 'cached';
  }
  ready = true;
  release();
  return 'fresh';
}
`,
  },
  {
    // break inside a loop that starts after the acquire stays in the held region
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(items) {
  const release = await mutex.acquire();
  try {
    for (const item of items) {
      if (item.last) break;
      await process(item);
    }
  } finally {
    release();
  }
}
`,
  },
  {
    // a release function stored on this changes owner
    code: `
import { Mutex } from 'async-mutex';
class Session {
  mutex = new Mutex();
  async begin() {
    this.release = await this.mutex.acquire();
    await this.load();
  }
  end() {
    this.release();
  }
}
`,
  },
  {
    // a wrapper that returns the acquire promise: the caller owns the lock
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
function lockJobs() {
  return mutex.acquire();
}
`,
  },
  {
    // the release function is returned to the caller
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function take() {
  const release = await mutex.acquire();
  warmUp();
  return release;
}
`,
  },
  {
    // the release function goes into a collection
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
const held = [];
async function take() {
  const release = await mutex.acquire();
  held.push(release);
}
`,
  },
  {
    // the release function is passed to a function that takes it
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function take(resolve) {
  const release = await mutex.acquire();
  resolve(release);
}
`,
  },
  {
    // released in a callback that runs later: ownership handed to the callback
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function start(stream) {
  const release = await mutex.acquire();
  stream.on('close', () => release());
  await stream.open();
}
`,
  },
  {
    // release through an alias: not this function's to judge
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function start() {
  const release = await mutex.acquire();
  const done = release;
  await work();
  done();
}
`,
  },
  {
    // async-sema released in finally
    code: `
import { Sema } from 'async-sema';
const sema = new Sema(4);
async function crawl(url) {
  await sema.acquire();
  try {
    return await fetch(url);
  } finally {
    sema.release();
  }
}
`,
  },
  {
    // await-lock released in finally
    code: `
import AwaitLock from 'await-lock';
const lock = new AwaitLock();
async function append(line) {
  await lock.acquireAsync();
  try {
    await write(line);
  } finally {
    lock.release();
  }
}
`,
  },
  {
    // pg client released in finally after a transaction
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function transfer(from, to) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE a SET n = n - 1 WHERE id = $1', [from]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
`,
  },
  {
    // one-shot pool.query checks a client out and back in by itself
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function count() {
  const res = await pool.query('SELECT count(*) FROM t');
  return res.rows[0];
}
`,
  },
  {
    // mysql2 one-shot pool.execute
    code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows() {
  const [result] = await pool.execute('SELECT 1');
  return result;
}
`,
  },
  {
    // pg client returned to the caller, who releases it
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function checkout() {
  const client = await pool.connect();
  client.on('error', console.error);
  return client;
}
`,
  },
  {
    // pg client stored on this for the life of the object
    code: `
import { Pool } from 'pg';
class Listener {
  pool = new Pool();
  async start() {
    this.client = await this.pool.connect();
    await this.client.query('LISTEN jobs');
  }
}
`,
  },
  {
    // pg client handed to a function that takes it
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function open() {
  const client = await pool.connect();
  return new Repository(client);
}
`,
  },
  {
    // the callback form of pool.connect
    code: `
import { Pool } from 'pg';
const pool = new Pool();
function run() {
  pool.connect((err, client, done) => {
    if (err) return;
    client.query('SELECT 1', () => done());
  });
}
`,
  },
  {
    // a pg Client is not a pool checkout: nothing is released to a pool (the connection it opens
    // itself is checked as one, in release-in-finally.connections.test.ts)
    code: `
import { Client } from 'pg';
async function once() {
  const client = new Client();
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}
`,
  },
  {
    // released in a stream listener: beyond this function's paths
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function stream(sql) {
  const client = await pool.connect();
  const cursor = client.query(sql);
  cursor.on('end', () => client.release());
  return cursor;
}
`,
  },
  {
    // await using disposes at the end of the block
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function count() {
  await using client = await pool.connect();
  return client.query('SELECT 1');
}
`,
  },
  {
    // generic-pool use() lends and returns the resource
    code: `
import { createPool } from 'generic-pool';
const pool = createPool(factory, { max: 10 });
async function send(msg) {
  await pool.use((conn) => conn.send(msg));
}
`,
  },
  {
    // generic-pool released in finally
    code: `
import { createPool } from 'generic-pool';
const pool = createPool(factory, { max: 10 });
async function send(msg) {
  const conn = await pool.acquire();
  try {
    await conn.send(msg);
  } finally {
    await pool.release(conn);
  }
}
`,
  },
  {
    // redlock using() extends and releases by itself
    code: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  await redlock.using([\`account:\${account.id}\`], 5000, async () => bill(account));
}
`,
  },
  {
    // redlock released in finally
    code: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  const lock = await redlock.acquire(['k'], 5000);
  try {
    await bill(account);
  } finally {
    await lock.release();
  }
}
`,
  },
  {
    // proper-lockfile released in finally
    code: `
import lockfile from 'proper-lockfile';
async function update(file, data) {
  const release = await lockfile.lock(file, { retries: 3 });
  try {
    await writeFile(file, data);
  } finally {
    await release();
  }
}
`,
  },
  {
    // navigator.locks.request holds the lock for the callback only
    code: `
async function sync() {
  await navigator.locks.request('sync', async () => {
    await pushChanges();
  });
}
`,
  },
  {
    // async-lock acquire(key, fn) is a callback API
    code: `
import AsyncLock from 'async-lock';
const lock = new AsyncLock();
async function update(key) {
  await lock.acquire(key, async () => write(key));
}
`,
  },
  {
    // an acquire with no release counterpart (a token bucket)
    code: `
async function send(bucket, msg) {
  await bucket.acquire();
  await transport.send(msg);
}
`,
  },
  {
    // acquire on one object, release on another: no evident pairing
    code: `
async function send(a, b) {
  await a.acquire();
  await work();
  b.release();
}
`,
  },
  {
    // a team method pair that is not configured
    code: `
async function rebuild(index) {
  await index.lockAsync();
  await index.rebuild();
  index.unlock();
}
`,
  },
  {
    // a resources entry restricted to another module
    code: `
async function rebuild(index) {
  await index.lockAsync();
  await index.rebuild();
  index.unlock();
}
`,
    options: [{ "resources": [{ "acquire": "lockAsync", "release": "unlock", "module": "@acme/locks" }] }],
  },
  {
    // p-limit runs the callback holding a slot and frees it itself
    code: `
import pLimit from 'p-limit';
const limit = pLimit(4);
async function all(urls) {
  return Promise.all(urls.map((url) => limit(() => fetch(url))));
}
`,
  },
  {
    // the acquire promise chained with then: the callback owns the lock
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
function later(job) {
  return mutex.acquire().then((release) => process(job).finally(release));
}
`,
  },
  {
    // a JavaScript file with the release in finally
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
export async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
    filename: 'file.js',
  },
  {
    // a mysql2 connection released in finally, early return inside the try
    code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows(id) {
  const conn = await pool.getConnection();
  try {
    if (!id) return [];
    const [result] = await conn.execute('SELECT * FROM t WHERE id = ?', [id]);
    return result;
  } finally {
    conn.release();
  }
}
`,
  },
  {
    // acquired in one method and released in another: a deliberate hand-over
    code: `
import { Mutex } from 'async-mutex';
class Session {
  mutex = new Mutex();
  async begin() {
    await this.mutex.acquire();
    await this.load();
  }
  end() {
    this.mutex.release();
  }
}
`,
  },
  {
    // the release method handed to a listener as a value
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function copyOut(sql, sink) {
  const client = await pool.connect();
  const stream = client.query(sql);
  stream.on('end', client.release);
  stream.pipe(sink);
}
`,
  },
  {
    // the release runs on both paths of a try/catch and the catch rethrows after releasing
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function touch(id) {
  const client = await pool.connect();
  try {
    await client.query('UPDATE t SET at = now() WHERE id = $1', [id]);
    client.release();
  } catch (err) {
    client.release(err);
    throw err;
  }
}
`,
  },
  {
    // a lock taken only on one branch, released in finally
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function maybeLocked(needLock) {
  let release;
  if (needLock) release = await mutex.acquire();
  try {
    await work();
  } finally {
    release?.();
  }
}
`,
  },
  {
    // a socket connect is not a pool checkout: connect has no evident pairing
    code: `
async function dial(socket) {
  await socket.connect();
  await socket.write('hello');
  socket.release();
}
`,
  },
  {
    // option resources: the acquired value released in finally
    code: `
async function rebuild(store) {
  const handle = await store.lockAsync('index');
  try {
    await store.rebuild();
  } finally {
    await handle.unlock();
  }
}
`,
    options: [{ "resources": [{ "acquire": "lockAsync", "release": "unlock" }] }],
  },
  {
    // usage evidence: an imported pool used only for one-shot queries shows no acquire/release pair
    code: `
import pool from '../db';
export async function list() {
  const { rows } = await pool.query('SELECT * FROM users');
  return rows;
}
export async function nightly(task) {
  await pool.run(task);
}
`,
  },
  {
    // usage evidence: a pg Client connects and ends; the dropped connect result is not a checkout
    code: `
export async function migrate(client) {
  await client.connect();
  await client.query('CREATE TABLE t (id int)');
  await client.end();
}
`,
  },
  {
    // usage evidence: a socket from connect() is ended, never released, so connect() here lends nothing
    code: `
import net from './net';
export async function ping(port) {
  const socket = await net.connect(port);
  await socket.write('ping');
  socket.end();
}
`,
  },
  {
    // usage evidence: only synchronous Map operations between acquire and release cannot throw
    code: `
import { locks } from './locks';
const pending = new Map();
export async function track(id, job) {
  const release = await locks.acquire();
  if (!pending.has(id)) pending.set(id, job);
  pending.delete('stale');
  release();
}
`,
  },
  {
    // usage evidence: a class-field Map, and an optional read on what get returns
    code: `
export class Sessions {
  byId = new Map();
  constructor(lock) {
    this.lock = lock;
  }
  async touch(id, at) {
    const release = await this.lock.acquire();
    const last = this.byId.get(id)?.at;
    this.byId.set(id, { at, last });
    release();
  }
}
`,
  },
  {
    // usage evidence: the pair on one pool says nothing about a second pool in the same file
    code: `
import { primary, replica } from './db';
export async function copy(id) {
  const src = await primary.connect();
  try {
    await src.query('SELECT 1');
  } finally {
    src.release();
  }
  const dst = await replica.connect();
  await dst.query('SELECT 2');
}
`,
  },
  {
    // usage evidence: a connection handed to a helper belongs to the helper
    code: `
import pool from '../db';
export async function a() {
  const client = await pool.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    client.release();
  }
}
export async function b() {
  const client = await pool.connect();
  await runMigrations(client);
}
`,
  },
  ],
  invalid: [
  {
    // The second lock has a timeout: its acquire can reject and leave the first one held.
    code: `
import { Mutex, withTimeout } from 'async-mutex';
const outer = new Mutex();
const inner = withTimeout(new Mutex(), 500);
export async function move() {
  const releaseOuter = await outer.acquire();
  const releaseInner = await inner.acquire();
  try {
    await work();
  } finally {
    releaseInner();
    releaseOuter();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'throwBeforeTry',
        line: 6,
        column: 30,
        // The lock from \`outer.acquire()\` is not released if line 7 throws, before the \`try\` at line 8 begins: … Acquire right before the \`try\`.
        // No move into the `try`: `releaseInner` would leave scope for the `finally` that releases it.
        suggestions: [],
      },
    ],
  },
  {
    // a comment trailing the acquire stays on its line; the try starts on the next one (runExclusive: after its `{`)
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire(); // one job at a time
  await process(job);
  release();
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire(); // one job at a time
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  await mutex.runExclusive(async () => { // one job at a time
    await process(job);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // async-mutex: released after the work; the one autofix shape
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  await process(job);
  release();
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released if line 6 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  await mutex.runExclusive(async () => {
    await process(job);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // comments between acquire and release move into the try
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  // one job at a time
  await process(job);
  await audit(job);
  release();
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    // one job at a time
    await process(job);
    await audit(job);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  await mutex.runExclusive(async () => {
    // one job at a time
    await process(job);
    await audit(job);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // Semaphore with [value, release]: runExclusive passes the value on
    code: `
import { Semaphore } from 'async-mutex';
const sem = new Semaphore(4);
async function fetchOne(url) {
  const [slot, release] = await sem.acquire();
  await download(url, slot);
  release();
}
`,
    output: `
import { Semaphore } from 'async-mutex';
const sem = new Semaphore(4);
async function fetchOne(url) {
  const [slot, release] = await sem.acquire();
  try {
    await download(url, slot);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 33,
        // The permit from `sem.acquire()` is not released if line 6 throws: the permit is lost, and each loss shrinks the capacity until nothing runs. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Semaphore } from 'async-mutex';
const sem = new Semaphore(4);
async function fetchOne(url) {
  await sem.runExclusive(async (slot) => {
    await download(url, slot);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // withTimeout-wrapped mutex released through the owner
    code: `
import { Mutex, withTimeout } from 'async-mutex';
const lock = withTimeout(new Mutex(), 1000);
async function save(doc) {
  await lock.acquire();
  await write(doc);
  lock.release();
}
`,
    output: `
import { Mutex, withTimeout } from 'async-mutex';
const lock = withTimeout(new Mutex(), 1000);
async function save(doc) {
  await lock.acquire();
  try {
    await write(doc);
  } finally {
    lock.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 9,
        // The lock from `lock.acquire()` is not released if line 6 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex, withTimeout } from 'async-mutex';
const lock = withTimeout(new Mutex(), 1000);
async function save(doc) {
  await lock.runExclusive(async () => {
    await write(doc);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // early return between acquire and release
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  if (!job.ready) {
    return null;
  }
  await process(job);
  release();
  return job.id;
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is never released on the `return` at line 7: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    if (!job.ready) {
      return null;
    }
    await process(job);
  } finally {
    release();
  }
  return job.id;
}
`,
          },
        ],
      },
    ],
  },
  {
    // explicit throw between acquire and release
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  if (job.attempts > 3) throw new Error('too many attempts');
  await process(job);
  release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is never released on the `throw` at line 6: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    if (job.attempts > 3) throw new Error('too many attempts');
    await process(job);
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // break out of the loop that encloses the acquire
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function drain(jobs) {
  for (const job of jobs) {
    const release = await mutex.acquire();
    if (job.last) break;
    await process(job);
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 6,
        column: 27,
        // The lock from `mutex.acquire()` is never released on the `break` at line 7: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function drain(jobs) {
  for (const job of jobs) {
    const release = await mutex.acquire();
    try {
      if (job.last) break;
      await process(job);
    } finally {
      release();
    }
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // continue to the next iteration with the lock still held
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function drain(jobs) {
  for (const job of jobs) {
    const release = await mutex.acquire();
    if (job.skip) continue;
    await process(job);
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 6,
        column: 27,
        // The lock from `mutex.acquire()` is never released on the `continue` at line 7: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function drain(jobs) {
  for (const job of jobs) {
    const release = await mutex.acquire();
    try {
      if (job.skip) continue;
      await process(job);
    } finally {
      release();
    }
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // released inside try only: the catch swallows the error and the lock stays held
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
    release();
  } catch (err) {
    console.error(err);
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    try {
      await process(job);
    } catch (err) {
      console.error(err);
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // released only in catch
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } catch (err) {
    release();
    throw err;
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'releasedOnlyInCatch',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is released only in the `catch` at line 9, so a run that succeeds keeps it: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    try {
      await process(job);
    } catch (err) {
      throw err;
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // released after a try/catch whose catch rethrows
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } catch (err) {
    await report(err);
    throw err;
  }
  release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is never released on the `throw` at line 10: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    try {
      await process(job);
    } catch (err) {
      await report(err);
      throw err;
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // never released, and the release function does not leave the function
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  await process(job);
}
`,
    output: null,
    errors: [
      {
        messageId: 'neverReleased',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is never released in this function: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // code that can throw between the acquire and the try (ErrorProne LockNotBeforeTry)
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  const input = await load(job.id);
  try {
    await process(input);
  } finally {
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'throwBeforeTry',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released if line 6 throws, before the `try` at line 7 begins: the lock stays held and every later caller waits for it forever. Acquire right before the `try`.
        suggestions: [
          {
            messageId: 'moveIntoTry',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    const input = await load(job.id);
    await process(input);
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // return of an un-awaited promise inside the guarded try
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function process(job) {
  return job;
}
async function handle(job) {
  const release = await mutex.acquire();
  try {
    return process(job);
  } finally {
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'returnWithoutAwait',
        line: 8,
        column: 25,
        // The `return` at line 10 hands back a promise without `await`, so `finally` releases the lock from `mutex.acquire()` before that work finishes and the next holder runs alongside it. Return `await …`.
        suggestions: [
          {
            messageId: 'addAwait',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function process(job) {
  return job;
}
async function handle(job) {
  const release = await mutex.acquire();
  try {
    return await process(job);
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // released on one branch only
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  job.state = 'running';
  if (job.done) {
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'unreleasedPath',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released on every path through line 7: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    job.state = 'running';
    if (job.done) {
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // class field mutex released through this.mutex.release()
    code: `
import { Mutex } from 'async-mutex';
class Store {
  mutex = new Mutex();
  async put(key, value) {
    await this.mutex.acquire();
    await this.db.put(key, value);
    this.mutex.release();
  }
}
`,
    output: `
import { Mutex } from 'async-mutex';
class Store {
  mutex = new Mutex();
  async put(key, value) {
    await this.mutex.acquire();
    try {
      await this.db.put(key, value);
    } finally {
      this.mutex.release();
    }
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 11,
        // The lock from `this.mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
class Store {
  mutex = new Mutex();
  async put(key, value) {
    await this.mutex.runExclusive(async () => {
      await this.db.put(key, value);
    });
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // a mutex known from a constructor parameter's type annotation
    code: `
import { Mutex } from 'async-mutex';
class Store {
  constructor(private readonly lock: Mutex) {}
  async put(key: string, value: string) {
    const release = await this.lock.acquire();
    await this.write(key, value);
    release();
  }
}
`,
    output: `
import { Mutex } from 'async-mutex';
class Store {
  constructor(private readonly lock: Mutex) {}
  async put(key: string, value: string) {
    const release = await this.lock.acquire();
    try {
      await this.write(key, value);
    } finally {
      release();
    }
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 27,
        // The lock from `this.lock.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
class Store {
  constructor(private readonly lock: Mutex) {}
  async put(key: string, value: string) {
    await this.lock.runExclusive(async () => {
      await this.write(key, value);
    });
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // let binding assigned later, released after the work
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  let release;
  release = await mutex.acquire();
  await process(job);
  release();
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  let release;
  release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 19,
        // The lock from `mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // CommonJS require of async-mutex
    code: `
const { Mutex } = require('async-mutex');
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  await process(job);
  release();
}
`,
    output: `
const { Mutex } = require('async-mutex');
const mutex = new Mutex();
async function handle(job) {
  const release = await mutex.acquire();
  try {
    await process(job);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released if line 6 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
const { Mutex } = require('async-mutex');
const mutex = new Mutex();
async function handle(job) {
  await mutex.runExclusive(async () => {
    await process(job);
  });
}
`,
          },
        ],
      },
    ],
  },
  {
    // async-sema: acquire/release on the semaphore
    code: `
import { Sema } from 'async-sema';
const sema = new Sema(5);
async function crawl(url) {
  await sema.acquire();
  const page = await fetch(url);
  sema.release();
  return page;
}
`,
    output: `
import { Sema } from 'async-sema';
const sema = new Sema(5);
async function crawl(url) {
  await sema.acquire();
  try {
    const page = await fetch(url);
    return page;
  } finally {
    sema.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 9,
        // The permit from `sema.acquire()` is not released if line 6 throws: the permit is lost, and each loss shrinks the capacity until nothing runs. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // async-sema: early return skips the release
    code: `
import { Sema } from 'async-sema';
const sema = new Sema(5);
async function crawl(url) {
  await sema.acquire();
  if (seen.has(url)) return;
  await fetch(url);
  sema.release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 9,
        // The permit from `sema.acquire()` is never released on the `return` at line 6: the permit is lost, and each loss shrinks the capacity until nothing runs. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Sema } from 'async-sema';
const sema = new Sema(5);
async function crawl(url) {
  await sema.acquire();
  try {
    if (seen.has(url)) return;
    await fetch(url);
  } finally {
    sema.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // await-lock acquireAsync/release
    code: `
import AwaitLock from 'await-lock';
const lock = new AwaitLock();
async function append(line) {
  await lock.acquireAsync();
  await fs.appendFile('log.txt', line);
  lock.release();
}
`,
    output: `
import AwaitLock from 'await-lock';
const lock = new AwaitLock();
async function append(line) {
  await lock.acquireAsync();
  try {
    await fs.appendFile('log.txt', line);
  } finally {
    lock.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 9,
        // The lock from `lock.acquireAsync()` is not released if line 6 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // pg: the client goes back to the pool only if the query succeeds; later statements that use the result move into the try
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function findUser(id) {
  const client = await pool.connect();
  const res = await client.query('SELECT * FROM users WHERE id = $1', [id]);
  client.release();
  return res.rows[0];
}
`,
    output: `
import { Pool } from 'pg';
const pool = new Pool();
async function findUser(id) {
  const client = await pool.connect();
  try {
    const res = await client.query('SELECT * FROM users WHERE id = $1', [id]);
    return res.rows[0];
  } finally {
    client.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 24,
        // `client` from `pool.connect()` is not released if line 6 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // pg: released inside try only, the catch logs and goes on
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function touch(id) {
  const client = await pool.connect();
  try {
    await client.query('UPDATE t SET at = now() WHERE id = $1', [id]);
    client.release();
  } catch (err) {
    log(err);
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 24,
        // `client` from `pool.connect()` is not released if line 7 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Pool } from 'pg';
const pool = new Pool();
async function touch(id) {
  const client = await pool.connect();
  try {
    try {
      await client.query('UPDATE t SET at = now() WHERE id = $1', [id]);
    } catch (err) {
      log(err);
    }
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // pg: never released
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function count() {
  const client = await pool.connect();
  const res = await client.query('SELECT count(*) FROM t');
  console.log(res.rows[0]);
}
`,
    output: null,
    errors: [
      {
        messageId: 'neverReleased',
        line: 5,
        column: 24,
        // `client` from `pool.connect()` is never released in this function: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Pool } from 'pg';
const pool = new Pool();
async function count() {
  const client = await pool.connect();
  try {
    const res = await client.query('SELECT count(*) FROM t');
    console.log(res.rows[0]);
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // pg: BEGIN before the try that releases
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function transfer(from, to) {
  const client = await pool.connect();
  await client.query('BEGIN');
  try {
    await client.query('UPDATE a SET n = n - 1 WHERE id = $1', [from]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'throwBeforeTry',
        line: 5,
        column: 24,
        // `client` from `pool.connect()` is not released if line 6 throws, before the `try` at line 7 begins: the connection never goes back to the pool, which runs dry under load. Acquire right before the `try`.
        suggestions: [
          {
            messageId: 'moveIntoTry',
            output: `
import { Pool } from 'pg';
const pool = new Pool();
async function transfer(from, to) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE a SET n = n - 1 WHERE id = $1', [from]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // pg: returning the query promise from the guarded try
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function list() {
  const client = await pool.connect();
  try {
    return client.query('SELECT * FROM t');
  } finally {
    client.release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'returnWithoutAwait',
        line: 5,
        column: 24,
        // The `return` at line 7 hands back a promise without `await`, so `finally` releases `client` from `pool.connect()` before that work finishes and the next holder runs alongside it. Return `await …`.
        suggestions: [
          {
            messageId: 'addAwait',
            output: `
import { Pool } from 'pg';
const pool = new Pool();
async function list() {
  const client = await pool.connect();
  try {
    return await client.query('SELECT * FROM t');
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // pg transaction: ROLLBACK and rethrow, release after the try/catch
    code: `
import { Pool } from 'pg';
const pool = new Pool();
async function transfer(from, to) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
  client.release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 24,
        // `client` from `pool.connect()` is never released on the `throw` at line 11: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Pool } from 'pg';
const pool = new Pool();
async function transfer(from, to) {
  const client = await pool.connect();
  try {
    try {
      await client.query('BEGIN');
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // mysql2/promise getConnection/release
    code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows() {
  const conn = await pool.getConnection();
  const [result] = await conn.execute('SELECT 1');
  conn.release();
  return result;
}
`,
    output: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows() {
  const conn = await pool.getConnection();
  try {
    const [result] = await conn.execute('SELECT 1');
    return result;
  } finally {
    conn.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 22,
        // `conn` from `pool.getConnection()` is not released if line 6 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // mysql2: early return with the connection checked out
    code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows(id) {
  const conn = await pool.getConnection();
  if (!id) {
    return [];
  }
  const [result] = await conn.execute('SELECT * FROM t WHERE id = ?', [id]);
  conn.release();
  return result;
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 22,
        // `conn` from `pool.getConnection()` is never released on the `return` at line 7: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({ host: 'db' });
async function rows(id) {
  const conn = await pool.getConnection();
  try {
    if (!id) {
      return [];
    }
    const [result] = await conn.execute('SELECT * FROM t WHERE id = ?', [id]);
    return result;
  } finally {
    conn.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // generic-pool: pool.release(res) after the work
    code: `
import { createPool } from 'generic-pool';
const pool = createPool(factory, { max: 10 });
async function send(msg) {
  const conn = await pool.acquire();
  await conn.send(msg);
  await pool.release(conn);
}
`,
    output: `
import { createPool } from 'generic-pool';
const pool = createPool(factory, { max: 10 });
async function send(msg) {
  const conn = await pool.acquire();
  try {
    await conn.send(msg);
  } finally {
    await pool.release(conn);
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 22,
        // `conn` from `pool.acquire()` is not released if line 6 throws: the resource never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // generic-pool: destroy on one path, release on another; no single release to move into finally
    code: `
import { createPool } from 'generic-pool';
const pool = createPool(factory, { max: 10 });
async function send(msg) {
  const conn = await pool.acquire();
  const alive = await conn.ping();
  if (!alive) {
    await pool.destroy(conn);
    return;
  }
  await conn.send(msg);
  await pool.release(conn);
}
`,
    output: null,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 22,
        // `conn` from `pool.acquire()` is not released if line 6 throws: the resource never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // proper-lockfile: await release() after the work
    code: `
import lockfile from 'proper-lockfile';
async function update(file, data) {
  const release = await lockfile.lock(file);
  await writeFile(file, data);
  await release();
}
`,
    output: `
import lockfile from 'proper-lockfile';
async function update(file, data) {
  const release = await lockfile.lock(file);
  try {
    await writeFile(file, data);
  } finally {
    await release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 25,
        // The file lock from `lockfile.lock()` is not released if line 5 throws: the lock file stays and other processes wait until it goes stale. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // proper-lockfile named import, early return
    code: `
import { lock } from 'proper-lockfile';
async function update(file, data) {
  const release = await lock(file, { retries: 3 });
  if (!data) return false;
  await writeFile(file, data);
  await release();
  return true;
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 4,
        column: 25,
        // The file lock from `lock()` is never released on the `return` at line 5: the lock file stays and other processes wait until it goes stale. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { lock } from 'proper-lockfile';
async function update(file, data) {
  const release = await lock(file, { retries: 3 });
  try {
    if (!data) return false;
    await writeFile(file, data);
  } finally {
    await release();
  }
  return true;
}
`,
          },
        ],
      },
    ],
  },
  {
    // proper-lockfile: never released
    code: `
import lockfile from 'proper-lockfile';
async function update(file, data) {
  const release = await lockfile.lock(file);
  await writeFile(file, data);
}
`,
    output: null,
    errors: [
      {
        messageId: 'neverReleased',
        line: 4,
        column: 25,
        // The file lock from `lockfile.lock()` is never released in this function: the lock file stays and other processes wait until it goes stale. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import lockfile from 'proper-lockfile';
async function update(file, data) {
  const release = await lockfile.lock(file);
  try {
    await writeFile(file, data);
  } finally {
    await release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // redlock: lock.release() after the work
    code: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  const lock = await redlock.acquire([\`account:\${account.id}\`], 5000);
  await bill(account);
  await lock.release();
}
`,
    output: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  const lock = await redlock.acquire([\`account:\${account.id}\`], 5000);
  try {
    await bill(account);
  } finally {
    await lock.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 22,
        // `lock` from `redlock.acquire()` is not released if line 6 throws: the key stays locked for every instance until its TTL runs out. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // redlock: a throw between acquire and release
    code: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  const lock = await redlock.acquire(['k'], 5000);
  if (!account.active) throw new Error('inactive');
  await bill(account);
  await lock.release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 22,
        // `lock` from `redlock.acquire()` is never released on the `throw` at line 6: the key stays locked for every instance until its TTL runs out. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import Redlock from 'redlock';
const redlock = new Redlock([redis]);
async function charge(account) {
  const lock = await redlock.acquire(['k'], 5000);
  try {
    if (!account.active) throw new Error('inactive');
    await bill(account);
  } finally {
    await lock.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // option resources: a team's own acquire/release pair
    code: `
async function rebuild(index) {
  await index.lockAsync();
  await index.rebuild();
  index.unlock();
}
`,
    options: [{ "resources": [{ "acquire": "lockAsync", "release": "unlock" }] }],
    output: `
async function rebuild(index) {
  await index.lockAsync();
  try {
    await index.rebuild();
  } finally {
    index.unlock();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 3,
        column: 9,
        // The resource from `index.lockAsync()` is not released if line 4 throws: it is never given back, and whoever needs it next waits forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // settings resources, shared by every rule
    code: `
async function run(fleet) {
  const car = await fleet.checkout();
  await drive(car);
  fleet.checkin();
}
`,
    settings: { "async-hazards": { "resources": [{ "acquire": "checkout", "release": "checkin" }] } },
    output: `
async function run(fleet) {
  const car = await fleet.checkout();
  try {
    await drive(car);
  } finally {
    fleet.checkin();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 3,
        column: 21,
        // `car` from `fleet.checkout()` is not released if line 4 throws: it is never given back, and whoever needs it next waits forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // unknown library: evident acquire/release pairing on the same object
    code: `
async function work(gate) {
  await gate.acquire();
  await step();
  gate.release();
}
`,
    output: `
async function work(gate) {
  await gate.acquire();
  try {
    await step();
  } finally {
    gate.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 3,
        column: 9,
        // The lock from `gate.acquire()` is not released if line 4 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // unknown library: lock/unlock pairing on this.lock
    code: `
class Cache {
  async refresh() {
    await this.lock.lock();
    await this.reload();
    this.lock.unlock();
  }
}
`,
    output: `
class Cache {
  async refresh() {
    await this.lock.lock();
    try {
      await this.reload();
    } finally {
      this.lock.unlock();
    }
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 11,
        // The lock from `this.lock.lock()` is not released if line 5 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // switch case returns with the lock held
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function route(msg) {
  const release = await mutex.acquire();
  switch (msg.type) {
    case 'ping':
      return 'pong';
    default:
      break;
  }
  release();
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is never released on the `return` at line 8: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function route(msg) {
  const release = await mutex.acquire();
  try {
    switch (msg.type) {
      case 'ping':
        return 'pong';
      default:
        break;
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // labeled continue to an outer loop with the lock held
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function sync(groups) {
  outer: for (const group of groups) {
    const release = await mutex.acquire();
    for (const item of group) {
      if (item.bad) continue outer;
    }
    release();
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'earlyExit',
        line: 6,
        column: 27,
        // The lock from `mutex.acquire()` is never released on the `continue` at line 8: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function sync(groups) {
  outer: for (const group of groups) {
    const release = await mutex.acquire();
    try {
      for (const item of group) {
        if (item.bad) continue outer;
      }
    } finally {
      release();
    }
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // JavaScript file, top-level await
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
const release = await mutex.acquire();
await migrate();
release();
`,
    filename: 'file.js',
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
const release = await mutex.acquire();
try {
  await migrate();
} finally {
  release();
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 23,
        // The lock from `mutex.acquire()` is not released if line 5 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
await mutex.runExclusive(async () => {
  await migrate();
});
`,
          },
        ],
      },
    ],
  },
  {
    // a lock taken on one branch, released after work that can throw
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function maybeLocked(needLock) {
  let release;
  if (needLock) release = await mutex.acquire();
  await work();
  release?.();
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function maybeLocked(needLock) {
  let release;
  if (needLock) release = await mutex.acquire();
  try {
    await work();
  } finally {
    release?.();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 33,
        // The lock from `mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // acquired inside try/catch, released at the end of the try: the catch keeps going with the lock held
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  try {
    const release = await mutex.acquire();
    await process(job);
    release();
  } catch (err) {
    console.error(err);
  }
}
`,
    output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  try {
    const release = await mutex.acquire();
    try {
      await process(job);
    } finally {
      release();
    }
  } catch (err) {
    console.error(err);
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 27,
        // The lock from `mutex.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'useRunExclusive',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(job) {
  try {
    await mutex.runExclusive(async () => {
      await process(job);
    });
  } catch (err) {
    console.error(err);
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // a release inside a loop body does not cover the loop running zero times
    code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(items) {
  const release = await mutex.acquire();
  for (const item of items) {
    release();
    break;
  }
}
`,
    output: null,
    errors: [
      {
        messageId: 'unreleasedPath',
        line: 5,
        column: 25,
        // The lock from `mutex.acquire()` is not released on every path through line 6: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function handle(items) {
  const release = await mutex.acquire();
  try {
    for (const item of items) {
      break;
    }
  } finally {
    release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // option resources: the release method called on the acquired value
    code: `
async function rebuild(store) {
  const handle = await store.lockAsync('index');
  await store.rebuild();
  await handle.unlock();
}
`,
    options: [{ "resources": [{ "acquire": "lockAsync", "release": "unlock" }] }],
    output: `
async function rebuild(store) {
  const handle = await store.lockAsync('index');
  try {
    await store.rebuild();
  } finally {
    await handle.unlock();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 3,
        column: 24,
        // `handle` from `store.lockAsync()` is not released if line 4 throws: it is never given back, and whoever needs it next waits forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // usage evidence: an imported pool; the released connection shows the pair, and the other
    // checkout of the same pool in the file never releases
    code: `
import pool from '../db';
export async function rename(id, name) {
  const client = await pool.connect();
  await client.query('UPDATE users SET name = $1 WHERE id = $2', [name, id]);
  client.release();
}
export async function count() {
  const client = await pool.connect();
  const { rows } = await client.query('SELECT count(*) FROM users');
  return rows[0].count;
}
`,
    output: `
import pool from '../db';
export async function rename(id, name) {
  const client = await pool.connect();
  try {
    await client.query('UPDATE users SET name = $1 WHERE id = $2', [name, id]);
  } finally {
    client.release();
  }
}
export async function count() {
  const client = await pool.connect();
  const { rows } = await client.query('SELECT count(*) FROM users');
  return rows[0].count;
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 24,
        // `client` from `pool.connect()` is not released if line 5 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
      {
        messageId: 'neverReleased',
        line: 9,
        column: 24,
        // `client` from `pool.connect()` is never released in this function: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
import pool from '../db';
export async function rename(id, name) {
  const client = await pool.connect();
  await client.query('UPDATE users SET name = $1 WHERE id = $2', [name, id]);
  client.release();
}
export async function count() {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('SELECT count(*) FROM users');
    return rows[0].count;
  } finally {
    client.release();
  }
}
`,
          },
        ],
      },
    ],
  },
  {
    // usage evidence: a required module's getConnection, then conn.release()
    code: `
const db = require('./db');
async function order(id) {
  const conn = await db.getConnection();
  await conn.beginTransaction();
  await conn.query('UPDATE orders SET paid = 1 WHERE id = ?', [id]);
  await conn.commit();
  conn.release();
}
`,
    output: `
const db = require('./db');
async function order(id) {
  const conn = await db.getConnection();
  try {
    await conn.beginTransaction();
    await conn.query('UPDATE orders SET paid = 1 WHERE id = ?', [id]);
    await conn.commit();
  } finally {
    conn.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 22,
        // `conn` from `db.getConnection()` is not released if line 5 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // usage evidence: generic-pool's shape, the resource handed back to the receiver
    code: `
import { browsers } from './browsers';
export async function render(url) {
  const page = await browsers.acquire();
  const html = await page.render(url);
  await browsers.release(page);
  return html;
}
`,
    output: `
import { browsers } from './browsers';
export async function render(url) {
  const page = await browsers.acquire();
  try {
    const html = await page.render(url);
    return html;
  } finally {
    await browsers.release(page);
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 22,
        // `page` from `browsers.acquire()` is not released if line 5 throws: it is never given back, and whoever needs it next waits forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // usage evidence: acquire resolves to a function that is called to release
    code: `
import { locks } from './locks';
export async function bump(key) {
  const release = await locks.acquire();
  await store.increment(key);
  release();
}
`,
    output: `
import { locks } from './locks';
export async function bump(key) {
  const release = await locks.acquire();
  try {
    await store.increment(key);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 25,
        // The lock from `locks.acquire()` is not released if line 5 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // usage evidence: acquire and release on the same imported receiver
    code: `
import { gate } from './gate';
export async function send(msg) {
  await gate.acquire();
  await transport.send(msg);
  gate.release();
}
`,
    output: `
import { gate } from './gate';
export async function send(msg) {
  await gate.acquire();
  try {
    await transport.send(msg);
  } finally {
    gate.release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 4,
        column: 9,
        // The lock from `gate.acquire()` is not released if line 5 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // Map-only region, but a read on what get returned throws when the key is missing
    code: `
import { locks } from './locks';
const cache = new Map();
export async function hits(key) {
  const release = await locks.acquire();
  const entry = cache.get(key);
  const count = entry.count;
  release();
  return count;
}
`,
    output: `
import { locks } from './locks';
const cache = new Map();
export async function hits(key) {
  const release = await locks.acquire();
  try {
    const entry = cache.get(key);
    const count = entry.count;
    return count;
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 5,
        column: 25,
        // The lock from `locks.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // a Map from a library is not the global Map: its set may throw
    code: `
import { Map } from 'immutable';
import { locks } from './locks';
const cache = new Map();
export async function remember(key, value) {
  const release = await locks.acquire();
  cache.set(key, value);
  release();
}
`,
    output: `
import { Map } from 'immutable';
import { locks } from './locks';
const cache = new Map();
export async function remember(key, value) {
  const release = await locks.acquire();
  try {
    cache.set(key, value);
  } finally {
    release();
  }
}
`,
    errors: [
      {
        messageId: 'notInFinally',
        line: 6,
        column: 25,
        // The lock from `locks.acquire()` is not released if line 7 throws: the lock stays held and every later caller waits for it forever. Release it in `finally`.
        suggestions: [],
      },
    ],
  },
  {
    // usage evidence: this.pool's pair in one method finds the leak in another
    code: `
export class Repo {
  constructor(pool) {
    this.pool = pool;
  }
  async save(row) {
    const client = await this.pool.connect();
    try {
      await client.query('INSERT INTO t VALUES ($1)', [row]);
    } finally {
      client.release();
    }
  }
  async load(id) {
    const client = await this.pool.connect();
    const res = await client.query('SELECT * FROM t WHERE id = $1', [id]);
    return res.rows;
  }
}
`,
    errors: [
      {
        messageId: 'neverReleased',
        line: 15,
        column: 26,
        // `client` from `this.pool.connect()` is never released in this function: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
        suggestions: [
          {
            messageId: 'wrapInTryFinally',
            output: `
export class Repo {
  constructor(pool) {
    this.pool = pool;
  }
  async save(row) {
    const client = await this.pool.connect();
    try {
      await client.query('INSERT INTO t VALUES ($1)', [row]);
    } finally {
      client.release();
    }
  }
  async load(id) {
    const client = await this.pool.connect();
    try {
      const res = await client.query('SELECT * FROM t WHERE id = $1', [id]);
      return res.rows;
    } finally {
      client.release();
    }
  }
}
`,
          },
        ],
      },
    ],
  },
  ],
});

// Handed on: a resource that is returned, stored or given to a listener is the new holder's to
// release, but only once it has it. And a release function destructured from the acquire's result.
ruleTester.run<MessageId, Options>('release-in-finally (hand-over, destructured release)', rule as never, {
  valid: [
    // Destructured release, called in `finally`.
    `
export async function send(manager, tx) {
  const { nonce, release } = await manager.lock(tx.from);
  try {
    await tx.send(nonce);
  } finally {
    release();
  }
}
`,
    // Released in the try and in the catch, where only a log line comes first.
    `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function remove(id) {
  const conn = await pool.getConnection();
  try {
    await conn.query('DELETE FROM a WHERE id = ?', [id]);
    conn.release();
    return true;
  } catch (error) {
    console.error(error);
    conn.release();
    return false;
  }
}
`,
    // The same lent reference with nothing that can throw before the `try`.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function withTransaction(ctx, work) {
  const client = await pool.connect();
  ctx.client = client;
  try {
    return await work(client);
  } finally {
    ctx.client = null;
    client.release();
  }
}
`,
    // A wrapper that hands the client back at once: nothing can throw in between.
    `
import pg from 'pg';
const pool = new pg.Pool();
export async function getClient() {
  const client = await pool.connect();
  client.on('error', console.error);
  return client;
}
`,
    // The setup query can fail, but the catch gives the client back before rethrowing.
    `
import pg from 'pg';
const pool = new pg.Pool();
export async function getClient() {
  const client = await pool.connect();
  try {
    await client.query('SET search_path TO app');
  } catch (error) {
    client.release();
    throw error;
  }
  return client;
}
`,
    // The catch unlocks by a key that is set before anything can throw.
    `
export class Wallet {
  async send(tx) {
    let current;
    try {
      const { release, address } = await this.manager.lock(tx.from);
      current = address;
      await this.check(address);
      return await this.submit(tx, { release });
    } catch (error) {
      await this.manager.unlock(current);
      throw error;
    }
  }
  async other() {
    const { release } = await this.manager.lock('x');
    release();
  }
}
`,
  ],
  invalid: [
    {
      // The lock from `mutex.acquire()` is lost if line 6 throws before it is handed on at line 7: the lock stays held and every later caller waits for it forever. Release it in a `catch` that rethrows.
      code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function take() {
  const release = await mutex.acquire();
  await warmUp();
  return release;
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 5, column: 25 }],
    },
    {
      // The listener that would release is only attached after `stream.open()`, which can reject.
      code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function start(stream) {
  const release = await mutex.acquire();
  await stream.open();
  stream.on('close', () => release());
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 5, column: 25 }],
    },
    {
      // `client` from `pool.connect()` is lost if line 6 throws before it is handed on at line 7: the connection never goes back to the pool, which runs dry under load. Release it in a `catch` that rethrows.
      code: `
import { Pool } from 'pg';
const pool = new Pool();
async function checkout() {
  const client = await pool.connect();
  await client.query('SET search_path TO app');
  return client;
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 5, column: 24 }],
    },
    {
      // `conn` from `pool.getConnection()` is not released if line 13 throws: the rollback in the
      // catch fails most often for the reason that brought the code there, and skips the release.
      code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function remove(id) {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    await conn.query('DELETE FROM a WHERE id = ?', [id]);
    await conn.commit();
    conn.release();
    return true;
  } catch (error) {
    await conn.rollback();
    conn.release();
    return false;
  }
}
`,
      errors: [
        {
          messageId: 'notInFinally',
          line: 5,
          column: 22,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function remove(id) {
  const conn = await pool.getConnection();
  try {
    try {
      await conn.beginTransaction();
      await conn.query('DELETE FROM a WHERE id = ?', [id]);
      await conn.commit();
      return true;
    } catch (error) {
      await conn.rollback();
      return false;
    }
  } finally {
    conn.release();
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // A reference lent to a request context while the function still releases in its own
      // `finally` is not a hand-over: the BEGIN before the `try` can still leak the client.
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function withTransaction(ctx, work) {
  const client = await pool.connect();
  ctx.client = client;
  await client.query('BEGIN');
  try {
    return await work(client);
  } finally {
    ctx.client = null;
    client.release();
  }
}
`,
      errors: [
        {
          messageId: 'throwBeforeTry',
          line: 5,
          column: 24,
          suggestions: [
            {
              messageId: 'moveIntoTry',
              output: `
import { Pool } from 'pg';
const pool = new Pool();
export async function withTransaction(ctx, work) {
  const client = await pool.connect();
  try {
    ctx.client = client;
    await client.query('BEGIN');
    return await work(client);
  } finally {
    ctx.client = null;
    client.release();
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // `connection` from `getConnection()` is lost if line 15 throws before it is handed on at line 16: the connection never goes back to the pool, which runs dry under load. Release it in a `catch` that rethrows.
      code: `
const getConnection = (pool) =>
  new Promise((resolve, reject) => {
    pool.getConnection((err, connection) => {
      if (err) reject(err);
      resolve(connection);
    });
  });
const begin = (connection) =>
  new Promise((resolve, reject) => {
    connection.beginTransaction((err) => (err ? reject(err) : resolve(connection)));
  });
export async function getPool(pool) {
  let connection = await getConnection(pool);
  connection = await begin(connection);
  return connection;
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 14, column: 26 }],
    },
    {
      // `release` from `this.manager.lock()` is lost if line 9 throws before it is handed on at line 11: the lock stays held and every later caller waits for it forever. Release it in a `catch` that rethrows.
      code: `
export class Wallet {
  async send(tx) {
    let current;
    try {
      const { release, address } = await this.manager.lock(tx.from);
      let balance = 0;
      if (this.debug) {
        balance = await this.balanceOf(address);
      }
      current = address;
      return await this.submit(tx, { release, balance });
    } catch (error) {
      if (!current) throw error;
      await this.manager.unlock(current);
      throw error;
    }
  }
  async other() {
    const { release } = await this.manager.lock('x');
    release();
  }
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 6, column: 42 }],
    },
    {
      // The catch unlocks by `current`, which is only set after the line that threw.
      code: `
export class Wallet {
  async send(tx) {
    let current;
    try {
      const { release, address } = await this.manager.lock(tx.from);
      await this.balanceOf(address);
      current = address;
      return await new Promise((resolve) => {
        tx.on('hash', () => {
          release();
          resolve();
        });
      });
    } catch (error) {
      await this.manager.unlock(current);
      throw error;
    }
  }
}
`,
      errors: [{ messageId: 'throwBeforeHandOver', line: 6, column: 42 }],
    },
    {
      // Destructured release, called only after work that can throw.
      code: `
export async function send(manager, tx) {
  const { nonce, release } = await manager.lock(tx.from);
  await tx.send(nonce);
  release();
}
`,
      output: `
export async function send(manager, tx) {
  const { nonce, release } = await manager.lock(tx.from);
  try {
    await tx.send(nonce);
  } finally {
    release();
  }
}
`,
      errors: [{ messageId: 'notInFinally', line: 3, column: 36 }],
    },
  ],
});
