import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createTypedRuleTester, fixture } from '../ruleTester';

// Arrays of promises that only the types reveal: `Promise<T>[]` parameters, tuples holding a
// promise, `.map` with a function imported from another file (tests/fixtures/jobs.ts).

const typed = createTypedRuleTester();
const filename = fixture('orphaned-arrays.ts');

typed.run<MessageId, Options>('no-orphaned-promise: arrays of promises (typed only)', rule as never, {
  valid: [
    {
      code: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { await Promise.all(names.map(enqueueJob)); }`,
      filename,
    },
    { code: `export async function run(jobs: Promise<void>[]) { await Promise.all(jobs); }`, filename },
    { code: `export function run(jobs: Promise<void>[]) { return jobs; }`, filename },
    { code: `export async function run(jobs: Promise<void>[]) { for (const job of jobs) await job; }`, filename },
    // An array, but not of promises.
    { code: `export async function run(rows: number[]) { await rows; }`, filename },
    { code: `export function run(rows: { id: string }[]) { rows.map((row) => row.id); }`, filename },
    // `any` says nothing either way.
    { code: `export async function run(jobs: any) { await jobs; }`, filename },
    {
      // The type says `Promise<…>[]`, but every element has a rejection handler: the syntax decided.
      code: `import { enqueueJob } from './jobs';
export function run(names: string[]) { names.map((name) => enqueueJob(name).catch(console.error)); }`,
      filename,
    },
    {
      // The same for a same-file async function that cannot reject.
      code: `async function reindex(id: string) {
  try { await fetch(id); } catch (error) { console.error(error); }
}
export function run(ids: string[]) { ids.map(reindex); }`,
      filename,
    },
  ],
  invalid: [
    {
      // Known without the type as well: `enqueueJob` is read in its own module, which says `async`.
      code: `import { enqueueJob } from './jobs';
export function run(names: string[]) { names.map(enqueueJob); }`,
      filename,
      errors: [{
        messageId: 'orphanedPromiseArray', line: 2, column: 40,
        data: { array: '`names.map(enqueueJob)`' },
        suggestions: [{ messageId: 'addVoidAll', output: `import { enqueueJob } from './jobs';
export function run(names: string[]) { void Promise.all(names.map(enqueueJob)); }` }],
      }],
    },
    {
      // A block body returning an imported promise: only the type of the whole call tells.
      code: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { names.map((name) => { return enqueueJob(name); }); }`,
      filename,
      errors: [{
        messageId: 'orphanedPromiseArray', line: 2, column: 46,
        suggestions: [
          { messageId: 'addAwaitAll', output: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { await Promise.all(names.map((name) => { return enqueueJob(name); })); }` },
          { messageId: 'addVoidAll', output: `import { enqueueJob } from './jobs';
export async function run(names: string[]) { void Promise.all(names.map((name) => { return enqueueJob(name); })); }` },
        ],
      }],
    },
    {
      code: `export async function run(jobs: Promise<void>[]) { await jobs; }`,
      filename,
      errors: [{
        messageId: 'awaitedPromiseArray', line: 1, column: 52,
        data: { array: '`jobs` (type `Promise<void>[]`)' },
        suggestions: [{ messageId: 'wrapInPromiseAll', output: `export async function run(jobs: Promise<void>[]) { await Promise.all(jobs); }` }],
      }],
    },
    {
      // Possibly missing: still an array of promises when present.
      code: `export async function run(jobs: readonly Promise<void>[] | undefined) { await jobs; }`,
      filename,
      errors: [{
        messageId: 'awaitedPromiseArray', line: 1, column: 73,
        suggestions: [{ messageId: 'wrapInPromiseAll', output: `export async function run(jobs: readonly Promise<void>[] | undefined) { await Promise.all(jobs); }` }],
      }],
    },
    {
      // A tuple with a promise in it: the first element stays a promise after `await`.
      code: `declare function pair(): [Promise<number>, string];
export async function run() { const [count, label] = await pair(); return { count, label }; }`,
      filename,
      errors: [{
        messageId: 'awaitedPromiseArray', line: 2, column: 54,
        suggestions: [{ messageId: 'wrapInPromiseAll', output: `declare function pair(): [Promise<number>, string];
export async function run() { const [count, label] = await Promise.all(pair()); return { count, label }; }` }],
      }],
    },
    {
      code: `export function run(jobs: Promise<void>[]) { jobs; }`,
      filename,
      errors: [{
        messageId: 'orphanedPromiseArray', line: 1, column: 46,
        suggestions: [{ messageId: 'addVoidAll', output: `export function run(jobs: Promise<void>[]) { void Promise.all(jobs); }` }],
      }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export async function run() { [enqueueJob('a'), enqueueJob('b')]; }`,
      filename,
      errors: [{
        messageId: 'orphanedPromiseArray', line: 2, column: 31,
        suggestions: [
          { messageId: 'addAwaitAll', output: `import { enqueueJob } from './jobs';
export async function run() { await Promise.all([enqueueJob('a'), enqueueJob('b')]); }` },
          { messageId: 'addVoidAll', output: `import { enqueueJob } from './jobs';
export async function run() { void Promise.all([enqueueJob('a'), enqueueJob('b')]); }` },
        ],
      }],
    },
    {
      code: `import { enqueueJob } from './jobs';
export function run(names: string[]) { const jobs = names.map(enqueueJob); }`,
      filename,
      errors: [{ messageId: 'unusedPromiseArray', line: 2, column: 46 }],
    },
  ],
});
