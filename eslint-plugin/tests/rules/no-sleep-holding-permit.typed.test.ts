import rule from '../../src/rules/no-sleep-holding-permit';
import { createTypedRuleTester, fixture } from '../ruleTester';

const ruleTester = createTypedRuleTester();

// With types, helpers imported from another file are sleeps when their body is one.
ruleTester.run('no-sleep-holding-permit (typed)', rule, {
  valid: [
    // Named like a sleep, but the imported body calls an API.
    {
      code: `
import pLimit from 'p-limit';
import { waitForJob } from './timing';
const limit = pLimit(4);
export const run = (id: string) => limit(() => waitForJob(id));
`,
      filename: fixture('permit-holder.ts'),
    },
    // The imported sleep runs after the permit is back.
    {
      code: `
import pLimit from 'p-limit';
import { sleep } from './timing';
const limit = pLimit(4);
export async function run(url: string) {
  await limit(() => fetch(url));
  await sleep(100);
}
`,
      filename: fixture('permit-holder.ts'),
    },
    // Node's own callback setTimeout, seen through its declaration, is not a sleep.
    {
      code: `
import pLimit from 'p-limit';
import { setTimeout as later } from 'node:timers';
const limit = pLimit(4);
export const run = () => limit(async () => { later(() => undefined, 10); });
`,
      filename: fixture('permit-holder.ts'),
    },
  ],
  invalid: [
    {
      code: `
import pLimit from 'p-limit';
import { sleep } from './timing';
const limit = pLimit(4);
export const run = () => limit(async () => { await sleep(100); });
`,
      filename: fixture('permit-holder.ts'),
      errors: [
        {
          messageId: 'sleepHoldingPermit',
          line: 5,
          column: 52,
          data: { sleep: 'await sleep(100)', noun: 'permit', taker: 'limit(...)', line: '5', cost: '1 of 4 slots does nothing for the whole delay' },
        },
      ],
    },
    {
      code: `
import { Mutex } from 'async-mutex';
import { backoff } from './timing';
const mutex = new Mutex();
export const save = (row: string) => mutex.runExclusive(async () => {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(row);
    } catch {
      await backoff(attempt);
    }
  }
});
declare function write(row: string): Promise<void>;
`,
      filename: fixture('permit-holder.ts'),
      errors: [
        {
          messageId: 'retryHoldingPermit',
          line: 10,
          column: 13,
          suggestions: [
            {
              messageId: 'moveRetryLoopOutside',
              output: `
import { Mutex } from 'async-mutex';
import { backoff } from './timing';
const mutex = new Mutex();
export const save = async (row: string) => {
  for (let attempt = 0; ; attempt++) {
    try {
      return await mutex.runExclusive(async () => {
        return await write(row);
      });
    } catch {
      await backoff(attempt);
    }
  }
};
declare function write(row: string): Promise<void>;
`,
            },
          ],
        },
      ],
    },
    {
      code: `
import pLimit from 'p-limit';
import * as timing from './timing';
const limit = pLimit(4);
export const run = () => limit(() => timing.jitteredBackoff(2));
`,
      filename: fixture('permit-holder.ts'),
      errors: [{ messageId: 'sleepHoldingPermit', line: 5, column: 38 }],
    },
  ],
});
