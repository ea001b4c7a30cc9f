import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRuleTester, createTypedRuleTester, fixture } from '../ruleTester';

// Arrays of promises: `.map(async …)` whose array nobody takes, `await` on an array, array literals
// of promises. Every case runs without and with type information (types only add); cases that need
// types are in no-orphaned-promise.typed.test.ts.

const SEND = `async function send(id: string) { return id; }\n`;

const valid: (ValidTestCase<Options> | string)[] = [
  // --- the array is taken: awaited together, returned, kept and awaited later, passed on ---
  `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(async (id) => send(id))); }`,
  `${SEND}export async function main(ids: string[]) { await Promise.allSettled(ids.map(send)); }`,
  `${SEND}export function main(ids: string[]) { return ids.map(async (id) => send(id)); }`,
  `${SEND}export const main = (ids: string[]) => ids.map(send);`,
  `${SEND}export async function main(ids: string[]) {
  const jobs = ids.map(async (id) => send(id));
  console.log('started', jobs.length);
  await Promise.all(jobs);
}`,
  `${SEND}declare function track(jobs: Promise<string>[]): void;
export function main() { track([send('a'), send('b')]); }`,
  `${SEND}export function main() { return [send('a'), send('b')]; }`,
  // Exported: whoever imports it handles it.
  `${SEND}declare const ids: string[];
export const jobs = ids.map(send);`,
  // A needless `await`, but `Promise.all` still takes the promises.
  `${SEND}export async function main(ids: string[]) { await Promise.all(await ids.map(async (id) => send(id))); }`,
  `${SEND}export async function main(ids: string[]) {
  const jobs = await ids.map(async (id) => send(id));
  await Promise.allSettled(jobs);
}`,
  // `for await` waits for each element in turn.
  `${SEND}export async function main(ids: string[]) { for await (const id of ids.map(send)) console.log(id); }`,
  // Detached together, with one promise the rule can see.
  `${SEND}export function main(ids: string[]) { void Promise.all(ids.map(send)).catch(console.error); }`,
  // The elements are handled one by one.
  `${SEND}export function main(ids: string[]) { ids.map((id) => send(id).catch(console.error)); }`,
  // Destructured into names: each one is a variable of its own.
  `${SEND}export async function main() { let a, b; [a, b] = [send('a'), send('b')]; await a; await b; }`,

  // --- not promises ---
  `export function main(rows: { id: string }[]) { rows.map((row) => row.id); }`,
  `export function main(ids: string[]) { ids.map(String); }`,
  `export async function main() { await [1, 2]; }`,
  `export function main() { [1, 'two', null]; }`,
  // pg-promise's `t.map(query, values, cb)` returns a promise and its callback is synchronous.
  `declare const t: { map(q: string, v: unknown[], cb: (row: { id: number }) => number): Promise<number[]> };
export async function main() { return await t.map('SELECT id FROM jobs', [], (row) => row.id); }`,
  // Imported from another file: only type information can tell (and this module does not exist).
  `import { notify } from './missing-module';
export function main(ids: string[]) { ids.map(notify); }`,
  // A same-file async function whose whole body is try/catch cannot reject: a dropped call to it is
  // accepted, and so is mapping with it.
  `async function reindex(id: string) {
  try { await fetch(id); } catch (error) { console.error(error); }
}
export function main(ids: string[]) { ids.map(reindex); }`,
  // forEach has its own report (forEachAsync); a synchronous forEach is nothing.
  `export function main(ids: string[]) { ids.forEach((id) => console.log(id)); }`,
  // `allowVoid` off still accepts a voided array with no promises in it.
  { code: `export function main(ids: string[]) { void ids.map((id) => id.length); }`, options: [{ allowVoid: false }] },
];

