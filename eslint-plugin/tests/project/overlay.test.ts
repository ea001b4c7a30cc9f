import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import {
  dependencyVersion,
  importersOf,
  importsOf,
  invalidate,
  nearestPackage,
  overlaidPaths,
  parsedModule,
  resetProject,
  resolveImport,
  setOverlay,
} from '../../src/project';
import { app, scratch, write } from './helpers';

const SERVER = app('src/server.ts');

beforeEach(() => resetProject());

describe('setOverlay', () => {
  it('an unsaved new file resolves, and stops resolving when its overlay is removed', () => {
    assert.equal(resolveImport(SERVER, './cache').kind, 'unresolved');
    setOverlay(app('src/cache.ts'), 'export const cache = new Map();');
    assert.deepEqual(resolveImport(SERVER, './cache'), { kind: 'file', path: app('src/cache.ts'), local: true, packageName: null });
    assert.equal(parsedModule(app('src/cache.ts'))?.program.body.length, 1);
    setOverlay(app('src/cache.ts'), null);
    assert.equal(resolveImport(SERVER, './cache').kind, 'unresolved');
    assert.equal(parsedModule(app('src/cache.ts')), null);
  });

  it('unsaved text replaces the saved module for parsing and the import index', () => {
    const db = app('src/db/index.ts');
    assert.equal(parsedModule(db)?.imports[0]?.specifier, 'hidden-pkg');
    setOverlay(db, "import { sleep } from '../utils/sleep';\nexport const pool = { sleep };\n");
    assert.equal(parsedModule(db)?.imports[0]?.specifier, '../utils/sleep');
    importsOf(db);
    assert.deepEqual(importersOf(app('src/utils/sleep.ts')), [db]);
    // Text that does not parse yet (mid-typing) is no module, and no crash.
    setOverlay(db, 'export const pool = ');
    assert.equal(parsedModule(db), null);
    setOverlay(db, null);
    assert.equal(parsedModule(db)?.imports[0]?.specifier, 'hidden-pkg');
  });

  it('an unsaved package.json changes package facts and `exports`', () => {
    const manifest = app('node_modules/hidden-pkg/package.json');
    const saved = fs.readFileSync(manifest, 'utf8');
    setOverlay(manifest, JSON.stringify({ name: 'hidden-pkg', version: '3.0.1', exports: { './pool': './lib/main.cjs' } }));
    assert.equal(dependencyVersion(SERVER, 'hidden-pkg').major, 3);
    const pool = resolveImport(SERVER, 'hidden-pkg/pool');
    assert.equal(pool.kind === 'file' ? pool.path : null, app('node_modules/hidden-pkg/lib/main.cjs'));
    setOverlay(manifest, null);
    assert.equal(dependencyVersion(SERVER, 'hidden-pkg').major, 2);
    assert.equal(fs.readFileSync(manifest, 'utf8'), saved, 'the disk is never written');

    setOverlay(app('package.json'), JSON.stringify({ name: 'renamed', type: 'commonjs', dependencies: { koa: '^3.0.0' } }));
    assert.equal(nearestPackage(SERVER).name, 'renamed');
    assert.equal(nearestPackage(SERVER).type, 'commonjs');
    assert.equal(dependencyVersion(SERVER, 'koa').major, 3);
  });

  it('a package.json that does not parse yet leaves relative imports working', () => {
    setOverlay(app('package.json'), '{ "name": "fixture-app", ');
    assert.equal(nearestPackage(SERVER).name, null);
    const db = resolveImport(SERVER, './db');
    assert.equal(db.kind === 'file' ? db.path : null, app('src/db/index.ts'));
  });

  it('an unsaved tsconfig changes `paths`', () => {
    setOverlay(app('tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '#db': ['src/db/index.ts'] } } }));
    const aliased = resolveImport(SERVER, '#db');
    assert.equal(aliased.kind === 'file' ? aliased.path : null, app('src/db/index.ts'));
    assert.equal(resolveImport(SERVER, '@lib/limit').kind, 'unresolved', 'no longer extends the base config');
  });

  it('keys are absolute paths, normalised; overlays are listed', () => {
    setOverlay(`${app('src')}/./a/../cache.ts`, 'export {};');
    assert.deepEqual(overlaidPaths(), [app('src/cache.ts')]);
    assert.equal(resolveImport(SERVER, './cache').kind, 'file');
  });
});

describe('invalidate', () => {
  it('makes a file written to disk visible at once, without waiting for the cache to expire', () => {
    const dir = scratch('invalidate');
    const from = path.join(dir, 'a.ts');
    assert.equal(resolveImport(from, './b').kind, 'unresolved');
    write(path.join(dir, 'b.ts'), 'export const b = 1;');
    invalidate(path.join(dir, 'b.ts'));
    assert.equal(resolveImport(from, './b').kind, 'file');
    assert.equal(parsedModule(path.join(dir, 'b.ts'))?.program.body.length, 1);
    fs.writeFileSync(path.join(dir, 'b.ts'), 'export const b = 1;\nexport const c = 2;');
    invalidate(path.join(dir, 'b.ts'));
    assert.equal(parsedModule(path.join(dir, 'b.ts'))?.program.body.length, 2);
    fs.rmSync(path.join(dir, 'b.ts'));
    invalidate();
    assert.equal(resolveImport(from, './b').kind, 'unresolved');
    assert.equal(parsedModule(path.join(dir, 'b.ts')), null);
  });
});
