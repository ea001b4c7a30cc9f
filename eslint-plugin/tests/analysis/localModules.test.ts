import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { getConstruction, localExport, moduleSourceCode, reachableModules, registerSourceFile } from '../../src/analysis';
import { resetProject, setOverlay } from '../../src/project';
import { scratch, write } from '../project/helpers';
import { parse } from './parse';

const root = scratch('local-modules');
write(path.join(root, 'package.json'), '{"name":"app","dependencies":{"pg":"8.0.0","async-mutex":"0.5.0"}}');
write(path.join(root, 'db.js'), "const { Pool } = require('pg');\nconst pool = new Pool();\nmodule.exports = { pool, getPool() { return pool; } };\nexports.other = 1;\n");
write(path.join(root, 'lock.ts'), "import { Mutex } from 'async-mutex';\nexport const lock = new Mutex();\nexport default lock;\nexport function makeLock() { return new Mutex(); }\n");
write(path.join(root, 'index.ts'), "export * from './lock';\nexport { pool as db } from './db';\n");
write(path.join(root, 'app.ts'), "import { lock, db, makeLock } from './index';\nimport whole from './lock';\nimport type { Nothing } from './types';\nexport {};\n");
write(path.join(root, 'types.ts'), "import { Queue } from 'bullmq';\nexport type Nothing = Queue;\n");
write(path.join(root, 'utils.js'), "module.exports = { ...require('./db'), local: 2 };\n");
write(path.join(root, 'leaf.ts'), "import { Mutex } from 'async-mutex';\nexport const leaf = new Mutex();\n");
write(path.join(root, 'mid.ts'), "import { leaf } from './leaf';\nexport const mid = leaf;\n");
write(path.join(root, 'top.ts'), "import { mid } from './mid';\nmid.use();\n");
write(path.join(root, 'broken.ts'), 'export const = ;\n');
const COMMENTED = "/** The pool. */\nimport { Pool } from 'pg';\nexport const pool = new Pool(); // shared\nexport async function run(q: string) {\n  /* one client */ const c = await pool.connect();\n  return c.query(q);\n}\n";
write(path.join(root, 'commented.ts'), COMMENTED);

function exported(file: string, module: string, ...refPath: string[]): string | null {
  const sourceCode = moduleSourceCode(path.join(root, file));
  assert.ok(sourceCode, `${file} parses`);
  const found = localExport(sourceCode, { module, path: refPath });
  if (!found) return null;
  return `${path.basename(found.value.file)}:${found.value.sourceCode.getText(found.value.node)}${found.rest.length ? ` +${found.rest.join('.')}` : ''}`;
}

