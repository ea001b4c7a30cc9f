import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRuleTester, createTypedRuleTester, fixture } from '../ruleTester';

// Every case below runs twice: without type information and with it. Typed mode only adds
// findings, so each syntactic verdict must hold in both. Typed-only cases follow at the end.

const valid: (ValidTestCase<Options> | string)[] = [
  // --- awaited, returned, yielded ---
  `async function send() {}
async function main() { await send(); }`,
  `async function send() {}
function main() { return send(); }`,
  // An arrow's expression body is its return value.
  `async function send() {}
const run = () => send();`,
  `async function send() {}
async function* stream() { yield send(); }`,
  `async function send() {}
async function main(flag: boolean) { await (flag ? send() : Promise.resolve()); }`,
  `async function send() {}
async function main() { try { return await send(); } finally { console.log('done'); } }`,

  // --- handled chains ---
  `async function send() {}
send().catch((error) => console.error(error));`,
  `async function send() {}
send().then(() => console.log('ok'), (error) => console.error(error));`,
  `async function send() {}
send().then(() => 1).then((n) => n + 1).catch(console.error);`,
  // `.finally()` after a handler passes the handled result through.
  `async function send() {}
send().catch(console.error).finally(() => console.log('done'));`,
  `async function main() {}
main().catch((error) => { console.error(error); process.exitCode = 1; });`,
  `(async () => { await fetch('https://example.com'); })().catch(console.error);`,
  // A `.then(ok)` that is returned is the caller's to handle.
  `function load() { return fetch('https://example.com').then((r) => r.json()); }`,

  // --- explicit detach ---
  `async function send() {}
void send();`,
  `void (async () => { await fetch('https://example.com'); })();`,

  // --- passed on or stored ---
  `async function send() {}
declare function track(p: Promise<void>): void;
track(send());`,
  `async function send() {}
const state = { pending: send() };
console.log(state);`,
  `async function send() {}
class Outbox { pending?: Promise<void>; flush() { this.pending = send(); } }`,
  `async function send() {}
async function main() { const pending = []; pending.push(send()); await Promise.all(pending); }`,
  // Reading the array in any other way counts as using it.
  `async function send() {}
const pending: Promise<void>[] = [];
pending.push(send());
console.log(pending.length);`,
  `async function send() {}
async function main() { const all = [send(), send()]; await Promise.all(all); }`,
  `async function send() {}
function main() { return Promise.all([send(), send()]); }`,

  // --- kept in a variable that is used later ---
  `async function send() {}
async function main() { const p = send(); console.log('started'); await p; }`,
  `async function send() {}
function main() { const p = send(); return p; }`,
  `async function send() {}
declare function track(p: Promise<void>): void;
const p = send();
track(p);`,
  `async function send() {}
const p = send();
p.catch(console.error);`,
  `async function send() {}
async function main() { let p; p = send(); await p; }`,
  // Exported: whoever imports it handles it.
  `async function send() {}
export const ready = send();`,
  // Read inside a closure that runs later.
  `async function send() {}
const p = send();
export async function waitReady() { await p; }`,

  // --- not a promise without types ---
  `function send() { return 1; }
send();`,
  // Async generators return async iterators, not promises.
  `async function* rows() { yield 1; }
rows();`,
  // Imported from another file: only type information can tell.
  `import { notify } from './missing-module';
notify();`,
  // A method with the same name as a local async function, on an unrelated object.
  `async function send() {}
declare const mailer: { send(): void };
mailer.send();`,
  `class Store { save() { return 1; } run() { this.save(); } }`,
  `const api = { send() { return 1; } };
api.send();`,
  `import fs from 'node:fs';
fs.readFile('a.txt', () => {});`,
  `import { watch } from 'node:fs/promises';
watch('.');`,
  `import { setInterval } from 'node:timers/promises';
setInterval(100);`,
  // A local function called fetch, and a local object called Promise.
  `function fetch(url: string) { return url; }
fetch('https://example.com');`,
  `const Promise = { all: (xs: unknown[]) => xs };
Promise.all([]);`,
  // Used as a condition or in a template: a different mistake, not a dropped promise.
  `async function ready() { return true; }
if (ready()) console.log('x');`,
  `async function name() { return 'x'; }
console.log(\`\${name()}\`);`,

  // `exports` declared by the file (a parameter here) is not the module's exports object.
  `export async function start() {}
function restart(exports: { start(): void }) { exports.start(); }`,
  // The module's own export under that name is not async.
  `async function start() {}
exports.start = () => 1;
exports.start();`,
  // The file exports no `stop`: nothing to resolve.
  `exports.start = async () => {};
exports.stop();`,

  // --- node:test: the runner awaits its own tests ---
  `import { describe, it } from 'node:test';
describe('queue', () => { it('drains', async () => {}); });`,
  `import test from 'node:test';
test('drains', async () => {});
test.skip('later', async () => {});`,
  `import { test } from 'node:test';
test('drains', async (t) => { await t.test('inner', () => {}); });`,

  // --- callbacks whose promise is looked after ---
  `import { EventEmitter } from 'node:events';
const bus = new EventEmitter();
bus.on('ticket', async (id) => { try { await fetch(String(id)); } catch (error) { console.error(error); } });`,
  `import { EventEmitter } from 'node:events';
const bus = new EventEmitter();
bus.on('ticket', async (id) => fetch(String(id)).catch(console.error));`,
  `import { EventEmitter } from 'node:events';
const bus = new EventEmitter();
bus.on('ticket', (id) => { fetch(String(id)).catch(console.error); });`,
  `setTimeout(() => { void fetch('https://example.com'); }, 10);`,
  `process.nextTick(() => console.log('tick'));`,
  `declare const button: { addEventListener(name: string, fn: () => void): void };
button.addEventListener('click', () => console.log('x'));`,
  // Hono's app.on(method, path, handler) registers a route; Hono handles the rejection.
  `import { Hono } from 'hono';
const app = new Hono();
app.on('GET', '/health', async (c) => c.text('ok'));`,
  // Route handlers and worker processors are not event registrations: the library awaits them.
  `import express from 'express';
const app = express();
app.get('/tickets', async (req, res) => { res.json(await fetch('https://example.com')); });`,
  `import { Worker } from 'bullmq';
new Worker('summaries', async (job) => { await fetch(String(job.id)); });`,
  // A local function that happens to be called setTimeout is not the timer.
  `function setTimeout(fn: () => unknown) { return fn(); }
setTimeout(async () => {});`,

  // --- forEach and executors done right ---
  `declare const items: string[];
items.forEach((item) => console.log(item));`,
  `async function send(id: string) { return id; }
declare const items: string[];
async function main() { for (const item of items) await send(item); }`,
  `async function send(id: string) { return id; }
declare const items: string[];
async function main() { await Promise.all(items.map(async (item) => send(item))); }`,
  `async function main() { await new Promise((resolve) => setTimeout(resolve, 10)); }`,

  // --- options ---
  {
    code: `async function flush() {}
flush();`,
    options: [{ allowedCalls: [{ export: 'flush' }] }],
  },
  {
    code: `import { Bus } from '@acme/bus';
const bus = new Bus();
bus.on('ticket', async () => { await fetch('https://example.com'); });`,
    options: [{ allowedCallbacks: [{ module: '@acme/bus', method: 'on' }] }],
  },

  // --- self-guarded callees (esbuild's request handler, worker message handlers) ---
  // The whole body is one `try/catch`: the promise cannot reject, so dropping it loses nothing the
  // rule warns about; the same guard already clears an async listener.
  `const handleRequest = async (id: number) => {
  try { await fetch(String(id)); } catch (error) { console.error(error); }
};
function onPacket(id: number) { handleRequest(id); }`,
  `function onMessage(msg: string) {
  (async () => { try { await fetch(msg); } catch (error) { console.error(error); } })();
}`,
  // Every statement guarded (fastify's hook runner): a plain if around a try/catch and a return,
  // then a try/catch.
  `function runHooks(hooks: Array<(done?: (e?: unknown) => void) => unknown>, done: (e?: unknown) => void) {
  wrap(hooks[0]!, done);
}
async function wrap(fn: (done?: (e?: unknown) => void) => unknown, done: (e?: unknown) => void) {
  if (fn.length === 1) {
    try { fn(done); } catch (error) { done(error); }
    return;
  }
  try { await fn(); done(); } catch (error) { done(error); }
}`,
  // An async executor whose awaits all sit in one try/catch that rejects (vscode-jsonrpc's request
  // sender): nothing can escape into the executor's own promise, and the outer one always settles.
  `function send(write: () => Promise<void>) {
  return new Promise(async (resolve, reject) => {
    const pending = { started: Date.now(), resolve, reject };
    try { await write(); pending.resolve(undefined); } catch (error) { reject(error); }
  });
}`,
  // Emittery's `emit` returns a promise for its listeners, so the rejection reaches whoever awaits `emit`.
  `import Emittery from 'emittery';
const emitter = new Emittery();
emitter.on('saved', async () => { await fetch('https://example.com'); });`,
  `const Emittery = require('emittery');
class Jobs extends Emittery {
  start() { this.on('run', async () => { await fetch('https://example.com'); }); }
}`,
  `import Emittery from 'emittery';
class Bus extends Emittery {}
const bus = new Bus();
bus.on('saved', async () => { await fetch('https://example.com'); });`,
];

