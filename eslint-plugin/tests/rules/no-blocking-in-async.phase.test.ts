import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// Startup code: an entry the module runs itself (`main()`, `bootstrap()`, an async IIFE) before
// its server listens, and NestJS's onModuleInit / onApplicationBootstrap. Nothing else shares the
// event loop yet, so `recommended` leaves blocking calls there alone; `strict` reports them.
const STARTUP = {
  beforeListen: `import { readFileSync } from 'node:fs';
import https from 'node:https';
async function main() {
  const key = readFileSync('tls/key.pem');
  const server = https.createServer({ key }, handle);
  server.listen(443);
}
declare function handle(): void;
main().catch((error) => { console.error(error); process.exit(1); });`,
  iife: `import fs from 'node:fs';
(async () => {
  const config = JSON.parse(fs.readFileSync('config.json', 'utf8'));
  await start(config);
})();
declare function start(c: unknown): Promise<void>;`,
  nestHook: `import { Injectable, OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
@Injectable()
export class Templates implements OnModuleInit {
  private body = '';
  async onModuleInit() { this.body = readFileSync('mail.html', 'utf8'); }
}`,
};

// An async callback the entry runs synchronously (`reduce`, a promise executor) starts while the
// entry runs: it is startup where the entry is. The same callback in an exported function is not.
const CALLBACKS = {
  reduce: `import { readdirSync } from 'node:fs';
async function main(dirs: string[]) {
  const names = await dirs.reduce(async (prev, dir) => [...(await prev), ...readdirSync(dir)], Promise.resolve([] as string[]));
  listen(names);
}
declare function listen(names: string[]): void;
main([]).catch(() => process.exit(1));`,
  executor: `import { readFileSync } from 'node:fs';
async function main() {
  const key = await new Promise<Buffer>(async (resolve) => resolve(readFileSync('key.pem')));
  listen(key);
}
declare function listen(key: Buffer): void;
main().catch(() => process.exit(1));`,
};

const exportedMain = (code: string): string => code.replace('async function main', 'export async function main');

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: startup)', rule as never, {
  valid: [STARTUP.beforeListen, STARTUP.iife, STARTUP.nestHook, CALLBACKS.reduce, CALLBACKS.executor],
  invalid: [
    // The same callbacks in a function anything may call, at any time.
    {
      code: exportedMain(CALLBACKS.reduce),
      errors: [{ messageId: 'blockingCall', line: 3, column: 77, suggestions: [{ messageId: 'useAsyncTwin', output: exportedMain(CALLBACKS.reduce)
        .replace("from 'node:fs';\n", "from 'node:fs';\nimport { readdir } from 'node:fs/promises';\n").replace('...readdirSync(dir)', '...await readdir(dir)') }] }],
    },
    {
      code: exportedMain(CALLBACKS.executor),
      errors: [{ messageId: 'blockingCall', line: 3, column: 68, suggestions: [{ messageId: 'useAsyncTwin', output: exportedMain(CALLBACKS.executor)
        .replace("from 'node:fs';\n", "from 'node:fs';\nimport { readFile } from 'node:fs/promises';\n").replace("resolve(readFileSync('key.pem'))", "resolve(await readFile('key.pem'))") }] }],
    },
    // After `listen`, requests are served while the rest of `main` runs.
    {
      code: `import { readFileSync } from 'node:fs';
import express from 'express';
async function main() {
  const app = express();
  await new Promise<void>((resolve) => app.listen(3000, resolve));
  readFileSync('warm-cache.json');
}
void main();`,
      errors: [{ messageId: 'blockingCall', line: 6, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import express from 'express';
import { readFile } from 'node:fs/promises';
async function main() {
  const app = express();
  await new Promise<void>((resolve) => app.listen(3000, resolve));
  await readFile('warm-cache.json');
}
void main();` }] }],
    },
    // An exported function can be called from anywhere, at any time.
    {
      code: `import { readFileSync } from 'node:fs';
export async function main() { return readFileSync('a'); }
main();`,
      errors: [{ messageId: 'blockingCall', line: 2, column: 39, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export async function main() { return await readFile('a'); }
main();` }] }],
    },
    // Called from another function too: not only at startup.
    {
      code: `import { readFileSync } from 'node:fs';
async function load() { return readFileSync('a'); }
export async function refresh() { return load(); }
load();`,
      errors: [{ messageId: 'blockingCall', line: 2, column: 32, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
async function load() { return await readFile('a'); }
export async function refresh() { return load(); }
load();` }] }],
    },
    // A worker's endless loop in its entry is its serving phase.
    {
      code: `import { readFileSync } from 'node:fs';
async function main() {
  for (;;) {
    const job = await next();
    readFileSync(job);
  }
}
declare function next(): Promise<string>;
main();`,
      errors: [{ messageId: 'blockingCall', line: 5, column: 5, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
async function main() {
  for (;;) {
    const job = await next();
    await readFile(job);
  }
}
declare function next(): Promise<string>;
main();` }] }],
    },
    // A NestJS-looking hook name in a file that does not use NestJS.
    {
      code: `import { readFileSync } from 'node:fs';
export class Templates {
  async onModuleInit() { return readFileSync('mail.html', 'utf8'); }
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 33, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export class Templates {
  async onModuleInit() { return await readFile('mail.html', 'utf8'); }
}` }] }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: startup)', rule as never, {
  valid: [],
  invalid: [
    { code: STARTUP.beforeListen, errors: [{ messageId: 'blockingCall', line: 4, column: 15, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
async function main() {
  const key = await readFile('tls/key.pem');
  const server = https.createServer({ key }, handle);
  server.listen(443);
}
declare function handle(): void;
main().catch((error) => { console.error(error); process.exit(1); });` }] }] },
    { code: STARTUP.iife, errors: [{ messageId: 'blockingCall', line: 3, column: 29, suggestions: [{ messageId: 'useAsyncTwin', output: `import fs from 'node:fs';
(async () => {
  const config = JSON.parse(await fs.promises.readFile('config.json', 'utf8'));
  await start(config);
})();
declare function start(c: unknown): Promise<void>;` }] }] },
    { code: STARTUP.nestHook, errors: [{ messageId: 'blockingCall', line: 6, column: 38, suggestions: [{ messageId: 'useAsyncTwin', output: `import { Injectable, OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
@Injectable()
export class Templates implements OnModuleInit {
  private body = '';
  async onModuleInit() { this.body = await readFile('mail.html', 'utf8'); }
}` }] }] },
  ],
});
