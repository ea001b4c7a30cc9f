import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRuleTester } from '../ruleTester';
import { SERVING } from './blockingCosts';

const ruleTester = createRuleTester();

// rule-tester 8.72 carries its own copy of @typescript-eslint/utils types; the explicit type
// arguments keep the cases checked against this rule's message ids and options.
ruleTester.run<MessageId, Options>('no-blocking-in-async', rule as never, {
  valid: [
    // --- bodiless TypeScript declarations: nothing to follow, and no crash ---
    `declare function loadConfig(path: string): string;
export async function handle() { return loadConfig('a.json'); }`,
    `export declare function loadConfig(path: string): string;
export async function handle() { return loadConfig('a.json'); }`,
    `declare class Store { read(): string; }
declare const store: Store;
export async function handle() { return store.read(); }`,
    `abstract class Repo {
  abstract load(): string;
  async handle() { return this.load(); }
}`,
    `class Repo {
  declare load: () => string;
  async handle() { return this.load(); }
}`,
    // Overloads whose implementation does not block.
    `function pick(x: string): string;
function pick(x: number): string;
function pick(x: string | number): string { return String(x); }
export async function handle() { return pick(1); }`,
    // --- outside async code: top level, startup, synchronous functions themselves ---
    `import fs from 'node:fs';
const config = JSON.parse(fs.readFileSync('config.json', 'utf8'));
export default config;`,
    `import { readFileSync } from 'node:fs';
export function loadConfig() {
  return readFileSync('config.json', 'utf8');
}`,
    // File I/O in a synchronous method whose callers are not in sight: only CPU-heavy work is reported there.
    `import { readFileSync } from 'node:fs';
export class Build {
  run() {
    return readFileSync('Makefile', 'utf8');
  }
}`,
    // Class fields and static blocks run when the class is set up, not inside the async method.
    `import { readFileSync } from 'node:fs';
export class Templates {
  body = readFileSync('body.html', 'utf8');
  static { readFileSync('warm.txt'); }
  async render() { return this.body; }
}`,
    // A sync helper that blocks, called only from startup code.
    `import { readFileSync } from 'node:fs';
function loadTemplates() { return readFileSync('t.html', 'utf8'); }
const templates = loadTemplates();
export async function render() { return templates; }`,
    // A sync function defined inside an async one but run later.
    `import { readFileSync } from 'node:fs';
export async function start() {
  const reload = () => readFileSync('config.json');
  return reload;
}`,
    // --- callbacks that run later, not inside the async function ---
    `import { readFileSync } from 'node:fs';
export async function schedule() {
  setTimeout(() => readFileSync('late.txt'), 1000);
}`,
    `import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
export async function listen(bus: EventEmitter) {
  bus.on('reload', () => readFileSync('config.json'));
}`,
    // --- asynchronous forms ---
    `import fs from 'node:fs';
export async function read(p: string) {
  return fs.promises.readFile(p, 'utf8');
}`,
    `import { readFile, stat } from 'node:fs/promises';
export async function read(p: string) {
  await stat(p);
  return readFile(p, 'utf8');
}`,
    `import * as fsp from 'fs/promises';
export async function list(dir: string) {
  return fsp.readdir(dir);
}`,
    `import fs from 'node:fs';
export async function read(p: string) {
  fs.readFile(p, (err, data) => console.log(err, data));
}`,
    `const { exec } = require('node:child_process');
async function run() {
  exec('ls', (err, out) => console.log(err, out));
}
module.exports = { run };`,
    `import { execa } from 'execa';
export async function build() {
  await execa('make', ['all']);
}`,
    `import bcrypt from 'bcrypt';
export async function check(pw: string, hash: string) {
  return bcrypt.compare(pw, hash);
}`,
    `import { glob } from 'glob';
export async function find() {
  return glob('**/*.ts');
}`,
    `import fg from 'fast-glob';
export async function find() {
  return fg.async('**/*.ts');
}`,
    `import { createGzip } from 'node:zlib';
export async function stream() {
  return createGzip();
}`,
    `import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
export async function derive(pw: string) {
  return promisify(pbkdf2)(pw, 'salt', 100000, 64, 'sha512');
}`,
    // Fast synchronous crypto is not in the catalogue.
    `import { createHash, randomUUID } from 'node:crypto';
export async function id(body: string) {
  return createHash('sha256').update(body).digest('hex') + randomUUID();
}`,
    // --- *Sync methods on objects that are not a catalogued module ---
    `export async function save(store: { flushSync(): void }) {
  store.flushSync();
}`,
    `import * as yup from 'yup';
const schema = yup.object({});
export async function validate(input: unknown) {
  return schema.validateSync(input);
}`,
    `class Cache {
  readFileSync(key: string) { return key; }
}
const cache = new Cache();
export async function get(key: string) {
  return cache.readFileSync(key);
}`,
    // A local function that happens to share the name.
    `function readFileSync(p: string) { return p; }
export async function read(p: string) {
  return readFileSync(p);
}`,
    // A local object named like the module shadows nothing from 'fs'.
    `const fs = { readFileSync: (p: string) => p };
export async function read(p: string) {
  return fs.readFileSync(p);
}`,
    // A \`require\` declared in the file is not CommonJS's.
    `function require(name: string) { return { readFileSync: (p: string) => name + p }; }
export async function read(p: string) {
  return require('fs').readFileSync(p);
}`,
    // Unknown module with a Sync export is not catalogued.
    `import { loadSync } from '@acme/config';
export async function read() {
  return loadSync();
}`,
    // --- deadline loops that await inside are polls, not busy waits ---
    `import { setTimeout as sleep } from 'node:timers/promises';
export async function waitFor(ready: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (ready()) return true;
    await sleep(50);
  }
  return false;
}`,
    `export async function poll(check: () => Promise<boolean>) {
  const start = performance.now();
  do {
    if (await check()) return;
  } while (performance.now() - start < 5000);
}`,
    `export async function drain(source: AsyncIterable<string>) {
  const end = Date.now() + 1000;
  for (; Date.now() < end; ) {
    for await (const item of source) console.log(item);
  }
}`,
    // A loop whose condition reads no clock.
    `export async function count(items: number[]) {
  let i = 0;
  while (i < items.length) i++;
  return i;
}`,
    // A busy wait in a sync function nobody async calls.
    `export function spin(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
}`,
    // A local Date shadows the global clock.
    `const Date = { now: () => 0 };
export async function tick(end: number) {
  while (Date.now() < end) {}
}`,
    // --- randomBytes below the threshold, with a callback, or of unknown size ---
    `import { randomBytes } from 'node:crypto';
export async function token() {
  return randomBytes(32).toString('hex');
}`,
    `import crypto from 'node:crypto';
export async function token(size: number) {
  return crypto.randomBytes(size);
}`,
    `import crypto from 'node:crypto';
export async function token() {
  crypto.randomBytes(1 << 20, (err, buf) => console.log(err, buf));
}`,
    `import { randomFillSync } from 'node:crypto';
export async function fill(buf: Buffer) {
  return randomFillSync(buf);
}`,
    `import { randomFillSync } from 'node:crypto';
export async function fill() {
  return randomFillSync(Buffer.alloc(64));
}`,
    // --- Atomics: a local of the same name, and the non-blocking forms ---
    `const Atomics = { wait: (..._args: unknown[]) => 'ok' };
export async function pause(view: Int32Array) {
  return Atomics.wait(view, 0, 0, 10);
}`,
    `export async function pause(view: Int32Array) {
  Atomics.notify(view, 0);
  return Atomics.waitAsync(view, 0, 0, 10).value;
}`,
    // --- helpers that do not block ---
    `import { readFile } from 'node:fs/promises';
function parse(text: string) { return JSON.parse(text); }
export async function load(p: string) {
  return parse(await readFile(p, 'utf8'));
}`,
    // The helper's blocking call only runs later, in a timer.
    `import { readFileSync } from 'node:fs';
function scheduleReload() {
  setTimeout(() => readFileSync('config.json'), 60000);
}
export async function start() {
  scheduleReload();
}`,
    // A sync generator runs only when iterated; the call itself does no work.
    `import { readFileSync } from 'node:fs';
function* lines(p: string) { yield* readFileSync(p, 'utf8').split('\\n'); }
export async function open(p: string) {
  return lines(p);
}`,
    // An async helper hands the loop back at its first await; its own body is checked on its own.
    `import { readFile } from 'node:fs/promises';
async function load(p: string) { return readFile(p); }
export async function handle(p: string) {
  return load(p);
}`,
    // Mutually recursive helpers with nothing blocking terminate.
    `function even(n: number): boolean { return n === 0 ? true : odd(n - 1); }
function odd(n: number): boolean { return n === 0 ? false : even(n - 1); }
export async function check(n: number) {
  return even(n);
}`,
    // An immediately invoked sync function at top level.
    `import { readFileSync } from 'node:fs';
const text = (() => readFileSync('a.txt', 'utf8'))();
export async function get() { return text; }`,
    // --- options ---
    {
      code: `import { readFileSync } from 'node:fs';
export async function read() {
  return readFileSync('small.json');
}`,
      options: [{ allow: [{ module: 'fs', export: 'readFileSync' }] }],
    },
    {
      code: `import { readFileSync } from 'node:fs';
function load() { return readFileSync('t.html'); }
export async function render() {
  return load();
}`,
      options: [{ checkHelpers: false }],
    },
    {
      code: `import crypto from 'node:crypto';
export async function token() {
  return crypto.randomBytes(1 << 20);
}`,
      options: [{ randomBytesThreshold: 1 << 21 }],
    },
    // A configured entry only matches its own module.
    {
      code: `import { loadSync } from '@other/config';
export async function read() {
  return loadSync();
}`,
      options: [{ blockingCalls: [{ module: '@acme/config', export: 'loadSync' }] }],
    },
    // execa's promise form and the sync form's neighbour names.
    `import { execaCommand } from 'execa';
export async function run() {
  return execaCommand('ls');
}`,
  ],
  invalid: [
    // --- every import form of fs ---
    {
      code: `import fs from 'node:fs';
export async function read(p: string) {
  return fs.readFileSync(p, 'utf8');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function read(p: string) {
  return await fs.promises.readFile(p, 'utf8');
}` }],
      }],
    },
    {
      code: `import * as fs from 'fs';
export async function read(p: string) {
  const text = fs.readFileSync(p, 'utf8');
  return text;
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 16,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import * as fs from 'fs';
export async function read(p: string) {
  const text = await fs.promises.readFile(p, 'utf8');
  return text;
}` }],
      }],
    },
    {
      code: `import { readFileSync } from 'node:fs';
export async function read(p: string) {
  return readFileSync(p, 'utf8');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export async function read(p: string) {
  return await readFile(p, 'utf8');
}` }],
      }],
    },
    // A parenthesized callee ends before its `)`: the suggestion keeps the argument list, not the `)`.
    {
      code: `import { readFileSync } from 'node:fs';
export async function read(p: string) {
  return (readFileSync as (path: string) => Buffer)(p);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export async function read(p: string) {
  return await readFile(p);
}` }],
      }],
    },
    // Renamed import; the file writes built-ins without \`node:\`, so the new import does too.
    {
      code: `import { readFileSync as rfs } from 'fs';
export async function read(p: string) {
  return rfs(p);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync as rfs } from 'fs';
import { readFile } from 'fs/promises';
export async function read(p: string) {
  return await readFile(p);
}` }],
      }],
    },
    // CommonJS: the suggestion requires instead of importing.
    {
      code: `const fs = require('fs');
async function read(p) {
  return fs.readFileSync(p);
}
module.exports = { read };`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('fs');
async function read(p) {
  return await fs.promises.readFile(p);
}
module.exports = { read };` }],
      }],
    },
    {
      code: `const { readFileSync } = require('node:fs');
async function read(p) {
  return readFileSync(p, 'utf8');
}
module.exports = { read };`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `const { readFileSync } = require('node:fs');
const { readFile } = require('node:fs/promises');
async function read(p) {
  return await readFile(p, 'utf8');
}
module.exports = { read };` }],
      }],
    },
    {
      code: `const { readFileSync: slurp } = require('fs');
exports.read = async (p) => slurp(p);`,
      errors: [{
        messageId: 'blockingCall', line: 2, column: 29,
        suggestions: [{ messageId: 'useAsyncTwin', output: `const { readFileSync: slurp } = require('fs');
const { readFile } = require('fs/promises');
exports.read = async (p) => await readFile(p);` }],
      }],
    },
    // Inline require in a CommonJS file with no require declarations: the new require goes first.
    {
      code: `async function read(p) {
  return require('fs').readFileSync(p);
}
module.exports = read;`,
      errors: [{
        messageId: 'blockingCall', line: 2, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `const { readFile } = require('fs/promises');
async function read(p) {
  return await readFile(p);
}
module.exports = read;` }],
      }],
    },
    // An existing fs/promises import gains the twin.
    {
      code: `import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
export async function copy(a: string, b: string) {
  await writeFile(b, readFileSync(a));
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 22,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { writeFile, readFile } from 'node:fs/promises';
export async function copy(a: string, b: string) {
  await writeFile(b, await readFile(a));
}` }],
      }],
    },
    // The twin is already imported: reuse it.
    {
      code: `import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
export async function size(p: string) {
  return statSync(p).size;
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
export async function size(p: string) {
  return (await stat(p)).size;
}` }],
      }],
    },
    // The twin's name is taken: import it under another name.
    {
      code: `import { readFileSync } from 'node:fs';
const readFile = (p: string) => p;
export async function read(p: string) {
  return readFileSync(readFile(p));
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
const readFile = (p: string) => p;
export async function read(p: string) {
  return await readFileAsync(readFile(p));
}` }],
      }],
    },
    // --- the rest of fs ---
    {
      code: `import fs from 'node:fs';
export async function save(p: string, body: string) {
  fs.writeFileSync(p, body);
  fs.appendFileSync('log.txt', p);
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function save(p: string, body: string) {
  await fs.promises.writeFile(p, body);
  fs.appendFileSync('log.txt', p);
}` }] },
        { messageId: 'blockingCall', line: 4, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function save(p: string, body: string) {
  fs.writeFileSync(p, body);
  await fs.promises.appendFile('log.txt', p);
}` }] },
      ],
    },
    {
      code: `import fs from 'node:fs';
export async function list(dir: string) {
  for (const name of fs.readdirSync(dir)) console.log(name);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 22,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function list(dir: string) {
  for (const name of (await fs.promises.readdir(dir))) console.log(name);
}` }],
      }],
    },
    {
      code: `import { mkdirSync, rmSync } from 'node:fs';
export async function reset(dir: string) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
export async function reset(dir: string) {
  await rm(dir, { recursive: true, force: true });
  mkdirSync(dir);
}` }] },
        { messageId: 'blockingCall', line: 4, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import { mkdirSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
export async function reset(dir: string) {
  rmSync(dir, { recursive: true, force: true });
  await mkdir(dir);
}` }] },
      ],
    },
    {
      code: `import fs from 'node:fs';
export const remove = async (p: string) => {
  fs.unlinkSync(p);
};`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 3,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export const remove = async (p: string) => {
  await fs.promises.unlink(p);
};` }],
      }],
    },
    {
      code: `import fs from 'node:fs';
export async function move(a: string, b: string) {
  fs.copyFileSync(a, b);
  fs.renameSync(b, a);
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function move(a: string, b: string) {
  await fs.promises.copyFile(a, b);
  fs.renameSync(b, a);
}` }] },
        { messageId: 'blockingCall', line: 4, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function move(a: string, b: string) {
  fs.copyFileSync(a, b);
  await fs.promises.rename(b, a);
}` }] },
      ],
    },
    {
      code: `import fs from 'node:fs';
export async function check(p: string) {
  fs.accessSync(p, fs.constants.R_OK);
  return fs.lstatSync(p).isSymbolicLink();
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function check(p: string) {
  await fs.promises.access(p, fs.constants.R_OK);
  return fs.lstatSync(p).isSymbolicLink();
}` }] },
        { messageId: 'blockingCall', line: 4, column: 10, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function check(p: string) {
  fs.accessSync(p, fs.constants.R_OK);
  return (await fs.promises.lstat(p)).isSymbolicLink();
}` }] },
      ],
    },
    // existsSync has no direct twin: access, turned back into a boolean.
    {
      code: `import fs from 'node:fs';
export async function ensure(p: string) {
  if (!fs.existsSync(p)) throw new Error('missing');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 8,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function ensure(p: string) {
  if (!await fs.promises.access(p).then(() => true, () => false)) throw new Error('missing');
}` }],
      }],
    },
    {
      code: `import { existsSync } from 'node:fs';
export async function has(p: string) {
  const found = existsSync(p);
  return found;
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 17,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
export async function has(p: string) {
  const found = await access(p).then(() => true, () => false);
  return found;
}` }],
      }],
    },
    // fd-based calls have no promise twin with the same value: reported, no suggestion.
    {
      code: `import fs from 'node:fs';
export async function head(p: string) {
  const fd = fs.openSync(p, 'r');
  const buf = Buffer.alloc(16);
  fs.readSync(fd, buf);
  fs.writeSync(fd, buf);
  fs.fsyncSync(fd);
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 14, suggestions: [] },
        { messageId: 'blockingCall', line: 5, column: 3, suggestions: [] },
        { messageId: 'blockingCall', line: 6, column: 3, suggestions: [] },
        { messageId: 'blockingCall', line: 7, column: 3, suggestions: [] },
      ],
    },
    // --- fs-extra: its own methods return promises without a callback ---
    {
      code: `import fse from 'fs-extra';
export async function load(p: string) {
  return fse.readJsonSync(p);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fse from 'fs-extra';
export async function load(p: string) {
  return await fse.readJson(p);
}` }],
      }],
    },
    {
      code: `import { existsSync } from 'fs-extra';
export async function has(p: string) {
  return existsSync(p);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { existsSync, pathExists } from 'fs-extra';
export async function has(p: string) {
  return await pathExists(p);
}` }],
      }],
    },
    // --- child_process ---
    {
      code: `import { execSync } from 'node:child_process';
export async function build() {
  execSync('make all');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 3,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { execSync, exec } from 'node:child_process';
import { promisify } from 'node:util';
export async function build() {
  await promisify(exec)('make all');
}` }],
      }],
    },
    // With a string encoding the sync result is text, like exec's stdout.
    {
      code: `import cp from 'node:child_process';
import { promisify } from 'node:util';
export async function head() {
  const sha = cp.execSync('git rev-parse HEAD', { encoding: 'utf8' });
  return sha.trim();
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 15,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import cp from 'node:child_process';
import { promisify } from 'node:util';
export async function head() {
  const sha = (await promisify(cp.exec)('git rev-parse HEAD', { encoding: 'utf8' })).stdout;
  return sha.trim();
}` }],
      }],
    },
    // The raw Buffer result has no twin with the same value.
    {
      code: `import { execSync } from 'node:child_process';
export async function raw() {
  const out = execSync('cat image.png');
  return out;
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 15, suggestions: [] }],
    },
    {
      code: `const { execFileSync } = require('child_process');
async function version() {
  return execFileSync('node', ['--version']).toString();
}
module.exports = version;`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `const { execFileSync, execFile } = require('child_process');
const { promisify } = require('util');
async function version() {
  return (await promisify(execFile)('node', ['--version'])).stdout.toString();
}
module.exports = version;` }],
      }],
    },
    {
      code: `import { spawnSync } from 'node:child_process';
export async function run() {
  return spawnSync('ls').status;
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, suggestions: [] }],
    },
    // --- execa sync forms ---
    {
      code: `import { execaSync } from 'execa';
export async function run() {
  return execaSync('ls').stdout;
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, suggestions: [] }],
    },
    {
      code: `import execa from 'execa';
export async function run() {
  execa.sync('make');
  execa.commandSync('make test');
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 3, suggestions: [] },
        { messageId: 'blockingCall', line: 4, column: 3, suggestions: [] },
      ],
    },
    {
      code: `import { $ } from 'execa';
export async function run() {
  const a = $.sync\`ls\`;
  return [a, $.s({ cwd: '/tmp' })\`pwd\`];
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 13, suggestions: [] },
        { messageId: 'blockingCall', line: 4, column: 14, suggestions: [] },
      ],
    },
    // --- crypto ---
    {
      code: `import { pbkdf2Sync } from 'node:crypto';
export async function derive(pw: string) {
  return pbkdf2Sync(pw, 'salt', 100000, 64, 'sha512');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { pbkdf2Sync, pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
export async function derive(pw: string) {
  return await promisify(pbkdf2)(pw, 'salt', 100000, 64, 'sha512');
}` }],
      }],
    },
    {
      code: `import crypto from 'node:crypto';
export async function derive(pw: string) {
  return crypto.scryptSync(pw, 'salt', 64);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import crypto from 'node:crypto';
import { promisify } from 'node:util';
export async function derive(pw: string) {
  return await promisify(crypto.scrypt)(pw, 'salt', 64);
}` }],
      }],
    },
    {
      code: `import crypto from 'node:crypto';
export async function keys() {
  return crypto.generateKeyPairSync('ed25519');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import crypto from 'node:crypto';
import { promisify } from 'node:util';
export async function keys() {
  return await promisify(crypto.generateKeyPair)('ed25519');
}` }],
      }],
    },
    {
      code: `import * as crypto from 'crypto';
export async function material(key: Buffer) {
  const prime = crypto.generatePrimeSync(2048);
  return [prime, crypto.hkdfSync('sha256', key, 'salt', 'info', 64)];
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 17, suggestions: [{ messageId: 'useAsyncTwin', output: `import * as crypto from 'crypto';
import { promisify } from 'util';
export async function material(key: Buffer) {
  const prime = await promisify(crypto.generatePrime)(2048);
  return [prime, crypto.hkdfSync('sha256', key, 'salt', 'info', 64)];
}` }] },
        { messageId: 'blockingCall', line: 4, column: 18, suggestions: [{ messageId: 'useAsyncTwin', output: `import * as crypto from 'crypto';
import { promisify } from 'util';
export async function material(key: Buffer) {
  const prime = crypto.generatePrimeSync(2048);
  return [prime, await promisify(crypto.hkdf)('sha256', key, 'salt', 'info', 64)];
}` }] },
      ],
    },
    // randomBytes without a callback, above the default 64 KiB threshold.
    {
      code: `import { randomBytes } from 'node:crypto';
const MB = 1024 * 1024;
export async function noise() {
  return randomBytes(8 * MB);
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
const MB = 1024 * 1024;
export async function noise() {
  return await promisify(randomBytes)(8 * MB);
}` }],
      }],
    },
    {
      code: `import crypto from 'node:crypto';
export async function fill() {
  const buf = Buffer.alloc(1 << 20);
  return crypto.randomFillSync(buf);
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import crypto from 'node:crypto';
import { promisify } from 'node:util';
export async function fill() {
  const buf = Buffer.alloc(1 << 20);
  return await promisify(crypto.randomFill)(buf);
}` }],
      }],
    },
    {
      code: `import crypto from 'node:crypto';
export async function token() {
  return crypto.randomBytes(4096);
}`,
      options: [{ randomBytesThreshold: 1024 }],
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import crypto from 'node:crypto';
import { promisify } from 'node:util';
export async function token() {
  return await promisify(crypto.randomBytes)(4096);
}` }],
      }],
    },
    // --- zlib ---
    {
      code: `import zlib from 'node:zlib';
export async function pack(body: Buffer) {
  return zlib.gzipSync(body);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import zlib from 'node:zlib';
import { promisify } from 'node:util';
export async function pack(body: Buffer) {
  return await promisify(zlib.gzip)(body);
}` }],
      }],
    },
    {
      code: `import { brotliCompressSync, inflateSync } from 'node:zlib';
export async function recompress(body: Buffer) {
  return brotliCompressSync(inflateSync(body));
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 10, suggestions: [{ messageId: 'useAsyncTwin', output: `import { brotliCompressSync, inflateSync, brotliCompress } from 'node:zlib';
import { promisify } from 'node:util';
export async function recompress(body: Buffer) {
  return await promisify(brotliCompress)(inflateSync(body));
}` }] },
        { messageId: 'blockingCall', line: 3, column: 29, suggestions: [{ messageId: 'useAsyncTwin', output: `import { brotliCompressSync, inflateSync, inflate } from 'node:zlib';
import { promisify } from 'node:util';
export async function recompress(body: Buffer) {
  return brotliCompressSync(await promisify(inflate)(body));
}` }] },
      ],
    },
    {
      code: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync } = require('zlib');
