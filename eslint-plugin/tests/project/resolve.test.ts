import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { bareName, resetProject, resolveImport } from '../../src/project';
import { app, scratch, write } from './helpers';

const SERVER = app('src/server.ts');

function target(from: string, specifier: string): string | null {
  const r = resolveImport(from, specifier);
  return r.kind === 'file' ? r.path : null;
}

beforeEach(() => resetProject());

describe('resolveImport', () => {
  it('relative paths try extensions and index files', () => {
    assert.equal(target(SERVER, './lazy'), app('src/lazy.ts'));
    assert.equal(target(SERVER, './db'), app('src/db/index.ts'));
    assert.equal(target(app('src/lib/limit.ts'), '../utils/sleep'), app('src/utils/sleep.ts'));
    assert.equal(target(app('packages/worker/src/job.ts'), '../../../src/utils/sleep'), app('src/utils/sleep.ts'));
  });

  it('a `.js` specifier finds the TypeScript source, as ESM TypeScript writes it', () => {
    assert.equal(target(SERVER, './utils/sleep.js'), app('src/utils/sleep.ts'));
  });

  it('tsconfig `paths`, inherited through `extends`, map aliases into the project', () => {
    const aliased = resolveImport(SERVER, '@lib/limit');
    assert.deepEqual(aliased, { kind: 'file', path: app('src/lib/limit.ts'), local: true, packageName: null });
    assert.equal(target(SERVER, '~db'), app('src/db/index.ts'));
  });

  it('packages resolve through `main` and `exports`, and are not local', () => {
    assert.deepEqual(resolveImport(SERVER, 'express'), {
      kind: 'file',
      path: app('node_modules/express/index.js'),
      local: false,
      packageName: 'express',
    });
    assert.equal(target(SERVER, 'hidden-pkg'), app('node_modules/hidden-pkg/lib/main.mjs'));
    assert.equal(target(SERVER, 'hidden-pkg/pool'), app('node_modules/hidden-pkg/lib/pool.js'));
    assert.equal(target(SERVER, '@acme/pool'), app('node_modules/@acme/pool/index.js'));
  });

  it('a path the package does not export does not resolve, as in Node', () => {
    assert.deepEqual(resolveImport(SERVER, 'hidden-pkg/lib/pool.js'), { kind: 'unresolved', packageName: 'hidden-pkg' });
  });

  it('built-in modules, with or without `node:`', () => {
    assert.deepEqual(resolveImport(SERVER, 'node:fs'), { kind: 'builtin', name: 'fs' });
    assert.deepEqual(resolveImport(SERVER, 'child_process'), { kind: 'builtin', name: 'child_process' });
  });

  it('missing modules, packages not installed and files without a real path are unresolved, never thrown', () => {
    assert.deepEqual(resolveImport(SERVER, './nope'), { kind: 'unresolved', packageName: null });
    assert.deepEqual(resolveImport(SERVER, 'koa'), { kind: 'unresolved', packageName: 'koa' });
    assert.deepEqual(resolveImport('<input>', './db'), { kind: 'unresolved', packageName: null });
    assert.equal(resolveImport(SERVER, '').kind, 'unresolved');
    assert.equal(resolveImport(SERVER, 'data:text/javascript,1').kind, 'unresolved');
  });

  it('a broken tsconfig or manifest leaves relative imports working', () => {
    const dir = scratch('resolve-broken');
    write(`${dir}/tsconfig.json`, '{ "compilerOptions": { "paths": ');
    write(`${dir}/package.json`, '{ "name": ');
    write(`${dir}/b.ts`, 'export {};');
    assert.equal(target(`${dir}/a.ts`, './b'), `${dir}/b.ts`);
    assert.equal(resolveImport(`${dir}/a.ts`, '@lib/x').kind, 'unresolved');
  });

  it("module-alias's `_moduleAliases` map aliases, into the sources of a build folder that is not there", () => {
    const dir = fs.realpathSync(scratch('resolve-module-alias'));
    const manifest = { dependencies: { 'module-alias': '^2.2.2' }, _moduleAliases: { '@models': 'dist/models', '@models/deep': 'lib/deep', '@root': '.' } };
    write(`${dir}/package.json`, JSON.stringify(manifest));
    write(`${dir}/src/models/user.ts`, 'export {};');
    write(`${dir}/lib/deep/index.js`, 'module.exports = {};');
    write(`${dir}/config.js`, 'module.exports = {};');
    const from = `${dir}/src/app.ts`;
    assert.deepEqual(resolveImport(from, '@models/user'), { kind: 'file', path: `${dir}/src/models/user.ts`, local: true, packageName: null });
    // The longest alias wins; one whose target exists is taken as it is.
    assert.equal(target(from, '@models/deep'), `${dir}/lib/deep/index.js`);
    assert.equal(target(from, '@root/config'), `${dir}/config.js`);
    assert.equal(resolveImport(from, '@modelsx/user').kind, 'unresolved');
  });

  it('`_moduleAliases` without a dependency on module-alias map nothing', () => {
    const dir = fs.realpathSync(scratch('resolve-no-module-alias'));
    write(`${dir}/package.json`, JSON.stringify({ _moduleAliases: { '@models': 'src/models' } }));
    write(`${dir}/src/models/user.ts`, 'export {};');
    assert.equal(resolveImport(`${dir}/src/app.ts`, '@models/user').kind, 'unresolved');
  });
});

describe('bareName', () => {
  it('names the package of a bare specifier and nothing else', () => {
    assert.equal(bareName('pg/lib/pool'), 'pg');
    assert.equal(bareName('@scope/pkg/sub'), '@scope/pkg');
    assert.equal(bareName('./db'), null);
    assert.equal(bareName('#internal'), null);
    assert.equal(bareName('@/db'), null);
    assert.equal(bareName('/abs/path'), null);
    assert.equal(bareName('node:fs'), null);
  });
});
