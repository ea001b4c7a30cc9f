import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import { createRecommendedRuleTester, createRuleTester, createTypedRuleTester, fixture } from '../ruleTester';
import { report } from './fanOutErrors';

// Suggestions depend on the nearest package.json: each folder declares a different bounding package.
const WITH_P_MAP = fixture('fan-out/with-p-map/batch.ts');
const WITH_P_LIMIT = fixture('fan-out/with-p-limit/batch.ts');
const WITH_BOTH = fixture('fan-out/with-both/batch.ts');
const NONE = fixture('fan-out/none/batch.ts');

const ruleTester = createRuleTester();

const valid: (ValidTestCase<Options> | string)[] = [
    // --- the size is evident and small ---
    `import { fetchA, fetchB } from './api';
export async function both() {
  return Promise.all([fetchA(), fetchB()]);
}`,
    // A const literal array in the file.
    `import { fetchRegion } from './regions';
const REGIONS = ['eu', 'us', 'ap'];
export async function all() {
  return Promise.all(REGIONS.map((r) => fetchRegion(r)));
}`,
    `import { summarise } from './llm';
export async function preview(tickets: string[]) {
  return Promise.all(tickets.slice(0, 10).map(summarise));
}`,
    // slice(0, K) with a const K.
    `import { summarise } from './llm';
const PREVIEW = 5;
export async function preview(tickets: string[]) {
  return Promise.all(tickets.slice(0, PREVIEW).map(summarise));
}`,
    // The last three.
    `import { summarise } from './llm';
export async function latest(tickets: string[]) {
  return Promise.all(tickets.slice(-3).map(summarise));
}`,
    `import { warm } from './cache';
export async function warmUp() {
  await Promise.all(Array.from({ length: 4 }, (_, i) => warm(i)));
}`,
    `import { ping } from './net';
export async function check() {
  await Promise.all(Array(3).fill(0).map(() => ping()));
}`,
    // A tuple annotation says the length without type information.
    `import { send } from './mail';
export async function pair(both: [string, string]) {
  await Promise.all(both.map(send));
}`,
    `import { send } from './mail';
export async function pair(both: readonly [a: string, b: string]) {
  await Promise.all(both.map((x) => send(x)));
}`,
    // A Set built from a literal.
    `import { send } from './mail';
export async function run() {
  await Promise.all([...new Set(['ops', 'dev'])].map(send));
}`,
    // Object.keys of a const object literal.
    `import { refresh } from './cache';
const CACHES = { users: 1, teams: 2 };
export async function refreshAll() {
  await Promise.all(Object.keys(CACHES).map(refresh));
}`,
    `import { timeout, work } from './net';
export async function withDeadline() {
  return Promise.race([work(), timeout(5000)]);
}`,
    // maxLiteralElements raised: a 20-slot warm-up is fine for this project.
    {
      code: `import { warm } from './cache';
export async function warmUp() {
  await Promise.all(Array.from({ length: 20 }, (_, i) => warm(i)));
}`,
      options: [{ maxLiteralElements: 32 }],
    },
    // An `as const` list is a literal too.
    `import { send } from './mail';
const TEAMS = ['ops', 'dev', 'support'] as const;
export async function notifyTeams() {
  await Promise.all(TEAMS.map((t) => send(t)));
}`,
    // Promises created elsewhere and handed in: this call starts nothing.
    `export async function settleAll(pending: Promise<unknown>[]) {
  return Promise.allSettled(pending);
}`,
    // --- the work runs under a bound ---
    `import pLimit from 'p-limit';
import { summarise } from './llm';
const limit = pLimit(8);
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map((t) => limit(() => summarise(t))));
}`,
    // The first thing the async mapper waits on is the limiter; what follows runs in its wake.
    `import pLimit from 'p-limit';
import { save, summarise } from './llm';
const limit = pLimit(8);
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map(async (t) => {
    const summary = await limit(() => summarise(t));
    await save(t, summary);
  }));
}`,
    `import { Semaphore } from 'async-mutex';
import { summarise } from './llm';
const slots = new Semaphore(4);
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map((t) => slots.runExclusive(() => summarise(t))));
}`,
    `import { Semaphore } from 'async-mutex';
import { summarise } from './llm';
const slots = new Semaphore(4);
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map(async (t) => {
    const [, release] = await slots.acquire();
    try {
      await summarise(t);
    } finally {
      release();
    }
  }));
}`,
    // A pool client per item: the pool size is the bound.
    `import { Pool } from 'pg';
const pool = new Pool({ max: 10 });
export async function archive(ids: string[]) {
  await Promise.all(ids.map(async (id) => {
    const client = await pool.connect();
    try {
      await client.query('UPDATE tickets SET archived = true WHERE id = $1', [id]);
    } finally {
      client.release();
    }
  }));
}`,
    // A class field lock, taken per item.
    `import { Mutex } from 'async-mutex';
import { save } from './db';
export class Ledger {
  private readonly lock = new Mutex();
  async postAll(entries: string[]) {
    await Promise.all(entries.map((e) => this.lock.runExclusive(() => save(e))));
  }
}`,
    `import PQueue from 'p-queue';
import { summarise } from './llm';
const queue = new PQueue({ concurrency: 4 });
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map((t) => queue.add(() => summarise(t))));
}`,
    // A mapper defined elsewhere in the file that goes through the limiter.
    `import pLimit from 'p-limit';
import { summarise } from './llm';
const limit = pLimit(8);
const limitedSummary = (t: string) => limit(() => summarise(t));
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map(limitedSummary));
}`,
    `import pMap from 'p-map';
import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: 8 });
}`,
    `import Bluebird from 'bluebird';
import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  return Bluebird.map(tickets, summarise, { concurrency: 4 });
}`,
    // The options come from elsewhere: the bound may well be there.
    `import pMap from 'p-map';
import { summarise } from './llm';
export async function nightly(tickets: string[], options: { concurrency: number }) {
  return pMap(tickets, summarise, options);
}`,
    `import pMap from 'p-map';
import { summarise } from './llm';
export async function pair(a: string, b: string) {
  return pMap([a, b], summarise);
}`,
    // A fixed worker pool pulling from a shared queue.
    `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  const queue = [...tickets];
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (queue.length > 0) {
      const t = queue.shift() as string;
      await summarise(t);
    }
  }));
}`,
    // Workers sharing one iterator; the pool size is a parameter, and each worker is a named function.
    `import { summarise } from './llm';
export async function nightly(tickets: string[], workers: number) {
  const next = tickets.values();
  const worker = async () => {
    for (const t of next) await summarise(t);
  };
  await Promise.all(Array.from({ length: workers }, worker));
}`,
    // Workers taking a shared index.
    `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  let cursor = 0;
  async function worker() {
    while (cursor < tickets.length) {
      const t = tickets[cursor++];
      await summarise(t);
    }
  }
  await Promise.all([worker(), worker(), worker()]);
}`,
    // Team-declared limiter factory and permit callback (shared settings).
    {
      code: `import { createLimiter, withPermit } from '@acme/limits';
import { summarise } from './llm';
const limit = createLimiter(4);
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map((t) => limit(() => summarise(t))));
  await Promise.all(tickets.map((t) => withPermit(() => summarise(t))));
}`,
      settings: {
        'async-hazards': {
          preset: 'strict',
          limiters: [{ module: '@acme/limits', export: 'createLimiter' }],
          permitCallbacks: [{ module: '@acme/limits', export: 'withPermit' }],
        },
      },
    },
    // --- promises that already exist, or no async work at all ---
    `export async function waitAll(uploads: { done: Promise<void> }[]) {
  await Promise.all(uploads.map((u) => u.done));
}`,
    `export async function waitAll(uploads: { done: Promise<void> }[], log: (x: unknown) => void) {
  await Promise.all(uploads.map((u) => u.done.then(log)));
}`,
    `export async function settle(values: number[]) {
  return Promise.all(values.map((v) => Promise.resolve(v)));
}`,
    `export async function run(ids: number[]) {
  return Promise.all(ids.map(String));
}`,
    `export async function run(ids: number[]) {
  return Promise.all(ids.map((id) => ({ id })));
}`,
    `export async function run(items: { value: number }[]) {
  return Promise.all(items.map(async (i) => i.value * 2));
}`,
    `export async function run(items: string[]) {
  return Promise.all(items.map(async (i) => {
    console.log(i);
    return JSON.stringify(i);
  }));
}`,
    // The mapper returns nothing: the calls inside are not what Promise.all waits for.
    `import { send } from './mail';
export async function run(users: string[]) {
  await Promise.all(users.map((u) => {
    void send(u);
  }));
}`,
    `function label(t: { name: string }) {
  return t.name;
}
export async function run(tickets: { name: string }[]) {
  return Promise.all(tickets.map(label));
}`,
    // A local Promise that is not the global one.
    `export async function run(Promise: { all(x: unknown): unknown }, xs: string[], send: (x: string) => void) {
  return Promise.all(xs.map((x) => send(x)));
}`,
    // A different container's map: p-limit's own map is the bound.
    `import pLimit from 'p-limit';
import { summarise } from './llm';
const limit = pLimit(4);
export async function run(tickets: string[]) {
  return limit.map(tickets, summarise);
}`,
    // --- push loops that are bounded or paced ---
    `import { send } from './mail';
export async function run() {
  const pending = [];
  for (const team of ['ops', 'dev']) pending.push(send(team));
  await Promise.all(pending);
}`,
    `import { warm } from './cache';
export async function run() {
  const pending = [];
  for (let i = 0; i < 4; i++) pending.push(warm(i));
  await Promise.all(pending);
}`,
    // A hand-written window: the loop awaits whenever ten are in flight.
    `import { send } from './mail';
export async function run(users: string[]) {
  const inFlight: Promise<void>[] = [];
  for (const u of users) {
    inFlight.push(send(u));
    if (inFlight.length >= 10) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
}`,
    // Each result is awaited before it is pushed: nothing runs concurrently.
    `import { send } from './mail';
export async function run(users: string[]) {
  const results = [];
  for (const u of users) results.push(await send(u));
  return Promise.all(results);
}`,
    // --- chunk-like shapes that are not chunking ---
    // Slices of one are sequential: no slot waits for a slower sibling.
    `import { send } from './mail';
export async function run(users: string[]) {
  for (let i = 0; i < users.length; i++) {
    await Promise.all(users.slice(i, i + 1).map(send));
  }
}`,
    // A window that is not awaited per slice is not a chunk loop (nor is it reported as one).
    `import { send } from './mail';
export function run(users: string[], size: number) {
  const windows = [];
  for (let i = 0; i < users.length; i += size) {
    windows.push(users.slice(i, i + size));
  }
  return windows.length;
}`,
    // --- teardown of what the program already holds: closing ends work, it sends nothing downstream ---
    `export async function shutdown(sockets: { close(): Promise<void> }[]) {
  await Promise.all(sockets.map((socket) => socket.close()));
}`,
    `export async function disposeAll(pages: { dispose(): Promise<void> }[]) {
  await Promise.allSettled(pages.map(async (page) => {
    await page.dispose();
  }));
}`,
    // Handlers chained on the teardown, destructured items, suffixed verbs, the item handed to a teardown.
    `export async function quitAll(nodes: () => { quit(): Promise<void> }[]) {
  await Promise.all(nodes().map((node) => node.quit().catch(() => undefined)));
}`,
    `export async function closeSessions(sessions: Set<{ endSession(): Promise<void> }>) {
  const ends = Array.from(sessions, (session) => session.endSession());
  await Promise.all(ends);
}`,
    `export async function release(entries: { client: { end(): Promise<void> } }[]) {
  await Promise.all(entries.map(({ client }) => client.end()));
}`,
    `export class Pool {
  kill(child: unknown, signal: string): Promise<void> { return Promise.resolve(); }
  async clean(children: unknown[]) {
    await Promise.all(children.map((c) => this.kill(c, 'SIGTERM')));
  }
}`,
    // One promise pushed per held client, all closing.
    `export async function close(clients: Map<string, { dispatcher: { close(): Promise<void> } }>) {
  const closing: Promise<void>[] = [];
  for (const { dispatcher } of clients.values()) {
    closing.push(dispatcher.close());
  }
  await Promise.all(closing);
}`,
    // bluebird's map with a function expression that quits each client.
    `import Bluebird from 'bluebird';
export function quit(servers: { quit(): Promise<void> }[]) {
  return Bluebird.map(servers, function (client) {
    return client.quit();
  });
}`,
    // --- fan-out over registered code, not data: the list is as long as the program made it ---
    // Each item is itself the function called (Azure's abortable builders): one call per callback.
    `export async function race(builders: Array<(o: { signal: AbortSignal }) => Promise<string>>, signal: AbortSignal) {
  return Promise.race(builders.map((build) => build({ signal })));
}`,
    // esbuild's onStart callbacks, destructured from plugin records.
    `export async function start(entries: { name: string; callback: () => Promise<void> }[]) {
  await Promise.all(entries.map(async ({ callback }) => { await callback(); }));
}`,
    // An emitter that awaits its listeners (secretlint): the pushed call is the listener itself.
    `export function emit(listeners: Array<(v: string) => Promise<void>>, v: string) {
  const promises: Promise<void>[] = [];
  listeners.forEach((listener) => { promises.push(listener(v)); });
  return Promise.all(promises);
}`,
    // A list named for plugins/providers/hooks is sized by configuration (qified's providers).
    `class Broker {
  private messageProviders: { publish(topic: string): Promise<void> }[] = [];
  async publish(topic: string) {
    await Promise.all(this.messageProviders.map(async (provider) => provider.publish(topic)));
  }
}`,
];

