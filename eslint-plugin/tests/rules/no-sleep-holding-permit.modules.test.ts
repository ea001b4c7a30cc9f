import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import type { MessageId, Options } from '../../src/rules/no-sleep-holding-permit';
import rule from '../../src/rules/no-sleep-holding-permit';
import { getEvidence } from '../../src/util/evidence';
import { createRuleTester, fixture } from '../ruleTester';

/**
 * Sleeps reached through helpers imported from the project's own modules. The linted code is
 * given as text at a path inside a copy of `fixtures/sleep-helpers/` (utils/sleep.ts,
 * utils/retry.ts, utils/http.js, utils/format.ts, a barrel, a module that does not parse, and a
 * chain a → b → c → d of modules), so its relative imports resolve to real files.
 */
const ROOT = layOut();
const job = (name: string): string => path.join(ROOT, 'src', 'jobs', name);

function layOut(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-sleep-helpers-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(fixture('sleep-helpers'), dir, { recursive: true });
  return fs.realpathSync(dir);
}

const ruleTester = createRuleTester();

ruleTester.run<MessageId, Options>('no-sleep-holding-permit (imported helpers)', rule as never, {
  valid: [
    // A static method of the same imported class that does not sleep.
    {
      code: `import pLimit from 'p-limit';
import Browser from '../utils/browser';
const limit = pLimit(4);
export const crawl = (url: string) => limit(() => Browser.open(url));`,
      filename: job('crawl.ts'),
    },
    // --- the helper sleeps, but only outside any permit ---
    {
      code: `import pLimit from 'p-limit';
import { withRetry } from '../utils/retry';
const limit = pLimit(4);
export const sync = (url: string) => withRetry(() => limit(() => fetch(url)));`,
      filename: job('outside.ts'),
    },
    {
      code: `import { Mutex } from 'async-mutex';
import { sleep } from '../utils/sleep';
const mutex = new Mutex();
export async function tick(): Promise<void> {
  await mutex.runExclusive(() => flush());
  await sleep(1000);
}
declare function flush(): Promise<void>;`,
      filename: job('tick.ts'),
    },
    // --- imported helpers that do not sleep ---
    {
      code: `import pLimit from 'p-limit';
import { render } from '../utils/format';
import { format } from '../utils';
const limit = pLimit(2);
export const show = (row: unknown) => limit(async () => [await render(row), await format(row)]);`,
      filename: job('render.ts'),
    },
    // Its timers are started, not waited for.
    {
      code: `import pLimit from 'p-limit';
import { nudge } from '../utils/format';
const limit = pLimit(2);
export const poke = () => limit(() => nudge());`,
      filename: job('nudge.ts'),
    },
    // The sleeping helper's promise is not waited for inside the permit.
    {
      code: `import pLimit from 'p-limit';
import { withRetry } from '../utils/retry';
const limit = pLimit(2);
export const fire = (url: string) => limit(async () => { void withRetry(() => fetch(url)); });`,
      filename: job('fire.ts'),
    },
    // --- modules that cannot be read: nothing is known, nothing is reported ---
    {
      code: `import pLimit from 'p-limit';
import { flaky } from '../utils/broken';
import { gone } from '../utils/gone';
const limit = pLimit(2);
export const run = () => limit(async () => { await flaky(); await gone(); });`,
      filename: job('broken.ts'),
    },
    // A package of the same name is not a project module.
    {
      code: `import pLimit from 'p-limit';
import { withRetry } from 'retry-kit';
const limit = pLimit(2);
export const run = (url: string) => limit(() => withRetry(() => fetch(url)));`,
      filename: job('package.ts'),
    },
    // Four modules away (jobs → a → b → c → d): past the bound summaries follow.
    {
      code: `import pLimit from 'p-limit';
import { a } from '../chain/a';
const limit = pLimit(2);
export const run = () => limit(() => a());`,
      filename: job('far.ts'),
    },
  ],
  invalid: [
    // --- reported at the call of the imported helper ---
    {
      // A static method of a default-exported class of the project that only sleeps: a sleep like `sleep(ms)`.
      code: `import pLimit from 'p-limit';
import Browser from '../utils/browser';
const limit = pLimit(4);
export const crawl = (url: string) => limit(async () => { await Browser.pause(500); return fetch(url); });`,
      filename: job('crawl.ts'),
      errors: [{ messageId: 'sleepHoldingPermit', line: 4, column: 65 }],
    },
    {
      code: `import pLimit from 'p-limit';
import { withRetry } from '../utils/retry';
const limit = pLimit(4);
export const sync = (url: string) => limit(() => withRetry(() => fetch(url)));`,
      filename: job('sync.ts'),
      errors: [
        {
          messageId: 'importedSleepsHoldingPermit',
          line: 4,
          column: 50,
          data: {
            helper: 'withRetry',
            module: '../utils/retry',
            verb: 'backs off between attempts',
            inner: 'await sleep(2 ** attempt * 100)',
            innerAt: 'line 9 of ../utils/retry.ts',
            noun: 'permit',
            taker: 'limit(...)',
            line: '4',
            cost: '1 of 4 slots does nothing through every backoff',
          },
        },
      ],
    },
    // A sleep helper imported by itself is a sleep: the call is the sleep line.
    {
      code: `import { Mutex } from 'async-mutex';
import { sleep } from '../utils/sleep';
const mutex = new Mutex();
export const settle = () => mutex.runExclusive(async () => {
  await sleep(250);
});`,
      filename: job('settle.ts'),
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 9, data: { sleep: 'await sleep(250)', noun: 'lock', taker: 'mutex.runExclusive(...)', line: '4', cost: 'every other caller waits for the whole delay' } }],
    },
    // An imported sleep in a hand-written retry loop: the loop can move outside the lock.
    {
      code: `import { Mutex } from 'async-mutex';
import { sleep } from '../utils/sleep';
const mutex = new Mutex();
export const save = (row: string) => mutex.runExclusive(async () => {
  for (let i = 0; ; i++) {
    try {
      return await write(row);
    } catch {
      await sleep(100);
    }
  }
});
declare function write(row: string): Promise<void>;`,
      filename: job('save.ts'),
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 9,
          column: 13,
          suggestions: [
            {
              messageId: 'moveRetryLoopOutside',
              output: `import { Mutex } from 'async-mutex';
import { sleep } from '../utils/sleep';
const mutex = new Mutex();
export const save = async (row: string) => {
  for (let i = 0; ; i++) {
    try {
      return await mutex.runExclusive(async () => {
        return await write(row);
      });
    } catch {
      await sleep(100);
    }
  }
};
declare function write(row: string): Promise<void>;`,
            },
          ],
        },
      ],
    },
    // Through a barrel (utils/index.ts re-exports retry.ts), handed to the limiter by name.
    {
      code: `import pLimit from 'p-limit';
import { withRetry } from '../utils';
const limit = pLimit(3);
export const run = (task: () => Promise<void>) => limit(withRetry, task);`,
      filename: job('barrel.ts'),
      errors: [{ messageId: 'importedSleepsHoldingPermit', line: 4, column: 57, data: { helper: 'withRetry', module: '../utils', verb: 'backs off between attempts', inner: 'await sleep(2 ** attempt * 100)', innerAt: 'line 9 of ../utils/retry.ts', noun: 'permit', taker: 'limit(...)', line: '4', cost: '1 of 3 slots does nothing through every backoff' } }],
    },
    // CommonJS: a p-retry helper required from utils/http.js.
    {
      code: `const { Mutex } = require('async-mutex');
const { getJson } = require('../utils/http');
const mutex = new Mutex();
module.exports = (url) => mutex.runExclusive(() => getJson(url));`,
      filename: job('fetch.js'),
      errors: [{ messageId: 'importedSleepsHoldingPermit', line: 4, column: 52, data: { helper: 'getJson', module: '../utils/http', verb: 'backs off between attempts', inner: 'pRetry(...)', innerAt: 'line 4 of ../utils/http.js', noun: 'lock', taker: 'mutex.runExclusive(...)', line: '4', cost: 'every other caller waits through every backoff' } }],
    },
    // A same-file helper only called holding the lock, which calls the imported one: the
    // report moves into the same-file helper, to its call of the imported one.
    {
      code: `import { Mutex } from 'async-mutex';
import { withRetry } from '../utils/retry';
const mutex = new Mutex();
async function refresh(id: string) {
  await load(id);
  await withRetry(() => store(id));
}
export const run = (id: string) => mutex.runExclusive(() => refresh(id));
declare function load(id: string): Promise<void>;
declare function store(id: string): Promise<void>;`,
      filename: job('refresh.ts'),
      errors: [{ messageId: 'importedSleepsHoldingPermit', line: 6, column: 9 }],
    },
    // Three modules away (jobs → b → c → d): within the bound.
    {
      code: `import pLimit from 'p-limit';
import { b } from '../chain/b';
const limit = pLimit(2);
export const run = () => limit(() => b());`,
      filename: job('near.ts'),
      errors: [{ messageId: 'importedSleepsHoldingPermit', line: 4, column: 38, data: { helper: 'b', module: '../chain/b', verb: 'sleeps', inner: 'await sleep(100)', innerAt: 'line 5 of ../chain/d.ts', noun: 'permit', taker: 'limit(...)', line: '4', cost: '1 of 2 slots does nothing for the whole delay' } }],
    },
    // A lock taken by hand.
    {
      code: `import { Mutex } from 'async-mutex';
import { withRetry } from '../utils/retry';
const mutex = new Mutex();
export async function push(rows: string[]): Promise<void> {
  const release = await mutex.acquire();
  try {
    await withRetry(() => send(rows));
  } finally {
    release();
  }
}
declare function send(rows: string[]): Promise<void>;`,
      filename: job('push.ts'),
      errors: [{ messageId: 'importedSleepsHoldingPermit', line: 7, column: 11 }],
    },
  ],
});

