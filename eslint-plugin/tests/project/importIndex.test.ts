import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/typescript-estree';
import { parse } from '@typescript-eslint/typescript-estree';
import { importersOf, importsOf, resetProject, setOverlay } from '../../src/project';
import { app } from './helpers';

const SLEEP = app('src/utils/sleep.ts');

beforeEach(() => resetProject());

describe('importsOf', () => {
  it('says where each import of the linted file goes', () => {
    const text = "import { pool } from './db';\nimport pg from 'pg';\nconst fs = require('node:fs');\n";
    const program = parse(text, { range: true, loc: true });
    const imports = importsOf(app('src/handler.ts'), program, text);
    assert.deepEqual(
      imports.map((i) => [i.specifier, i.kind, i.resolution.kind]),
      [['./db', 'import', 'file'], ['pg', 'import', 'unresolved'], ['node:fs', 'require', 'builtin']],
    );
    assert.equal(importsOf(app('src/handler.ts'), program, text), imports, 'asked again for the same tree: the same answer');
  });

  it('without a tree, reads and parses the file', () => {
    const imports = importsOf(app('src/lib/limit.ts'));
    assert.deepEqual(imports.map((i) => i.resolution.kind === 'file' && i.resolution.path), [SLEEP]);
    assert.deepEqual(importsOf(app('src/broken.ts')), []);
    assert.deepEqual(importsOf('relative.ts'), []);
  });
});

describe('importersOf', () => {
  it('knows the local files seen importing a file, however they name it', () => {
    assert.deepEqual(importersOf(SLEEP), [], 'nothing seen yet');
    importsOf(app('src/server.ts'));
    importsOf(app('src/lib/limit.ts'));
    importsOf(app('src/legacy.cjs'));
    importsOf(app('packages/worker/src/job.ts'));
    assert.deepEqual(importersOf(SLEEP), [
      app('packages/worker/src/job.ts'),
      app('src/legacy.cjs'),
      app('src/lib/limit.ts'),
      app('src/server.ts'),
    ]);
    assert.deepEqual(importersOf(app('src/db/index.ts')), [app('src/server.ts')], '`./db` and the `~db` alias are one file');
    // Packages are not indexed: the index is about the project's own files.
    assert.deepEqual(importersOf(app('node_modules/express/index.js')), []);
  });

  it('follows edits: an importer that drops the import is removed', () => {
    importsOf(app('src/lib/limit.ts'));
    assert.deepEqual(importersOf(SLEEP), [app('src/lib/limit.ts')]);
    setOverlay(app('src/lib/limit.ts'), 'export const limit = (task: () => unknown) => task();');
    importsOf(app('src/lib/limit.ts'));
    assert.deepEqual(importersOf(SLEEP), []);
    setOverlay(app('src/lib/limit.ts'), null);
    importsOf(app('src/lib/limit.ts'));
    assert.deepEqual(importersOf(SLEEP), [app('src/lib/limit.ts')]);
  });

  it('is bounded: the oldest importers are forgotten first', () => {
    const text = "import { sleep } from './utils/sleep';";
    // Fresh trees per file, parsed once: the bound is 20,000 files.
    const template = parse(text, { range: true, loc: true });
    const tree = (): TSESTree.Program => ({ ...template, body: [...template.body] });
    for (let i = 0; i <= 20_000; i++) importsOf(app(`src/gen${i}.ts`), tree(), text);
    const importers = importersOf(SLEEP);
    assert.equal(importers.length, 20_000);
    assert.equal(importers.includes(app('src/gen0.ts')), false);
    assert.equal(importers.includes(app('src/gen20000.ts')), true);
  });
});