describe('localExport', () => {
  resetProject();

  it('finds named, default and CommonJS exports, and re-exports through a barrel', () => {
    assert.equal(exported('app.ts', './lock', 'lock'), 'lock.ts:lock');
    assert.equal(exported('app.ts', './lock'), 'lock.ts:lock');
    assert.equal(exported('app.ts', './index', 'lock'), 'lock.ts:lock');
    assert.equal(exported('app.ts', './index', 'db'), 'db.js:pool');
    assert.equal(exported('app.ts', './db', 'pool', 'connect'), 'db.js:pool +connect');
    assert.equal(exported('app.ts', './db', 'other'), 'db.js:1');
    assert.equal(exported('app.ts', './utils', 'pool'), 'db.js:pool');
    assert.equal(exported('app.ts', './utils', 'local'), 'utils.js:2');
    assert.match(exported('app.ts', './lock', 'makeLock') ?? '', /^lock\.ts:function makeLock/);
  });

  it('knows nothing of packages, missing files, missing names and modules that do not parse', () => {
    assert.equal(exported('app.ts', 'pg', 'Pool'), null);
    assert.equal(exported('app.ts', './missing', 'x'), null);
    assert.equal(exported('app.ts', './lock', 'nope'), null);
    assert.equal(exported('app.ts', './broken', 'x'), null);
    assert.equal(moduleSourceCode(path.join(root, 'broken.ts')), null);
  });

  it('lets construction see what another module built', () => {
    const sourceCode = moduleSourceCode(path.join(root, 'app.ts'));
    assert.ok(sourceCode);
    const specifiers = sourceCode.ast.body.flatMap((s) => (s.type === 'ImportDeclaration' ? s.specifiers : []));
    const kinds = specifiers.map((s) => `${s.local.name}=${getConstruction(sourceCode, s.local)?.kind ?? 'unknown'}`);
    assert.deepEqual(kinds, ['lock=mutex', 'db=dbPool', 'makeLock=unknown', 'whole=mutex', 'Nothing=unknown']);
  });

  it('reaches the packages local modules import, but not type-only imports', () => {
    const sourceCode = moduleSourceCode(path.join(root, 'app.ts'));
    assert.ok(sourceCode);
    const reached = [...reachableModules(sourceCode)].sort();
    // bullmq is imported only by ./types, which app.ts imports for a type.
    assert.deepEqual(reached.filter((m) => !m.startsWith('.')), ['async-mutex', 'pg']);
  });

  it('an answer resting on a module two imports away changes with it, on the next lint', () => {
    const kindAtTop = (): string => {
      // A fresh parse of the linted file each time, as ESLint hands rules.
      resetParsesOf('top.ts');
      const sourceCode = moduleSourceCode(path.join(root, 'top.ts'));
      assert.ok(sourceCode);
      // ESLint hands every lint a new SourceCode, and rules register it: a new lint starts.
      registerSourceFile(Object.create(sourceCode) as typeof sourceCode, path.join(root, 'top.ts'));
      const use = sourceCode.ast.body[1];
      assert.ok(use?.type === 'ExpressionStatement' && use.expression.type === 'CallExpression' && use.expression.callee.type === 'MemberExpression');
      return getConstruction(sourceCode, use.expression.callee.object)?.kind ?? 'unknown';
    };
    assert.equal(kindAtTop(), 'mutex');
    setOverlay(path.join(root, 'leaf.ts'), 'export const leaf = new Map();\n');
    assert.equal(kindAtTop(), 'unknown');
    setOverlay(path.join(root, 'leaf.ts'), null);
    assert.equal(kindAtTop(), 'mutex');
  });
});

describe('moduleSourceCode tokens and comments', () => {
  resetProject();

  it('answers token and comment queries as ESLint does on the same text, though the module was parsed without them', () => {
    const module = moduleSourceCode(path.join(root, 'commented.ts'));
    assert.ok(module);
    const eslint = parse(COMMENTED, 'commented.ts').sourceCode;
    const shape = (t: { type: string; value: string; range: readonly number[] } | null) => (t ? `${t.type}:${t.value}@${t.range.join('-')}` : null);
    assert.deepEqual(module.ast.tokens?.map(shape), eslint.ast.tokens?.map(shape));
    assert.deepEqual(module.getAllComments().map(shape), eslint.getAllComments().map(shape));
    assert.ok((module.ast.tokens?.length ?? 0) > 20);
    // Queries take the module's own nodes.
    const run = module.ast.body[2];
    const eslintRun = eslint.ast.body[2];
    assert.ok(run && eslintRun);
    assert.deepEqual(module.getTokens(run).map(shape), eslint.getTokens(eslintRun).map(shape));
    assert.equal(shape(module.getFirstToken(run)), `Keyword:export@${run.range[0]}-${run.range[0] + 'export'.length}`);
    assert.deepEqual(module.getCommentsAfter(module.ast.body[1] as typeof run).map(shape), eslint.getCommentsAfter(eslint.ast.body[1] as typeof run).map(shape));
    assert.deepEqual(module.tokensAndComments.map(shape), eslint.tokensAndComments.map(shape));
  });
});

/** The linted file's text changes a little each time, so it is parsed anew, like ESLint does for every lint. */
let edits = 0;
function resetParsesOf(file: string): void {
  edits++;
  setOverlay(path.join(root, file), `import { mid } from './mid';\nmid.use();\n// edit ${edits}\n`);
}