const invalid: InvalidTestCase<MessageId, Options>[] = [
  {
    // Near miss of the registered-code exemption: thunks made one per input item are data-sized.
    code: `export async function run(urls: string[]) {
  const tasks = urls.map((url) => () => fetch(url));
  await Promise.all(tasks.map((task) => task()));
}`,
    errors: [{ messageId: 'unboundedFanOut', line: 3, column: 9 }],
  },
  {
    // Near misses of teardown: a request that cancels, a function handed only part of the item.
    code: `export class Shop {
  cancelOrder(order: string): Promise<void> { return Promise.resolve(); }
  async cancelAll(orders: { cancelRefund(): Promise<void> }[], ids: string[]) {
    await Promise.all(ids.map((id) => this.cancelOrder(id)));
    await Promise.all(orders.map((order) => order.cancelRefund()));
  }
}`,
    errors: [{ messageId: 'unboundedFanOut', line: 4, column: 11 }, { messageId: 'unboundedFanOut', line: 5, column: 11 }],
  },
  {
    code: `export async function closeTickets(api: { closeTicket(id: string): Promise<void> }, tickets: { id: string }[]) {
  await Promise.all(tickets.map((ticket) => api.closeTicket(ticket.id)));
  const pending: Promise<void>[] = [];
  for (const ticket of tickets) pending.push(api.closeTicket(ticket.id));
  await Promise.all(pending);
}`,
    errors: [{ messageId: 'unboundedFanOut', line: 2, column: 9 }, { messageId: 'unboundedFanOut', line: 5, column: 9 }],
  },
  {
    // A method on each item is work per data item, even when the item is an object.
    code: `export async function saveAll(users: { save(): Promise<void> }[]) {
  await Promise.all(users.map((user) => user.save()));
}`,
    errors: [{ messageId: 'unboundedFanOut', line: 2, column: 9 }],
  },
    {
      // the plain shape: an async arrow per ticket; no bounding package declared, so the message says what to add
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map(async (t) => {
    await summarise(t);
  }));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // p-map declared: rewrite as pMap with the default bound
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map(async (t) => summarise(t)));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { summarise } from './llm';
import pMap from 'p-map';
export async function nightly(tickets: string[]) {
  return pMap(tickets, async (t) => summarise(t), { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // a dropped map with p-limit declared: a limiter around each call, nothing else changes
      // (a dropped forEach(async …) is no-orphaned-promise's, whose for…of rewrite ends the burst too)
      code: `import { summarise } from './llm';
export function nightly(tickets: string[]) {
  tickets.map(async (t) => { await summarise(t); });
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unawaitedFanOut',
          line: 3,
          column: 3,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
export function nightly(tickets: string[]) {
  const limit = pLimit(8);
  tickets.map((t) => limit(async () => { await summarise(t); }));
}`,
            },
          ],
        },
      ],
    },
    {
      // p-limit declared: a limiter around each call
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  return Promise.all(tickets.map(async (t) => summarise(t)));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
export async function nightly(tickets: string[]) {
  const limit = pLimit(8);
  return Promise.all(tickets.map((t) => limit(async () => summarise(t))));
}`,
            },
          ],
        },
      ],
    },
    {
      // both declared: Promise.all prefers pMap
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  const summaries = await Promise.all(tickets.map(summarise));
  return summaries;
}`,
      filename: WITH_BOTH,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 27,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { summarise } from './llm';
import pMap from 'p-map';
export async function nightly(tickets: string[]) {
  const summaries = await pMap(tickets, summarise, { concurrency: 8 });
  return summaries;
}`,
            },
          ],
        },
      ],
    },
    {
      // allSettled keeps its settled results: the p-limit form even when p-map is there
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  const results = await Promise.allSettled(tickets.map((t) => summarise(t)));
  return results.filter((r) => r.status === 'rejected').length;
}`,
      filename: WITH_BOTH,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 25,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
export async function nightly(tickets: string[]) {
  const limit = pLimit(8);
  const results = await Promise.allSettled(tickets.map((t) => limit(() => summarise(t))));
  return results.filter((r) => r.status === 'rejected').length;
}`,
            },
          ],
        },
      ],
    },
    {
      // allSettled with only p-map: no rewrite that keeps settled results, so no suggestion
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  return Promise.allSettled(tickets.map((t) => summarise(t)));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [],
        },
      ],
    },
    {
      // Promise.any through a limiter
      code: `import { probe } from './net';
export async function firstHealthy(hosts: string[]) {
  return Promise.any(hosts.map((h) => probe(h)));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { probe } from './net';
import pLimit from 'p-limit';
export async function firstHealthy(hosts: string[]) {
  const limit = pLimit(8);
  return Promise.any(hosts.map((h) => limit(() => probe(h))));
}`,
            },
          ],
        },
      ],
    },
    {
      // Promise.race
      code: `import { probe } from './net';
export async function fastest(hosts: string[]) {
  return Promise.race(hosts.map(probe));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [],
        },
      ],
    },
    {
      // a function reference as mapper, p-limit form names the item
      code: `import { summarise } from './llm';
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map(summarise));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
export async function nightly(tickets: string[]) {
  const limit = pLimit(8);
  await Promise.all(tickets.map((item) => limit(() => summarise(item))));
}`,
            },
          ],
        },
      ],
    },
    {
      // a method reference keeps its receiver in the limiter form
      code: `import { client } from './llm';
export async function nightly(tickets: string[]) {
  await Promise.all(tickets.map(client.summarise));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { client } from './llm';
import pLimit from 'p-limit';
export async function nightly(tickets: string[]) {
  const limit = pLimit(8);
  await Promise.all(tickets.map((item) => limit(() => client.summarise(item))));
}`,
            },
          ],
        },
      ],
    },
    {
      // flatMap: still one call per item (no pMap rewrite: it would not flatten)
      code: `import { expand } from './llm';
export async function run(tickets: string[]) {
  return Promise.all(tickets.flatMap((t) => [expand(t), expand(t + '!')]));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [],
        },
      ],
    },
    {
      // filter(…).map(…): the filter does not bound the size
      code: `import { summarise } from './llm';
export async function run(tickets: { open: boolean }[]) {
  return Promise.all(tickets.filter((t) => t.open).map((t) => summarise(t)));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { summarise } from './llm';
import pMap from 'p-map';
export async function run(tickets: { open: boolean }[]) {
  return pMap(tickets.filter((t) => t.open), (t) => summarise(t), { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // Array.from(xs, fn)
      code: `import { summarise } from './llm';
export async function run(tickets: Iterable<string>) {
  return Promise.all(Array.from(tickets, (t) => summarise(t)));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [],
        },
      ],
    },
    {
      // a spread Set
      code: `import { notify } from './mail';
export async function run(users: Set<string>) {
  await Promise.all([...users].map((u) => notify(u)));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { notify } from './mail';
import pMap from 'p-map';
export async function run(users: Set<string>) {
  await pMap([...users], (u) => notify(u), { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // Object.keys of a runtime object
      code: `import { refresh } from './cache';
export async function run(byId: Record<string, number>) {
  await Promise.all(Object.keys(byId).map(refresh));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // Object.entries with a destructuring async mapper
      code: `import { save } from './db';
export async function run(byId: Record<string, number>) {
  await Promise.all(Object.entries(byId).map(async ([id, n]) => {
    await save(id, n);
  }));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { save } from './db';
import pLimit from 'p-limit';
export async function run(byId: Record<string, number>) {
  const limit = pLimit(8);
  await Promise.all(Object.entries(byId).map(([id, n]) => limit(async () => {
    await save(id, n);
  })));
}`,
            },
          ],
        },
      ],
    },
    {
      // Array.from({ length: n }) with a runtime n
      code: `import { warm } from './cache';
export async function run(n: number) {
  await Promise.all(Array.from({ length: n }, (_, i) => warm(i)));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a mapped array stored first, awaited later
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const uploads = files.map((f) => upload(f));
  await Promise.all(uploads);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 4,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // stored, with p-limit: the limiter goes in front of the mapping statement
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const uploads = files.map(async (f) => {
    await upload(f);
  });
  console.log('started');
  return Promise.allSettled(uploads);
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 7,
          column: 10,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { upload } from './s3';
import pLimit from 'p-limit';
export async function run(files: string[]) {
  const limit = pLimit(8);
  const uploads = files.map((f) => limit(async () => {
    await upload(f);
  }));
  console.log('started');
  return Promise.allSettled(uploads);
}`,
            },
          ],
        },
      ],
    },
    {
      // a push loop over an unbounded collection
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const pending = [];
  for (const f of files) {
    pending.push(upload(f));
  }
  await Promise.all(pending);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 7,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // push loop with p-limit: the limiter goes before the loop, each pushed call is wrapped
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const pending: Promise<void>[] = [];
  for (const f of files) pending.push(upload(f));
  await Promise.all(pending);
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { upload } from './s3';
import pLimit from 'p-limit';
export async function run(files: string[]) {
  const pending: Promise<void>[] = [];
  const limit = pLimit(8);
  for (const f of files) pending.push(limit(() => upload(f)));
  await Promise.all(pending);
}`,
            },
          ],
        },
      ],
    },
    {
      // forEach push
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const pending: Promise<void>[] = [];
  files.forEach((f) => pending.push(upload(f)));
  await Promise.all(pending);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // an index loop up to xs.length
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const pending = [];
  for (let i = 0; i < files.length; i++) pending.push(upload(files[i]));
  await Promise.all(pending);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // an async IIFE pushed per item
      code: `import { upload } from './s3';
export async function run(files: string[]) {
  const pending = [];
  for (const f of files) {
    pending.push((async () => {
      await upload(f);
    })());
  }
  await Promise.all(pending);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 9,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // pMap without concurrency is unbounded
      code: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise);
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedPMap',
          line: 4,
          column: 10,
          suggestions: [
            {
              messageId: 'addConcurrency',
              output: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // pMap options without concurrency
      code: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, (t) => summarise(t), { stopOnError: false });
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedPMap',
          line: 4,
          column: 10,
          suggestions: [
            {
              messageId: 'addConcurrency',
              output: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, (t) => summarise(t), { concurrency: 8, stopOnError: false });
}`,
            },
          ],
        },
      ],
    },
    {
      // pMap with concurrency: Infinity
      code: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: Infinity });
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedPMap',
          line: 4,
          column: 10,
          suggestions: [
            {
              messageId: 'addConcurrency',
              output: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // pMap with an empty options object
      code: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise, {});
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedPMap',
          line: 4,
          column: 10,
          suggestions: [
            {
              messageId: 'addConcurrency',
              output: `import pMap from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // Bluebird.map has the same unbounded default
      code: `import Bluebird from 'bluebird';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return Bluebird.map(tickets, summarise);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedPMap',
          line: 4,
          column: 10,
          suggestions: [
            {
              messageId: 'addConcurrency',
              output: `import Bluebird from 'bluebird';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  return Bluebird.map(tickets, summarise, { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // chunking: slices of 20, each awaited; p-map rewrite keeps the bound of 20
      code: `import { summarise } from './llm';
export async function run(tickets: string[]) {
  for (let i = 0; i < tickets.length; i += 20) {
    await Promise.all(tickets.slice(i, i + 20).map((t) => summarise(t)));
  }
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 4,
          column: 11,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { summarise } from './llm';
import pMap from 'p-map';
export async function run(tickets: string[]) {
  await pMap(tickets, (t) => summarise(t), { concurrency: 20 });
}`,
            },
          ],
        },
      ],
    },
    {
      // chunking with a const size and p-limit
      code: `import { summarise } from './llm';
const BATCH = 25;
export async function run(tickets: string[]) {
  for (let i = 0; i < tickets.length; i += BATCH) {
    await Promise.all(tickets.slice(i, i + BATCH).map(summarise));
  }
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 5,
          column: 11,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
const BATCH = 25;
export async function run(tickets: string[]) {
  const limit = pLimit(BATCH);
  await Promise.all(tickets.map((item) => limit(() => summarise(item))));
}`,
            },
          ],
        },
      ],
    },
    {
      // chunking with Math.min and a named slice: reported, no rewrite (two statements)
      code: `import { summarise } from './llm';
export async function run(tickets: string[], size: number) {
  for (let start = 0; start < tickets.length; start += size) {
    const batch = tickets.slice(start, Math.min(start + size, tickets.length));
    await Promise.all(batch.map((t) => summarise(t)));
  }
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 5,
          column: 11,
          suggestions: [],
        },
      ],
    },
    {
      // chunking by splice in a while loop: no rewrite (the queue is drained)
      code: `import { summarise } from './llm';
export async function drain(queue: string[]) {
  while (queue.length > 0) {
    await Promise.all(queue.splice(0, 10).map(summarise));
  }
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 4,
          column: 11,
          suggestions: [],
        },
      ],
    },
    {
      // chunking with lodash chunk
      code: `import { chunk } from 'lodash';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  for (const batch of chunk(tickets, 50)) {
    await Promise.all(batch.map((t) => summarise(t)));
  }
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 5,
          column: 11,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { chunk } from 'lodash';
import { summarise } from './llm';
import pMap from 'p-map';
export async function run(tickets: string[]) {
  await pMap(tickets, (t) => summarise(t), { concurrency: 50 });
}`,
            },
          ],
        },
      ],
    },
    {
      // lodash chunk computed first, results kept: reported, no rewrite
      code: `import _ from 'lodash';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  const out: string[] = [];
  const batches = _.chunk(tickets, 50);
  for (const batch of batches) {
    out.push(...(await Promise.all(batch.map(summarise))));
  }
  return out;
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 7,
          column: 24,
          suggestions: [],
        },
      ],
    },
    {
      // chunking with allSettled and p-limit: the limiter form keeps settled semantics
      code: `import { chunk } from 'lodash';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  for (const batch of chunk(tickets, 50)) {
    await Promise.allSettled(batch.map((t) => summarise(t)));
  }
}`,
      filename: WITH_BOTH,
      errors: [
        {
          messageId: 'chunkedBatch',
          line: 5,
          column: 11,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { chunk } from 'lodash';
import { summarise } from './llm';
import pLimit from 'p-limit';
export async function run(tickets: string[]) {
  const limit = pLimit(50);
  await Promise.allSettled(tickets.map((t) => limit(() => summarise(t))));
}`,
            },
          ],
        },
      ],
    },
    {
      // a literal array of 17 calls is over the default limit of 16
      code: `import { ping } from './net';
export async function run() {
  await Promise.all([ping(1), ping(2), ping(3), ping(4), ping(5), ping(6), ping(7), ping(8), ping(9),
    ping(10), ping(11), ping(12), ping(13), ping(14), ping(15), ping(16), ping(17)]);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // slice(0, 100) is evident but larger than the limit
      code: `import { summarise } from './llm';
export async function run(tickets: string[]) {
  await Promise.all(tickets.slice(0, 100).map(summarise));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // Array.from({ length: 50 }) mapped to async work
      code: `import { warm } from './cache';
export async function run() {
  await Promise.all(Array.from({ length: 50 }, (_, i) => warm(i)));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // option maxLiteralElements: 2 makes a three-item const list too many
      code: `import { fetchRegion } from './regions';
const REGIONS = ['eu', 'us', 'ap'];
export async function run() {
  await Promise.all(REGIONS.map(fetchRegion));
}`,
      filename: NONE,
      options: [{maxLiteralElements: 2}],
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 4,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // option concurrency: 32 goes into the rewrite
      code: `import { summarise } from './llm';
export async function run(tickets: string[]) {
  await Promise.all(tickets.map((t) => summarise(t)));
}`,
      filename: WITH_P_LIMIT,
      options: [{concurrency: 32}],
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
export async function run(tickets: string[]) {
  const limit = pLimit(32);
  await Promise.all(tickets.map((t) => limit(() => summarise(t))));
}`,
            },
          ],
        },
      ],
    },
    {
      // the limiter is taken only after other async work has started (the file imports p-limit, so the rewrite is offered)
      code: `import pLimit from 'p-limit';
import { audit, summarise } from './llm';
const limit = pLimit(4);
export async function run(tickets: string[]) {
  await Promise.all(tickets.map(async (t) => {
    await audit(t);
    await limit(() => summarise(t));
  }));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import pLimit from 'p-limit';
import { audit, summarise } from './llm';
const limit = pLimit(4);
export async function run(tickets: string[]) {
  const limit2 = pLimit(8);
  await Promise.all(tickets.map((t) => limit2(async () => {
    await audit(t);
    await limit(() => summarise(t));
  })));
}`,
            },
          ],
        },
      ],
    },
    {
      // p-queue without a concurrency runs everything at once
      code: `import PQueue from 'p-queue';
import { summarise } from './llm';
const queue = new PQueue();
export async function run(tickets: string[]) {
  await Promise.all(tickets.map((t) => queue.add(() => summarise(t))));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a spread of a mapped array inside a literal
      code: `import { flush, upload } from './s3';
export async function run(files: string[]) {
  await Promise.all([...files.map(upload), flush()]);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a mapper returning new Promise
      code: `export async function run(delays: number[]) {
  await Promise.all(delays.map((ms) => new Promise((resolve) => setTimeout(resolve, ms))));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 2,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a same-file async function as mapper
      code: `async function summarise(t: string) {
  return fetch('https://llm.example/' + t);
}
export async function run(tickets: string[]) {
  await Promise.all(tickets.map(summarise));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a same-file plain function that returns fetch(…)
      code: `function summarise(t: string) {
  return fetch('https://llm.example/' + t);
}
export async function run(tickets: string[]) {
  await Promise.all(tickets.map((t) => summarise(t)));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // the names limit and item are taken: fresh ones are picked
      code: `import { summarise } from './llm';
const limit = 10;
export async function run(tickets: string[], item: string) {
  await Promise.all(tickets.slice(limit).map(summarise));
  return item;
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 4,
          column: 9,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { summarise } from './llm';
import pLimit from 'p-limit';
const limit = 10;
export async function run(tickets: string[], item: string) {
  const limit2 = pLimit(8);
  await Promise.all(tickets.slice(limit).map((item2) => limit2(() => summarise(item2))));
  return item;
}`,
            },
          ],
        },
      ],
    },
    {
      // the file already imports p-map: the rewrite uses that name and adds no import
      code: `import mapLimited from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  await mapLimited(tickets, summarise, { concurrency: 4 });
  await Promise.all(tickets.map(summarise));
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import mapLimited from 'p-map';
import { summarise } from './llm';
export async function run(tickets: string[]) {
  await mapLimited(tickets, summarise, { concurrency: 4 });
  await mapLimited(tickets, summarise, { concurrency: 8 });
}`,
            },
          ],
        },
      ],
    },
    {
      // a CommonJS file gets no import-adding rewrite
      code: `const { summarise } = require('./llm');
async function run(tickets) {
  await Promise.all(tickets.map(summarise));
}
module.exports = { run };`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // a file without a path (stdin): reported, no package.json to consult
      code: `import { summarise } from './llm';
export async function run(tickets: string[]) {
  await Promise.all(tickets.map(summarise));
}`,
      filename: '<input>',
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // Promise.all(…).then(…): only the Promise.all call is replaced
      code: `import { summarise } from './llm';
export function run(tickets: string[]) {
  return Promise.all(tickets.map(summarise)).then((all) => all.length);
}`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 10,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import { summarise } from './llm';
import pMap from 'p-map';
export function run(tickets: string[]) {
  return pMap(tickets, summarise, { concurrency: 8 }).then((all) => all.length);
}`,
            },
          ],
        },
      ],
    },
    {
      // top-level await with no imports: the import goes first
      code: `const urls = process.argv.slice(2);
await Promise.all(urls.map((u) => fetch(u)));`,
      filename: WITH_P_MAP,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 2,
          column: 7,
          suggestions: [
            {
              messageId: 'usePMap',
              output: `import pMap from 'p-map';

const urls = process.argv.slice(2);
await pMap(urls, (u) => fetch(u), { concurrency: 8 });`,
            },
          ],
        },
      ],
    },
    {
      // a nested fan-out: both levels are unbounded, and the outer one is the level to bound
      code: `import { upload } from './s3';
export async function run(users: { files: string[] }[]) {
  await Promise.all(users.map((u) => Promise.all(u.files.map(upload))));
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // an arrow class field
      code: `import { send } from './mail';
export class Notifier {
  notifyAll = (users: string[]) => Promise.all(users.map((u) => send(u)));
}`,
      filename: WITH_P_LIMIT,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 3,
          column: 36,
          suggestions: [
            {
              messageId: 'useLimiter',
              output: `import { send } from './mail';
import pLimit from 'p-limit';
const limit = pLimit(8);
export class Notifier {
  notifyAll = (users: string[]) => Promise.all(users.map((u) => limit(() => send(u))));
}`,
            },
          ],
        },
      ],
    },
    {
      // a push loop over Object.values
      code: `import { save } from './db';
export async function run(rows: Record<string, string>) {
  const writes = [];
  for (const row of Object.values(rows)) writes.push(save(row));
  await Promise.all(writes);
}`,
      filename: NONE,
      errors: [
        {
          messageId: 'unboundedFanOut',
          line: 5,
          column: 9,
          suggestions: [],
        },
      ],
    },
    {
      // Tickets loaded through an imported client: the client is not a limiter, the list has any size.
      code: `import { api } from './api';
import { summarise } from './llm';
export async function run() {
  const tickets = await api.listOpen();
  await Promise.all(tickets.map(summarise));
  await Promise.all(api.listClosed().map((t) => summarise(t)));
}`,
      filename: NONE,
      errors: [
        { messageId: 'unboundedFanOut', line: 5, column: 9, suggestions: [] },
        { messageId: 'unboundedFanOut', line: 6, column: 9, suggestions: [] },
      ],
    },
];

// rule-tester 8.72 bundles its own @typescript-eslint/utils types; the rule is built with 8.73's.
ruleTester.run<MessageId, Options>('no-unbounded-fan-out', rule as never, { valid, invalid });

// With type information: tuple types and provably synchronous mappers are known; everything the
// syntax finds is still found. Fixture files sit next to a package.json without p-map or p-limit,
// so no rewrite is offered.
const typedTester = createTypedRuleTester();
// Not on disk: the project service gives it the fixtures' default project, next to jobs.ts.
const TYPED = fixture('fan-out-typed.ts');

typedTester.run<MessageId, Options>('no-unbounded-fan-out (typed)', rule as never, {
  valid: [
    // The function returns a tuple: two items, whatever the syntax says.
    { filename: TYPED, code: `import { enqueueJob } from './jobs';
function pair(): [string, string] {
  return ['a', 'b'];
}
export async function run() {
  await Promise.all(pair().map(enqueueJob));
}` },
    { filename: TYPED, code: `import { enqueueJob } from './jobs';
export async function run(names: readonly [string, string, string]) {
  const jobs = names.map((n) => enqueueJob(n));
  await Promise.all(jobs);
}` },
    // A mapper handed in with a synchronous signature starts no async work.
    { filename: TYPED, code: `export async function run(xs: string[], format: (x: string) => string) {
  return Promise.all(xs.map(format));
}` },
    { filename: TYPED, code: `export async function run(xs: string[]) {
  return Promise.all(xs.map((x) => x.toUpperCase()));
}` },
    { filename: TYPED, code: `import { enqueueJob } from './jobs';
import pLimit from 'p-limit';
const limit = pLimit(4);
export async function run(names: string[]) {
  await Promise.all(names.map((n) => limit(() => enqueueJob(n))));
}` },
    // Every case above stays valid with types: type information never hides a bound.
    ...valid.map((test) => (typeof test === 'string' ? { code: test, filename: TYPED } : { ...test, filename: TYPED })),
  ],
  invalid: [
    {
      filename: TYPED,
      code: `import { enqueueJob } from './jobs';
export async function run(names: string[]) {
  await Promise.all(names.map(enqueueJob));
}`,
      errors: [{ messageId: 'unboundedFanOut', line: 3, column: 9, suggestions: [] }],
    },
    {
      filename: TYPED,
      code: `import { api } from './jobs';
export async function run(bodies: string[]) {
  return Promise.allSettled(bodies.map((b) => api.send(b)));
}`,
      errors: [{ messageId: 'unboundedFanOut', line: 3, column: 10, suggestions: [] }],
    },
    // A mapper handed in whose signature returns a promise.
    {
      filename: TYPED,
      code: `export async function run(xs: string[], work: (x: string) => Promise<void>) {
  await Promise.all(xs.map(work));
}`,
      errors: [{ messageId: 'unboundedFanOut', line: 2, column: 9, suggestions: [] }],
    },
    {
      filename: TYPED,
      code: `import { scheduleLater } from './jobs';
export async function run(names: Set<string>) {
  const pending: Promise<void>[] = [];
  for (const n of names) pending.push(scheduleLater(n));
  await Promise.all(pending);
}`,
      errors: [{ messageId: 'unboundedFanOut', line: 5, column: 9, suggestions: [] }],
    },
    {
      filename: TYPED,
      code: `import { enqueueJob } from './jobs';
export async function run(names: string[]) {
  for (let i = 0; i < names.length; i += 10) {
    await Promise.all(names.slice(i, i + 10).map((n) => enqueueJob(n)));
  }
}`,
      errors: [{ messageId: 'chunkedBatch', line: 4, column: 11, suggestions: [] }],
    },
    // An array type, not a tuple: the size is unknown (a body returning a short literal would say
    // otherwise; this one has none to read).
    {
      filename: TYPED,
      code: `import { enqueueJob } from './jobs';
declare function names(): string[];
export async function run() {
  await Promise.all(names().map(enqueueJob));
}`,
      errors: [{ messageId: 'unboundedFanOut', line: 4, column: 9, suggestions: [] }],
    },
    // Every untyped finding without a package.json rewrite is found with types too.
    ...invalid.filter((test) => test.filename === NONE).map((test) => ({ ...test, filename: TYPED })),
  ],
});

// Under `recommended`, only collections whose size comes from data are reported: evidence of
// where a collection comes from, and of the page bound a request carries, decides. Each shape
// with its near miss on the other side.
const OBJECTION = fixture('fan-out-packages/objection/routes.ts');
const OCTOKIT = fixture('fan-out-packages/octokit/github.js');

// `const { repos } = result` and later `result.repos = …` of the mapped repos: the value leads back to itself.
const SETTINGS = `const { getSettings, getIssue, getRepo } = require('./db');
module.exports = async (userId) => {
  const result = await getSettings({ userId });
  const { issues, repos } = result || {};
  const issueList = await Promise.all(issues.map((id) => getIssue(id)));
  const repoList = await Promise.all(repos.map((id) => getRepo(id)));
  result.issues = issueList;
  result.repos = repoList;
  return result;
};`;

// An objection model from a module of the project's own, out of sight.
const OBJECTION_ROWS = `import UserModel from '@/db/models/UserModel';
import { notify } from './mail';
export async function purge() {
  const users = await UserModel.query().where({ active: false });
  await Promise.all(users.map((user) => notify(user.email)));
}`;

// One listing call of Octokit's: a single page.
const OCTOKIT_PAGE = `const { authenticate } = require('./auth');
module.exports = async function languages(login) {
  const { GITHUB } = await authenticate();
  const { data: repos } = await GITHUB.repos.listForUser({ username: login });
  return Promise.all(repos.map(({ name }) => GITHUB.repos.listLanguages({ owner: login, repo: name })));
};`;

// A request that asks for a page of a size every caller sets.
const TRENDING = `import { enrich } from './images';
async function trending(limit) {
  const res = await fetch(\`https://api.example.com/movies/trending?limit=\${limit}&extended=images\`);
  const items = await res.json();
  return Promise.all(items.map((item) => enrich(item)));
}
export const home = () => trending(6);`;

// A graphql-js field configuration: `resolve` gets the query's arguments second.
const FIELD_CONFIG = `import { GraphQLFieldConfig, GraphQLList, GraphQLString } from 'graphql';
import { createUser } from './users';
export const createUsers: GraphQLFieldConfig<any, any, any> = {
  type: new GraphQLList(GraphQLString),
  async resolve(source, args) {
    return Promise.all(args.users.map((input) => createUser(input)));
  },
};`;

// The same through the `fields` of an object type, and through a resolver map handed to Apollo Server.
const OBJECT_TYPE = `import { GraphQLObjectType } from 'graphql';
import { createUser } from './users';
export const Mutation = new GraphQLObjectType({
  name: 'Mutation',
  fields: () => ({
    createUsers: { type: UserList, resolve: async (_, { users }) => Promise.all(users.map((u) => createUser(u))) },
  }),
});`;
const RESOLVER_MAP = `import { ApolloServer } from '@apollo/server';
import { createUser } from './users';
const resolvers = {
  Mutation: {
    async createUsers(parent, { users }) {
      return Promise.all(users.map((u) => createUser(u)));
    },
  },
};
export const server = new ApolloServer({ typeDefs, resolvers });`;

// The promises stored and joined later: the outer fan-out is the one to bound, not the one per user.
const STORED_OUTER = FIELD_CONFIG.replace(
  '    return Promise.all(args.users.map((input) => createUser(input)));',
  `    const results = args.users.map(async (input) => {
      await Promise.all(input.roles.map((role) => createUser(role)));
    });
    await Promise.allSettled(results);`);

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, origins)', rule, {
  valid: [
    // Near miss: without objection declared, `query()` on an imported class says nothing.
    { code: OBJECTION_ROWS, filename: NONE },
    // A page bound on the query.
    { code: OBJECTION_ROWS.replace('.where({ active: false })', '.where({ active: false }).limit(20)'), filename: OBJECTION },
    { code: OCTOKIT_PAGE, filename: OCTOKIT },
    // Near miss: without an Octokit client declared, \`paginate\` of an unreadable helper's object is a query builder's page.
    { code: OCTOKIT_PAGE.replace('await GITHUB.repos.listForUser({ username: login })', 'await GITHUB.paginate(GITHUB.repos.listForUser, { username: login })'), filename: NONE },
    { code: TRENDING, filename: NONE },
    { code: TRENDING.replace('?limit=${limit}&', '?limit=6&'), filename: NONE },
    // Near miss: \`source\` is the parent object the server resolved, not the client's input.
    { code: FIELD_CONFIG.replace('args.users', 'source.users'), filename: NONE },
    // Near miss: an object that is no field configuration of graphql's.
    { code: FIELD_CONFIG.replace(': GraphQLFieldConfig<any, any, any>', ''), filename: NONE },
    // Near miss: a map nothing hands to a server.
    { code: RESOLVER_MAP.replace('export const server = new ApolloServer({ typeDefs, resolvers });', 'export { resolvers };'), filename: NONE },
  ],
  invalid: [
    { code: SETTINGS, filename: NONE, errors: [report(5, 27), report(6, 26)] },
    { code: OBJECTION_ROWS, filename: OBJECTION, errors: [report(5)] },
    // Near miss: the same listing in a package with no Octokit client is an unreadable helper's data.
    { code: OCTOKIT_PAGE, filename: NONE, errors: [report(5, 10)] },
    // Every page of the listing.
    { code: OCTOKIT_PAGE.replace('const { data: repos } = await GITHUB.repos.listForUser({ username: login })', 'const repos = await GITHUB.paginate(GITHUB.repos.listForUser, { username: login })'), filename: OCTOKIT, errors: [report(5, 10)] },
    // Near miss: a request with no page size, and one whose page size the client of the route sent.
    { code: TRENDING.replace('?limit=${limit}&', '?'), filename: NONE, errors: [report(5, 10)] },
    {
      code: TRENDING.replace('export const home = () => trending(6);', "import express from 'express';\nconst app = express();\napp.get('/t', async (req, res) => res.json(await trending(req.query.n)));"),
      filename: NONE,
      errors: [report(5, 10)],
    },
    { code: FIELD_CONFIG, filename: NONE, errors: [report(6, 12)] },
    { code: OBJECT_TYPE, filename: NONE, errors: [report(6, 69)] },
    { code: RESOLVER_MAP, filename: NONE, errors: [report(6, 14)] },
    { code: STORED_OUTER, filename: NONE, errors: [report(9, 11)] },
  ],
});
