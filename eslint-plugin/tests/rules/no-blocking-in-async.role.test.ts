import { readFileSync } from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { ONE_SHOT, SERVING, STARTUP, UNKNOWN, oneShotBeside, oneShotFanOut, startupBeside } from './blockingCosts';

// The process a file runs in, from the workspace in fixtures/roles: package.json scripts and bin,
// jest's setup files, a knexfile, a shebang, a server's start script. One-shot code and startup
// share the event loop with nothing: `recommended` never reports a blocking call there, not even
// beside other async work the code starts itself (a fan-out, a task started beside it), which
// the block delays but nobody waits on; `strict` reports every one. The serving path is reported
// as before.
const file = (relative: string): string => fixture(`roles/${relative}`);
const WARM_UP = `const fs = require('node:fs');
async function main() {
  void warmCache();
  const key = fs.readFileSync('key.pem');
  app.listen(443, key);
}
async function warmCache() {}
main();`;


const MIGRATE = file('scripts/migrate.js');
const STARTUP_SEQ = `const fs = require('node:fs');\nasync function main() {\n  const key = fs.readFileSync('key.pem');\n  app.listen(443, key);\n}\nmain();`;
const SERVER = file('src/server.js');

const exported = `const fs = require('node:fs');
exports.run = async () => { fs.readFileSync('a'); };`;

const sequential = `const fs = require('node:fs');
async function main() {
  const sql = fs.readFileSync('schema.sql', 'utf8');
  await run(sql);
}
async function run(sql) { return sql; }
main();`;

