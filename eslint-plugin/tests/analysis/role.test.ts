import assert from 'node:assert/strict';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { processRole, roleGlobs } from '../../src/analysis/role';
import { configValues, isBundlerHook, isDevelopmentScript, isServingScript, resetProject, scriptsRun, scriptTargets } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

const ROOT = fixture('roles');
const at = (relative: string): string => path.join(ROOT, relative);
const roleOf = (relative: string, settings?: unknown): string => processRole({ filename: at(relative), cwd: ROOT, settings }).role;

beforeEach(() => resetProject());

describe('processRole: one-shot entries', () => {
  it('a package.json script run by a runtime, through wrappers and options', () => {
    assert.equal(roleOf('scripts/migrate.js'), 'one-shot');
    const reset = processRole(at('src/tools/reset.ts'));
    assert.deepEqual([reset.role, reset.reason], ['one-shot', 'the package.json script `reset`']);
  });
  it('what only one-shot entries import', () => {
    assert.equal(roleOf('src/tools/resetHelpers.ts'), 'one-shot');
    assert.match(processRole(at('scripts/migrateHelpers.js')).reason, /imported only from one-shot code/);
  });
  it("test runners' setup files from package.json and jest.config.js", () => {
    assert.equal(roleOf('test/setup.js'), 'one-shot');
    assert.equal(roleOf('test/after-env.js'), 'one-shot');
    assert.equal(roleOf('test/global-setup.js'), 'one-shot');
  });
  it("knexfile's migration and seed directories, prisma's seed, typeorm's migration globs", () => {
    assert.equal(roleOf('db/migrations/001_init.js'), 'one-shot');
    assert.equal(roleOf('db/seeds/users.js'), 'one-shot');
    assert.equal(roleOf('prisma/seed.ts'), 'one-shot');
    assert.equal(roleOf('packages/typeorm/src/migrations/1700000000000-Init.ts'), 'one-shot');
  });
  it('a shebang, a require.main guard, a test file and the test helpers only tests import', () => {
    assert.equal(roleOf('src/report.js'), 'one-shot');
    assert.equal(roleOf('src/guarded.js'), 'one-shot');
    assert.equal(roleOf('src/users.test.js'), 'one-shot');
    assert.equal(roleOf('test/helpers.js'), 'one-shot');
  });
  it("a tool's config at the package root, and what only it imports", () => {
    assert.match(processRole(at('next.config.js')).reason, /a tool's config file/);
    assert.equal(roleOf('scripts/warm.js'), 'one-shot');
    // jest.config.js is one too; the server's own config module is not at the root.
    assert.equal(roleOf('jest.config.js'), 'one-shot');
  });
  it("a package-root test/ folder when the package's scripts run a test runner", () => {
    assert.match(processRole(at('test/api.js')).reason, /`test\/` folder, which its scripts test with `jest`/);
    // A `build/` folder below the root is source, not build output.
    assert.equal(roleOf('test/build/steps.js'), 'one-shot');
    // No test runner among that package's scripts: a test/ folder is just a folder.
    assert.equal(roleOf('packages/api/test/loose.js'), 'long-lived');
  });
  it('a CLI package: a bin and no server framework, every file of it', () => {
    assert.equal(roleOf('packages/cli/src/cli.ts'), 'one-shot');
    assert.equal(roleOf('packages/cli/src/run.ts'), 'one-shot');
    assert.match(processRole(at('packages/cli/src/unreached.ts')).reason, /a CLI package/);
  });
});

describe('processRole: long-lived code (near misses)', () => {
  it('the start script and what it imports, even when a one-shot script imports it too', () => {
    assert.equal(roleOf('src/server.js'), 'long-lived');
    assert.equal(roleOf('src/db.js'), 'long-lived');
  });
  it('a root scripts/ file that the server imports; a scripts/ folder not at the package root', () => {
    assert.equal(roleOf('scripts/shared.js'), 'long-lived');
    assert.equal(roleOf('src/scripts/notRoot.js'), 'long-lived');
  });
  it('a require.main guard in a module the server imports', () => {
    assert.equal(roleOf('src/guardedShared.js'), 'long-lived');
  });
  it('production code that only a test imports; a file nothing imports; a build command argument', () => {
    assert.equal(roleOf('src/onlyTested.js'), 'long-lived');
    assert.equal(roleOf('src/orphan.js'), 'long-lived');
    assert.equal(roleOf('src/built.js'), 'long-lived');
  });
  it('a package with a bin and a server framework; a library with a bin', () => {
    assert.equal(roleOf('packages/api/src/routes.js'), 'long-lived');
    assert.equal(roleOf('packages/api/src/index.js'), 'one-shot');
    assert.equal(roleOf('packages/lib/src/index.ts'), 'long-lived');
    assert.equal(roleOf('packages/lib/src/cli.ts'), 'one-shot');
  });
  it('typeorm data source and the app are not migrations', () => {
    assert.equal(roleOf('packages/typeorm/src/data-source.ts'), 'long-lived');
  });
  it('a file outside any package, or not on disk, is long-lived unless its own text says otherwise', () => {
    assert.equal(processRole('/nowhere/at/all.ts').role, 'long-lived');
    assert.equal(processRole('relative.ts').role, 'long-lived');
  });
});

describe('processRole: development processes and bundler hooks (fixtures/roles-dev)', () => {
  const dev = (relative: string): ReturnType<typeof processRole> => processRole(fixture(`roles-dev/${relative}`));
  it('what only a dev script reaches, through a child process started by path, beside a production start script', () => {
    assert.match(dev('src/dev.js').reason, /the `dev` script, a development process/);
    assert.equal(dev('src/devWorker.js').role, 'one-shot');
    assert.equal(dev('src/recompile.js').role, 'one-shot');
  });
  it('the server the dev worker also loads stays long-lived (near miss)', () => {
    assert.equal(dev('src/server.js').role, 'long-lived');
    assert.equal(dev('src/render.js').role, 'long-lived');
  });
  it('a webpack loader and plugin, and what only they import', () => {
    assert.match(dev('webpack/TailwindLoader.js').reason, /a bundler loader or plugin/);
    assert.equal(dev('webpack/StylePlugin.js').role, 'one-shot');
    assert.equal(dev('webpack/themeConfig.js').role, 'one-shot');
  });
  it('an object reading its own `this.cache` is no loader (near miss)', () => {
    assert.equal(dev('webpack/cache.js').role, 'long-lived');
  });
  it('a dev script with no production entry beside it is how the package runs (near miss)', () => {
    assert.equal(processRole(fixture('roles-dev-only/src/index.js')).role, 'long-lived');
  });
});

describe('processRole: overrides', () => {
  it('oneShot and longLived globs relative to cwd; longLived wins when both match', () => {
    assert.equal(roleOf('src/orphan.js', { 'async-hazards': { oneShot: ['src/orphan.js'] } }), 'one-shot');
    assert.equal(roleOf('src/tools/reset.ts', { 'async-hazards': { longLived: ['src/tools/**'] } }), 'long-lived');
    assert.equal(roleOf('src/db.js', { 'async-hazards': { oneShot: ['src/**'], longLived: ['src/db.js'] } }), 'long-lived');
    const reason = processRole({ filename: at('src/db.js'), cwd: ROOT, settings: { 'async-hazards': { oneShot: ['**/db.js'] } } }).reason;
    assert.equal(reason, 'settings oneShot `**/db.js`');
  });
  it('absolute globs stay absolute', () => {
    assert.equal(processRole({ filename: at('src/db.js'), cwd: '/elsewhere', settings: { 'async-hazards': { oneShot: [`${ROOT}/src/*.js`] } } }).role, 'one-shot');
  });
  it('values that are not glob strings are named and ignored', () => {
    const globs = roleGlobs({ 'async-hazards': { oneShot: 'scripts/**', longLived: [3, ''] } }, ROOT);
    assert.equal(globs.oneShot.length, 1);
    assert.equal(globs.longLived.length, 0);
    assert.equal(globs.problems.length, 2);
    assert.match(globs.problems[0] ?? '', /longLived has 3, which is not a glob string/);
    assert.match(roleGlobs({ 'async-hazards': { oneShot: { a: 1 } } }, ROOT).problems[0] ?? '', /oneShot must be an array of glob strings/);
    assert.equal(roleOf('src/db.js', { 'async-hazards': { oneShot: [null] } }), 'long-lived');
  });
});

describe('processRole: phase', () => {
  const phaseOf = (code: string, find: (text: string) => number): string | null => {
    const { ast, sourceCode } = parse(code);
    const index = find(code);
    const node = sourceCode.getNodeByRangeIndex(index);
    assert.ok(node && node !== ast);
    return processRole({ filename: at('src/server.js'), cwd: ROOT, sourceCode }, node).phase;
  };
  it('module top level and main() before listen are startup; a handler is serving', () => {
    const code = `const config = load();
async function main() { prepare(); app.listen(3000); }
main();
app.get('/', async () => { serve(); });
declare const app: any; declare function load(): void; declare function prepare(): void; declare function serve(): void;`;
    assert.equal(phaseOf(code, (t) => t.indexOf('load()')), 'startup');
    assert.equal(phaseOf(code, (t) => t.indexOf('prepare()')), 'startup');
    assert.equal(phaseOf(code, (t) => t.indexOf('serve()')), 'serving');
  });
  it('a route registered inside the entry runs per request: serving; a sync callback in the entry: startup', () => {
    const code = `(async () => {
  app.get('/', async () => { serve(); });
  [1].forEach(() => prepare());
  app.listen(3000);
})();
declare const app: any; declare function prepare(): void; declare function serve(): void;`;
    assert.equal(phaseOf(code, (t) => t.indexOf('serve()')), 'serving');
    assert.equal(phaseOf(code, (t) => t.indexOf('prepare()')), 'startup');
  });
  it('one-shot code has no phase', () => {
    const { sourceCode, ast } = parse('run();');
    assert.equal(processRole({ filename: at('scripts/migrate.js'), sourceCode }, ast.body[0]).phase, null);
  });
});

describe('scriptTargets and configs', () => {
  it('finds the file a runtime runs', () => {
    assert.deepEqual(scriptTargets('node app'), ['app']);
    assert.deepEqual(scriptTargets('NODE_ENV=test node --require dotenv/config -r ts-node/register src/a.ts up'), ['src/a.ts']);
    assert.deepEqual(scriptTargets('pnpm build && ts-node-esm ./x.mts; yarn node y.js'), ['./x.mts', 'y.js']);
    assert.deepEqual(scriptTargets('./bin/run.js --flag'), ['./bin/run.js']);
    assert.deepEqual(scriptTargets('dotenv -e .env -- tsx watch src/index.ts'), ['src/index.ts']);
    assert.deepEqual(scriptTargets('node -e "console.log(1)"'), []);
  });
  it('names the scripts a command runs through a package manager', () => {
    assert.deepEqual(scriptsRun('npm run start-server'), ['start-server']);
    assert.deepEqual(scriptsRun('cross-env NODE_ENV=production npm run-script serve && yarn migrate; pnpm run seed'), ['serve', 'migrate', 'seed']);
    assert.deepEqual(scriptsRun('npm start'), ['start']);
    // Package-manager commands and options are not scripts.
    assert.deepEqual(scriptsRun('npm install && yarn add left-pad && pnpm exec tsx a.ts && npm run --silent'), []);
    assert.deepEqual(scriptsRun('node server.js'), []);
  });
  it('ignores build, lint and test tools that take files too', () => {
    assert.deepEqual(scriptTargets('esbuild src/index.ts --bundle'), []);
    assert.deepEqual(scriptTargets('eslint src/server.ts && tsc -p .'), []);
  });
  it('tells a start script or a watcher from a one-shot one', () => {
    assert.equal(isServingScript('start', 'node app'), true);
    assert.equal(isServingScript('dev:api', 'node app'), true);
    assert.equal(isServingScript('api', 'nodemon src/app.js'), true);
    assert.equal(isServingScript('api', 'node --watch src/app.js'), true);
    assert.equal(isServingScript('migrate', 'node src/migrate.js'), false);
    assert.equal(isServingScript('restart-db', 'node db.js'), false);
  });
  it('tells a development loop from a production server', () => {
    assert.equal(isDevelopmentScript('dev', 'node app'), true);
    assert.equal(isDevelopmentScript('start:dev', 'nest start'), true);
    assert.equal(isDevelopmentScript('api', 'tsx watch src/app.ts'), true);
    assert.equal(isDevelopmentScript('start', 'nodemon src/app.js'), false);
    assert.equal(isDevelopmentScript('serve', 'pm2 start app.js'), false);
    assert.equal(isDevelopmentScript('devops', 'node tools/ops.js'), false);
  });
  it('tells a bundler loader or plugin by what it calls', () => {
    assert.equal(isBundlerHook('module.exports = function (s) { this.cacheable(); return s; };'), true);
    assert.equal(isBundlerHook('class P { apply(compiler) { compiler.hooks.emit.tap("P", () => {}); } }'), true);
    assert.equal(isBundlerHook('class C { apply(compiler) { return compiler; } get() { return this.cache; } }'), false);
  });
  it('reads setup keys from JS, JSON and YAML config text', () => {
    assert.deepEqual(configValues(`export default defineConfig({ test: { setupFiles: ['./a.ts', "./b.ts"], globalSetup: './g.ts' } })`,
      ['setupFiles', 'globalSetup']), ['./a.ts', './b.ts', './g.ts']);
    assert.deepEqual(configValues('{ "setupFiles": ["<rootDir>/s.js"] }', ['setupFiles']), ['<rootDir>/s.js']);
    assert.deepEqual(configValues('require:\n  - ./test/setup.js\n  - ts-node/register\nspec: x\nfile: ./test/hooks.js\n', ['require', 'file']),
      ['./test/setup.js', 'ts-node/register', './test/hooks.js']);
    assert.deepEqual(configValues('const r = require("x"); module.exports = { require: cfg };', ['require']), []);
  });
});
