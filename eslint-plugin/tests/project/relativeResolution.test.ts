import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { invalidate, resetProject, resolveImport, setOverlay, withReadLog } from '../../src/project';
import { installedManifest, manifestByResolver } from '../../src/project/packages';
import { relativeResolution, resolvedByResolver } from '../../src/project/resolve';
import { scratch, write } from './helpers';

/**
 * The fast path for relative specifiers must give enhanced-resolve's answer whenever it gives
 * one. A workspace with every shape the candidates' order decides between.
 */
function layOut(): string {
  const root = fs.realpathSync(scratch('relative'));
  const files: Record<string, string> = {
    'package.json': '{ "name": "app", "type": "module" }',
    'src/a.ts': '',
    'src/b.ts': '',
    'src/both.js': '',
    'src/both.ts': '',
    'src/folder/index.ts': '',
    'src/folder/index.js': '',
    'src/plainindex/index': '',
    'src/plainindex/index.ts': '',
    'src/withmain/package.json': '{ "main": "lib/entry.js" }',
    'src/withmain/lib/entry.js': '',
    'src/withmain/index.ts': '',
    'src/esm.ts': '',
    'src/esm.js': '',
    'src/onlyjs.js': '',
    'src/view.tsx': '',
    'src/mod.mts': '',
    'src/common.cjs': '',
    'src/data.json': '{}',
    'src/raw': '',
    'src/raw.ts': '',
    'src/shadow.ts': '',
    'src/shadow/index.ts': '',
    'src/dotjsdir.js/index.ts': '',
    'src/twice.js.ts': '',
    'src/emptydir/readme.md': '',
    'lib/up.js': '',
    'node_modules/pkg/inner.js': '',
    'node_modules/pkg/other.js': '',
  };
  for (const [relative, text] of Object.entries(files)) write(path.join(root, relative), text);
  fs.symlinkSync(path.join(root, 'lib'), path.join(root, 'src', 'linked'));
  return root;
}

const SPECIFIERS = [
  './b', './b.ts', './both', './both.js', './folder', './folder/index', './plainindex', './withmain',
  './esm.js', './onlyjs.js', './onlyjs', './view.jsx', './view', './mod.mjs', './common.cjs', './data.json', './data',
  './raw', './shadow', './dotjsdir.js', './twice.js', './emptydir', './missing', './missing.js', '../lib/up', '../lib/up.js',
  './linked/up', './folder/../b', '.', '..', './', './b?query', './b#hash', './folder/',
];

beforeEach(() => resetProject());

