import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { isFirstRunSetup } from '../../src/analysis';
import { parse } from './parse';

/** Is the call with text `target`, in the first function of `code`, first-run setup there? */
function firstRun(code: string, target: string): boolean {
  const parsed = parse(`import fs from 'node:fs';\nimport { spawnSync } from 'node:child_process';\n${code}`);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0] as FunctionNode;
  return isFirstRunSetup(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, target), fn);
}

describe('isFirstRunSetup', () => {
  it('takes work in a block that makes the path its test finds missing', () => {
    assert.equal(firstRun(`function init(d) { if (!fs.existsSync(d)) { fs.mkdirSync(d, { recursive: true }); spawnSync('install', [d]); } }`, `spawnSync('install', [d])`), true);
    assert.equal(firstRun(`function init(f) { if (!fs.existsSync(f)) { spawnSync('gen'); fs.writeFileSync(f, 'x'); } }`, `spawnSync('gen')`), true);
    // Nested deeper in the block.
    assert.equal(firstRun(`function init(d) { if (!fs.existsSync(d)) { fs.mkdirSync(d); if (d) { spawnSync('x'); } } }`, `spawnSync('x')`), true);
  });

  it('refuses a block that makes another path, the else branch, and a positive test', () => {
    assert.equal(firstRun(`function f(a, b) { if (!fs.existsSync(a)) { fs.mkdirSync(b); spawnSync('x'); } }`, `spawnSync('x')`), false);
    assert.equal(firstRun(`function f(d) { if (!fs.existsSync(d)) { fs.mkdirSync(d); } else { spawnSync('x'); } }`, `spawnSync('x')`), false);
    assert.equal(firstRun(`function f(d) { if (fs.existsSync(d)) { fs.mkdirSync(d); spawnSync('x'); } }`, `spawnSync('x')`), false);
    assert.equal(firstRun(`function f(d) { spawnSync('x'); }`, `spawnSync('x')`), false);
  });
});

describe('isFirstRunSetup: a database the function creates', () => {
  const probe = (code: string): boolean => {
    const parsed = parse(`import fs from 'node:fs';\nimport Database from 'better-sqlite3';\n${code}`);
    const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration).find((f) => f.id?.name === 'getDb') as FunctionNode;
    return isFirstRunSetup(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, `fs.readFileSync('schema.sql', 'utf8')`), fn);
  };

  it('takes a held probe whose path the function opens as a new database, itself or through a helper', () => {
    assert.equal(probe(`function getDb(p) { const needsInit = !fs.existsSync(p); const db = new Database(p); if (needsInit) db.exec(fs.readFileSync('schema.sql', 'utf8')); return db; }`), true);
    assert.equal(probe(`function open(file) { return { db: new Database(file) }; }\nfunction getDb(p) { let needsInit = !fs.existsSync(p); const db = open(p); if (needsInit) { db.db.exec(fs.readFileSync('schema.sql', 'utf8')); } return db; }`), true);
  });

  it('refuses another path, a reassigned flag, and a helper that opens something else', () => {
    assert.equal(probe(`function getDb(p, q) { const needsInit = !fs.existsSync(p); const db = new Database(q); if (needsInit) db.exec(fs.readFileSync('schema.sql', 'utf8')); return db; }`), false);
    assert.equal(probe(`function getDb(p) { let needsInit = !fs.existsSync(p); needsInit = true; const db = new Database(p); if (needsInit) db.exec(fs.readFileSync('schema.sql', 'utf8')); return db; }`), false);
    assert.equal(probe(`function open(file) { return { file }; }\nfunction getDb(p) { const needsInit = !fs.existsSync(p); const db = open(p); if (needsInit) fs.readFileSync('schema.sql', 'utf8'); return db; }`), false);
  });
});
