import rule from '../../src/rules/no-sleep-holding-permit';
import { createRuleTester } from '../ruleTester';

const ruleTester = createRuleTester();

ruleTester.run('no-sleep-holding-permit', rule, {
  valid: [
    // --- near misses of instance limiters, releasing listeners, pools and races ---
    // \`this.limit\` is not a limiter the file can tell: nothing is held.
    `
import { setTimeout as sleep } from 'node:timers/promises';
export class ApiClient {
  private readonly limit = (fn: () => Promise<unknown>) => fn();
  get(path: string) {
    return this.limit(() => this.pace(path));
  }
  private async pace(path: string) {
    await sleep(100);
    return fetch(path);
  }
}
`,
    // The listener releases the lock before it sleeps.
    `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export async function submit(tx) {
  await mutex.acquire();
  let held = true;
  try {
    return await tx.send().on('hash', async () => {
      if (held) {
        held = false;
        mutex.release();
        await sleep(3000);
      }
    });
  } finally {
    if (held) {
      held = false;
      mutex.release();
    }
  }
}
`,
    // \`app.use\` is not a pool's; the sleep after \`pool.use\` runs once the resource is back.
    `
import genericPool from 'generic-pool';
import express from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = genericPool.createPool({ create: async () => ({}), destroy: async () => {} }, { max: 4 });
const app = express();
app.use(async (req, res, next) => {
  await sleep(10);
  next();
});
export async function capture(url) {
  const shot = await pool.use((browser) => browser.shot(url));
  await sleep(1000);
  return shot;
}
`,
    // A promise stored, not waited for; a timer raced against the work is its deadline.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
const pending: Promise<void>[] = [];
const remember = (work: Promise<void>) => { pending.push(work); return pending.length; };
async function settle(url: string) {
  await fetch(url);
  await sleep(1000);
}
export const open = (url: string) => limit(async () => remember(settle(url)));
export const timed = (url: string) => limit(() => Promise.race([fetch(url), sleep(5000)]));
`,
    // --- sleeps outside the held region ---
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(4);
export async function poll(url: string) {
  await sleep(1000);
  return limit(() => fetch(url));
}
`,
    // The retry takes the permit per attempt: backoff sleeps hold nothing.
    `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(8);
export const summarize = (id: string) => pRetry(() => limit(() => fetch(id)), { retries: 3 });
`,
    `
import retry from 'async-retry';
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
export async function save(row: string) {
  return retry(async (bail) => mutex.runExclusive(() => write(row, bail)), { retries: 5 });
}
declare function write(row: string, bail: unknown): Promise<void>;
`,
    // A hand-written retry loop outside the permit, one permit per attempt.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(8);
export async function call(url: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await limit(() => fetch(url));
    } catch (error) {
      if (attempt === 3) throw error;
      await sleep(2 ** attempt * 100);
    }
  }
}
`,
    // A sleep after the manual release is outside the region.
    `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export async function tick() {
  const release = await mutex.acquire();
  try {
    await flush();
  } finally {
    release();
  }
  await sleep(50);
}
declare function flush(): Promise<void>;
`,
    // A function that sleeps but is never called from inside a region.
    `
import pLimit from 'p-limit';
const limit = pLimit(2);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function run(url: string) {
  await pause(10);
  return limit(() => fetch(url));
}
`,
    // --- timers that are scheduled but not awaited ---
    `
import pLimit from 'p-limit';
const limit = pLimit(2);
export function run(url: string) {
  return limit(async () => {
    setTimeout(() => console.log('slow'), 5000);
    return fetch(url);
  });
}
`,
    `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
export function run() {
  return mutex.runExclusive(async () => {
    const timer = setTimeout(() => undefined, 1000).unref();
    await flush();
    clearTimeout(timer);
  });
}
declare function flush(): Promise<void>;
`,
    // AbortSignal.timeout bounds the real work; it does not sleep.
    `
import pLimit from 'p-limit';
const limit = pLimit(5);
export const get = (url: string) => limit(() => fetch(url, { signal: AbortSignal.timeout(5000) }));
`,
    // A sleep promise that is started but not waited for.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(5);
export const get = (url: string) => limit(async () => {
  void sleep(100);
  return fetch(url);
});
`,
    // A timeout raced against the work ends the wait early; it is not a pause.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(5);
export const get = (url: string) => limit(() => Promise.race([fetch(url), sleep(5000)]));
`,
    // A sleep inside a timer callback runs after the permit is back.
    `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export const run = () => mutex.runExclusive(async () => {
  setTimeout(async () => {
    await sleep(100);
  }, 0);
});
`,
    // The callback of forEach is not waited for.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(5);
export const run = (ids: number[]) => limit(async () => {
  ids.forEach((id) => sleep(id));
});
`,
    // --- real work awaited inside the region ---
    `
import pLimit from 'p-limit';
import pg from 'pg';
const limit = pLimit(10);
const pool = new pg.Pool();
export const load = (id: string) => limit(async () => {
  const res = await fetch('https://api.example.com/' + id);
  await pool.query('insert into t values ($1)', [await res.text()]);
});
`,
    // Named like a sleep, but the body polls an API: real work.
    `
import pLimit from 'p-limit';
const limit = pLimit(3);
async function waitForJob(id: string) {
  const res = await fetch('https://jobs.example.com/' + id);
  return res.json();
}
export const run = (id: string) => limit(() => waitForJob(id));
`,
    `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
async function sleep(key: string) {
  return store.hibernate(key);
}
export const run = () => mutex.runExclusive(() => sleep('a'));
declare const store: { hibernate(key: string): Promise<void> };
`,
    // An executor that waits for an event, not a timer.
    `
import pLimit from 'p-limit';
import { EventEmitter } from 'node:events';
const limit = pLimit(3);
const bus = new EventEmitter();
export const run = () => limit(() => new Promise((resolve) => { bus.once('done', resolve); }));
`,
    // An executor that does work besides arming the timer is not a plain sleep.
    `
import pLimit from 'p-limit';
const limit = pLimit(3);
export const run = () => limit(() => new Promise((resolve) => {
  socket.write('ping');
  setTimeout(resolve, 10);
}));
declare const socket: { write(s: string): void };
`,
    // A local function called setTimeout is not the timer.
    `
import pLimit from 'p-limit';
const limit = pLimit(3);
function setTimeout(cb: () => void, _ms: number) { cb(); }
export const run = () => limit(() => new Promise<void>((r) => setTimeout(r, 10)));
`,
    // --- not a permit ---
    // An unbounded p-queue and a Bottleneck with only minTime do not cap concurrency.
    `
import PQueue from 'p-queue';
import { setTimeout as sleep } from 'node:timers/promises';
const queue = new PQueue();
export const run = () => queue.add(async () => { await sleep(10); });
`,
    `
import Bottleneck from 'bottleneck';
import { setTimeout as sleep } from 'node:timers/promises';
const limiter = new Bottleneck({ minTime: 100 });
export const run = () => limiter.schedule(async () => { await sleep(10); });
`,
    `
import { setTimeout as sleep } from 'node:timers/promises';
const limit = (fn: () => Promise<void>) => fn();
export const run = () => limit(async () => { await sleep(10); });
`,
    // runExclusive on an object from a file that does not use async-mutex.
    `
import { setTimeout as sleep } from 'node:timers/promises';
export const run = (db: { runExclusive(cb: () => Promise<void>): Promise<void> }) =>
  db.runExclusive(async () => { await sleep(10); });
`,
    // A local object called navigator.
    `
import { setTimeout as sleep } from 'node:timers/promises';
const navigator = { locks: { request: (_n: string, cb: () => Promise<void>) => cb() } };
export const run = () => navigator.locks.request('a', async () => { await sleep(10); });
`,
    // A retry function from an unknown module is not known to back off.
    `
import pLimit from 'p-limit';
import { retry } from './local-retry';
const limit = pLimit(2);
export const run = (url: string) => limit(() => retry(() => fetch(url)));
`,
    // The callback timer from node:timers, not awaited.
    `
import pLimit from 'p-limit';
import { setTimeout } from 'node:timers';
const limit = pLimit(2);
export const run = () => limit(async () => { setTimeout(() => undefined, 10); });
`,
    // The region releases before the sleep in every branch.
    `
import { Semaphore } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const sem = new Semaphore(3);
export async function run() {
  const [, release] = await sem.acquire();
  release();
  await sleep(100);
}
`,
    // A pooled client released before the backoff.
    `
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = new pg.Pool();
export async function run() {
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await pool.connect();
    try {
      return await client.query('select 1');
    } catch {
      // handled below
    } finally {
      client.release();
    }
    await sleep(100);
  }
}
`,
    // A connection the function opens for itself: waiting while it is open holds no one else up.
    `
import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
export async function poll(url) {
  const client = new Client(url);
  await client.connect();
  try {
    await sleep(1000);
    return await client.query('select 1');
  } finally {
    await client.end();
  }
}
`,
    // The distributed lock is released before the pause.
    `
import Redlock from 'redlock';
import { setTimeout as sleep } from 'node:timers/promises';
const redlock = new Redlock([]);
export async function rebuild() {
  const lock = await redlock.acquire(['jobs:index'], 5000);
  try {
    await reindex();
  } finally {
    await lock.release();
  }
  await sleep(100);
}
declare function reindex(): Promise<void>;
`,
    // A polling loop that returns the connection before each pause.
    `
import mysql from 'mysql2/promise';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = mysql.createPool({ connectionLimit: 5 });
export async function waitForRow(id: number) {
  for (;;) {
    const conn = await pool.getConnection();
    let found: unknown;
    try {
      const [rows] = await conn.query('select 1 from t where id = ?', [id]);
      found = Array.isArray(rows) ? rows[0] : undefined;
    } finally {
      conn.release();
    }
    if (found !== undefined) return found;
    await sleep(500);
  }
}
`,
    // A nested function defined in the region but only stored.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
const handlers: Array<() => Promise<void>> = [];
export const run = () => limit(async () => {
  handlers.push(async () => { await sleep(10); });
});
`,
    // A sleep in a loop without try/catch is a pause between polls, but still outside the region.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export async function pollAll(urls: string[]) {
  while (urls.length > 0) {
    await limit(() => fetch(urls.pop() as string));
    await sleep(100);
  }
}
`,
    // A recursive helper that never sleeps.
    `
import pLimit from 'p-limit';
const limit = pLimit(2);
async function walk(n: number): Promise<number> { return n <= 0 ? 0 : 1 + (await walk(n - 1)); }
export const run = () => limit(() => walk(3));
`,
    // Team-declared sleeps only count where they are declared.
    {
      code: `
import pLimit from 'p-limit';
import { pause } from '@acme/time';
const limit = pLimit(2);
export const run = () => limit(async () => { await pause(10); });
`,
      settings: { 'async-hazards': { preset: 'strict', sleeps: [{ module: '@acme/other', export: 'pause' }] } },
    },
    // delay imported from a module that is not the delay package.
    `
import pLimit from 'p-limit';
import delay from './delay-queue';
const limit = pLimit(2);
export const run = () => limit(async () => { await delay(10); });
`,
    // An unrelated p-limit call shape: limit.activeCount is not a callback.
    `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export async function report() {
  await sleep(limit.activeCount);
}
`,
    // The exclusive callback sleeps only in a branch it hands off to a later timer.
    `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export const run = () => mutex.runExclusive(() => {
  queueMicrotask(() => void sleep(5));
});
`,
    // Without types, a helper imported from another file is unknown (typed mode reads its body).
    `
import pLimit from 'p-limit';
import { sleep } from './timing';
const limit = pLimit(4);
export const run = () => limit(async () => { await sleep(100); });
`,
    // Malformed and partial calls never crash the rule.
    `
import pLimit from 'p-limit';
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit();
const mutex = new Mutex();
const fns: Array<() => Promise<void>> = [];
export async function odd() {
  await (limit as any)();
  await (limit as any)(...fns);
  await mutex.runExclusive(undefined as any);
  await navigator.locks.request('x', {} as any);
  await new Promise(() => undefined);
  await (sleep as any)();
}
`,
    // Promise executor with a computed first argument is not the resolve pattern.
    `
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = (cb: () => void) => limit(() => new Promise<void>((resolve) => { setTimeout(cb, 10); resolve(); }));
`,
    // --- p-map slots: unbounded, or the sleep outside the mapper ---
    // Without `concurrency` p-map runs every item at once: no slot is waited for.
    `
import pMap from 'p-map';
import { setTimeout as sleep } from 'node:timers/promises';
export const poll = (urls: string[]) => pMap(urls, async (url) => { await sleep(1000); return fetch(url); });
`,
    `
import pMap from 'p-map';
import sleep from 'sleep-promise';
export async function poll(urls: string[]) {
  await sleep(1000);
  return pMap(urls, (url) => fetch(url), { concurrency: 4 });
}
`,
    // --- axios-retry: no delay between attempts, or another client ---
    `
import axios from 'axios';
import axiosRetry from 'axios-retry';
import pLimit from 'p-limit';
axiosRetry(axios, { retries: 3 });
const limit = pLimit(2);
export const get = (url: string) => limit(async () => (await axios.get(url)).data);
`,
    `
import axios from 'axios';
import axiosRetry from 'axios-retry';
import pLimit from 'p-limit';
const client = axios.create();
axiosRetry(client, { retries: 3, retryDelay: axiosRetry.exponentialDelay });
const limit = pLimit(2);
export const get = (url: string) => limit(async () => (await axios.get(url)).data);
`,
    // The retried client, but its request made before the slot is taken.
    `
import axios from 'axios';
import axiosRetry from 'axios-retry';
import pLimit from 'p-limit';
axiosRetry(axios, { retries: 3, retryDelay: axiosRetry.exponentialDelay });
const limit = pLimit(2);
export async function crawl(index: string) {
  const { data } = await axios.get(index);
  return Promise.all(data.links.map((link: string) => limit(() => save(link))));
}
declare function save(link: string): Promise<void>;
`,
  ],
  invalid: [
    // --- sleep forms, under a p-limit permit ---
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(8);
export const run = (url: string) => limit(async () => {
  const res = await fetch(url);
  await sleep(1000);
  return res;
});
`,
      errors: [
        {
          messageId: 'sleepHoldingPermit',
          line: 7,
          column: 9,
          data: {
            sleep: 'await sleep(1000)',
            noun: 'permit',
            taker: 'limit(...)',
            line: '5',
            cost: '1 of 8 slots does nothing for the whole delay',
          },
        },
      ],
    },
    {
      code: `
import { setTimeout } from 'timers/promises';
import pLimit from 'p-limit';
const CONCURRENCY = 4;
const limit = pLimit(CONCURRENCY);
export const run = () => limit(async () => {
  await setTimeout(250);
});
`,
      errors: [
        {
          messageId: 'sleepHoldingPermit',
          line: 7,
          column: 9,
          data: { sleep: 'await setTimeout(250)', noun: 'permit', taker: 'limit(...)', line: '6', cost: '1 of 4 slots does nothing for the whole delay' },
        },
      ],
    },
    {
      code: `
import * as timers from 'node:timers/promises';
import pLimit from 'p-limit';
const limit = pLimit({ concurrency: 3 });
export const run = () => limit(() => timers.setTimeout(10));
`,
      errors: [
        {
          messageId: 'sleepHoldingPermit',
          line: 5,
          column: 38,
          data: { sleep: 'timers.setTimeout(10)', noun: 'permit', taker: 'limit(...)', line: '5', cost: '1 of 3 slots does nothing for the whole delay' },
        },
      ],
    },
    {
      code: `
const { setTimeout: wait } = require('node:timers/promises');
const pLimit = require('p-limit');
const limit = pLimit(2);
exports.run = () => limit(async () => { await wait(5); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 47 }],
    },
    {
      code: `
import timers from 'node:timers';
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = () => limit(async () => { await timers.promises.setTimeout(5); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 52 }],
    },
    {
      code: `
import { scheduler } from 'node:timers/promises';
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = () => limit(async () => { await scheduler.wait(5); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 52 }],
    },
    {
      code: `
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = (ms: number) => limit(async () => {
  await new Promise((r) => setTimeout(r, ms));
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 9 }],
    },
    {
      code: `
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = (ms: number) => limit(async () => {
  await new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 9 }],
    },
    {
      code: `
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = (ms: number) => limit(async () => {
  await new Promise<void>((resolve) => globalThis.setTimeout(() => resolve(), ms));
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 9 }],
    },
    {
      code: `
import { promisify } from 'node:util';
import pLimit from 'p-limit';
const limit = pLimit(2);
const nap = promisify(setTimeout);
export const run = () => limit(async () => { await nap(100); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 6, column: 52 }],
    },
    {
      code: `
import delay from 'delay';
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = () => limit(async () => { await delay(100); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 52 }],
    },
    // A helper recognised by its body, whatever its name.
    {
      code: `
import pLimit from 'p-limit';
const limit = pLimit(2);
function settle(ms: number) {
  return new Promise((done) => setTimeout(done, ms));
}
export const run = () => limit(async () => { await settle(100); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 7, column: 52, data: { sleep: 'await settle(100)', noun: 'permit', taker: 'limit(...)', line: '7', cost: '1 of 2 slots does nothing for the whole delay' } }],
    },
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
async function backoff(attempt: number) {
  const ms = Math.min(100 * 2 ** attempt, 5000);
  await sleep(ms + Math.random() * 50);
}
const jitter = (attempt: number) => backoff(attempt + 1);
export const run = () => limit(async () => { await jitter(2); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 10, column: 52 }],
    },
    // --- retry helpers ---
    {
      code: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(8);
export const summarize = (id: string) => limit(() => pRetry(() => fetch(id), { retries: 3 }));
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 5,
          column: 54,
          data: { sleep: 'pRetry(() => fetch(id), { retries: 3 })', noun: 'permit', taker: 'limit(...)', line: '5', cost: '1 of 8 slots does nothing through every backoff' },
          suggestions: [
            {
              messageId: 'swapRetryNesting',
              data: { noun: 'permit', taker: 'limit(...)' },
              output: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(8);
export const summarize = (id: string) => pRetry(() => limit(() => fetch(id)), { retries: 3 });
`,
            },
          ],
        },
      ],
    },
    {
      code: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(8);
export async function summarize(id: string) {
  return limit(async () => {
    return await pRetry(async (attempt) => {
      const res = await fetch(id + '?try=' + attempt);
      return res.text();
    }, { retries: 3 });
  });
}
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 7,
          column: 18,
          suggestions: [
            {
              messageId: 'swapRetryNesting',
              output: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(8);
export async function summarize(id: string) {
  return pRetry((attempt) => limit(async () => {
      const res = await fetch(id + '?try=' + attempt);
      return res.text();
    }), { retries: 3 });
}
`,
            },
          ],
        },
      ],
    },
    {
      code: `
import retry from 'async-retry';
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
export const save = (row: string) => mutex.runExclusive(() => retry((bail) => write(row, bail), { retries: 5 }));
declare function write(row: string, bail: unknown): Promise<void>;
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 5,
          column: 63,
          data: { sleep: 'retry(...)', noun: 'lock', taker: 'mutex.runExclusive(...)', line: '5', cost: 'every other caller waits through every backoff' },
          suggestions: [
            {
              messageId: 'swapRetryNesting',
              output: `
import retry from 'async-retry';
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
export const save = (row: string) => retry((bail) => mutex.runExclusive(() => write(row, bail)), { retries: 5 });
declare function write(row: string, bail: unknown): Promise<void>;
`,
            },
          ],
        },
      ],
    },
    {
      code: `
import { backOff } from 'exponential-backoff';
import PQueue from 'p-queue';
const queue = new PQueue({ concurrency: 2 });
export const send = (body: string) => queue.add(() => backOff(() => post(body)), { priority: 1 });
declare function post(body: string): Promise<void>;
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 5,
          column: 55,
          suggestions: [
            {
              messageId: 'swapRetryNesting',
              output: `
import { backOff } from 'exponential-backoff';
import PQueue from 'p-queue';
const queue = new PQueue({ concurrency: 2 });
export const send = (body: string) => backOff(() => queue.add(() => post(body), { priority: 1 }));
declare function post(body: string): Promise<void>;
`,
            },
          ],
        },
      ],
    },
    // promise-retry's attempt gets (retry, number): the swap keeps both parameters.
    {
      code: `
import promiseRetry from 'promise-retry';
import pLimit from 'p-limit';
const limit = pLimit(2);
export const send = () => limit(() => promiseRetry((again, n) => post(n).catch(again)));
declare function post(n: number): Promise<void>;
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 5,
          column: 39,
          suggestions: [
            {
              messageId: 'swapRetryNesting',
              output: `
import promiseRetry from 'promise-retry';
import pLimit from 'p-limit';
const limit = pLimit(2);
export const send = () => promiseRetry((again, n) => limit(() => post(n).catch(again)));
declare function post(n: number): Promise<void>;
`,
            },
          ],
        },
      ],
    },
    // A retry with a named attempt function: reported, but no rewrite is offered.
    {
      code: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(2);
declare function attempt(n: number): Promise<string>;
export const run = () => limit(async () => {
  const value = await pRetry(attempt);
  return value.trim();
});
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 7, column: 23, suggestions: [] }],
    },
    // --- hand-written retry loops ---
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(8);
export async function call(url: string) {
  return limit(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(url);
      } catch (error) {
        if (attempt === 3) throw error;
        await sleep(2 ** attempt * 100);
      }
    }
  });
}
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 12,
          column: 15,
          data: { sleep: 'await sleep(2 ** attempt * 100)', noun: 'permit', taker: 'limit(...)', line: '6', cost: '1 of 8 slots does nothing through every backoff' },
          suggestions: [
            {
              messageId: 'moveRetryLoopOutside',
              data: { noun: 'permit', taker: 'limit(...)' },
              output: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(8);
export async function call(url: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await limit(async () => {
        return await fetch(url);
      });
    } catch (error) {
      if (attempt === 3) throw error;
      await sleep(2 ** attempt * 100);
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
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export const save = (row: string) => mutex.runExclusive(async () => {
  let tries = 0;
  while (true) {
    try {
      return await write(row);
    } catch {
      tries++;
    }
    await sleep(tries * 100);
  }
});
declare function write(row: string): Promise<void>;
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 13, column: 11, suggestions: [] }],
    },
    // The loop is the whole arrow body: the arrow becomes async and gets a block body.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(4);
export const fetchAll = (urls: string[]) => Promise.all(urls.map((url) => limit(async () => {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url);
    } catch (error) {
      if (i > 2) throw error;
      await sleep(100);
    }
  }
})));
`,
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 11,
          column: 13,
          suggestions: [
            {
              messageId: 'moveRetryLoopOutside',
              output: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(4);
export const fetchAll = (urls: string[]) => Promise.all(urls.map(async (url) => {
  for (let i = 0; ; i++) {
    try {
      return await limit(async () => {
        return await fetch(url);
      });
    } catch (error) {
      if (i > 2) throw error;
      await sleep(100);
    }
  }
}));
`,
            },
          ],
        },
      ],
    },
    // A loop that ends by `break` would fall through to code after the call: no rewrite.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(4);
export async function call(url: string) {
  return limit(async () => {
    let res: Response | undefined;
    for (let i = 0; i < 3; i++) {
      try {
        res = await fetch(url);
        break;
      } catch {
        await sleep(100);
      }
    }
    return res;
  });
}
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 13, column: 15, suggestions: [] }],
    },
    // --- same-file functions called from the region ---
    {
      code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function fetchWithRetry(url: string) {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url);
    } catch (e) {
      if (i > 3) throw e;
      await wait(2 ** i * 100);
    }
  }
}
export const run = (url: string) => mutex.runExclusive(() => fetchWithRetry(url));
`,
      // Every call of the helper holds the lock: reported at the backoff, where the fix goes.
      errors: [
        {
          messageId: 'helperSleepsHoldingPermit',
          line: 11,
          column: 13,
          data: {
            sleep: 'await wait(2 ** i * 100)',
            helper: 'fetchWithRetry',
            verb: 'backs off between attempts',
            noun: 'lock',
            taker: 'mutex.runExclusive(...)',
            line: '15',
            cost: 'every other caller waits through every backoff',
          },
        },
      ],
    },
    // The same helper, exported: other callers may not hold the lock, so the call is reported.
    {
      code: `
import { Mutex } from 'async-mutex';
const mutex = new Mutex();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function fetchWithRetry(url: string) {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url);
    } catch (e) {
      if (i > 3) throw e;
      await wait(2 ** i * 100);
    }
  }
}
export const run = (url: string) => mutex.runExclusive(() => fetchWithRetry(url));
`,
      errors: [
        {
          messageId: 'calleeSleepsHoldingPermit',
          line: 15,
          column: 62,
          data: {
            sleep: 'fetchWithRetry(url)',
            verb: 'backs off between attempts',
            inner: 'await wait(2 ** i * 100)',
            innerAt: 'line 11',
            noun: 'lock',
            taker: 'mutex.runExclusive(...)',
            line: '15',
            cost: 'every other caller waits through every backoff',
          },
        },
      ],
    },
    // Called once holding the lock and once without: each call made holding it is reported.
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
async function settle(ms: number) {
  await flush();
  await sleep(ms);
}
export const locked = () => mutex.runExclusive(async () => {
  await settle(10);
  await settle(20);
});
export const free = () => settle(30);
declare function flush(): Promise<void>;
`,
      errors: [
        { messageId: 'calleeSleepsHoldingPermit', line: 10, column: 9 },
        { messageId: 'calleeSleepsHoldingPermit', line: 11, column: 9 },
      ],
    },
    // A chain of same-file helpers, each only called holding the lock: reported at the sleep.
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
async function backoff(attempt: number) {
  await note(attempt);
  await sleep(2 ** attempt * 50);
}
async function sync(rows: string[]) {
  await write(rows);
  await backoff(1);
}
export const a = (rows: string[]) => mutex.runExclusive(() => sync(rows));
export const b = (rows: string[]) => mutex.runExclusive(async () => { await sync(rows); });
declare function write(rows: string[]): Promise<void>;
declare function note(attempt: number): Promise<void>;
`,
      errors: [
        {
          messageId: 'helperSleepsHoldingPermit',
          line: 7,
          column: 9,
          data: {
            sleep: 'await sleep(2 ** attempt * 50)',
            helper: 'backoff',
            verb: 'sleeps',
            noun: 'lock',
            taker: 'mutex.runExclusive(...)',
            line: '13',
            cost: 'every other caller waits for the whole delay',
          },
        },
      ],
    },
    {
      code: `
import pLimit from 'p-limit';
import pRetry from 'p-retry';
const limit = pLimit(6);
async function sendWithRetry(body: string) {
  return pRetry(() => post(body), { retries: 2 });
}
export const run = (body: string) => limit(sendWithRetry, body);
declare function post(body: string): Promise<void>;
`,
      errors: [{ messageId: 'helperSleepsHoldingPermit', line: 6, column: 10 }],
    },
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
class Exporter {
  private readonly lock = new Mutex();
  async flush() {
    await this.lock.runExclusive(async () => {
      await this.pause();
    });
  }
  private async pause() {
    await this.drain();
    await sleep(500);
  }
  private async drain() {}
}
export { Exporter };
`,
      // A private method runs only where `this.pause()` is called: every call holds the lock.
      errors: [{ messageId: 'helperSleepsHoldingPermit', line: 13, column: 11 }],
    },
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
class Exporter {
  private readonly lock = new Mutex();
  async flush() {
    await this.lock.runExclusive(async () => {
      await this.pause();
    });
  }
  async pause() {
    await this.drain();
    await sleep(500);
  }
  private async drain() {}
}
export { Exporter };
`,
      // Near miss: a public method may also be called without the lock, so the call is reported.
      errors: [{ messageId: 'calleeSleepsHoldingPermit', line: 8, column: 13 }],
    },
    // --- a limiter kept on the instance, its private helpers ---
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
export class ApiClient {
  private readonly limit = pLimit(3);
  private last = 0;
  get(path: string) {
    return this.limit(() => this.fetchWithRetry(path));
  }
  private async fetchWithRetry(path: string, attempt = 1): Promise<unknown> {
    await this.throttle();
    const res = await fetch(path);
    if (res.status === 429 && attempt < 3) {
      await sleep(1000 * 2 ** attempt);
      return this.fetchWithRetry(path, attempt + 1);
    }
    return res.json();
  }
  private async throttle() {
    const wait = this.last + 100 - Date.now();
    if (wait > 0) await sleep(wait);
    this.last = Date.now();
  }
}
`,
      errors: [
        { messageId: 'helperSleepsHoldingPermit', line: 14, column: 13 },
        { messageId: 'helperSleepsHoldingPermit', line: 21, column: 25 },
      ],
    },
    // --- a listener set up holding the lock that releases it ---
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export async function submit(tx) {
  await mutex.acquire();
  let held = true;
  try {
    return await tx.send().on('hash', async () => {
      if (held) {
        held = false;
        await sleep(3000);
        mutex.release();
      }
    });
  } finally {
    if (held) {
      held = false;
      mutex.release();
    }
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 12, column: 15 }],
    },
    // --- generic-pool \`use\` ---
    {
      code: `