const invalid: InvalidTestCase<MessageId, Options>[] = [
  // --- same-file async functions ---
  {
    code: `async function send() {}
async function main() { send(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 25,
      suggestions: [
        { messageId: 'addAwait', output: `async function send() {}
async function main() { await send(); }` },
        { messageId: 'addVoid', output: `async function send() {}
async function main() { void send(); }` },
      ],
    }],
  },
  {
    // At top level there is no async function to await in.
    code: `async function send() {}
send();`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `async function send() {}
void send();` }],
    }],
  },
  {
    code: `class Mailer {
  async deliver() {}
  async handle() { this.deliver(); }
}`,
    errors: [{
      messageId: 'orphanedPromise', line: 3, column: 20,
      suggestions: [
        { messageId: 'addAwait', output: `class Mailer {
  async deliver() {}
  async handle() { await this.deliver(); }
}` },
        { messageId: 'addVoid', output: `class Mailer {
  async deliver() {}
  async handle() { void this.deliver(); }
}` },
      ],
    }],
  },
  {
    // Not async, but declared to return a promise.
    code: `function load(): Promise<string> { return Promise.resolve('x'); }
function main() { load(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 19,
      suggestions: [{ messageId: 'addVoid', output: `function load(): Promise<string> { return Promise.resolve('x'); }
function main() { void load(); }` }],
    }],
  },
  {
    code: `declare function write(row: string): Promise<void>;
write('a');`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `declare function write(row: string): Promise<void>;
void write('a');` }],
    }],
  },
  {
    code: `const notify = async (id: string) => id;
notify('a');`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `const notify = async (id: string) => id;
void notify('a');` }],
    }],
  },
  {
    code: `const api = { async send() {} };
api.send();`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `const api = { async send() {} };
void api.send();` }],
    }],
  },
  {
    code: `class Cache { static async warm() {} }
Cache.warm();`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `class Cache { static async warm() {} }
void Cache.warm();` }],
    }],
  },
  {
    code: `const api = { async send() {} };
async function main() { api?.send(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 25,
      suggestions: [
        { messageId: 'addAwait', output: `const api = { async send() {} };
async function main() { await api?.send(); }` },
        { messageId: 'addVoid', output: `const api = { async send() {} };
async function main() { void api?.send(); }` },
      ],
    }],
  },
  {
    // A class-field arrow that is async is an async context of its own.
    code: `class Job {
  run = async () => { this.load(); };
  async load() {}
}`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 23,
      suggestions: [
        { messageId: 'addAwait', output: `class Job {
  run = async () => { await this.load(); };
  async load() {}
}` },
        { messageId: 'addVoid', output: `class Job {
  run = async () => { void this.load(); };
  async load() {}
}` },
      ],
    }],
  },
  {
    // Inside a synchronous callback `await` would be a syntax error: no await suggestion.
    code: `async function send(id: string) { return id; }
async function main(ids: string[]) { return ids.map((id) => { send(id); return id; }); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 63,
      suggestions: [{ messageId: 'addVoid', output: `async function send(id: string) { return id; }
async function main(ids: string[]) { return ids.map((id) => { void send(id); return id; }); }` }],
    }],
  },

  // --- the module's own exports, called through `exports` ---
  {
    code: `exports.start = async () => { await fetch('https://example.com'); };
function restart() { exports.start(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 22,
      suggestions: [{ messageId: 'addVoid', output: `exports.start = async () => { await fetch('https://example.com'); };
function restart() { void exports.start(); }` }],
    }],
  },
  {
    // An ES module's export called as CommonJS would call it, from a listener.
    code: `export const start = async () => { await fetch('https://example.com'); };
process.on('SIGHUP', () => { exports.start(); });`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 30,
      suggestions: [{ messageId: 'addVoid', output: `export const start = async () => { await fetch('https://example.com'); };
process.on('SIGHUP', () => { void exports.start(); });` }],
    }],
  },
  {
    code: `async function start() { await fetch('https://example.com'); }
module.exports = { start };
function restart() { module.exports.start(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 3, column: 22,
      suggestions: [{ messageId: 'addVoid', output: `async function start() { await fetch('https://example.com'); }
module.exports = { start };
function restart() { void module.exports.start(); }` }],
    }],
  },

  // --- well-known promise APIs ---
  {
    code: `async function main() { fetch('https://example.com/hook'); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 25,
      suggestions: [
        { messageId: 'addAwait', output: `async function main() { await fetch('https://example.com/hook'); }` },
        { messageId: 'addVoid', output: `async function main() { void fetch('https://example.com/hook'); }` },
      ],
    }],
  },
  {
    code: `import { writeFile } from 'node:fs/promises';
writeFile('a.txt', 'x');`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `import { writeFile } from 'node:fs/promises';
void writeFile('a.txt', 'x');` }],
    }],
  },
  {
    code: `import fs from 'node:fs';
fs.promises.writeFile('a.txt', 'x');`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `import fs from 'node:fs';
void fs.promises.writeFile('a.txt', 'x');` }],
    }],
  },
  {
    code: `import * as fsp from 'fs/promises';
fsp.rm('tmp', { recursive: true });`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `import * as fsp from 'fs/promises';
void fsp.rm('tmp', { recursive: true });` }],
    }],
  },
  {
    code: `const { unlink } = require('fs/promises');
unlink('a.txt');`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `const { unlink } = require('fs/promises');
void unlink('a.txt');` }],
    }],
  },
  {
    code: `import { setTimeout as sleep } from 'node:timers/promises';
async function retry() { sleep(100); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 26,
      suggestions: [
        { messageId: 'addAwait', output: `import { setTimeout as sleep } from 'node:timers/promises';
async function retry() { await sleep(100); }` },
        { messageId: 'addVoid', output: `import { setTimeout as sleep } from 'node:timers/promises';
async function retry() { void sleep(100); }` },
      ],
    }],
  },
  {
    code: `Promise.all([fetch('a'), fetch('b')]);`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void Promise.all([fetch('a'), fetch('b')]);` }],
    }],
  },
  {
    code: `Promise.allSettled([fetch('a')]);`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void Promise.allSettled([fetch('a')]);` }],
    }],
  },
  {
    code: `function fail() { Promise.reject(new Error('x')); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 19,
      suggestions: [{ messageId: 'addVoid', output: `function fail() { void Promise.reject(new Error('x')); }` }],
    }],
  },
  {
    code: `new Promise((resolve) => setTimeout(resolve, 10));`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void new Promise((resolve) => setTimeout(resolve, 10));` }],
    }],
  },

  // --- chains without a rejection handler ---
  {
    code: `fetch('https://example.com').then((r) => r.json());`,
    errors: [{
      messageId: 'unhandledChain', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void fetch('https://example.com').then((r) => r.json());` }],
    }],
  },
  {
    code: `declare const job: Promise<void>;
job.finally(() => console.log('done'));`,
    errors: [{
      messageId: 'unhandledChain', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `declare const job: Promise<void>;
void job.finally(() => console.log('done'));` }],
    }],
  },
  {
    code: `async function main() { fetch('a').then(() => 1).finally(() => {}); }`,
    errors: [{
      messageId: 'unhandledChain', line: 1, column: 25,
      suggestions: [
        { messageId: 'addAwait', output: `async function main() { await fetch('a').then(() => 1).finally(() => {}); }` },
        { messageId: 'addVoid', output: `async function main() { void fetch('a').then(() => 1).finally(() => {}); }` },
      ],
    }],
  },
  {
    // The handler comes before the `.then(ok)`: an error thrown in `ok` is unhandled.
    code: `fetch('a').catch(console.error).then(() => console.log('x'));`,
    errors: [{
      messageId: 'unhandledChain', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void fetch('a').catch(console.error).then(() => console.log('x'));` }],
    }],
  },
  {
    code: `fetch('a').then(() => 1, undefined);`,
    errors: [{
      messageId: 'unhandledChain', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void fetch('a').then(() => 1, undefined);` }],
    }],
  },
  {
    code: `fetch('a').then(() => 1, null);`,
    errors: [{
      messageId: 'unhandledChain', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void fetch('a').then(() => 1, null);` }],
    }],
  },
  {
    // Any `.then(ok)` counts, whatever it is called on.
    code: `declare const query: { then(ok: () => void): void };
query.then(() => {});`,
    errors: [{
      messageId: 'unhandledChain', line: 2, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `declare const query: { then(ok: () => void): void };
void query.then(() => {});` }],
    }],
  },

  // --- dropped inside a larger expression ---
  {
    code: `async function send() {}
async function main(flag: boolean) { flag ? send() : console.log('skip'); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 45,
      suggestions: [
        { messageId: 'addAwait', output: `async function send() {}
async function main(flag: boolean) { flag ? await send() : console.log('skip'); }` },
        { messageId: 'addVoid', output: `async function send() {}
async function main(flag: boolean) { flag ? void send() : console.log('skip'); }` },
      ],
    }],
  },
  {
    code: `async function send() {}
declare const ready: boolean;
ready && send();`,
    errors: [{
      messageId: 'orphanedPromise', line: 3, column: 10,
      suggestions: [{ messageId: 'addVoid', output: `async function send() {}
declare const ready: boolean;
ready && void send();` }],
    }],
  },
  {
    code: `async function send() {}
(send(), console.log('sent'));`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 2,
      suggestions: [{ messageId: 'addVoid', output: `async function send() {}
(void send(), console.log('sent'));` }],
    }],
  },
  {
    // The cast stays inside the parentheses the suggestion adds.
    code: `async function send() {}
async function main() { send() as Promise<void>; }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 25,
      suggestions: [
        { messageId: 'addAwait', output: `async function send() {}
async function main() { await (send() as Promise<void>); }` },
        { messageId: 'addVoid', output: `async function send() {}
async function main() { void (send() as Promise<void>); }` },
      ],
    }],
  },
  {
    code: `async function send() {}
void send();`,
    options: [{ allowVoid: false }],
    errors: [{ messageId: 'orphanedPromise', line: 2, column: 6, suggestions: [] }],
  },
  {
    code: `async function send() {}
async function main() { void send(); }`,
    options: [{ allowVoid: false }],
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 30,
      suggestions: [{ messageId: 'addAwait', output: `async function send() {}
async function main() { void await send(); }` }],
    }],
  },

  // --- async IIFE ---
  {
    code: `(async () => { await fetch('https://example.com'); })();`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void (async () => { await fetch('https://example.com'); })();` }],
    }],
  },
  {
    code: `(async function boot() { await fetch('https://example.com'); })();`,
    errors: [{
      messageId: 'orphanedPromise', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoid', output: `void (async function boot() { await fetch('https://example.com'); })();` }],
    }],
  },

  // --- kept but never used ---
  {
    code: `async function send() {}
function main() { const pending = send(); }`,
    errors: [{ messageId: 'unusedPromise', line: 2, column: 25 }],
  },
  {
    code: `async function send() {}
async function main() { let pending; pending = send(); }`,
    errors: [{ messageId: 'unusedPromise', line: 2, column: 38 }],
  },
  {
    code: `const p = fetch('a').then((r) => r.status);`,
    errors: [{ messageId: 'unusedPromise', line: 1, column: 7 }],
  },
  {
    code: `async function send(id: string) { return id; }
function main(ids: string[]) { const pending = []; for (const id of ids) pending.push(send(id)); }`,
    errors: [{ messageId: 'unusedPromise', line: 2, column: 87 }],
  },

  // --- forEach(async …) ---
  {
    code: `async function send(id: string) { return id; }
async function main(ids: string[]) {
  ids.forEach(async (id) => {
    await send(id);
  });
}`,
    errors: [{
      messageId: 'forEachAsync', line: 3, column: 15,
      suggestions: [{ messageId: 'rewriteForOf', output: `async function send(id: string) { return id; }
async function main(ids: string[]) {
  for (const id of ids) {
    await send(id);
  }
}` }],
    }],
  },
  {
    code: `async function send(id: string) { return id; }
async function main(ids: string[]) { ids.forEach(async (id) => send(id)); }`,
    errors: [{
      messageId: 'forEachAsync', line: 2, column: 50,
      suggestions: [{ messageId: 'rewriteForOf', output: `async function send(id: string) { return id; }
async function main(ids: string[]) { for (const id of ids) { await send(id); } }` }],
    }],
  },
  {
    // Not async, but the callback returns a promise all the same.
    code: `async function send(id: string) { return id; }
async function main(ids: string[]) { ids.forEach((id) => send(id)); }`,
    errors: [{
      messageId: 'forEachAsync', line: 2, column: 50,
      suggestions: [{ messageId: 'rewriteForOf', output: `async function send(id: string) { return id; }
async function main(ids: string[]) { for (const id of ids) { await send(id); } }` }],
    }],
  },
  {
    code: `async function main(rows: { id: string }[]) { rows.forEach(async ({ id }) => { await fetch(id); }); }`,
    errors: [{
      messageId: 'forEachAsync', line: 1, column: 60,
      suggestions: [{ messageId: 'rewriteForOf', output: `async function main(rows: { id: string }[]) { for (const { id } of rows) { await fetch(id); } }` }],
    }],
  },
  {
    // The type annotation does not fit a loop binding; the name does.
    code: `async function main(ids: string[]) { ids.forEach(async (id: string) => { await fetch(id); }); }`,
    errors: [{
      messageId: 'forEachAsync', line: 1, column: 50,
      suggestions: [{ messageId: 'rewriteForOf', output: `async function main(ids: string[]) { for (const id of ids) { await fetch(id); } }` }],
    }],
  },
  {
    // The index parameter has no place in for…of: no rewrite offered.
    code: `async function main(ids: string[]) { ids.forEach(async (id, i) => { await fetch(id + i); }); }`,
    errors: [{ messageId: 'forEachAsync', line: 1, column: 50, suggestions: [] }],
  },
  {
    // `return` in the callback would end the whole function in a loop.
    code: `async function main(ids: string[]) { ids.forEach(async (id) => { if (!id) return; await fetch(id); }); }`,
    errors: [{ messageId: 'forEachAsync', line: 1, column: 50, suggestions: [] }],
  },
  {
    // Not inside an async function: the loop could not await.
    code: `function main(ids: string[]) { ids.forEach(async (id) => { await fetch(id); }); }`,
    errors: [{ messageId: 'forEachAsync', line: 1, column: 44, suggestions: [] }],
  },
  {
    // The loop variable would shadow the array it iterates.
    code: `async function main(node: { children: string[] }) { node.children.forEach(async (node) => { await fetch(node); }); }`,
    errors: [{ messageId: 'forEachAsync', line: 1, column: 75, suggestions: [] }],
  },

  // --- async callbacks whose promise is ignored ---
  {
    code: `import { EventEmitter } from 'node:events';
const bus = new EventEmitter();
bus.on('ticket', async (id) => { await fetch(String(id)); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 18 }],
  },
  {
    code: `import { EventEmitter } from 'node:events';
const bus = new EventEmitter();
bus.once('ready', async () => { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 19 }],
  },
  {
    code: `process.on('SIGTERM', async () => { await fetch('https://example.com/bye'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 23 }],
  },
  {
    code: `declare const socket: { addEventListener(name: string, fn: () => void): void };
socket.addEventListener('message', async function onMessage() { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 2, column: 36 }],
  },
  {
    code: `setTimeout(async () => { await fetch('a'); }, 1000);`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 12 }],
  },
  {
    code: `setInterval(async () => { await fetch('a'); }, 1000);`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 13 }],
  },
  {
    code: `import { setImmediate } from 'node:timers';
setImmediate(async () => { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 2, column: 14 }],
  },
  {
    code: `process.nextTick(async () => { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 18 }],
  },
  {
    // try/finally without catch does not handle the rejection.
    code: `process.on('message', async () => { try { await fetch('a'); } finally { console.log('x'); } });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 23 }],
  },
  {
    // A statement after the try can still throw.
    code: `process.on('message', async () => { try { await fetch('a'); } catch { return; } await fetch('b'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 1, column: 23 }],
  },
  {
    // A plain emitter (its name says nothing about awaiting) still drops the promise.
    code: `import { EventEmitter } from 'node:events';
const events = new EventEmitter();
events.on('lint', async () => { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 19 }],
  },
  {
    // Near miss of the guarded hook runner: the condition calls something that can throw.
    code: `async function wrap(fn: () => Promise<void>, ready: () => boolean) {
  if (ready()) {
    try { await fn(); } catch (error) { console.error(error); }
  }
}
function run(fn: () => Promise<void>) { wrap(fn, () => true); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 6, column: 41,
      suggestions: [{
        messageId: 'addVoid',
        output: `async function wrap(fn: () => Promise<void>, ready: () => boolean) {
  if (ready()) {
    try { await fn(); } catch (error) { console.error(error); }
  }
}
function run(fn: () => Promise<void>) { void wrap(fn, () => true); }`,
      }],
    }],
  },
  {
    // A dropped callee guarded only by try/finally still rejects.
    code: `const handle = async () => { try { await fetch('a'); } finally { console.log('x'); } };
function onPacket() { handle(); }`,
    errors: [{
      messageId: 'orphanedPromise', line: 2, column: 23,
      suggestions: [{
        messageId: 'addVoid',
        output: `const handle = async () => { try { await fetch('a'); } finally { console.log('x'); } };
function onPacket() { void handle(); }`,
      }],
    }],
  },
  {
    // Same shape as Hono's route, but not from Hono: an emitter's `on`.
    code: `import { Router } from './router';
const router = new Router();
router.on('GET', '/health', async () => { await fetch('a'); });`,
    errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 29 }],
  },

  // --- async Promise executor ---
  {
    code: `async function main() {
  await new Promise(async (resolve) => { resolve(await fetch('a')); });
}`,
    errors: [{ messageId: 'asyncExecutor', line: 2, column: 21 }],
  },
  {
    // Dropped as well, but the executor report says the more useful thing.
    code: `new Promise(async (resolve) => { resolve(await fetch('a')); });`,
    errors: [{ messageId: 'asyncExecutor', line: 1, column: 13 }],
  },
  {
    // Near miss of the guarded executor: a call before the try can throw outside it.
    code: `function send(write: () => Promise<void>, prepare: () => string) {
  return new Promise(async (resolve, reject) => {
    const id = prepare();
    try { await write(); resolve(id); } catch (error) { reject(error); }
  });
}`,
    errors: [{ messageId: 'asyncExecutor', line: 2, column: 22 }],
  },
];

const untyped = createRuleTester();
const typed = createTypedRuleTester();

untyped.run('no-orphaned-promise (no type information)', rule, {
  valid,
  invalid: [
    ...invalid,
    {
      // A bare `p;` does not look after the promise. (With types, `p;` itself is a dropped promise too.)
      code: `const p = fetch('a');
p;`,
      errors: [{ messageId: 'unusedPromise', line: 1, column: 7 }],
    },
  ],
});

typed.run('no-orphaned-promise (type information)', rule, {
  valid: [
    ...valid.map((test) => (typeof test === 'string' ? { code: test, filename: fixture('orphaned.ts') } : { ...test, filename: fixture('orphaned.ts') })),
    // --- typed only: cross-file promises looked after ---
    {
      code: `import { enqueueJob } from './jobs';
export async function run() { await enqueueJob('a'); }`,
      filename: fixture('orphaned.ts'),
    },
    {
      code: `import { enqueueJob } from './jobs';
export function run() { void enqueueJob('a'); }`,
      filename: fixture('orphaned.ts'),
    },
    {
      code: `import { scheduleLater } from './jobs';
export function run() { scheduleLater('a').catch(console.error); }`,
      filename: fixture('orphaned.ts'),
    },
    {
      code: `import { api } from './jobs';
export function run() { return api.send('x'); }`,
      filename: fixture('orphaned.ts'),
    },
    {
      // Types say number: nothing to handle.
      code: `export function run() { Math.max(1, 2); }`,
      filename: fixture('orphaned.ts'),
    },
  ],
  invalid: [
    ...invalid.map((test) => ({ ...test, filename: fixture('orphaned.ts') })),
    // TypeScript's checker overflows its stack on this recursive generic (tsc does too): that
    // question's answer is "type unknown", and the syntactic finding on the IIFE stands.
    {
      code: `interface CustomNode<P> { getNextNode: () => CustomNode<P>; }
declare const createNode: () => { getNextNode: <T>() => CustomNode<T> };
function wrapNode<T>(getNode: () => CustomNode<T>) { return getNode; }
(async () => {
  wrapNode(() => {
    const node = createNode();
    return wrapNode<typeof node.getNextNode<any>>(node.getNextNode);
  });
})();`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 4, column: 1,
        suggestions: [{ messageId: 'addVoid', output: `interface CustomNode<P> { getNextNode: () => CustomNode<P>; }
declare const createNode: () => { getNextNode: <T>() => CustomNode<T> };
function wrapNode<T>(getNode: () => CustomNode<T>) { return getNode; }
void (async () => {
  wrapNode(() => {
    const node = createNode();
    return wrapNode<typeof node.getNextNode<any>>(node.getNextNode);
  });
})();` }],
      }],
    },
    // --- typed only: promises from another file ---
    {
      code: `const p = fetch('a');
p;`,
      filename: fixture('orphaned.ts'),
      errors: [
        { messageId: 'unusedPromise', line: 1, column: 7 },
        {
          messageId: 'orphanedPromise', line: 2, column: 1,
          suggestions: [{ messageId: 'addVoid', output: `const p = fetch('a');
void p;` }],
        },
      ],
    },
    {
      // Only @types/node says `events.once` returns a promise.
      code: `import { EventEmitter, once } from 'node:events';
const bus = new EventEmitter();
export async function waitReady() { once(bus, 'ready'); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 3, column: 37,
        suggestions: [
          { messageId: 'addAwait', output: `import { EventEmitter, once } from 'node:events';
const bus = new EventEmitter();
export async function waitReady() { await once(bus, 'ready'); }` },
          { messageId: 'addVoid', output: `import { EventEmitter, once } from 'node:events';
const bus = new EventEmitter();
export async function waitReady() { void once(bus, 'ready'); }` },
        ],
      }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export function run() { enqueueJob('a'); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 2, column: 25,
        suggestions: [{ messageId: 'addVoid', output: `import { enqueueJob } from './jobs';
export function run() { void enqueueJob('a'); }` }],
      }],
    },
    {
      code: `import { scheduleLater } from './jobs';
export async function run() { scheduleLater('a'); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 2, column: 31,
        suggestions: [
          { messageId: 'addAwait', output: `import { scheduleLater } from './jobs';
export async function run() { await scheduleLater('a'); }` },
          { messageId: 'addVoid', output: `import { scheduleLater } from './jobs';
export async function run() { void scheduleLater('a'); }` },
        ],
      }],
    },
    {
      code: `import { api } from './jobs';
export async function run() { api.send('x'); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 2, column: 31,
        suggestions: [
          { messageId: 'addAwait', output: `import { api } from './jobs';
export async function run() { await api.send('x'); }` },
          { messageId: 'addVoid', output: `import { api } from './jobs';
export async function run() { void api.send('x'); }` },
        ],
      }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export function run() { const job = enqueueJob('a'); }`,
      filename: fixture('orphaned.ts'),
      errors: [{ messageId: 'unusedPromise', line: 2, column: 31 }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { names.forEach((name) => enqueueJob(name)); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'forEachAsync', line: 2, column: 60,
        suggestions: [{ messageId: 'rewriteForOf', output: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { for (const name of names) { await enqueueJob(name); } }` }],
      }],
    },
    {
      code: `export async function run(job: Promise<void>) { job; }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 1, column: 49,
        suggestions: [
          { messageId: 'addAwait', output: `export async function run(job: Promise<void>) { await job; }` },
          { messageId: 'addVoid', output: `export async function run(job: Promise<void>) { void job; }` },
        ],
      }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export function run(flag: boolean) { flag ? enqueueJob('a') : undefined; }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 2, column: 45,
        suggestions: [{ messageId: 'addVoid', output: `import { enqueueJob } from './jobs';
export function run(flag: boolean) { flag ? void enqueueJob('a') : undefined; }` }],
      }],
    },
    {
      // The type says `any`; the syntax still knows the callee is async. Types never remove a finding.
      code: `const handler: any = async () => 1;
export function run() { handler(); }`,
      filename: fixture('orphaned.ts'),
      errors: [{
        messageId: 'orphanedPromise', line: 2, column: 25,
        suggestions: [{ messageId: 'addVoid', output: `const handler: any = async () => 1;
export function run() { void handler(); }` }],
      }],
    },
  ],
});