// One-shot code with work of its own in flight beside the blocking call: a fan-out, a helper the
// fan-out calls, a task started before it and awaited after.
const FAN_OUT = `const fs = require('node:fs');
async function main(files) {
  await Promise.all(files.map(async (f) => {
    const text = fs.readFileSync(f, 'utf8');
    await upload(text);
  }));
}
async function upload(t) { return t; }
main([]);`;
const FAN_OUT_HELPER = `const { execSync } = require('node:child_process');
async function build(pkg) { execSync('npm pack', { cwd: pkg }); }
async function main(pkgs) { await Promise.all(pkgs.map((p) => build(p))); }
main([]);`;
const BESIDE_TASK = `const fs = require('node:fs');
async function main() {
  const pending = fetchAll();
  const local = fs.readFileSync('local.json');
  await pending;
  return local;
}
async function fetchAll() {}
main();`;

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: process role)', rule as never, {
  valid: [
    // A package.json script, a knex migration, a jest setup file, a test, a CLI package, a prisma seed.
    { code: sequential, filename: MIGRATE },
    { code: `const fs = require('node:fs');\nexports.up = async (knex) => { await knex.raw(fs.readFileSync('001.sql', 'utf8')); };`, filename: file('db/migrations/001_init.js') },
    { code: `const fs = require('node:fs');\nmodule.exports = async () => { process.env.KEY = fs.readFileSync('key', 'utf8'); };`, filename: file('test/global-setup.js') },
    { code: `const fs = require('node:fs');\nit('reads', async () => { expect(fs.readFileSync('fixture.json', 'utf8')).toBeTruthy(); });`, filename: file('src/users.test.js') },
    { code: `import { execSync } from 'node:child_process';\nexport async function run(): Promise<void> { execSync('git status'); }`, filename: file('packages/cli/src/run.ts') },
    { code: `import { readFileSync } from 'node:fs';\nasync function seed() { JSON.parse(readFileSync('users.json', 'utf8')); }\nvoid seed();`, filename: file('prisma/seed.ts') },
    // The text being linted has a shebang, though the saved file does not.
    { code: `#!/usr/bin/env node\nconst fs = require('node:fs');\n(async () => { fs.readFileSync('a'); })();`, filename: file('src/orphan.js') },
    // In a fan-out, but read once per process: still never reported.
    { code: `const fs = require('node:fs');\nlet schema;\nasync function main(files) {\n  await Promise.all(files.map(async (f) => { schema ??= fs.readFileSync('schema.json'); return f; }));\n}\nmain([]);`, filename: MIGRATE },
    // One-shot work in flight beside the call (a fan-out, a helper the fan-out calls, a task
    // started before it): the process finishes later, and no one else is waiting on it.
    { code: FAN_OUT, filename: MIGRATE },
    { code: FAN_OUT_HELPER, filename: file('src/tools/reset.ts') },
    { code: BESIDE_TASK, filename: MIGRATE },
    // A task that was already awaited is no longer in flight.
    { code: `const fs = require('node:fs');\nasync function main() {\n  const p = fetchAll();\n  await p;\n  fs.readFileSync('a');\n}\nasync function fetchAll() {}\nmain();`, filename: MIGRATE },
    { code: exported, filename: MIGRATE },
    { code: exported, filename: SERVER, settings: { 'async-hazards': { oneShot: ['**/roles/src/server.js'] } } },
    // Startup of the server, sequential: as before.
    { code: `const fs = require('node:fs');\nasync function main() {\n  const key = fs.readFileSync('key.pem');\n  app.listen(443, key);\n}\nmain();`, filename: SERVER },
    // Startup with a task in flight: the read delays only the server's own warm-up, before it serves anyone.
    { code: WARM_UP, filename: SERVER },
    // Text without a file is worded as of unknown role, but judged as before: its startup stays quiet.
    { code: STARTUP_SEQ, filename: '<input>' },
  ],
  invalid: [
    // Long-lived: a module the server imports, though a one-shot script imports it too.
    {
      code: `const fs = require('node:fs');\nexports.query = async (sql) => fs.readFileSync(sql);`,
      filename: file('src/db.js'),
      errors: [{ messageId: 'blockingCall', line: 2, column: 32, data: { name: 'fs.readFileSync', where: 'async function `query` (line 2)', cost: SERVING }, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.query = async (sql) => await fs.promises.readFile(sql);` }] }],
    },
    // A scripts/ folder below src/ is not a package's scripts folder.
    {
      code: `const fs = require('node:fs');\nmodule.exports = async () => fs.readFileSync('a');`,
      filename: file('src/scripts/notRoot.js'),
      errors: [{ messageId: 'blockingCall', line: 2, column: 30, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nmodule.exports = async () => await fs.promises.readFile('a');` }] }],
    },
    // `longLived` wins over what the package says.
    {
      code: exported,
      filename: MIGRATE,
      settings: { 'async-hazards': { longLived: ['**/roles/scripts/**'] } },
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.run = async () => { await fs.promises.readFile('a'); };` }] }],
    },
    // Without `oneShot`, the same server file is long-lived.
    {
      code: exported,
      filename: SERVER,
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.run = async () => { await fs.promises.readFile('a'); };` }] }],
    },
    // Text without a file: reported as before, worded for a process of unknown role.
    {
      code: exported,
      filename: '<input>',
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, data: { name: 'fs.readFileSync', where: 'async function `run` (line 2)', cost: UNKNOWN }, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.run = async () => { await fs.promises.readFile('a'); };` }] }],
    },
    // A setting that is not a list of globs is said, and ignored.
    {
      code: `export const x = 1;`,
      filename: SERVER,
      settings: { 'async-hazards': { oneShot: 'src/**', longLived: [42] } },
      errors: [{ messageId: 'invalidSetting', line: 1, column: 1, data: { problem: "settings['async-hazards'].longLived has 42, which is not a glob string; it is ignored." } }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: process role)', rule as never, {
  valid: [],
  invalid: [
    // One-shot work in flight beside the blocking call: recommended is quiet (it serves nobody), strict reports it.
    // A fan-out: the other reads wait for this one.
    {
      code: FAN_OUT,
      filename: MIGRATE,
      errors: [{ messageId: 'blockingCall', line: 4, column: 18, data: { name: 'fs.readFileSync', where: 'an async function (line 3)', cost: oneShotFanOut(3) }, suggestions: [{ messageId: 'useAsyncTwin', output: FAN_OUT.replace("fs.readFileSync(f, 'utf8')", "await fs.promises.readFile(f, 'utf8')") }] }],
    },
    // One-shot, in a helper the fan-out calls.
    {
      code: FAN_OUT_HELPER,
      filename: file('src/tools/reset.ts'),
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, data: { name: 'child_process.execSync', where: 'async function `build` (line 2)', cost: oneShotFanOut(3) }, suggestions: [{ messageId: 'useAsyncTwin', output: `const { execSync, exec } = require('node:child_process');
const { promisify } = require('node:util');
async function build(pkg) { await promisify(exec)('npm pack', { cwd: pkg }); }
async function main(pkgs) { await Promise.all(pkgs.map((p) => build(p))); }
main([]);` }] }],
    },
    // One-shot, with a task started beside it and awaited after.
    {
      code: BESIDE_TASK,
      filename: MIGRATE,
      errors: [{ messageId: 'blockingCall', line: 4, column: 17, data: { name: 'fs.readFileSync', where: 'async function `main` (line 2)', cost: oneShotBeside(3) }, suggestions: [{ messageId: 'useAsyncTwin', output: BESIDE_TASK.replace("fs.readFileSync('local.json')", "await fs.promises.readFile('local.json')") }] }],
    },
    // Startup with a task in flight: strict reports it and names the task beside it.
    {
      code: WARM_UP,
      filename: SERVER,
      errors: [{ messageId: 'blockingCall', line: 4, column: 15, data: { name: 'fs.readFileSync', where: 'async function `main` (line 2)', cost: startupBeside(3) }, suggestions: [{ messageId: 'useAsyncTwin', output: WARM_UP.replace("fs.readFileSync('key.pem')", "await fs.promises.readFile('key.pem')") }] }],
    },
    // One-shot and sequential: the script waits for its own read, and nothing outside it does.
    {
      code: sequential,
      filename: MIGRATE,
      errors: [{ messageId: 'blockingCall', line: 3, column: 15, data: { name: 'fs.readFileSync', where: 'async function `main` (line 2)', cost: ONE_SHOT }, suggestions: [{ messageId: 'useAsyncTwin', output: sequential.replace("fs.readFileSync('schema.sql', 'utf8')", "await fs.promises.readFile('schema.sql', 'utf8')") }] }],
    },
    // Startup and sequential: the read delays when the server starts serving; nothing waits on it yet.
    {
      code: STARTUP_SEQ,
      filename: SERVER,
      errors: [{ messageId: 'blockingCall', line: 3, column: 15, data: { name: 'fs.readFileSync', where: 'async function `main` (line 2)', cost: STARTUP }, suggestions: [{ messageId: 'useAsyncTwin', output: STARTUP_SEQ.replace("fs.readFileSync('key.pem')", "await fs.promises.readFile('key.pem')") }] }],
    },
    // Serving: every other request waits.
    {
      code: exported,
      filename: SERVER,
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, data: { name: 'fs.readFileSync', where: 'async function `run` (line 2)', cost: SERVING }, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.run = async () => { await fs.promises.readFile('a'); };` }] }],
    },
    // Text without a file: no package says whether a script or a server runs it, at startup or not.
    {
      code: exported,
      filename: '<input>',
      errors: [{ messageId: 'blockingCall', line: 2, column: 29, data: { name: 'fs.readFileSync', where: 'async function `run` (line 2)', cost: UNKNOWN }, suggestions: [{ messageId: 'useAsyncTwin', output: `const fs = require('node:fs');\nexports.run = async () => { await fs.promises.readFile('a'); };` }] }],
    },
    {
      code: STARTUP_SEQ,
      filename: '<input>',
      errors: [{ messageId: 'blockingCall', line: 3, column: 15, data: { name: 'fs.readFileSync', where: 'async function `main` (line 2)', cost: UNKNOWN }, suggestions: [{ messageId: 'useAsyncTwin', output: STARTUP_SEQ.replace("fs.readFileSync('key.pem')", "await fs.promises.readFile('key.pem')") }] }],
    },
  ],
});