import genericPool from 'generic-pool';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = genericPool.createPool({ create: async () => ({}), destroy: async () => {} }, { max: 4 });
export function capture(url) {
  return pool.use(async (browser) => {
    await browser.open(url);
    await sleep(1000);
    return browser.shot();
  });
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 8, column: 11, data: { sleep: 'await sleep(1000)', noun: 'pooled resource', taker: 'pool.use(...)', line: '6', cost: '1 of 4 pooled resources does nothing for the whole delay' } }],
    },
    // --- work raced against a deadline, handed to a same-file helper that waits for it ---
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
const withDeadline = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);
async function settle(url: string) {
  await fetch(url);
  await sleep(1000);
}
export const open = (url: string) => limit(() => withDeadline(settle(url), 5000));
`,
      errors: [{ messageId: 'helperSleepsHoldingPermit', line: 9, column: 9 }],
    },
    // --- every region kind ---
    {
      code: `
import { Semaphore } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const sem = new Semaphore(5);
export const run = () => sem.runExclusive(async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 63, data: { sleep: 'await sleep(10)', noun: 'permit', taker: 'sem.runExclusive(...)', line: '5', cost: '1 of 5 permits does nothing for the whole delay' } }],
    },
    {
      code: `
import { Mutex, withTimeout } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = withTimeout(new Mutex(), 1000);
export const run = () => mutex.runExclusive(async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 65 }],
    },
    {
      code: `
import { setTimeout as sleep } from 'node:timers/promises';
import type { MutexInterface } from 'async-mutex';
export async function run(lock: MutexInterface) {
  await lock.runExclusive(async () => { await sleep(10); });
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 47 }],
    },
    {
      code: `
import PQueue from 'p-queue';
import { setTimeout as sleep } from 'node:timers/promises';
const queue = new PQueue({ concurrency: 2 });
export const run = () => queue.addAll([async () => { await sleep(10); }, () => fetch('x')]);
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 60, data: { sleep: 'await sleep(10)', noun: 'permit', taker: 'queue.addAll(...)', line: '5', cost: '1 of 2 slots does nothing for the whole delay' } }],
    },
    {
      code: `
import Bottleneck from 'bottleneck';
import { setTimeout as sleep } from 'node:timers/promises';
const limiter = new Bottleneck({ maxConcurrent: 2, minTime: 50 });
export const run = () => limiter.schedule({ priority: 1 }, async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 80 }],
    },
    {
      code: `
import Bottleneck from 'bottleneck';
import { setTimeout as sleep } from 'node:timers/promises';
const limiter = new Bottleneck({ maxConcurrent: 1 });
export const throttled = limiter.wrap(async (id: string) => {
  await sleep(10);
  return id;
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 6, column: 9, suggestions: [] }],
    },
    {
      code: `
import AsyncLock from 'async-lock';
import { setTimeout as sleep } from 'node:timers/promises';
const locks = new AsyncLock();
export const run = (key: string) => locks.acquire(key, async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 76, data: { sleep: 'await sleep(10)', noun: 'lock', taker: 'locks.acquire(...)', line: '5', cost: 'every other caller waits for the whole delay' } }],
    },
    {
      code: `
import { setTimeout as sleep } from 'node:timers/promises';
export const run = () => navigator.locks.request('sync', async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 3, column: 78 }],
    },
    {
      code: `
import { setTimeout as sleep } from 'node:timers/promises';
export const run = () => navigator.locks.request('sync', { mode: 'shared' }, async () => { await sleep(10); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 3, column: 98, data: { sleep: 'await sleep(10)', noun: 'lock', taker: 'navigator.locks.request(...)', line: '3', cost: 'one of its slots does nothing for the whole delay' } }],
    },
    // --- team-declared permit callbacks and sleeps ---
    {
      code: `
import { withPermit } from '@acme/limits';
import { setTimeout as sleep } from 'node:timers/promises';
export const run = () => withPermit(async () => { await sleep(10); });
`,
      options: [{ permitCallbacks: [{ module: '@acme/limits', export: 'withPermit' }], sleeps: [] }],
      errors: [{ messageId: 'sleepHoldingPermit', line: 4, column: 57 }],
    },
    {
      code: `
import { createGate } from '@acme/limits';
import { pause } from '@acme/time';
const gate = createGate(4);
export const run = () => gate.enter('k', async () => { await pause(10); });
`,
      settings: {
        'async-hazards': {
          preset: 'strict',
          permitCallbacks: [{ module: '@acme/limits', method: 'enter' }],
          sleeps: [{ module: '@acme/time', export: 'pause' }],
        },
      },
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 62 }],
    },
    {
      code: `
import pLimit from 'p-limit';
const limit = pLimit(2);
export const run = (clock: { idle(ms: number): Promise<void> }) => limit(async () => { await clock.idle(10); });
`,
      // A method declared without a module matches on any object.
      settings: { 'async-hazards': { preset: 'strict', sleeps: [{ method: 'idle' }] } },
      errors: [{ messageId: 'sleepHoldingPermit', line: 4, column: 94 }],
    },
    // --- manual acquire → release regions ---
    {
      code: `
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const mutex = new Mutex();
export async function tick() {
  const release = await mutex.acquire();
  try {
    await sleep(50);
  } finally {
    release();
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 8, column: 11, data: { sleep: 'await sleep(50)', noun: 'lock', taker: 'mutex.acquire()', line: '6', cost: 'every other caller waits for the whole delay' } }],
    },
    {
      code: `
import { Semaphore } from 'async-mutex';
import pRetry from 'p-retry';
const sem = new Semaphore(3);
export async function send(body: string) {
  const [, release] = await sem.acquire();
  try {
    return await pRetry(() => post(body));
  } finally {
    release();
  }
}
declare function post(body: string): Promise<void>;
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 8, column: 18, data: { sleep: 'await pRetry(() => post(body))', noun: 'permit', taker: 'sem.acquire()', line: '6', cost: '1 of 3 permits does nothing through every backoff' } }],
    },
    {
      code: `
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = new pg.Pool({ max: 20 });
export async function migrate() {
  const client = await pool.connect();
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return await client.query('lock table jobs');
      } catch {
        await sleep(1000);
      }
    }
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 12, column: 15, data: { sleep: 'await sleep(1000)', noun: 'pooled connection', taker: 'pool.connect()', line: '6', cost: '1 of 20 pool connections does nothing through every backoff' } }],
    },
    {
      code: `
import Redlock from 'redlock';
import { setTimeout as sleep } from 'node:timers/promises';
const redlock = new Redlock([]);
export async function rebuild() {
  const lock = await redlock.acquire(['jobs:index'], 5000);
  try {
    await sleep(100);
  } finally {
    await lock.release();
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 8, column: 11, data: { sleep: 'await sleep(100)', noun: 'lock', taker: 'redlock.acquire()', line: '6', cost: 'every other caller waits for the whole delay' } }],
    },
    {
      code: `
import { Sema } from 'async-sema';
import { setTimeout as sleep } from 'node:timers/promises';
const sema = new Sema(4);
export async function send() {
  await sema.acquire();
  try {
    await sleep(100);
  } finally {
    sema.release();
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 8, column: 11, data: { sleep: 'await sleep(100)', noun: 'permit', taker: 'sema.acquire()', line: '6', cost: '1 of 4 permits does nothing for the whole delay' } }],
    },
    {
      code: `
import AwaitLock from 'await-lock';
const lock = new AwaitLock();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export async function flush() {
  await lock.acquireAsync();
  try {
    await pause(100);
  } finally {
    lock.release();
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 8, column: 11 }],
    },
    {
      code: `
import mysql from 'mysql2/promise';
import { setTimeout as sleep } from 'node:timers/promises';
const pool = mysql.createPool({ connectionLimit: 5 });
export async function waitForRow(id: number) {
  const conn = await pool.getConnection();
  try {
    while (true) {
      const [rows] = await conn.query('select 1 from t where id = ?', [id]);
      if (Array.isArray(rows) && rows.length > 0) return rows[0];
      await sleep(500);
    }
  } finally {
    conn.release();
  }
}
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 11, column: 13, data: { sleep: 'await sleep(500)', noun: 'pooled connection', taker: 'pool.getConnection()', line: '6', cost: '1 of 5 pool connections does nothing for the whole delay' } }],
    },
    // Nested regions: the sleep is reported once, for the innermost permit.
    {
      code: `
import pLimit from 'p-limit';
import { Mutex } from 'async-mutex';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
const mutex = new Mutex();
export const run = () => limit(() => mutex.runExclusive(async () => { await sleep(5); }));
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 7, column: 77, data: { sleep: 'await sleep(5)', noun: 'lock', taker: 'mutex.runExclusive(...)', line: '7', cost: 'every other caller waits for the whole delay' } }],
    },
    // Sleeps inside an awaited Promise.all inside the region.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export const run = (url: string) => limit(() => Promise.all([fetch(url), sleep(1000)]));
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 74 }],
    },
    // A returned sleep and a synchronous callback inside the region.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export const run = (ids: number[]) => limit(async () => {
  await Promise.all(ids.map((id) => sleep(id)));
  return sleep(5);
});
`,
      errors: [
        { messageId: 'sleepHoldingPermit', line: 6, column: 37 },
        { messageId: 'sleepHoldingPermit', line: 7, column: 10 },
      ],
    },
    // A function expression callback.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export const run = () => limit(async function () { await sleep(5); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 58 }],
    },
    // p-limit's limit.map runs each mapper call in a slot.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(3);
export const run = (ids: number[]) => limit.map(ids, async (id) => {
  await sleep(id);
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 6, column: 9, suggestions: [] }],
    },
    // A same-file function handed to queue.add by name.
    {
      code: `
