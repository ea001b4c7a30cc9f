// `--cache` lints a file again when a local module it imports changes what it exports: the
// file's cache entry keeps db.js's hash from its read log, though a.js itself never changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

const BIN = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'async-hazards');
const NOT_A_POOL = 'export const pool = new Map();\n';
const PG_POOL = "import pg from 'pg';\nexport const pool = new pg.Pool();\n";
const USER = "import { pool } from './db.js';\n\nexport async function run() {\n  const c = await pool.connect();\n  await c.query('select 1');\n}\n";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-cli-cross-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function findings(): Array<[string | null, number]> {
  const result = spawnSync(BIN, ['src/', '--cache', '--format', 'json'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  const reports = JSON.parse(result.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; line: number }> }>;
  return reports.filter((r) => r.filePath.endsWith('a.js')).flatMap((r) => r.messages.map((m): [string | null, number] => [m.ruleId, m.line]));
}

describe('--cache and an imported local module', () => {
  it('reports the unreleased connection once db.js builds a pg Pool, though a.js did not change', () => {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', type: 'module', dependencies: { pg: '^8.11.0' } }));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'db.js'), NOT_A_POOL);
    fs.writeFileSync(path.join(dir, 'src', 'a.js'), USER);
    assert.deepEqual(findings(), []);
    fs.writeFileSync(path.join(dir, 'src', 'db.js'), PG_POOL);
    assert.deepEqual(findings(), [['async-hazards/release-in-finally', 4]]);
    fs.writeFileSync(path.join(dir, 'src', 'db.js'), NOT_A_POOL);
    assert.deepEqual(findings(), []);
  });
});