async function all(b) {
  return [gunzipSync(b), unzipSync(b), deflateSync(b), deflateRawSync(b), inflateRawSync(b), brotliDecompressSync(b)];
}
module.exports = all;`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 11, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, gunzip } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [await promisify(gunzip)(b), unzipSync(b), deflateSync(b), deflateRawSync(b), inflateRawSync(b), brotliDecompressSync(b)];
}
module.exports = all;` }] },
        { messageId: 'blockingCall', line: 3, column: 26, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, unzip } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [gunzipSync(b), await promisify(unzip)(b), deflateSync(b), deflateRawSync(b), inflateRawSync(b), brotliDecompressSync(b)];
}
module.exports = all;` }] },
        { messageId: 'blockingCall', line: 3, column: 40, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, deflate } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [gunzipSync(b), unzipSync(b), await promisify(deflate)(b), deflateRawSync(b), inflateRawSync(b), brotliDecompressSync(b)];
}
module.exports = all;` }] },
        { messageId: 'blockingCall', line: 3, column: 56, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, deflateRaw } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [gunzipSync(b), unzipSync(b), deflateSync(b), await promisify(deflateRaw)(b), inflateRawSync(b), brotliDecompressSync(b)];
}
module.exports = all;` }] },
        { messageId: 'blockingCall', line: 3, column: 75, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, inflateRaw } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [gunzipSync(b), unzipSync(b), deflateSync(b), deflateRawSync(b), await promisify(inflateRaw)(b), brotliDecompressSync(b)];
}
module.exports = all;` }] },
        { messageId: 'blockingCall', line: 3, column: 94, suggestions: [{ messageId: 'useAsyncTwin', output: `const { gunzipSync, unzipSync, deflateSync, deflateRawSync, inflateRawSync, brotliDecompressSync, brotliDecompress } = require('zlib');
const { promisify } = require('util');
async function all(b) {
  return [gunzipSync(b), unzipSync(b), deflateSync(b), deflateRawSync(b), inflateRawSync(b), await promisify(brotliDecompress)(b)];
}
module.exports = all;` }] },
      ],
    },
    // --- bcrypt / bcryptjs ---
    {
      code: `import bcrypt from 'bcrypt';
export async function hashPassword(pw: string) {
  const salt = bcrypt.genSaltSync(12);
  return bcrypt.hashSync(pw, salt);
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 16, suggestions: [{ messageId: 'useAsyncTwin', output: `import bcrypt from 'bcrypt';
export async function hashPassword(pw: string) {
  const salt = await bcrypt.genSalt(12);
  return bcrypt.hashSync(pw, salt);
}` }] },
        { messageId: 'blockingCall', line: 4, column: 10, suggestions: [{ messageId: 'useAsyncTwin', output: `import bcrypt from 'bcrypt';
export async function hashPassword(pw: string) {
  const salt = bcrypt.genSaltSync(12);
  return await bcrypt.hash(pw, salt);
}` }] },
      ],
    },
    {
      code: `import { compareSync } from 'bcryptjs';
export async function login(pw: string, hash: string) {
  if (!compareSync(pw, hash)) throw new Error('denied');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 8,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { compareSync, compare } from 'bcryptjs';
export async function login(pw: string, hash: string) {
  if (!await compare(pw, hash)) throw new Error('denied');
}` }],
      }],
    },
    // --- glob / fast-glob ---
    {
      code: `import { globSync } from 'glob';
export async function sources() {
  return globSync('src/**/*.ts');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { globSync, glob } from 'glob';
export async function sources() {
  return await glob('src/**/*.ts');
}` }],
      }],
    },
    // \`glob.sync\` also exists in callback-era versions, whose \`glob()\` returns no promise.
    {
      code: `const glob = require('glob');
async function sources() {
  return glob.sync('src/**/*.js');
}
module.exports = sources;`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, suggestions: [] }],
    },
    {
      code: `import fg from 'fast-glob';
export async function sources() {
  return fg.sync(['src/**/*.ts']);
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fg from 'fast-glob';
export async function sources() {
  return await fg.async(['src/**/*.ts']);
}` }],
      }],
    },
    // --- Atomics.wait ---
    {
      code: `export async function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}`,
      errors: [{ messageId: 'blockingCall', line: 2, column: 3, suggestions: [] }],
    },
    // --- busy waits ---
    {
      code: `export async function handle(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
  return 'done';
}`,
      errors: [{ messageId: 'busyWait', line: 3, column: 3, data: { cost: SERVING, clock: 'Date.now()', line: '3', where: 'async function `handle` (line 1)' } }],
    },
    {
      code: `export async function handle(ms: number) {
  for (const start = performance.now(); performance.now() - start < ms; ) {
    Math.sqrt(ms);
  }
}`,
      errors: [{ messageId: 'busyWait', line: 2, column: 3, data: { cost: SERVING, clock: 'performance.now()', line: '2', where: 'async function `handle` (line 1)' } }],
    },
    {
      code: `export async function handle(deadline: bigint) {
  let spins = 0;
  do {
    spins++;
  } while (process.hrtime.bigint() < deadline);
  return spins;
}`,
      errors: [{ messageId: 'busyWait', line: 3, column: 3, data: { cost: SERVING, clock: 'process.hrtime.bigint()', line: '5', where: 'async function `handle` (line 1)' } }],
    },
    // --- every kind of async code ---
    {
      code: `import fs from 'node:fs';
export class Store {
  async load(p: string) {
    return fs.readFileSync(p);
  }
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 12,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export class Store {
  async load(p: string) {
    return await fs.promises.readFile(p);
  }
}` }],
      }],
    },
    {
      code: `import fs from 'node:fs';
export async function* lines(paths: string[]) {
  for (const p of paths) yield fs.readFileSync(p, 'utf8');
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 32,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export async function* lines(paths: string[]) {
  for (const p of paths) yield (await fs.promises.readFile(p, 'utf8'));
}` }],
      }],
    },
    {
      code: `import fs from 'node:fs';
export const handlers = {
  async read(p: string) { return fs.statSync(p); },
};`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 34,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
export const handlers = {
  async read(p: string) { return await fs.promises.stat(p); },
};` }],
      }],
    },
    // Synchronous callbacks run inside the async function; \`await\` is not allowed there, so no suggestion.
    {
      code: `import fs from 'node:fs';
export async function readAll(paths: string[]) {
  return paths.map((p) => fs.readFileSync(p, 'utf8'));
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 27, suggestions: [],
        data: { cost: SERVING, name: 'fs.readFileSync', where: 'a callback that runs synchronously inside async function `readAll` (line 2)' },
      }],
    },
    {
      code: `import { execSync } from 'node:child_process';
export async function run(cmds: string[]) {
  cmds.forEach(function (c) { execSync(c); });
  return new Promise((resolve) => resolve(execSync('true')));
}`,
      errors: [
        { messageId: 'blockingCall', line: 3, column: 31, suggestions: [] },
        { messageId: 'blockingCall', line: 4, column: 43, suggestions: [] },
      ],
    },
    // A parameter default runs inside the async call but cannot hold an await.
    {
      code: `import { readFileSync } from 'node:fs';
export async function render(t = readFileSync('default.html', 'utf8')) {
  return t;
}`,
      errors: [{ messageId: 'blockingCall', line: 2, column: 34, suggestions: [] }],
    },
    // --- through helpers ---
    // A same-file helper only async code calls is reported at its blocking call, naming the caller.
    {
      code: `import { readFileSync } from 'node:fs';
function loadTemplates() {
  return readFileSync('templates.json', 'utf8');
}
export async function handle() {
  const templates = loadTemplates();
  return templates;
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10, suggestions: [],
        data: { cost: SERVING, name: 'fs.readFileSync', where: '`loadTemplates` (line 2), which async function `handle` calls (line 6) while the process serves' },
      }],
    },
    // Every call is named, once.
    {
      code: `import { readFileSync, writeFileSync } from 'node:fs';
function rebuild(dir: string) {
  const data = readFileSync(dir + '/all.json', 'utf8');
  writeFileSync(dir + '/index.json', data);
  return data;
}
export async function show(dir: string, stale: boolean) {
  if (stale) return rebuild(dir);
  return rebuild(dir + '/cache');
}`,
      errors: [
        {
          messageId: 'blockingCall', line: 3, column: 16,
          data: { cost: SERVING, name: 'fs.readFileSync', where: '`rebuild` (line 2), which async function `show` calls (lines 8, 9) while the process serves' },
        },
        { messageId: 'blockingCall', line: 4, column: 3 },
      ],
    },
    // Near misses: a helper also called outside async code (here at module load), or exported,
    // may run where nothing waits; the reports stay at the async calls.
    {
      code: `import { readFileSync } from 'node:fs';
function loadTemplates() {
  return readFileSync('templates.json', 'utf8');
}
const initial = loadTemplates();
export async function handle() {
  return loadTemplates() + initial;
}`,
      errors: [{
        messageId: 'blockingHelper', line: 7, column: 10,
        data: { cost: SERVING, callee: 'loadTemplates', chain: 'calls `fs.readFileSync` (line 3)', where: 'async function `handle` (line 6)' },
      }],
    },
    {
      code: `import { readFileSync } from 'node:fs';
export function loadTemplates() {
  return readFileSync('templates.json', 'utf8');
}
export async function handle() {
  return loadTemplates();
}`,
      errors: [{ messageId: 'blockingHelper', line: 6, column: 10 }],
    },
    // Passed as a callback, the helper may be called from anywhere.
    {
      code: `import { readFileSync } from 'node:fs';
function read(p: string) { return readFileSync(p, 'utf8'); }
export const readers = [read];
export async function handle() {
  return read('a');
}`,
      errors: [{ messageId: 'blockingHelper', line: 5, column: 10 }],
    },
    // An overloaded helper is followed into its implementation.
    {
      code: `import { readFileSync } from 'node:fs';
function load(path: string): string;
function load(path: string, encoding: 'utf8'): string;
function load(path: string, encoding?: 'utf8'): string {
  return readFileSync(path, encoding ?? 'utf8');
}
export async function handle() {
  return load('a.json');
}`,
      errors: [{
        messageId: 'blockingCall', line: 5, column: 10,
        data: { cost: SERVING, name: 'fs.readFileSync', where: '`load` (line 4), which async function `handle` calls (line 8) while the process serves' },
      }],
    },
    // An overloaded method: its implementation is the member with a body.
    {
      code: `import { readFileSync } from 'node:fs';
export class Deploy {
  run(cmd: string): string;
  run(cmd: string[]): string;
  run(cmd: string | string[]): string {
    return readFileSync(Array.isArray(cmd) ? cmd.join('/') : cmd, 'utf8');
  }
  async handle() { return this.run('ls'); }
}`,
      errors: [{
        messageId: 'blockingHelper', line: 8, column: 27,
        data: { cost: SERVING, callee: 'run', chain: 'calls `fs.readFileSync` (line 6)', where: 'async function `handle` (line 8)' },
      }],
    },
    // A `declare function` next to a real helper: the findings of the file survive.
    {
      code: `import { readFileSync } from 'node:fs';
declare function remote(): string;
function local() { return readFileSync('a'); }
export async function handle() {
  remote();
  return local();
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 27, data: { cost: SERVING, name: 'fs.readFileSync', where: '`local` (line 3), which async function `handle` calls (line 6) while the process serves' } }],
    },
    // Two levels deep: render → loadTemplates → readFileSync. Both helpers run only from async code.
    {
      code: `import fs from 'node:fs';
function loadTemplates() {
  return fs.readFileSync('templates.json', 'utf8');
}
function render(name: string) {
  return loadTemplates() + name;
}
export const handle = async (name: string) => render(name);`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 10,
        data: { cost: SERVING, name: 'fs.readFileSync', where: '`loadTemplates` (line 2), which function `render` calls (line 6) while the process serves' },
      }],
    },
    // `render` is exported, so it may run anywhere: the chain is reported at the async call.
    {
      code: `import fs from 'node:fs';
function loadTemplates() {
  return fs.readFileSync('templates.json', 'utf8');
}
export function render(name: string) {
  return loadTemplates() + name;
}
export const handle = async (name: string) => render(name);`,
      errors: [{
        messageId: 'blockingHelper', line: 8, column: 47,
        data: {
          cost: SERVING,
          callee: 'render',
          chain: 'calls `loadTemplates()` (line 6), which calls `fs.readFileSync` (line 3)',
          where: 'async function `handle` (line 8)',
        },
      }],
    },
    {
      code: `import { readFileSync } from 'node:fs';
export class Deployer {
  private gitSha() { return this.run('.git/HEAD'); }
  private run(file: string) { return readFileSync(file, { encoding: 'utf8' }); }
  async deploy() {
    return this.gitSha();
  }
}`,
      errors: [{
        messageId: 'blockingHelper', line: 6, column: 12,
        data: {
          cost: SERVING,
          callee: 'gitSha',
          chain: 'calls `run()` (line 3), which calls `fs.readFileSync` (line 4)',
          where: 'async function `deploy` (line 5)',
        },
      }],
    },
    // The classic sleepSync helpers: a busy wait and Atomics.wait.
    {
      code: `function sleepSync(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
}
export async function retry(fn: () => Promise<void>) {
  try { await fn(); } catch { sleepSync(100); await fn(); }
}`,
      errors: [{
        messageId: 'busyWait', line: 3, column: 3,
        data: { cost: SERVING, clock: 'Date.now()', line: '3', where: '`sleepSync` (line 1), which async function `retry` calls (line 6) while the process serves' },
      }],
    },
    {
      code: `const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
export async function backoff(attempt: number) {
  pause(2 ** attempt * 100);
}`,
      errors: [{
        messageId: 'blockingCall', line: 1, column: 31,
        data: { cost: SERVING, name: 'Atomics.wait', where: '`pause` (line 1), which async function `backoff` calls (line 3) while the process serves' },
      }],
    },
    {
      code: `import fs from 'fs-extra';
const store = {
  load(name: string) { return fs.readJsonSync(name); },
};
export async function register(name: string) {
  return store.load(name);
}`,
      errors: [{
        messageId: 'blockingHelper', line: 6, column: 10,
        data: { cost: SERVING, callee: 'load', chain: 'calls `fs-extra.readJsonSync` (line 3)', where: 'async function `register` (line 5)' },
      }],
    },
    // The helper blocks only inside a synchronous callback it runs itself.
    {
      code: `import { readFileSync } from 'node:fs';
function readAll(paths: string[]) {
  return paths.map((p) => readFileSync(p));
}
export async function bundle(paths: string[]) {
  return readAll(paths).join('');
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 27 }],
    },
    // The helper is declared after its async caller (function declarations are hoisted).
    {
      code: `export async function poll() {
  return waitUntilReady(500);
}
function waitUntilReady(ms: number) {
  const until = performance.now() + ms;
  do { /* spin */ } while (performance.now() < until);
  return true;
}`,
      errors: [{
        messageId: 'busyWait', line: 6, column: 3,
        data: { cost: SERVING, clock: 'performance.now()', line: '6', where: '`waitUntilReady` (line 4), which async function `poll` calls (line 2) while the process serves' },
      }],
    },
    // --- configured entries ---
    {
      code: `import { loadConfigSync } from '@acme/legacy';
export async function boot() {
  return loadConfigSync();
}`,
      options: [{ blockingCalls: [{ module: '@acme/legacy', export: 'loadConfigSync' }] }],
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, suggestions: [] }],
    },
    {
      code: `import legacy from '@acme/legacy';
export async function boot() {
  return legacy.cfg.loadSync();
}`,
      settings: { 'async-hazards': { preset: 'strict', blockingCalls: [{ module: '@acme/legacy', method: 'loadSync' }] } },
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, suggestions: [] }],
    },
    // A configured entry reached through a helper.
    {
      code: `import Database from 'better-sqlite3';
function count() { return Database.querySync('select 1'); }
export async function stats() {
  return count();
}`,
      options: [{ blockingCalls: [{ module: 'better-sqlite3', export: 'querySync' }] }],
      errors: [{
        messageId: 'blockingCall', line: 2, column: 27,
        data: { cost: SERVING, name: 'better-sqlite3.querySync', where: '`count` (line 2), which async function `stats` calls (line 4) while the process serves' },
      }],
    },
  ],
});