import PQueue from 'p-queue';
const queue = new PQueue({ concurrency: 1 });
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 250));
}
export const run = () => queue.add(settle);
`,
      errors: [
        {
          messageId: 'helperSleepsHoldingPermit',
          line: 5,
          column: 9,
          data: {
            sleep: 'await new Promise(...)',
            helper: 'settle',
            verb: 'sleeps',
            noun: 'permit',
            taker: 'queue.add(...)',
            line: '7',
            cost: 'every other caller waits for the whole delay',
          },
        },
      ],
    },
    // CommonJS in a .js file.
    {
      code: `
const { Mutex } = require('async-mutex');
const delay = require('delay');
const mutex = new Mutex();
module.exports = () => mutex.runExclusive(async () => { await delay(50); });
`,
      filename: 'worker.js',
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 63 }],
    },
    // The p-limit limiter handed in as a typed parameter.
    {
      code: `
import type { LimitFunction } from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
export const run = (limit: LimitFunction) => limit(async () => { await sleep(5); });
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 4, column: 72, data: { sleep: 'await sleep(5)', noun: 'permit', taker: 'limit(...)', line: '4', cost: 'one of its slots does nothing for the whole delay' } }],
    },
    // --- a p-map mapper holds one of N slots ---
    {
      code: `
import pMap from 'p-map';
import sleep from 'sleep-promise';
export async function pollAll(urls: string[]) {
  await pMap(urls, async (url) => {
    await sleep(20000);
    return fetch(url);
  }, { concurrency: 10 });
}
`,
      errors: [{
        messageId: 'sleepHoldingPermit',
        line: 6,
        column: 11,
        data: { sleep: 'await sleep(20000)', noun: 'permit', taker: 'pMap(...)', line: '5', cost: '1 of 10 slots does nothing for the whole delay' },
      }],
    },
    // --- axios-retry on the client: each request backs off inside the slot ---
    {
      code: `
import axios from 'axios';
import axiosRetry from 'axios-retry';
import pLimit from 'p-limit';
axiosRetry(axios, { retries: 3, retryDelay: axiosRetry.exponentialDelay });
const limit = pLimit(2);
export const get = (url: string) => limit(async () => {
  const { data } = await axios.get(url, { timeout: 15000 });
  return data;
});
`,
      errors: [{
        messageId: 'retryHoldingPermit',
        line: 8,
        column: 26,
        data: { sleep: 'await axios.get(url, { timeout: 15000 })', noun: 'permit', taker: 'limit(...)', line: '7', cost: '1 of 2 slots does nothing through every backoff' },
      }],
    },
  ],
});