const invalid: InvalidTestCase<MessageId, Options>[] = [
  // --- .map(async …) whose array is dropped ---
  {
    code: `${SEND}export async function main(ids: string[]) {
  ids.map(async (id) => {
    await send(id);
  });
}`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 3, column: 3,
      data: { array: '`ids.map(…)`' },
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) {
  await Promise.all(ids.map(async (id) => {
    await send(id);
  }));
}` },
        { messageId: 'rewriteForOf', output: `${SEND}export async function main(ids: string[]) {
  for (const id of ids) {
    await send(id);
  }
}` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[]) {
  void Promise.all(ids.map(async (id) => {
    await send(id);
  }));
}` },
      ],
    }],
  },
  {
    // Module top level: no `await` there, and no async function for a loop to wait in.
    code: `[1, 2, 3].map(() => Promise.reject(new Error('no')));`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 1, column: 1,
      suggestions: [{ messageId: 'addVoidAll', output: `void Promise.all([1, 2, 3].map(() => Promise.reject(new Error('no'))));` }],
    }],
  },
  {
    // A same-file async function passed by name.
    code: `${SEND}export function main(ids: string[]) { ids.map(send); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 39,
      data: { array: '`ids.map(send)`' },
      suggestions: [{ messageId: 'addVoidAll', output: `${SEND}export function main(ids: string[]) { void Promise.all(ids.map(send)); }` }],
    }],
  },
  {
    code: `export async function main(urls: string[]) { urls.map(fetch); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 1, column: 46,
      suggestions: [
        { messageId: 'addAwaitAll', output: `export async function main(urls: string[]) { await Promise.all(urls.map(fetch)); }` },
        { messageId: 'addVoidAll', output: `export async function main(urls: string[]) { void Promise.all(urls.map(fetch)); }` },
      ],
    }],
  },
  {
    code: `import { readFile } from 'node:fs/promises';
export async function main(paths: string[]) { paths.map((p) => readFile(p, 'utf8')); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 47,
      suggestions: [
        { messageId: 'addAwaitAll', output: `import { readFile } from 'node:fs/promises';
export async function main(paths: string[]) { await Promise.all(paths.map((p) => readFile(p, 'utf8'))); }` },
        { messageId: 'rewriteForOf', output: `import { readFile } from 'node:fs/promises';
export async function main(paths: string[]) { for (const p of paths) { await readFile(p, 'utf8'); } }` },
        { messageId: 'addVoidAll', output: `import { readFile } from 'node:fs/promises';
export async function main(paths: string[]) { void Promise.all(paths.map((p) => readFile(p, 'utf8'))); }` },
      ],
    }],
  },
  {
    // A `return` in the callback would end the whole function in a loop: no for…of.
    code: `${SEND}export async function main(ids: string[]) { ids.map(async (id) => { if (!id) return; await send(id); }); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 45,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(async (id) => { if (!id) return; await send(id); })); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[]) { void Promise.all(ids.map(async (id) => { if (!id) return; await send(id); })); }` },
      ],
    }],
  },
  {
    // The index has no place in for…of.
    code: `${SEND}export async function main(ids: string[]) { ids.map(async (id, i) => { await send(id + i); }); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 45,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(async (id, i) => { await send(id + i); })); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[]) { void Promise.all(ids.map(async (id, i) => { await send(id + i); })); }` },
      ],
    }],
  },
  {
    // A `var` in the callback would move into main's scope in a loop.
    code: `${SEND}export async function main(ids: string[]) { ids.map(async (id) => { var sent = await send(id); console.log(sent); }); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 45,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(async (id) => { var sent = await send(id); console.log(sent); })); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[]) { void Promise.all(ids.map(async (id) => { var sent = await send(id); console.log(sent); })); }` },
      ],
    }],
  },
  {
    // `ids?.map` skips the work when `ids` is missing; a loop over it would throw.
    code: `${SEND}export async function main(ids?: string[]) { ids?.map(async (id) => { await send(id); }); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 46,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids?: string[]) { await Promise.all(ids?.map(async (id) => { await send(id); })); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids?: string[]) { void Promise.all(ids?.map(async (id) => { await send(id); })); }` },
      ],
    }],
  },
  {
    // Inside a synchronous callback the nearest function is not async: no `await`, no loop.
    code: `${SEND}export async function main(groups: string[][]) { groups.forEach((ids) => { ids.map(async (id) => { await send(id); }); }); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 76,
      suggestions: [
        { messageId: 'addVoidAll', output: `${SEND}export async function main(groups: string[][]) { groups.forEach((ids) => { void Promise.all(ids.map(async (id) => { await send(id); })); }); }` },
      ],
    }],
  },
  {
    // A class method mapping with another of its own async methods.
    code: `export class Outbox {
  constructor(private readonly ids: string[]) {}
  async flush() { this.ids.map((id) => this.deliver(id)); }
  private async deliver(id: string) { await fetch(id); }
}`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 3, column: 19,
      suggestions: [
        { messageId: 'addAwaitAll', output: `export class Outbox {
  constructor(private readonly ids: string[]) {}
  async flush() { await Promise.all(this.ids.map((id) => this.deliver(id))); }
  private async deliver(id: string) { await fetch(id); }
}` },
        { messageId: 'rewriteForOf', output: `export class Outbox {
  constructor(private readonly ids: string[]) {}
  async flush() { for (const id of this.ids) { await this.deliver(id); } }
  private async deliver(id: string) { await fetch(id); }
}` },
        { messageId: 'addVoidAll', output: `export class Outbox {
  constructor(private readonly ids: string[]) {}
  async flush() { void Promise.all(this.ids.map((id) => this.deliver(id))); }
  private async deliver(id: string) { await fetch(id); }
}` },
      ],
    }],
  },
  {
    // One branch of a condition: the suggestion wraps that branch only.
    code: `${SEND}export async function main(ids: string[], live: boolean) { live && ids.map(send); }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 68,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[], live: boolean) { live && await Promise.all(ids.map(send)); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[], live: boolean) { live && void Promise.all(ids.map(send)); }` },
      ],
    }],
  },

  // --- void on an array ---
  {
    code: `${SEND}export async function main(ids: string[]) { void ids.map(async (id) => { await send(id); }); }`,
    errors: [{
      messageId: 'voidedPromiseArray', line: 2, column: 45,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(async (id) => { await send(id); })); }` },
        { messageId: 'rewriteForOf', output: `${SEND}export async function main(ids: string[]) { for (const id of ids) { await send(id); } }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main(ids: string[]) { void Promise.all(ids.map(async (id) => { await send(id); })); }` },
      ],
    }],
  },
  {
    code: `${SEND}export function main() { void [send('a'), send('b')]; }`,
    errors: [{
      messageId: 'voidedPromiseArray', line: 2, column: 26,
      data: { array: "`[send('a'), send('b')]`" },
      suggestions: [{ messageId: 'addVoidAll', output: `${SEND}export function main() { void Promise.all([send('a'), send('b')]); }` }],
    }],
  },
  {
    // With `allowVoid` off there is no detach suggestion, and the report stays on the `void`.
    code: `${SEND}export async function main(ids: string[]) { void ids.map(send); }`,
    options: [{ allowVoid: false }],
    errors: [{
      messageId: 'voidedPromiseArray', line: 2, column: 45,
      suggestions: [{ messageId: 'addAwaitAll', output: `${SEND}export async function main(ids: string[]) { await Promise.all(ids.map(send)); }` }],
    }],
  },

  // --- await on an array ---
  {
    code: `${SEND}export async function main(ids: string[]) { const sent = await ids.map(async (id) => send(id)); return sent; }`,
    errors: [{
      messageId: 'awaitedPromiseArray', line: 2, column: 58,
      data: { array: '`ids.map(async (id) => send(id))`' },
      suggestions: [{ messageId: 'wrapInPromiseAll', output: `${SEND}export async function main(ids: string[]) { const sent = await Promise.all(ids.map(async (id) => send(id))); return sent; }` }],
    }],
  },
  {
    // Read later, but never by a combinator: the author expected the results.
    code: `${SEND}export async function main(ids: string[]) {
  const sent = await ids.map(send);
  console.log(sent.join(', '));
}`,
    errors: [{
      messageId: 'awaitedPromiseArray', line: 3, column: 16,
      suggestions: [{ messageId: 'wrapInPromiseAll', output: `${SEND}export async function main(ids: string[]) {
  const sent = await Promise.all(ids.map(send));
  console.log(sent.join(', '));
}` }],
    }],
  },
  {
    // A statement of its own: the loop is offered too.
    code: `${SEND}export async function main(order: { items: string[] }) {
  await order.items.map(async (item) => {
    await send(item);
  });
}`,
    errors: [{
      messageId: 'awaitedPromiseArray', line: 3, column: 3,
      suggestions: [
        { messageId: 'wrapInPromiseAll', output: `${SEND}export async function main(order: { items: string[] }) {
  await Promise.all(order.items.map(async (item) => {
    await send(item);
  }));
}` },
        { messageId: 'rewriteForOf', output: `${SEND}export async function main(order: { items: string[] }) {
  for (const item of order.items) {
    await send(item);
  }
}` },
      ],
    }],
  },
  {
    code: `${SEND}export async function main() { await [send('a'), send('b')]; }`,
    errors: [{
      messageId: 'awaitedPromiseArray', line: 2, column: 32,
      suggestions: [{ messageId: 'wrapInPromiseAll', output: `${SEND}export async function main() { await Promise.all([send('a'), send('b')]); }` }],
    }],
  },

  // --- array literals nobody takes ---
  {
    code: `${SEND}export async function main() { [send('a'), send('b')]; }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 32,
      suggestions: [
        { messageId: 'addAwaitAll', output: `${SEND}export async function main() { await Promise.all([send('a'), send('b')]); }` },
        { messageId: 'addVoidAll', output: `${SEND}export async function main() { void Promise.all([send('a'), send('b')]); }` },
      ],
    }],
  },
  {
    // A spread of a mapped array counts as promises too.
    code: `${SEND}export function main(ids: string[]) { [...ids.map(send), 'done']; }`,
    errors: [{
      messageId: 'orphanedPromiseArray', line: 2, column: 39,
      suggestions: [{ messageId: 'addVoidAll', output: `${SEND}export function main(ids: string[]) { void Promise.all([...ids.map(send), 'done']); }` }],
    }],
  },
  {
    code: `${SEND}export function main() { const pending = [send('a'), send('b')]; }`,
    errors: [{ messageId: 'unusedPromiseArray', line: 2, column: 32, data: { name: 'pending', array: "`[send('a'), send('b')]`", line: 2 } }],
  },
  {
    code: `${SEND}export function main(ids: string[]) {
  const jobs = ids.map(async (id) => send(id));
}`,
    errors: [{ messageId: 'unusedPromiseArray', line: 3, column: 9 }],
  },
  {
    code: `${SEND}export function main(ids: string[]) { let jobs; jobs = ids.map(send); }`,
    errors: [{ messageId: 'unusedPromiseArray', line: 2, column: 49 }],
  },
];

const untyped = createRuleTester();
const typed = createTypedRuleTester();
const filename = fixture('orphaned-arrays.ts');

untyped.run('no-orphaned-promise: arrays of promises (no type information)', rule, { valid, invalid });

typed.run('no-orphaned-promise: arrays of promises (type information)', rule, {
  valid: valid.map((test) => (typeof test === 'string' ? { code: test, filename } : { ...test, filename })),
  invalid: invalid.map((test) => ({ ...test, filename })),
});
