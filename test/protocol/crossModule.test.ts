// An unsaved edit in another open file changes the answer, through the real rules: what a.js
// imports from db.js is known from db.js's module summary, read through the project layer.
//
// The shape: a.js takes a connection from a pool it imports and never releases it. Whether that is
// a leak depends only on what db.js builds, since a.js shows no acquire/release pair of its own
// (with one, usage evidence reports it whatever db.js says).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { makeFolder } from './fixtures';
import { LspHarness } from './harness';

const NOT_A_POOL = 'export const pool = new Map();\n';
const PG_POOL = "import pg from 'pg';\nexport const pool = new pg.Pool();\n";
const USER = "import { pool } from './db.js';\n\nexport async function run() {\n  const c = await pool.connect();\n  await c.query('select 1');\n}\n";

describe('an unsaved edit in an imported module changes the answer', () => {
  it('release-in-finally appears in a.js while db.js builds a pg Pool, and goes when it no longer does', async () => {
    const scratch = makeFolder('cross-module', {
      'package.json': JSON.stringify({ name: 'app', type: 'module', dependencies: { pg: '^8.11.0' } }),
      'src/db.js': NOT_A_POOL,
      'src/a.js': USER,
    });
    const { harness } = await LspHarness.start({ folders: [scratch.dir], settings: { typeAware: 'off' }, pull: false });
    const published = async (uri: string, from: number): Promise<Array<[unknown, number]>> => {
      const p = await harness.waitForNotification<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (n) => n.uri === uri, undefined, from);
      assert.equal(p.version, 1, 'a.js itself is never edited');
      return p.diagnostics.map((d) => [d.code, d.range.start.line]);
    };
    try {
      let from = harness.notifications.length;
      const a = await harness.open(path.join(scratch.dir, 'src', 'a.js'));
      assert.deepEqual(await published(a, from), []);
      const db = await harness.open(path.join(scratch.dir, 'src', 'db.js'));

      from = harness.notifications.length;
      await harness.replace(db, PG_POOL);
      assert.deepEqual(await published(a, from), [['async-hazards/release-in-finally', 3]]);

      from = harness.notifications.length;
      await harness.replace(db, NOT_A_POOL);
      assert.deepEqual(await published(a, from), []);

      // Closing db.js with the pg Pool unsaved: the saved file counts again.
      from = harness.notifications.length;
      await harness.replace(db, PG_POOL);
      await published(a, from);
      from = harness.notifications.length;
      await harness.close(db);
      assert.deepEqual(await published(a, from), []);
    } finally {
      await harness.shutdown();
      scratch.remove();
    }
  });
});