// rxjs retries that wait between attempts, and retries started without waiting that release the lock themselves.
ruleTester.run('no-sleep-holding-permit (rxjs retries, detached holds)', rule, {
  valid: [
    // A timer that is not a retry's delay.
    `
import { Mutex } from 'async-mutex';
import { lastValueFrom, timer } from 'rxjs';
import { map } from 'rxjs/operators';
const mutex = new Mutex();
export async function tick() {
  await mutex.runExclusive(async () => {
    await lastValueFrom(timer(0).pipe(map(() => 1)));
  });
}
`,
    // An rxjs retry without a delay.
    `
import { Mutex } from 'async-mutex';
import { lastValueFrom } from 'rxjs';
import { retry } from 'rxjs/operators';
const mutex = new Mutex();
export async function send(source) {
  await mutex.runExclusive(() => lastValueFrom(source.pipe(retry(3))));
}
`,
    // A retry started without waiting that does not release the lock: the release below ends the hold.
    `
import pRetry from 'p-retry';
export class Sender {
  async send(tx) {
    const { release } = await this.manager.lock(tx.from);
    pRetry(() => this.report(tx), { retries: 3 }).catch(console.error);
    release();
  }
}
`,
  ],
  invalid: [
    {
      code: `
import { Mutex } from 'async-mutex';
import { defer, timer } from 'rxjs';
import { retryWhen, mergeMap } from 'rxjs/operators';
const mutex = new Mutex();
export async function send(tx) {
  await mutex.runExclusive(async () => {
    await defer(() => tx.send()).pipe(retryWhen((errors) => errors.pipe(mergeMap(() => timer(1000))))).toPromise();
  });
}
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 8, column: 11 }],
    },
    {
      // The function returns, but the lock is only given back inside the retry, after its backoffs.
      code: `
import pRetry from 'p-retry';
export class Sender {
  async send(tx) {
    const { release } = await this.manager.lock(tx.from);
    try {
      await tx.submit();
      release();
    } catch (error) {
      pRetry(async () => {
        await this.confirm(tx);
        await this.manager.unlock(tx.from, tx.nonce + 1);
      }, { retries: 3 }).catch(() => this.manager.unlock(tx.from, tx.nonce));
    }
  }
  async other() {
    const { release } = await this.manager.lock('x');
    release();
  }
}
`,
      errors: [{ messageId: 'retryHoldingPermit', line: 10, column: 7 }],
    },
  ],
});
