import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// What `recommended` leaves to `strict` because it does not fail at run time, or fails where it is
// seen: a dynamic import of the project's own code, an async executor with nothing to lose, and
// an Express 4 route in a process that logs unhandled rejections and keeps serving.
const CLI = fixture('dynamic-imports/src/cli.js');
const routes = (workspace: string): string => fixture(`process-handlers/${workspace}/src/routes.js`);

const LOGGER_IMPORT = `exports.report = (error) => {
  import('./log/logger.js').then((logger) => { logger.error(error); });
};`;
const PLUGIN_LOOP = `exports.attach = (names, client) => {
  names.forEach(async (name) => { (await import(\`./plugins/\${name}\`)).default.apply(client); });
};`;
// An init that only waits for the project's own modules, named once and read only by `Promise.all`.
const PLUGIN_SET = `const plugins = [import('./log/logger.js'), import('./plugins/greet.js')];
async function initialize() {
  const loaded = await Promise.all(plugins);
  return loaded.find((plugin) => plugin.enabled);
}
exports.login = (user, done) => {
  initialize().then((plugin) => { done(plugin, user); });
};`;
const NO_AWAIT_EXECUTOR = `exports.scheduler = (worker) => new Promise(async (resolve) => {
  if (!worker.scheduler) worker.scheduler = worker.createScheduler();
  resolve(worker.scheduler);
});`;
// A health check that catches its request's failure and waits with a timer: nothing in it rejects.
const HEALTH_CHECK = `async function verifyUrl(url) {
  const response = await request(url).catch((error) => error);
  if (response.headers?.['retry-after']) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return verifyUrl(url);
  }
  if (response.status !== 200) console.warn('unreachable');
}
export function mount(app, url) {
  app.on('mount', () => { verifyUrl(url); });
}`;
// A dropped forEach over rows: this rule's report, which no-unbounded-fan-out leaves to it (see forEachDropsRejections).
const ROWS = `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select * from users');
  rows.forEach(async (r) => { await send(r.email); });
}`;
const ROWS_GUARDED = ROWS.replace('{ await send(r.email); }', '{ try { await send(r.email); } catch (error) { console.error(error); } }');
const ROUTE = `const express = require('express');
const router = express.Router();
router.get('/status/:slug', async (request, response) => {
  const page = await loadPage(request.params.slug);
  response.send(page);
});
module.exports = router;`;
const SOCKET = `exports.attach = (socket) => {
  socket.on('login', async (data, callback) => { callback(await login(data)); });
};`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: what does not fail at run time)', rule as never, {
  valid: [
    // The project's own logger module: it rejects only if the file is gone or its top level throws.
    { code: LOGGER_IMPORT, filename: CLI },
    // A plugin folder of the project, the name computed: still the project's own files.
    { code: PLUGIN_LOOP, filename: CLI },
    { code: PLUGIN_SET, filename: CLI },
    // An async executor with no await and no throw: its promise cannot reject.
    NO_AWAIT_EXECUTOR,
    // A dropped call of a function that catches its own errors and sleeps with a timer.
    HEALTH_CHECK,
    // Each iteration catches its own errors: only the order is lost (and the burst, no-unbounded-fan-out's).
    ROWS_GUARDED,
    // An Express 4 route and a listener in a process whose handler logs and keeps serving (started through `npm run`).
    { code: ROUTE, filename: routes('express-logs') },
    { code: SOCKET, filename: routes('express-logs') },
  ],
  invalid: [
    // Near misses of the dynamic import: a file that is not there, a package, a callback that throws, a folder that is not there.
    {
      code: LOGGER_IMPORT.replace('./log/logger.js', './log/missing.js'),
      filename: CLI,
      errors: [{ messageId: 'unhandledChain', line: 2, column: 3, suggestions: [{ messageId: 'addVoid', output: LOGGER_IMPORT.replace("import('./log/logger.js')", "void import('./log/missing.js')") }] }],
    },
    {
      code: LOGGER_IMPORT.replace('./log/logger.js', 'pino'),
      filename: CLI,
      errors: [{ messageId: 'unhandledChain', line: 2, column: 3, suggestions: [{ messageId: 'addVoid', output: LOGGER_IMPORT.replace("import('./log/logger.js')", "void import('pino')") }] }],
    },
    {
      code: LOGGER_IMPORT.replace('logger.error(error);', 'if (!logger.error) throw error;'),
      filename: CLI,
      errors: [{ messageId: 'unhandledChain', line: 2, column: 3, suggestions: [{ messageId: 'addVoid', output: LOGGER_IMPORT.replace('logger.error(error);', 'if (!logger.error) throw error;').replace("import('./log", "void import('./log") }] }],
    },
    // Near miss: one of the set is a package, whose import can fail at run time.
    {
      code: PLUGIN_SET.replace('./plugins/greet.js', 'ldapjs'),
      filename: CLI,
      errors: [{ messageId: 'unhandledChain', line: 7, column: 3, suggestions: [{ messageId: 'addVoid', output: PLUGIN_SET.replace('./plugins/greet.js', 'ldapjs').replace('  initialize()', '  void initialize()') }] }],
    },
    {
      code: PLUGIN_LOOP.replace('./plugins/', './handlers/'),
      filename: CLI,
      errors: [{ messageId: 'forEachAsync', line: 2, column: 17, suggestions: [] }],
    },
    // The executor awaits a promise that can reject: that error is lost and the outer promise never settles.
    {
      code: NO_AWAIT_EXECUTOR.replace('worker.createScheduler()', 'await worker.createScheduler()'),
      errors: [{ messageId: 'asyncExecutor', line: 1, column: 45 }],
    },
    {
      code: ROWS,
      errors: [{ messageId: 'forEachAsync', line: 6, column: 16, suggestions: [{ messageId: 'rewriteForOf', output: ROWS.replace('rows.forEach(async (r) => { await send(r.email); });', 'for (const r of rows) { await send(r.email); }') }] }],
    },
    // The same route and listener where the process exits on an unhandled rejection.
    {
      code: ROUTE,
      filename: routes('express-exits'),
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 29 }],
    },
    {
      code: SOCKET,
      filename: routes('express-exits'),
      errors: [{ messageId: 'asyncCallbackIgnored', line: 2, column: 22 }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: what does not fail at run time)', rule as never, {
  valid: [],
  invalid: [
    {
      code: LOGGER_IMPORT,
      filename: CLI,
      errors: [{ messageId: 'unhandledChain', line: 2, column: 3, suggestions: [{ messageId: 'addVoid', output: LOGGER_IMPORT.replace("import('./log", "void import('./log") }] }],
    },
    { code: NO_AWAIT_EXECUTOR, errors: [{ messageId: 'asyncExecutor', line: 1, column: 45 }] },
    { code: HEALTH_CHECK, errors: [{ messageId: 'orphanedPromise', line: 10, column: 27, suggestions: [{ messageId: 'addVoid', output: HEALTH_CHECK.replace('{ verifyUrl(url); }', '{ void verifyUrl(url); }') }] }] },
    { code: ROUTE, filename: routes('express-logs'), errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 29 }] },
  ],
});