describe('no-sleep-holding-permit: the chain is the evidence', () => {
  function evidence(code: string, filename: string): string[] {
    const linter = new Linter({ configType: 'flat', cwd: ROOT });
    const messages = linter.verify(
      code,
      [{
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as never },
        plugins: { 'async-hazards': { rules: { 'no-sleep-holding-permit': rule as never } } },
        rules: { 'async-hazards/no-sleep-holding-permit': 'error' },
      }],
      filename,
    );
    assert.equal(messages.length, 1, JSON.stringify(messages));
    const records = getEvidence(linter.getSourceCode() as object);
    assert.equal(records.length, 1);
    return (records[0]?.related ?? []).map((r) => `${r.file ? path.relative(ROOT, r.file) : '.'}:${r.line}:${r.column} ${r.message}`);
  }

  it('names each call, across files, down to the sleep', () => {
    const code = `import { Mutex } from 'async-mutex';
import { withRetry } from '../utils/retry';
const mutex = new Mutex();
async function refresh(id: string) {
  await withRetry(() => store(id));
}
export const run = (id: string) => mutex.runExclusive(() => refresh(id));
declare function store(id: string): Promise<void>;`;
    assert.deepEqual(evidence(code, job('refresh-evidence.ts')), [
      '.:7:35 lock taken here',
      '.:7:60 calls `refresh` holding the lock',
      'src/utils/retry.ts:9:12 backs off here',
      'src/utils/sleep.ts:1:52 the timer it waits for',
    ]);
  });

  it('a chain through three modules', () => {
    const code = `import pLimit from 'p-limit';
import { b } from '../chain/b';
const limit = pLimit(2);
export const run = () => limit(() => b());`;
    assert.deepEqual(evidence(code, job('near-evidence.ts')), [
      '.:4:25 permit taken here',
      'src/chain/b.ts:4:8 calls `c`',
      'src/chain/c.ts:4:8 calls `d`',
      'src/chain/d.ts:5:8 sleeps here',
    ]);
  });
});
