import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Registered code and teardown, by fact where the code shows one: the items are listeners an
// EventEmitter holds, or objects a catalogued library built, closed with one of its teardowns.
// A name alone (`hooks`, `closeAll`) only speaks for collections of unknown origin.
const strict = createRuleTester();
const recommended = createRecommendedRuleTester();
const service = fixture('summaries/src/service.ts');

recommended.run<MessageId, Options>('no-unbounded-fan-out (registered code and teardown, recommended)', rule as never, {
  valid: [
    // Workers started one per file in a listing, terminated with worker_threads' own teardown.
    {
      filename: service,
      code: `import { readdir } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
export async function runAll(dir: string) {
  const workers: Worker[] = [];
  for (const file of await readdir(dir)) workers.push(new Worker(file));
  await Promise.all(workers.map((worker) => worker.terminate()));
}`,
    },
  ],
  invalid: [
    // Webhook rows from the database: named `hooks`, but as many as the table holds.
    {
      filename: service,
      code: `import { pool } from './pool';
export async function deliver(event: string) {
  const { rows: hooks } = await pool.query('select url from webhooks where event = $1', [event]);
  await Promise.all(hooks.map((hook: { url: string }) => fetch(hook.url)));
}`,
      errors: [{
        messageId: 'unboundedFanOut', line: 4, column: 9,
        suggestions: [{ messageId: 'useLimiter', data: { concurrency: '8' }, output: `import { pool } from './pool';
import pLimit from 'p-limit';
export async function deliver(event: string) {
  const { rows: hooks } = await pool.query('select url from webhooks where event = $1', [event]);
  const limit = pLimit(8);
  await Promise.all(hooks.map((hook: { url: string }) => limit(() => fetch(hook.url))));
}` }] }],
    },
    // Near miss of the teardown fact: a listing's entries closed by a verb nothing catalogues.
    {
      filename: service,
      code: `import { readdir } from 'node:fs/promises';
import { close } from './remote';
export async function closeAll(dir: string) {
  const names = await readdir(dir);
  await Promise.all(names.map((name) => close(name)));
}`,
      errors: [{
        messageId: 'unboundedFanOut', line: 5, column: 9,
        suggestions: [{ messageId: 'useLimiter', data: { concurrency: '8' }, output: `import { readdir } from 'node:fs/promises';
import { close } from './remote';
import pLimit from 'p-limit';
export async function closeAll(dir: string) {
  const names = await readdir(dir);
  const limit = pLimit(8);
  await Promise.all(names.map((name) => limit(() => close(name))));
}` }] }],
    },
  ],
});

strict.run<MessageId, Options>('no-unbounded-fan-out (registered code and teardown, strict)', rule as never, {
  valid: [
    // The listeners an EventEmitter subclass holds for an event: as many as the program registered.
    {
      filename: service,
      code: `import { EventEmitter } from 'node:events';
export class Bus extends EventEmitter {
  async emitAsync(event: string, value: unknown) {
    await Promise.all(this.listeners(event).map(async (listener) => listener.call(this, value)));
  }
}`,
    },
    // Unknown origin: the name is the only signal left, and strict keeps it.
    `export class Broker {
  private hooks: { run(): Promise<void> }[] = [];
  async fire() { await Promise.all(this.hooks.map(async (hook) => hook.run())); }
}`,
  ],
  invalid: [
    // Near miss of the listener fact: `listeners()` on an object nothing says is an EventEmitter.
    {
      filename: service,
      code: `export async function fire(registry: { listeners(e: string): { run(): Promise<void> }[] }, e: string) {
  await Promise.all(registry.listeners(e).map(async (entry) => entry.run()));
}`,
      errors: [{
        messageId: 'unboundedFanOut', line: 2, column: 9,
        suggestions: [{ messageId: 'useLimiter', data: { concurrency: '8' }, output: `import pLimit from 'p-limit';

export async function fire(registry: { listeners(e: string): { run(): Promise<void> }[] }, e: string) {
  const limit = pLimit(8);
  await Promise.all(registry.listeners(e).map((entry) => limit(async () => entry.run())));
}` }] }],
    },
  ],
});
