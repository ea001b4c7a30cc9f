import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  collectionSize, createChainAnalysis, DEFAULT_RANDOM_BYTES_THRESHOLD, expressionWork, mapperWork, moduleSourceCode,
  resolveImportedFunction, valueOrigin, walk,
} from '../../src/analysis';
import { resetProject } from '../../src/project';
import { scratch, write } from '../project/helpers';

// What the analysis learns about a helper by reading the project module it is imported from.
const root = scratch('module-summaries');
write(path.join(root, 'package.json'), '{"name":"app","dependencies":{"pg":"8.0.0","p-limit":"5.0.0"}}');
write(path.join(root, 'db.ts'), "import { Pool } from 'pg';\nexport const pool = new Pool();\n");
write(path.join(root, 'store.js'), [
  "const fs = require('fs');",
  "const { pool } = require('./db');",
  'function save(d) { fs.writeFileSync("db.json", d); }',
  'let cached;',
  'function load() { if (!cached) cached = fs.readFileSync("db.json", "utf8"); return cached; }',
  'function name(u) { return u.name; }',
  'async function rows() { const r = await pool.query("select 1"); return r.rows; }',
  "function kinds() { return ['a', 'b', 'c']; }",
  'class Repo { save() { save(1); } }',
  'module.exports = { save, load, name, rows, kinds, repo: new Repo(), later: async () => save(1) };',
  '',
].join('\n'));
write(path.join(root, 'again.ts'), "import { save } from './store';\nexport { save };\nexport const LIST = ['x', 'y'];\n");
write(path.join(root, 'limits.ts'), [
  "import pLimit from 'p-limit';",
  'const limit = pLimit(2);',
  'export async function one(u: string) { return limit(() => fetch(u)); }',
  'export async function raw(u: string) { return fetch(u); }',
  '',
].join('\n'));
const app = write(path.join(root, 'app.ts'), [
  "import * as store from './store';",
  "import { save, LIST } from './again';",
  "import { one, raw } from './limits';",
  "import { Pool } from 'pg';",
  'store.save(1); save(2); store.load(); store.name(3); store.repo.save(); store.later(); new Pool();',
  'const r = store.rows(); const k = store.kinds(); const l = LIST;',
  'one("a"); raw("b");',
  '',
].join('\n'));

function calls(): Map<string, TSESTree.CallExpression> {
  const sourceCode = moduleSourceCode(app);
  assert.ok(sourceCode);
  const found = new Map<string, TSESTree.CallExpression>();
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type === 'CallExpression') found.set(sourceCode.getText(node.callee), node);
  });
  return found;
}

function at(name: string): TSESTree.CallExpression {
  const call = calls().get(name);
  assert.ok(call, name);
  return call;
}

const options = { blockingCalls: [], allow: [], randomBytesThreshold: DEFAULT_RANDOM_BYTES_THRESHOLD };

describe('module summaries', () => {
  resetProject();
  const sourceCode = moduleSourceCode(app);
  assert.ok(sourceCode);

  it('resolves functions exported by project modules, through namespaces and re-exports, and nothing else', () => {
    const name = (callee: string): string | null => {
      const found = resolveImportedFunction(sourceCode, at(callee).callee);
      return found ? `${path.basename(found.file)}:${found.fn.loc.start.line}` : null;
    };
    assert.equal(name('store.save'), 'store.js:3');
    assert.equal(name('save'), 'store.js:3');
    assert.equal(name('store.name'), 'store.js:6');
    assert.equal(name('one'), 'limits.ts:3');
    // A method of an exported instance, and a package's export, are not followed.
    assert.equal(name('store.repo.save'), null);
    assert.equal(resolveImportedFunction(sourceCode, at('raw').callee)?.fn.async, true);
  });

  it('follows blocking chains into the module, naming its file, and skips once-only and harmless helpers', () => {
    const chains = createChainAnalysis(sourceCode, options, null);
    const chain = chains.importedChain(at('save'));
    assert.deepEqual(chain?.links.map((l) => [l.text, l.file, l.line, l.path]), [
      ['calls `fs.writeFileSync`', 'store.js', 3, path.join(root, 'store.js')],
    ]);
    assert.ok(chain?.links[0]?.node, 'the node is kept for evidence in the other file');
    assert.equal(chains.importedChain(at('store.load')), null, 'a memoised read blocks once per process');
    assert.equal(chains.importedChain(at('store.name')), null);
    assert.equal(chains.importedChain(at('store.later')), null, 'an async helper is reported in its own module');
  });

  it('sees a limiter inside an imported callee as the bound', () => {
    const ctx = { sourceCode };
    assert.equal(expressionWork(ctx, at('one')), 'bounded');
    assert.equal(expressionWork(ctx, at('raw')), 'async');
    assert.equal(mapperWork(ctx, at('one').callee), 'bounded');
    assert.equal(mapperWork(ctx, at('raw').callee), 'async');
  });

  it('follows origins and sizes into the module', () => {
    const ctx = { sourceCode, filename: app };
    const init = (name: string): TSESTree.Node => {
      let found: TSESTree.Node | null = null;
      walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
        if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.id.name === name && node.init) found = node.init;
      });
      assert.ok(found, name);
      return found;
    };
    assert.equal(valueOrigin(ctx, init('r')), 'data');
    assert.equal(valueOrigin(ctx, init('k')), 'declared');
    assert.equal(valueOrigin(ctx, init('l')), 'declared');
    assert.deepEqual(collectionSize(ctx, init('k')), { kind: 'bounded', count: 3 });
    assert.deepEqual(collectionSize(ctx, init('l')), { kind: 'bounded', count: 2 });
    assert.deepEqual(collectionSize(ctx, init('r')), { kind: 'unknown' });
  });
});
