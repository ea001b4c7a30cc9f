import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// What `recommended` reads as written on purpose, or as unable to fail at run time: a chain that
// lets a buffered promise's rejection surface again, and a timer whose only await is a wrapper
// (a tracing span) around a callback that catches its own errors.
const RESURFACE = `export function* drain(buffered) {
  try {
    for (const v of buffered) { Promise.resolve(v).catch(() => {}); yield v; }
  } finally {
    for (const v of buffered) Promise.resolve(v).then(() => {});
  }
}`;
const TIMER = `export class Renewer {
  start() {
    this.timer = setTimeout(async () => {
      if (this.ids.length) await this.extend(this.ids);
      this.start();
    }, 1000);
  }
  async extend(ids) {
    await this.worker.trace('internal', 'extend', async (span) => {
      try {
        await this.worker.extendLocks(ids);
      } catch (error) {
        this.worker.emit('error', error);
      }
    });
  }
}`;
const TIMER_UNGUARDED = TIMER.replace(`try {
        await this.worker.extendLocks(ids);
      } catch (error) {
        this.worker.emit('error', error);
      }`, 'await this.worker.extendLocks(ids);');

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: deliberate and guarded)', rule as never, {
  valid: [RESURFACE, TIMER],
  invalid: [
    // Near misses: the chain hangs on a call's promise, or its callback does work.
    {
      code: 'export function save(user) {\n  store.write(user).then(() => {});\n}',
      errors: [{ messageId: 'unhandledChain', line: 2, column: 3, suggestions: [{ messageId: 'addVoid', output: 'export function save(user) {\n  void store.write(user).then(() => {});\n}' }] }],
    },
    {
      code: RESURFACE.replace('.then(() => {})', '.then(() => { report(v); })'),
      errors: [{
        messageId: 'unhandledChain', line: 5, column: 31,
        suggestions: [{ messageId: 'addVoid', output: RESURFACE.replace('Promise.resolve(v).then(() => {})', 'void Promise.resolve(v).then(() => { report(v); })') }],
      }],
    },
    // The callback inside the span can reject: the timer's promise rejects unhandled.
    { code: TIMER_UNGUARDED, errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 29 }] },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: deliberate and guarded)', rule as never, {
  valid: [],
  invalid: [
    {
      code: RESURFACE,
      errors: [{ messageId: 'unhandledChain', line: 5, column: 31, suggestions: [{ messageId: 'addVoid', output: RESURFACE.replace('Promise.resolve(v).then(() => {})', 'void Promise.resolve(v).then(() => {})') }] }],
    },
    { code: TIMER, errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 29 }] },
  ],
});
