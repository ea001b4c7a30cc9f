import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { chunked } from './fanOutErrors';

// Slices of a chunked list walked in one function and mapped in another: the mapping function's
// `Promise.all` is a chunked batch, under both presets (a list cut into slices is one its author
// expects to be long). The folder declares neither p-map nor p-limit, so there are no suggestions.
const FILE = fixture('fan-out-origins/src/batches.js');

const valid = [
  // Slices of one: one call at a time.
  `import { chunk } from 'lodash';
async function sendBatch(batch) { await Promise.all(batch.map((m) => fetch(m.url))); }
export async function sendAll(messages) {
  for (const batch of chunk(messages, 1)) await sendBatch(batch);
}`,
].map((code) => ({ code, filename: FILE }));

const recommendedValid = [
  // The slices are handed over without waiting: every batch starts at once (strict's unknown-size fan-out, not a chunk).
  `import { chunk } from 'lodash';
async function sendBatch(batch) { await Promise.all(batch.map((m) => fetch(m.url))); }
export function sendAll(messages) {
  for (const batch of chunk(messages, 10)) sendBatch(batch);
}`,
  // The method does not wait for its fan-out, so the next slice starts before this one settles.
  `import { chunk } from 'lodash';
class Cleaner {
  async cleanAll(tasks) {
    await chunk(tasks, 25).reduce((queue, batch) => queue.then(() => this.cleanBatch(batch)), Promise.resolve());
  }
  cleanBatch(batch) {
    Promise.all(batch.map((t) => fetch(t.url))).then(() => console.log('done'), console.error);
    return 1;
  }
}
export default Cleaner;`,
  // Another caller hands over a list that is not a slice: the parameter's size is unknown, which only strict reports.
  `import { chunk } from 'lodash';
async function sendBatch(batch) { await Promise.all(batch.map((m) => fetch(m.url))); }
export async function sendAll(messages, extra) {
  for (const batch of chunk(messages, 10)) await sendBatch(batch);
  await sendBatch(extra);
}`,
].map((code) => ({ code, filename: FILE }));

const invalid = [
  {
    // A reduce promise chain over lodash chunks hands each slice to an instance method.
    code: `import { chunk } from 'lodash';
class Cleaner {
  async cleanAll(tasks, size) {
    const batches = chunk(tasks, size);
    await batches.reduce((queue, batch) => queue.then(() => this.cleanBatch(batch)), Promise.resolve());
  }
  async cleanBatch(batch) {
    await Promise.all(batch.map(async (task) => { await fetch(task.url, { method: 'DELETE' }); }));
  }
}
export default Cleaner;`,
    errors: [chunked(8, 11, '`size`', 'tasks', 5)],
  },
  {
    // A for…of loop awaiting a file function that returns its batch's Promise.all.
    code: `import { chunk } from 'lodash';
async function sendBatch(batch) {
  return Promise.all(batch.map((m) => fetch(m.url)));
}
export async function sendAll(messages) {
  for (const batch of chunk(messages, 10)) await sendBatch(batch);
}`,
    errors: [chunked(3, 10, '10', 'messages', 6)],
  },
  {
    // The async form of the chain: each step awaits the one before.
    code: `import _ from 'lodash';
async function sendBatch(batch) { await Promise.all(batch.map((m) => fetch(m.url))); }
export async function sendAll(messages) {
  await _.chunk(messages, 20).reduce(async (previous, batch) => { await previous; await sendBatch(batch); }, Promise.resolve());
}`,
    errors: [chunked(2, 41, '20', 'messages', 4)],
  },
].map((c) => ({ ...c, filename: FILE }));

createRecommendedRuleTester().run<MessageId, Options>('no-unbounded-fan-out (handed slices, recommended)', rule as never, {
  valid: [...valid, ...recommendedValid],
  invalid,
});

createRuleTester().run<MessageId, Options>('no-unbounded-fan-out (handed slices, strict)', rule as never, {
  // As in one function, a slice whose batch is not waited for is no chunk loop, nor reported as one.
  valid: [...valid, recommendedValid[1] as (typeof valid)[number]],
  invalid: [
    ...invalid,
    // Not a slice on every call: a parameter of unknown size, which strict reports.
    { ...(recommendedValid[0] as (typeof valid)[number]), errors: [{ messageId: 'unboundedFanOut', line: 2, column: 41, suggestions: [] }] },
    { ...(recommendedValid[2] as (typeof valid)[number]), errors: [{ messageId: 'unboundedFanOut', line: 2, column: 41, suggestions: [] }] },
  ],
});