describe('relativeResolution', () => {
  it("answers what enhanced-resolve answers, for every shape it takes on itself", () => {
    const root = layOut();
    const dir = path.join(root, 'src');
    let answered = 0;
    for (const specifier of SPECIFIERS) {
      const fast = relativeResolution(dir, specifier);
      const slow = resolvedByResolver(dir, specifier);
      if (fast) {
        answered++;
        assert.deepEqual(fast, slow, specifier);
      }
      assert.deepEqual(resolveImport(path.join(dir, 'a.ts'), specifier), slow, `resolveImport ${specifier}`);
    }
    assert.ok(answered >= 24, `the fast path answered ${answered} of ${SPECIFIERS.length}`);
  });

  it('answers the common shapes itself and leaves the rest to the resolver', () => {
    const root = layOut();
    const dir = path.join(root, 'src');
    const answered = (s: string): boolean => relativeResolution(dir, s) !== null;
    for (const s of ['./b', './both', './folder', './esm.js', './onlyjs.js', './view', './missing', '../lib/up', './linked/up']) {
      assert.ok(answered(s), s);
    }
    // A folder's package.json `main`, an aliased name whose aliases are missing, query strings.
    for (const s of ['./withmain', './dotjsdir.js', './twice.js', './missing.js', './b?query', './b#hash', './folder/', './']) {
      assert.ok(!answered(s), s);
    }
  });

  it('follows symbolic links, and a file inside node_modules is not local, as with the resolver', () => {
    const root = layOut();
    assert.deepEqual(relativeResolution(path.join(root, 'src'), './linked/up'), { kind: 'file', path: path.join(root, 'lib', 'up.js'), local: true, packageName: null });
    const inner = relativeResolution(path.join(root, 'node_modules', 'pkg'), './other');
    assert.deepEqual(inner, resolvedByResolver(path.join(root, 'node_modules', 'pkg'), './other'));
    assert.equal(inner?.kind === 'file' && inner.local, false);
  });

  it('logs only probes the resolver also makes, with the same states', () => {
    const root = layOut();
    const dir = path.join(root, 'src');
    for (const specifier of ['./both', './folder', './esm.js', './missing', './raw']) {
      resetProject();
      const fast = withReadLog(() => relativeResolution(dir, specifier)).reads;
      resetProject();
      const slow = withReadLog(() => resolvedByResolver(dir, specifier)).reads;
      assert.ok(fast.length > 0, specifier);
      for (const read of fast) assert.ok(slow.some((r) => r.path === read.path && r.state === read.state), `${specifier}: ${read.path} ${read.state}`);
    }
  });

  it('a module only the editor has, or that appears there, is found as the resolver finds it', () => {
    const root = layOut();
    const dir = path.join(root, 'src');
    setOverlay(path.join(dir, 'fresh.ts'), 'export const x = 1;\n');
    assert.equal(relativeResolution(dir, './fresh'), null);
    assert.deepEqual(resolveImport(path.join(dir, 'a.ts'), './fresh'), resolvedByResolver(dir, './fresh'));
    assert.equal(resolveImport(path.join(dir, 'a.ts'), './fresh').kind, 'file');
    // Open in the editor and saved: the saved file's real path.
    setOverlay(path.join(dir, 'b.ts'), 'export const y = 2;\n');
    assert.deepEqual(relativeResolution(dir, './b'), resolvedByResolver(dir, './b'));
  });

  it('a candidate missing from its folder listing appears once a watcher reports it', () => {
    const root = layOut();
    const dir = path.join(root, 'src');
    const from = path.join(dir, 'a.ts');
    assert.deepEqual(resolveImport(from, './late'), { kind: 'unresolved', packageName: null });
    write(path.join(dir, 'late.ts'), '');
    invalidate(path.join(dir, 'late.ts'));
    assert.deepEqual(resolveImport(from, './late'), { kind: 'file', path: path.join(dir, 'late.ts'), local: true, packageName: null });
  });

  it('names that differ only in case, and folders with names outside ASCII, answer as their stats do', () => {
    const root = layOut();
    write(path.join(root, 'src', 'Upper.ts'), '');
    write(path.join(root, 'intl', 'caf\u00e9.ts'), '');
    write(path.join(root, 'intl', 'menu.ts'), '');
    for (const [dir, specifier] of [['src', './upper'], ['src', './Upper'], ['intl', './menu'], ['intl', './caf\u00e9'], ['intl', './other']]) {
      resetProject();
      const at = path.join(root, dir as string);
      assert.deepEqual(relativeResolution(at, specifier as string), resolvedByResolver(at, specifier as string), `${dir} ${specifier}`);
    }
  });
});

describe('installedManifest', () => {
  it("finds a package's manifest where the resolver finds it, up the node_modules folders", () => {
    const root = fs.realpathSync(scratch('installed'));
    const files: Record<string, string> = {
      'node_modules/pg/package.json': '{ "name": "pg", "version": "8.1.0" }',
      'node_modules/@scope/pool/package.json': '{ "name": "@scope/pool", "version": "2.0.0" }',
      'packages/api/node_modules/pg/package.json': '{ "name": "pg", "version": "7.0.0" }',
      'packages/api/src/index.ts': '',
      'packages/web/src/index.ts': '',
      'node_modules/.store/redis@4/package.json': '{ "name": "redis", "version": "4.0.0" }',
      'node_modules/empty/readme.md': '',
    };
    for (const [relative, text] of Object.entries(files)) write(path.join(root, relative), text);
    fs.symlinkSync(path.join(root, 'node_modules/.store/redis@4'), path.join(root, 'node_modules/redis'));
    let answered = 0;
    for (const dir of ['packages/api/src', 'packages/web/src', '.']) {
      for (const name of ['pg', '@scope/pool', 'redis', 'empty', 'missing']) {
        const fast = installedManifest(path.join(root, dir), name);
        const slow = manifestByResolver(path.join(root, dir), name);
        if (fast !== null) {
          answered++;
          assert.equal(fast, slow, `${dir} ${name}`);
        }
      }
    }
    assert.equal(answered, 12, 'all but the package without a manifest');
    assert.equal(installedManifest(path.join(root, 'packages/api/src'), 'pg'), path.join(root, 'packages/api/node_modules/pg/package.json'));
    assert.equal(installedManifest(path.join(root, 'packages/web/src'), 'redis'), path.join(root, 'node_modules/.store/redis@4/package.json'));
  });
});
