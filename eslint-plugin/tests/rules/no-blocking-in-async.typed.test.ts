import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createTypedRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

const ruleTester = createTypedRuleTester();
const filename = fixture('blocking.ts');

// With type information the rule follows calls into other files of the program
// (`tests/fixtures/blockingHelpers.ts`); library declarations are never entered.
ruleTester.run<MessageId, Options>('no-blocking-in-async (typed)', rule as never, {
  valid: [
    // A helper in another file that does not block.
    {
      filename,
      code: `import { double } from './blockingHelpers';
export async function handle(n: number) {
  return double(n);
}`,
    },
    // An async helper: its own body is checked in its own file.
    {
      filename,
      code: `import { loadLater } from './blockingHelpers';
export async function handle(p: string) {
  return loadLater(p);
}`,
    },
    // The blocking call in the other file runs later, in a timer.
    {
      filename,
      code: `import { scheduleReload } from './blockingHelpers';
export async function start() {
  scheduleReload('config.json');
}`,
    },
    // Library code (Node's own declarations) is not entered.
    {
      filename,
      code: `import { format } from 'node:util';
export async function log(n: number) {
  return format('%d', n);
}`,
    },
    // Startup code calling a blocking helper from another file.
    {
      filename,
      code: `import { loadConfig } from './blockingHelpers';
export const config = loadConfig('config.json');`,
    },
    // The same checks with types as without: a *Sync method on an unknown object.
    {
      filename,
      code: `export async function save(store: { flushSync(): void }) {
  store.flushSync();
}`,
    },
  ],
  invalid: [
    {
      filename,
      code: `import { loadConfig } from './blockingHelpers';
export async function handle() {
  return loadConfig('config.json');
}`,
      errors: [{
        messageId: 'blockingHelper', line: 3, column: 10,
        data: {
          cost: SERVING,
          callee: 'loadConfig',
          chain: 'calls `fs.readFileSync` (blockingHelpers.ts line 6)',
          where: 'async function `handle` (line 2)',
        },
      }],
    },
    // Two levels deep across the file: renderAll → loadConfig → readFileSync.
    {
      filename,
      code: `import { renderAll } from './blockingHelpers';
export const handle = async () => renderAll();`,
      errors: [{
        messageId: 'blockingHelper', line: 2, column: 35,
        data: {
          cost: SERVING,
          callee: 'renderAll',
          chain: 'calls `loadConfig()` (blockingHelpers.ts line 14), which calls `fs.readFileSync` (blockingHelpers.ts line 6)',
          where: 'async function `handle` (line 2)',
        },
      }],
    },
    {
      filename,
      code: `import * as helpers from './blockingHelpers';
export async function retry() {
  helpers.sleepSync(100);
}`,
      errors: [{
        messageId: 'blockingHelper', line: 3, column: 3,
        data: {
          cost: SERVING,
          callee: 'sleepSync',
          chain: 'busy-waits on `Date.now()` (blockingHelpers.ts line 23)',
          where: 'async function `retry` (line 2)',
        },
      }],
    },
    {
      filename,
      code: `import { Archive } from './blockingHelpers';
export async function upload(body: Buffer) {
  return Archive.pack(body);
}`,
      errors: [{
        messageId: 'blockingHelper', line: 3, column: 10,
        data: {
          cost: SERVING,
          callee: 'pack',
          chain: 'calls `zlib.gzipSync` (blockingHelpers.ts line 30)',
          where: 'async function `upload` (line 2)',
        },
      }],
    },
    // A same-file helper reached through an instance the untyped call graph cannot follow.
    {
      filename,
      code: `import { readFileSync } from 'node:fs';
class Git {
  sha() { return readFileSync('.git/HEAD', { encoding: 'utf8' }); }
}
const git = new Git();
export async function deploy() {
  return git.sha();
}`,
      errors: [{
        messageId: 'blockingHelper', line: 7, column: 10,
        data: {
          cost: SERVING,
          callee: 'sha',
          chain: 'calls `fs.readFileSync` (line 3)',
          where: 'async function `deploy` (line 6)',
        },
      }],
    },
    // A child process in a method: reported where it runs, and the chain the checker follows to it is not said again.
    {
      filename,
      code: `import { execSync } from 'node:child_process';
class Git {
  sha() { return execSync('git rev-parse HEAD', { encoding: 'utf8' }); }
}
const git = new Git();
export async function deploy() {
  return git.sha();
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 18,
        data: { cost: SERVING, name: 'child_process.execSync', where: '`sha` (line 3), which this long-lived process may run while it serves' },
      }],
    },
    // Direct calls are reported the same way with types.
    {
      filename,
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
  ],
});
