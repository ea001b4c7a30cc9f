import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import type { FileRead } from '../../src/project';
import { dependencyVersion, importsOf, invalidate, isReadCurrent, nearestPackage, parsedModule, resetProject, resolveImport, setOverlay, withReadLog } from '../../src/project';
import { app, scratch, write } from './helpers';

const SERVER = app('src/server.ts');

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

function stateOf(reads: readonly FileRead[], file: string): string | undefined {
  return reads.find((r) => r.path === file)?.state;
}

beforeEach(() => resetProject());

describe('withReadLog', () => {
  it('records the text hash of a parsed module and of the manifest a version came from', () => {
    const db = app('src/db/index.ts');
    const { value, reads } = withReadLog(() => {
      parsedModule(db);
      return dependencyVersion(SERVER, 'express').major;
    });
    assert.equal(value, 4);
    assert.equal(stateOf(reads, db), sha1(fs.readFileSync(db, 'utf8')));
    const express = app('node_modules/express/package.json');
    assert.equal(stateOf(reads, express), sha1(fs.readFileSync(express, 'utf8')));
    assert.deepEqual(reads.map((r) => r.path), [...reads.map((r) => r.path)].sort(), 'sorted by path');
    assert.equal(new Set(reads.map((r) => r.path)).size, reads.length, 'each path once');
  });

  it("records the resolver's probes: the file found exists, the candidates tried before it are missing", () => {
    const { reads } = withReadLog(() => resolveImport(SERVER, './utils/sleep.js'));
    assert.equal(stateOf(reads, app('src/utils/sleep.ts')), 'file');
    // `.js` is aliased to `.ts` first, so the `.js` file itself was never needed.
    assert.equal(stateOf(reads, app('src/utils/sleep.js')), undefined);
    const { reads: missing } = withReadLog(() => resolveImport(SERVER, './nowhere'));
    assert.equal(stateOf(missing, app('src/nowhere.ts')), 'missing');
    assert.equal(stateOf(missing, app('src/nowhere.js')), 'missing');
  });

  it('a cached answer still reports the reads it was computed from', () => {
    const first = withReadLog(() => nearestPackage(SERVER)).reads;
    const second = withReadLog(() => nearestPackage(SERVER)).reads;
    assert.ok(first.length > 0);
    assert.deepEqual(second, first);
    const resolvedOnce = withReadLog(() => resolveImport(SERVER, './db')).reads;
    assert.deepEqual(withReadLog(() => resolveImport(SERVER, './db')).reads, resolvedOnce);
  });

  it('an answer cached before any log was open is computed again inside one, so no read goes unseen', () => {
    resolveImport(SERVER, '~db');
    const { reads } = withReadLog(() => resolveImport(SERVER, '~db'));
    assert.equal(stateOf(reads, app('src/db/index.ts')), 'file');
  });

  it('logs nest: the outer log sees what the inner one saw', () => {
    const sleep = app('src/utils/sleep.ts');
    const outer = withReadLog(() => {
      parsedModule(app('src/db/index.ts'));
      return withReadLog(() => parsedModule(sleep)).reads;
    });
    assert.deepEqual(outer.value.map((r) => r.path), [sleep]);
    assert.ok(stateOf(outer.reads, sleep) && stateOf(outer.reads, app('src/db/index.ts')));
  });

  it('unsaved text is what gets hashed, and reads outside a log are not recorded anywhere', () => {
    const db = app('src/db/index.ts');
    parsedModule(app('src/utils/sleep.ts'));
    setOverlay(db, 'export const pool = 1;\n');
    const { reads } = withReadLog(() => parsedModule(db));
    assert.deepEqual(reads, [{ path: db, state: sha1('export const pool = 1;\n') }]);
  });

  it('an import that goes through the import index records the imported files', () => {
    const { reads } = withReadLog(() => importsOf(SERVER));
    assert.equal(stateOf(reads, SERVER), sha1(fs.readFileSync(SERVER, 'utf8')));
    assert.equal(stateOf(reads, app('src/db/index.ts')), 'file');
  });
});

describe('isReadCurrent', () => {
  it('holds until the text changes, saved or unsaved, and again once it is back', () => {
    const dir = scratch('readlog');
    const db = write(path.join(dir, 'db.js'), 'export const pool = 1;\n');
    const { reads } = withReadLog(() => parsedModule(db));
    const [read] = reads;
    assert.ok(read);
    assert.equal(isReadCurrent(read), true);
    setOverlay(db, 'export const pool = 2;\n');
    assert.equal(isReadCurrent(read), false);
    setOverlay(db, null);
    assert.equal(isReadCurrent(read), true);
    write(db, 'export const pool = 3;\n');
    invalidate(db);
    assert.equal(isReadCurrent(read), false);
    fs.rmSync(db);
    invalidate(db);
    assert.equal(isReadCurrent(read), false);
  });

  it('a missing probe stops holding when the file appears, in the editor or on disk', () => {
    const dir = scratch('readlog');
    const main = write(path.join(dir, 'main.js'), "import { pool } from './db';\n");
    const { reads } = withReadLog(() => resolveImport(main, './db'));
    const probe = reads.find((r) => r.path === path.join(dir, 'db.ts'));
    assert.deepEqual(probe, { path: path.join(dir, 'db.ts'), state: 'missing' });
    assert.equal(isReadCurrent(probe), true);
    setOverlay(path.join(dir, 'db.ts'), 'export const pool = 1;\n');
    assert.equal(isReadCurrent(probe), false);
    setOverlay(path.join(dir, 'db.ts'), null);
    write(path.join(dir, 'db.ts'), 'export const pool = 1;\n');
    invalidate(path.join(dir, 'db.ts'));
    assert.equal(isReadCurrent(probe), false);
  });

  it('a failed read of a directory is recorded as the directory, and keeps holding', () => {
    const dir = scratch('readlog');
    fs.mkdirSync(path.join(dir, 'db.js'));
    const { value, reads } = withReadLog(() => parsedModule(path.join(dir, 'db.js')));
    assert.equal(value, null);
    assert.deepEqual(reads, [{ path: path.join(dir, 'db.js'), state: 'directory' }]);
    assert.equal(isReadCurrent(reads[0]!), true);
    fs.rmdirSync(path.join(dir, 'db.js'));
    invalidate(path.join(dir, 'db.js'));
    assert.equal(isReadCurrent(reads[0]!), false);
  });

  it('checking a read is itself not recorded in an open log', () => {
    const dir = scratch('readlog');
    const db = write(path.join(dir, 'db.js'), 'export const pool = 1;\n');
    const [read] = withReadLog(() => parsedModule(db)).reads;
    assert.ok(read);
    assert.deepEqual(withReadLog(() => isReadCurrent(read)), { value: true, reads: [] });
  });
});
