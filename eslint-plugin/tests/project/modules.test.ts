import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { moduleCacheStats, parsedModule, resetProject, setOverlay } from '../../src/project';
import { app, scratch } from './helpers';

beforeEach(() => resetProject());

describe('parsedModule', () => {
  it('parses a local module as ESLint would hand it to a rule, with its imports', () => {
    const db = parsedModule(app('src/db/index.ts'));
    assert.ok(db);
    assert.equal(db.program.type, 'Program');
    assert.deepEqual(
      db.program.body.map((s) => s.type),
      ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportNamedDeclaration'],
    );
    const firstExport = db.program.body[1];
    assert.equal(firstExport?.parent, db.program, 'parent pointers are set');
    assert.deepEqual(firstExport?.loc.start, { line: 3, column: 0 });
    assert.deepEqual(
      db.imports.map((i) => [i.specifier, i.kind, i.typeOnly]),
      [['hidden-pkg', 'import', false]],
    );
  });

  it('finds `require` and `import()` anywhere in the module', () => {
    const legacy = parsedModule(app('src/legacy.cjs'));
    assert.deepEqual(
      legacy?.imports.map((i) => [i.specifier, i.kind]),
      [['./utils/sleep', 'require'], ['express', 'require']],
    );
    const server = parsedModule(app('src/server.ts'));
    assert.deepEqual(
      server?.imports.filter((i) => i.kind !== 'import').map((i) => [i.specifier, i.kind]),
      [['./utils/sleep', 'export'], ['./lazy', 'dynamic']],
    );
    assert.equal(server?.imports.find((i) => i.specifier === '~db')?.typeOnly, true);
  });

  it('a near miss: `require` as a property or with a computed name is no import', () => {
    setOverlay(app('src/fake.js'), "obj.require('x'); require(name); require('a', 'b'); const s = 'require(\"y\")';");
    assert.deepEqual(parsedModule(app('src/fake.js'))?.imports, []);
  });

  it('parses JSX in JavaScript and TSX files', () => {
    setOverlay(app('src/view.jsx'), 'export const v = <div>{1}</div>;');
    setOverlay(app('src/view.tsx'), 'export const v = <div>{1 as number}</div>;');
    assert.ok(parsedModule(app('src/view.jsx')));
    assert.ok(parsedModule(app('src/view.tsx')));
  });

  it('syntax errors, missing files, JSON and files without a real path give null', () => {
    assert.equal(parsedModule(app('src/broken.ts')), null);
    assert.equal(parsedModule(app('src/missing.ts')), null);
    assert.equal(parsedModule(app('package.json')), null);
    assert.equal(parsedModule('db.ts'), null);
    assert.equal(parsedModule(app('src')), null);
  });

  it('a module over 2 MB (generated or bundled code) is not parsed', () => {
    setOverlay(app('src/bundle.js'), `export const big = ${JSON.stringify('x'.repeat(2 * 1024 * 1024))};`);
    assert.equal(parsedModule(app('src/bundle.js')), null);
    assert.equal(moduleCacheStats().modules, 0);
  });

  it('equal text is parsed once, whichever file holds it', () => {
    const dir = scratch('modules-hash');
    setOverlay(`${dir}/a.ts`, 'export const x = 1;');
    setOverlay(`${dir}/b.ts`, 'export const x = 1;');
    const a = parsedModule(`${dir}/a.ts`);
    const b = parsedModule(`${dir}/b.ts`);
    assert.equal(a?.hash, b?.hash);
    assert.equal(a?.program, b?.program);
    assert.equal(b?.path, `${dir}/b.ts`);
    assert.equal(moduleCacheStats().modules, 1);
  });

  it('the cache is bounded: old parses are evicted, the newest kept', () => {
    const dir = scratch('modules-lru');
    for (let i = 0; i < 230; i++) setOverlay(`${dir}/m${i}.ts`, `export const x${i} = ${i};`);
    const first = parsedModule(`${dir}/m0.ts`);
    for (let i = 1; i < 230; i++) parsedModule(`${dir}/m${i}.ts`);
    assert.equal(moduleCacheStats().modules, 200);
    // Evicted, so parsed again: a new tree for the same text.
    const again = parsedModule(`${dir}/m0.ts`);
    assert.equal(again?.hash, first?.hash);
    assert.notEqual(again?.program, first?.program);
    // Recently used: still the same tree.
    const recent = parsedModule(`${dir}/m229.ts`);
    assert.equal(recent?.program, parsedModule(`${dir}/m229.ts`)?.program);
  });
});