// A synchronous helper that blocks, under strict: reported at its call when the module also runs
// it at top level, and where it is when only async code calls it. Either way the message says
// what the block costs where its callers run, and only serving callers make it "while the process serves".
const HELPER_AT_TOP = `const fs = require('node:fs');
function load() { return fs.readFileSync('a'); }
load();
async function main() { load(); }
main();`;
const HELPER_PLACED = `const fs = require('node:fs');
function load() { return fs.readFileSync('a'); }
async function main() { load(); }
main();`;
const HELPER_SERVED = `const fs = require('node:fs');
function load() { return fs.readFileSync('a'); }
exports.run = async () => load();
async function main() { load(); }
main();`;
const atTop = (cost: string) => [{ messageId: 'blockingHelper' as const, line: 4, column: 25, data: { callee: 'load', chain: 'calls `fs.readFileSync` (line 2)', where: 'async function `main` (line 4)', cost }, suggestions: [] }];
const placed = (where: string, cost: string) => [{ messageId: 'blockingCall' as const, line: 2, column: 26, data: { name: 'fs.readFileSync', where, cost }, suggestions: [] }];

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: what a blocking helper costs where it runs)', rule as never, {
  valid: [],
  invalid: [
    { code: HELPER_AT_TOP, filename: MIGRATE, errors: atTop(ONE_SHOT) },
    { code: HELPER_AT_TOP, filename: SERVER, errors: atTop(STARTUP) },
    { code: HELPER_PLACED, filename: MIGRATE, errors: placed('`load` (line 2), which async function `main` calls (line 3)', ONE_SHOT) },
    { code: HELPER_PLACED, filename: SERVER, errors: placed('`load` (line 2), which async function `main` calls (line 3)', STARTUP) },
    // One serving caller is enough for the serving wording; in a one-shot file nothing serves.
    {
      code: HELPER_SERVED,
      filename: SERVER,
      errors: placed('`load` (line 2), which async function `run` calls (line 3) and async function `main` calls (line 4) while the process serves', SERVING),
    },
    { code: HELPER_SERVED, filename: MIGRATE, errors: placed('`load` (line 2), which async function `run` calls (line 3) and async function `main` calls (line 4)', ONE_SHOT) },
  ],
});

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: a blocking helper only startup runs)', rule as never, {
  valid: [{ code: HELPER_AT_TOP, filename: SERVER }, { code: HELPER_PLACED, filename: SERVER }, { code: HELPER_SERVED, filename: MIGRATE }],
  // Its startup call is quiet, so the helper does not only serve: the serving call gets the report.
  invalid: [{
    code: HELPER_SERVED,
    filename: SERVER,
    errors: [{ messageId: 'blockingHelper', line: 3, column: 27, data: { callee: 'load', chain: 'calls `fs.readFileSync` (line 2)', where: 'async function `run` (line 3)', cost: SERVING }, suggestions: [] }],
  }],
});

// Build and dev tooling, in fixtures/roles-dev: what only the `dev` script reaches (through a
// child process it forks by path) beside a production `start`, and webpack loaders and plugins
// with what only they import, run in no production process. An object reading its own
// `this.cache`, which the server loads, is no loader.
const onDisk = (relative: string): { code: string; filename: string } => {
  const filename = fixture(`roles-dev/${relative}`);
  return { code: readFileSync(filename, 'utf8'), filename };
};

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: build and dev tooling)', rule as never, {
  valid: [
    onDisk('src/recompile.js'),
    onDisk('webpack/themeConfig.js'),
    onDisk('webpack/StylePlugin.js'),
  ],
  invalid: [
    {
      ...onDisk('webpack/cache.js'),
      errors: [{ messageId: 'blockingCall', line: 3, suggestions: [{ messageId: 'useAsyncTwin', output: onDisk('webpack/cache.js').code.replace('fs.readFileSync(key)', 'await fs.promises.readFile(key)') }] }],
    },
  ],
});
