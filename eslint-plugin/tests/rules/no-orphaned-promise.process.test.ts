import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Each workspace in fixtures/process-handlers is a package whose `start` script runs
// src/server.js; the case is linted as a file that server reaches (or, for `plugins`, one it loads
// by computed path). What the server's process-wide handler does with an unhandled rejection
// decides what `recommended` says about a dropped promise there.
const file = (workspace: string, name = 'src/jobs.js'): string => fixture(`process-handlers/${workspace}/${name}`);

const DROPPED = `async function refresh() { await fetch('https://example.com'); }
exports.tick = () => { refresh(); };`;
const LISTENER = `const { EventEmitter } = require('node:events');
const bus = new EventEmitter();
bus.on('saved', async () => { await fetch('https://example.com'); });`;
const CHAIN = "exports.tick = () => { fetch('https://example.com').then((r) => r.json()); };";

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: a process that logs rejections)', rule as never, {
  valid: [
    // The handler logs and the process keeps serving: the failure is seen; `strict` still says it.
    { code: DROPPED, filename: file('logs') },
    { code: LISTENER, filename: file('logs') },
    { code: CHAIN, filename: file('logs') },
    // Only an exception handler, which Node hands unhandled rejections to; it logs through a project function.
    { code: DROPPED, filename: file('exception-logs') },
    // A plugin the server loads by computed path runs in the server's process all the same.
    { code: DROPPED, filename: file('plugins', 'src/plugins/greet.js') },
  ],
  invalid: [
    // What costs more than a logged rejection stays: an executor whose promise never settles,
    // iterations the code after `forEach` does not wait for.
    {
      code: "exports.load = () => new Promise(async (resolve) => { resolve(await fetch('https://example.com')); });",
      filename: file('logs'),
      errors: [{ messageId: 'asyncExecutor', line: 1, column: 34 }],
    },
    {
      code: "exports.load = (urls) => { urls.forEach(async (url) => { await fetch(url); }); };",
      filename: file('logs'),
      errors: [{ messageId: 'forEachAsync', line: 1, column: 41, suggestions: [] }],
    },
    // The handler throws the error on and the exception handler exits: Node's default, made explicit.
    {
      code: DROPPED,
      filename: file('exits'),
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 24, suggestions: [{ messageId: 'addVoid', output: DROPPED.replace('{ refresh(); }', '{ void refresh(); }') }] }],
    },
    // A handler that never looks at the error: the failure vanishes, which is no reason to be quieter.
    {
      code: DROPPED,
      filename: file('swallows'),
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 24, suggestions: [{ messageId: 'addVoid', output: DROPPED.replace('{ refresh(); }', '{ void refresh(); }') }] }],
    },
    {
      code: LISTENER,
      filename: file('swallows'),
      errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 17 }],
    },
    // The package's `main` also runs it, inside a host process whose handlers nobody here knows.
    {
      code: DROPPED,
      filename: file('library'),
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 24, suggestions: [{ messageId: 'addVoid', output: DROPPED.replace('{ refresh(); }', '{ void refresh(); }') }] }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: a process that logs rejections)', rule as never, {
  valid: [],
  invalid: [
    {
      code: DROPPED,
      filename: file('logs'),
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 24, suggestions: [{ messageId: 'addVoid', output: DROPPED.replace('{ refresh(); }', '{ void refresh(); }') }] }],
    },
    {
      code: CHAIN,
      filename: file('logs'),
      errors: [{ messageId: 'unhandledChain', line: 1, column: 24, suggestions: [{ messageId: 'addVoid', output: "exports.tick = () => { void fetch('https://example.com').then((r) => r.json()); };" }] }],
    },
  ],
});
