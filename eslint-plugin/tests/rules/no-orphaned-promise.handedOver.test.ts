import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Promises handed to a registration that drops them without an async callback in sight: a plain
// callback whose body is the promise, an async function passed by name, a method called through
// `apply`. Then imports through module-alias, typegoose models, and `export default { handler }`.

const EMITTER = "import { EventEmitter } from 'node:events';\nconst bus = new EventEmitter();\n";

const callbacks = {
  valid: [
    // The callee guards its whole body: nothing can reject.
    `async function sync() { try { await fetch('https://example.com'); } catch (error) { console.error(error); } }
setTimeout(() => sync(), 1000);`,
    // Detached on purpose, and a plain value.
    `async function sync() { await fetch('https://example.com'); }
setTimeout(() => void sync(), 1000);`,
    `function count() { return 1; }
setInterval(() => count(), 1000);`,
    // A handled chain in the body.
    `async function sync() { await fetch('https://example.com'); }
setTimeout(() => sync().catch(console.error), 1000);`,
    // Handed by name: a plain function, and an async one that cannot reject.
    `${EMITTER}function onSaved(id: string) { console.log(id); }
bus.on('saved', onSaved);`,
    `${EMITTER}async function onSaved(id: string) { try { await fetch(id); } catch (error) { console.error(error); } }
bus.on('saved', onSaved);`,
    // An emitter whose listeners are awaited by the library that calls them (allow-listed).
    {
      code: `import { Telegraf } from 'telegraf';
const bot = new Telegraf('token');
async function onText() { await fetch('https://example.com'); }
bot.on('text', onText);`,
    },
    // Through `apply`: the method guards its whole body.
    `${EMITTER}class Api {
  async stats() { try { await fetch('https://example.com/stats'); } catch (error) { console.error(error); } }
  listen() { bus.on('stats', (...args: unknown[]) => this.stats.apply(this, args as [])); }
}`,
  ],
  invalid: [
    // The timer drops `syncState()`'s promise; its `await` can reject.
    {
      code: `class Poller {
  timeout: ReturnType<typeof setTimeout> | null = null;
  async readState() { return (await fetch('https://example.com')).ok; }
  async syncState() {
    const more = await this.readState();
    this.timeout = setTimeout(() => this.syncState(), more ? 0 : 1000);
  }
}`,
      errors: [{
        messageId: 'orphanedPromise' as const, line: 6, column: 37,
        suggestions: [{
          messageId: 'addVoid' as const,
          output: `class Poller {
  timeout: ReturnType<typeof setTimeout> | null = null;
  async readState() { return (await fetch('https://example.com')).ok; }
  async syncState() {
    const more = await this.readState();
    this.timeout = setTimeout(() => void this.syncState(), more ? 0 : 1000);
  }
}`,
        }],
      }],
    },
    // An async listener passed by name: reported where it is handed over.
    {
      code: `${EMITTER}async function onFailed(id: string) {
  await fetch(\`https://jobs.internal/\${id}\`);
}
bus.on('failed', onFailed);`,
      errors: [{ messageId: 'asyncCallbackIgnored' as const, line: 6, column: 18, data: { name: 'bus.on' } }],
    },
    // `this.history.apply(this, args)` returns the async method's promise, which the listener drops.
    {
      code: `${EMITTER}class Api {
  async history(address: string) { return (await fetch(address)).json(); }
  listen() { bus.on('history', (...args: [string]) => this.history.apply(this, args)); }
}`,
      errors: [{
        messageId: 'orphanedPromise' as const, line: 5, column: 55,
        suggestions: [{
          messageId: 'addVoid' as const,
          output: `${EMITTER}class Api {
  async history(address: string) { return (await fetch(address)).json(); }
  listen() { bus.on('history', (...args: [string]) => void this.history.apply(this, args)); }
}`,
        }],
      }],
    },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (handed-over callbacks, recommended)', rule as never, callbacks);
createRuleTester().run<MessageId, Options>('no-orphaned-promise (handed-over callbacks, strict)', rule as never, callbacks);

// fixtures/module-alias depends on module-alias and maps `@models` and `@helpers` to `dist/…`,
// which is not built: the imports name the TypeScript sources under `src/`.
const aliasApp = fixture('module-alias/src/app.ts');

const aliases = {
  valid: [
    // The helper guards its whole body.
    { code: "import { deleteSafe } from '@helpers/safe';\nexport async function clean() {\n  deleteSafe(1);\n}", filename: aliasApp },
    // An alias nobody declared goes nowhere we know.
    { code: "import { removeEntries } from '@other/entry';\nexport async function clean() {\n  removeEntries(1);\n}", filename: aliasApp },
  ],
  invalid: [
    {
      code: "import { removeEntries } from '@models/entry';\nexport async function clean() {\n  removeEntries(1);\n}",
      filename: aliasApp,
      errors: [{
        messageId: 'orphanedPromise' as const, line: 3, column: 3, data: { origin: '`removeEntries` (async, in `./models/entry.ts`)', method: '' },
        suggestions: [
          { messageId: 'addAwait' as const, output: "import { removeEntries } from '@models/entry';\nexport async function clean() {\n  await removeEntries(1);\n}" },
          { messageId: 'addVoid' as const, output: "import { removeEntries } from '@models/entry';\nexport async function clean() {\n  void removeEntries(1);\n}" },
        ],
      }],
    },
    // typegoose's `getModelForClass` builds a mongoose model: `new Model(…).save()` is a promise.
    {
      code: "import { addEntry } from '@models/entry';\nexport function remember() {\n  addEntry(1);\n}",
      filename: aliasApp,
      errors: [{
        messageId: 'orphanedPromise' as const, line: 3, column: 3,
        suggestions: [{ messageId: 'addVoid' as const, output: "import { addEntry } from '@models/entry';\nexport function remember() {\n  void addEntry(1);\n}" }],
      }],
    },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (module-alias imports, recommended)', rule as never, aliases);

// An ES module exports its middleware as `export default { resize, thumbnail }`; the router file
// registers `images.resize` only. Express 4 drops the promise of that one.
const images = fixture('express-routes/v4-esm/src/middlewares/images.js');

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (default-exported handler object)', rule as never, {
  valid: [],
  invalid: [
    {
      code: fs.readFileSync(images, 'utf8'),
      filename: images,
      errors: [{ messageId: 'frameworkIgnoresPromise' as const, line: 1, column: 16, data: { framework: 'Express', major: '4', role: 'route handler' } }],
    },
  ],
});

// puppeteer's browser and page, known from `await puppeteer.launch()`, `await browser.newPage()`
// (also through a `let` first set to `null`) and from a declared `Page` type.
const LAUNCHED = `const puppeteer = require('puppeteer');
let browser = null;
async function render(url) {
  browser = await puppeteer.launch();
  const page = await browser.newPage();
  page.setViewport({ width: 800, height: 600 });
  setTimeout(function () {
    browser.close();
  }, 30000);
  await page.goto(url);
}`;

const puppeteer = {
  valid: [
    // Awaited or handled.
    `const puppeteer = require('puppeteer');
async function render(url) {
  const browser = await puppeteer.launch();
  const page = await browser.newPage();
  await page.goto(url);
  browser.close().catch(() => {});
}`,
    // A method that returns no promise, and the same method names on objects from elsewhere.
    `import type { Page } from 'puppeteer';
export function watch(page: Page) {
  page.on('console', (m) => console.log(m.text()));
}`,
    `declare const page: { setViewport(v: object): void; close(): void };
export function reset() {
  page.setViewport({ width: 1 });
  page.close();
}`,
    // Assigned something else as well: not known to be a browser.
    `const puppeteer = require('puppeteer');
declare function other(): { close(): Promise<void> };
let browser = null;
async function start(remote) {
  browser = remote ? other() : await puppeteer.launch();
  browser.close();
}`,
  ],
  invalid: [
    {
      code: LAUNCHED,
      errors: [
        {
          messageId: 'orphanedPromise' as const, line: 6, column: 3,
          suggestions: [
            { messageId: 'addAwait' as const, output: LAUNCHED.replace('  page.setViewport', '  await page.setViewport') },
            { messageId: 'addVoid' as const, output: LAUNCHED.replace('  page.setViewport', '  void page.setViewport') },
          ],
        },
        {
          messageId: 'orphanedPromise' as const, line: 8, column: 5,
          suggestions: [{ messageId: 'addVoid' as const, output: LAUNCHED.replace('    browser.close();', '    void browser.close();') }],
        },
      ],
    },
    // The executor's return value goes nowhere: a failed `exposeFunction` is an unhandled rejection.
    {
      code: `import type { Page } from 'puppeteer';
export function ready(page: Page) {
  return new Promise<void>((resolve) => page.exposeFunction('ready', () => resolve()));
}`,
      errors: [{
        messageId: 'orphanedPromise' as const, line: 3, column: 41,
        suggestions: [{
          messageId: 'addVoid' as const,
          output: `import type { Page } from 'puppeteer';
export function ready(page: Page) {
  return new Promise<void>((resolve) => void page.exposeFunction('ready', () => resolve()));
}`,
        }],
      }],
    },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (puppeteer, recommended)', rule as never, puppeteer);

// What `recommended` asks of an async body: a `finally` that ends the process keeps every error
// in; a sleep started into a `const` and awaited later is judged by the call that started it.
const CHILD = (finalizer: string): string => `class Child {
  current: Promise<void> = fetch('https://example.com').then(() => undefined);
  async stop() {
    try {
      await this.current;
    } finally {
      ${finalizer}
    }
  }
  listen() {
    process.on('SIGTERM', () => this.stop());
  }
}`;
const LOOP = (step: string): string => `async function wait(ms: number) { await new Promise((resolve) => setTimeout(resolve, ms)); }
async function check() { try { await fetch('https://example.com'); } catch (error) { console.error(error); } }
async function loop() {
  while (true) {
    const delay = wait(5000);
    ${step}
    await delay;
  }
}
export function start() {
  loop().then(() => console.log('loop exited'));
}`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (run-time rejections, recommended)', rule as never, {
  valid: [CHILD('process.exit(process.exitCode || 0);'), LOOP('await check();')],
  invalid: [
    {
      code: CHILD("console.log('done');"),
      errors: [{
        messageId: 'orphanedPromise', line: 11, column: 33,
        suggestions: [{ messageId: 'addVoid', output: CHILD("console.log('done');").replace('() => this.stop()', '() => void this.stop()') }],
      }],
    },
    {
      code: LOOP("await fetch('https://example.com');"),
      errors: [{
        messageId: 'unhandledChain', line: 11, column: 3,
        suggestions: [{
          messageId: 'addVoid',
          output: LOOP("await fetch('https://example.com');").replace("  loop().then(", "  void loop().then("),
        }],
      }],
    },
  ],
});
