import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRuleTester } from '../ruleTester';

const ruleTester = createRuleTester();

// Work done once per process and then served from memory stalls the loop once, at first use:
// lazy initialisation behind a slot the guarded code fills, and memoised reads. Both presets.
ruleTester.run<MessageId, Options>('no-blocking-in-async (once per process)', rule as never, {
  valid: [
    // A module-level slot filled on first use.
    `import { readFileSync } from 'node:fs';
let wasm: Buffer | undefined;
export async function instance() {
  if (!wasm) wasm = readFileSync('engine.wasm');
  return WebAssembly.instantiate(wasm);
}`,
    // A flag set inside the guarded block.
    `import fs from 'node:fs';
let loaded = false;
let rules: string[] = [];
export async function check(x: string) {
  if (!loaded) {
    rules = fs.readFileSync('rules.txt', 'utf8').split('\\n');
    loaded = true;
  }
  return rules.includes(x);
}`,
    // Logical assignment and the `??` idiom, on a field and on a module slot.
    `import { readFileSync } from 'node:fs';
export class Templates {
  private body?: string;
  async render() { this.body ??= readFileSync('body.html', 'utf8'); return this.body; }
}`,
    `import { readFileSync } from 'node:fs';
let schema: string | null = null;
export async function validate() { return schema ?? (schema = readFileSync('schema.json', 'utf8')); }`,
    `import { readFileSync } from 'node:fs';
let config: string | undefined;
export async function get() {
  if (config === undefined) { config = readFileSync('c.json', 'utf8'); }
  return config;
}`,
    // A memoised read, directly and through a helper.
    `import { readFileSync } from 'node:fs';
const cache = new Map<string, string>();
export async function sql(name: string) {
  if (cache.has(name)) return cache.get(name);
  const text = readFileSync(name + '.sql', 'utf8');
  cache.set(name, text);
  return text;
}`,
    `import { readFileSync } from 'node:fs';
const cache = new Map<string, string>();
function loadCommandSql(name: string) {
  const hit = cache.get(name);
  if (hit) return hit;
  const text = readFileSync(name + '.sql', 'utf8');
  cache.set(name, text);
  return text;
}
export async function run(name: string) { return loadCommandSql(name); }`,
    // A synchronous callback inside the guard runs under it.
    `import { readFileSync } from 'node:fs';
let pages: string[] | undefined;
export async function all(names: string[]) {
  if (!pages) pages = names.map((n) => readFileSync(n, 'utf8'));
  return pages;
}`,
    // An early answer from a filled cache entry, filled later in a callback of the same call.
    `import fs from 'node:fs';
const cache: { outdated?: boolean } = {};
export async function outdated(check: (list: string) => Promise<boolean>) {
  if (cache.outdated !== undefined) {
    return cache.outdated;
  }
  const list = fs.readFileSync('packages.json', 'utf8');
  return check(list).then((result) => { cache.outdated = result; return result; });
}`,
    // The same, filled by a function of the file the call chain ends in.
    `import fs from 'node:fs';
const cache: { outdated?: boolean } = {};
function update(result: boolean) { cache.outdated = result; }
export async function outdated(check: (list: string) => Promise<boolean>) {
  if (cache.outdated !== undefined) return cache.outdated;
  await check(fs.readFileSync('packages.json', 'utf8')).then((r) => update(r));
  return cache.outdated;
}`,
  ],
  invalid: [
    // The early answer's slot is never filled here: every call reads.
    {
      code: `import fs from 'node:fs';
const cache: { outdated?: boolean } = {};
export async function outdated() {
  if (cache.outdated !== undefined) return cache.outdated;
  return fs.readFileSync('packages.json', 'utf8') !== '';
}`,
      errors: [{
        messageId: 'blockingCall', line: 5, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
const cache: { outdated?: boolean } = {};
export async function outdated() {
  if (cache.outdated !== undefined) return cache.outdated;
  return await fs.promises.readFile('packages.json', 'utf8') !== '';
}` }],
      }],
    },
    // A local flag is set anew on every call: the read happens every time.
    {
      code: `import { readFileSync } from 'node:fs';
export async function get() {
  let config: string | undefined;
  if (!config) config = readFileSync('c.json', 'utf8');
  return config;
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 25,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export async function get() {
  let config: string | undefined;
  if (!config) config = await readFile('c.json', 'utf8');
  return config;
}` }],
      }],
    },
    // The guard does not fill the slot it tests: it runs whenever the flag is off.
    {
      code: `import { readFileSync } from 'node:fs';
let debug = false;
export async function get() {
  if (!debug) return readFileSync('c.json', 'utf8');
  return '';
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 22,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
let debug = false;
export async function get() {
  if (!debug) return await readFile('c.json', 'utf8');
  return '';
}` }],
      }],
    },
    // A cache that is read but never written is no memo.
    {
      code: `import { readFileSync } from 'node:fs';
const seen = new Set<string>();
export async function load(name: string) {
  if (seen.has(name)) return '';
  return readFileSync(name, 'utf8');
}`,
      errors: [{
        messageId: 'blockingCall', line: 5, column: 10,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const seen = new Set<string>();
export async function load(name: string) {
  if (seen.has(name)) return '';
  return await readFile(name, 'utf8');
}` }],
      }],
    },
    // A cache created per call remembers nothing.
    {
      code: `import { readFileSync } from 'node:fs';
export async function load(name: string) {
  const cache = new Map<string, string>();
  if (cache.has(name)) return cache.get(name);
  const text = readFileSync(name, 'utf8');
  cache.set(name, text);
  return text;
}`,
      errors: [{
        messageId: 'blockingCall', line: 5, column: 16,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export async function load(name: string) {
  const cache = new Map<string, string>();
  if (cache.has(name)) return cache.get(name);
  const text = await readFile(name, 'utf8');
  cache.set(name, text);
  return text;
}` }],
      }],
    },
    // The else branch of a slot guard runs every time the slot is full.
    {
      code: `import { readFileSync } from 'node:fs';
let cached: string | undefined;
export async function get() {
  if (!cached) { cached = 'x'; } else { readFileSync('log.txt'); }
  return cached;
}`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 41,
        suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
let cached: string | undefined;
export async function get() {
  if (!cached) { cached = 'x'; } else { await readFile('log.txt'); }
  return cached;
}` }],
      }],
    },
  ],
});
