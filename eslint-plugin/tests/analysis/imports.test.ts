import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { ModuleRef } from '../../src/analysis';
import { importedModules, normalizeModule, refMatches, resolveReference } from '../../src/analysis';
import { parse } from './parse';

/** Resolves the callee of the first call whose source text is `callText`. */
function resolveCallee(code: string, callText: string, filename?: string): ModuleRef | null {
  const parsed = parse(code, filename);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, callText);
  return resolveReference(parsed.sourceCode, call.callee);
}

const FS_READ_FILE_SYNC: ModuleRef = { module: 'fs', path: ['readFileSync'] };

describe('normalizeModule', () => {
  it('strips the node: prefix', () => {
    assert.deepEqual(normalizeModule('node:fs'), { module: 'fs', path: [] });
    assert.deepEqual(normalizeModule('fs'), { module: 'fs', path: [] });
  });

  it('folds subpaths that are a property of the parent module', () => {
    assert.deepEqual(normalizeModule('fs/promises'), { module: 'fs', path: ['promises'] });
    assert.deepEqual(normalizeModule('node:timers/promises'), { module: 'timers', path: ['promises'] });
  });

  it('leaves package subpaths alone', () => {
    assert.deepEqual(normalizeModule('mysql2/promise'), { module: 'mysql2/promise', path: [] });
    assert.deepEqual(normalizeModule('@scope/pkg'), { module: '@scope/pkg', path: [] });
  });
});

describe('resolveReference: ES module imports', () => {
  it('default import with node: prefix', () => {
    const ref = resolveCallee(`import fs from 'node:fs';\nfs.readFileSync('a');`, `fs.readFileSync('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('default import without the prefix', () => {
    const ref = resolveCallee(`import fs from 'fs';\nfs.readFileSync('a');`, `fs.readFileSync('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('namespace import', () => {
    const ref = resolveCallee(`import * as fs from 'fs';\nfs.readFileSync('a');`, `fs.readFileSync('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('renamed named import', () => {
    const ref = resolveCallee(`import { readFileSync as rfs } from 'fs';\nrfs('a');`, `rfs('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('named import with node: prefix', () => {
    const ref = resolveCallee(`import { execSync } from 'node:child_process';\nexecSync('ls');`, `execSync('ls')`);
    assert.deepEqual(ref, { module: 'child_process', path: ['execSync'] });
  });

  it('`promises` imported from fs and renamed', () => {
    const ref = resolveCallee(`import { promises as fsp } from 'fs';\nfsp.readFile('a');`, `fsp.readFile('a')`);
    assert.deepEqual(ref, { module: 'fs', path: ['promises', 'readFile'] });
  });

  it('fs/promises folds into fs.promises', () => {
    const ref = resolveCallee(`import { readFile } from 'node:fs/promises';\nreadFile('a');`, `readFile('a')`);
    assert.deepEqual(ref, { module: 'fs', path: ['promises', 'readFile'] });
    assert.ok(refMatches(ref, 'fs/promises', 'readFile'));
    assert.ok(refMatches(ref, 'node:fs', 'promises', 'readFile'));
  });

  it('`{ default as x }` is the default import', () => {
    const ref = resolveCallee(`import { default as fs } from 'fs';\nfs.readFileSync('a');`, `fs.readFileSync('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('string-named import specifier', () => {
    const ref = resolveCallee(`import { 'readFileSync' as r } from 'fs';\nr('a');`, `r('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('default and named imports in one declaration', () => {
    const parsed = parse(`import fs, { execSync } from 'fs';\nfs.statSync('a');\nexecSync('b');`);
    const stat = parsed.find(AST_NODE_TYPES.CallExpression, `fs.statSync('a')`);
    assert.deepEqual(resolveReference(parsed.sourceCode, stat.callee), { module: 'fs', path: ['statSync'] });
    const exec = parsed.find(AST_NODE_TYPES.CallExpression, `execSync('b')`);
    assert.deepEqual(resolveReference(parsed.sourceCode, exec.callee), { module: 'fs', path: ['execSync'] });
  });

  it('type-only import resolves for type references', () => {
    const parsed = parse(`import type { Mutex } from 'async-mutex';\nlet m: Mutex;`);
    const typeName = parsed.find(AST_NODE_TYPES.Identifier, 'Mutex', 1);
    assert.deepEqual(resolveReference(parsed.sourceCode, typeName), { module: 'async-mutex', path: ['Mutex'] });
  });

  it('TypeScript `import x = require()`', () => {
    const ref = resolveCallee(`import fs = require('fs');\nfs.readFileSync('a');`, `fs.readFileSync('a')`);
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('dynamic `await import()`, including its `default`', () => {
    const code = [
      `export async function f() {`,
      `  const fs = await import('node:fs');`,
      `  fs.readFileSync('a');`,
      `  const { default: fs2 } = await import('fs');`,
      `  fs2.readFileSync('b');`,
      `}`,
    ].join('\n');
    assert.deepEqual(resolveCallee(code, `fs.readFileSync('a')`), FS_READ_FILE_SYNC);
    const viaDefault = resolveCallee(code, `fs2.readFileSync('b')`);
    assert.ok(refMatches(viaDefault, 'fs', 'readFileSync'), JSON.stringify(viaDefault));
  });
});

describe('resolveReference: CommonJS require', () => {
  it('`const fs = require(\'fs\')`', () => {
    const ref = resolveCallee(`const fs = require('fs');\nfs.readFileSync('a');`, `fs.readFileSync('a')`, 'file.cjs');
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('destructured require with node: prefix', () => {
    const ref = resolveCallee(`const { execSync } = require('node:child_process');\nexecSync('ls');`, `execSync('ls')`, 'file.cjs');
    assert.deepEqual(ref, { module: 'child_process', path: ['execSync'] });
  });

  it('destructured and renamed from an already resolved object', () => {
    const code = `const fs = require('fs');\nconst { readFileSync: r } = fs;\nr('a');`;
    assert.deepEqual(resolveCallee(code, `r('a')`, 'file.cjs'), FS_READ_FILE_SYNC);
  });

  it('destructured and renamed from an imported namespace', () => {
    const code = `import * as fs from 'node:fs';\nconst { readFileSync: r } = fs;\nr('a');`;
    assert.deepEqual(resolveCallee(code, `r('a')`), FS_READ_FILE_SYNC);
  });

  it('nested destructuring and defaults', () => {
    const code = `const { promises: { readFile }, statSync = null } = require('fs');\nreadFile('a');\nstatSync('b');`;
    assert.deepEqual(resolveCallee(code, `readFile('a')`, 'file.cjs'), { module: 'fs', path: ['promises', 'readFile'] });
    assert.deepEqual(resolveCallee(code, `statSync('b')`, 'file.cjs'), { module: 'fs', path: ['statSync'] });
  });

  it('member access directly on require()', () => {
    const ref = resolveCallee(`require('fs').readFileSync('a');`, `require('fs').readFileSync('a')`, 'file.cjs');
    assert.deepEqual(ref, FS_READ_FILE_SYNC);
  });

  it('`const fsp = require(\'fs\').promises`', () => {
    const code = `const fsp = require('fs').promises;\nfsp.readFile('a');`;
    assert.deepEqual(resolveCallee(code, `fsp.readFile('a')`, 'file.cjs'), { module: 'fs', path: ['promises', 'readFile'] });
  });

  it('a `const` alias of a resolved function', () => {
    const code = `import * as fs from 'fs';\nconst read = fs.readFileSync;\nread('a');`;
    assert.deepEqual(resolveCallee(code, `read('a')`), FS_READ_FILE_SYNC);
  });

  it('`let` never reassigned still resolves', () => {
    const code = `let fs = require('fs');\nfs.readFileSync('a');`;
    assert.deepEqual(resolveCallee(code, `fs.readFileSync('a')`, 'file.cjs'), FS_READ_FILE_SYNC);
  });

  it('`require` made by `createRequire` is CommonJS require', () => {
    const code = [
      `import { createRequire } from 'node:module';`,
      `const require = createRequire(import.meta.url);`,
      `const cp = require('child_process');`,
      `cp.execSync('ls');`,
    ].join('\n');
    assert.deepEqual(resolveCallee(code, `cp.execSync('ls')`), { module: 'child_process', path: ['execSync'] });
  });
});

describe('resolveReference: member access forms', () => {
  it('bracket access with a string literal or plain template', () => {
    const code = "import fs from 'fs';\nfs['readFileSync']('a');\nfs[`readFileSync`]('b');";
    assert.deepEqual(resolveCallee(code, `fs['readFileSync']('a')`), FS_READ_FILE_SYNC);
    assert.deepEqual(resolveCallee(code, "fs[`readFileSync`]('b')"), FS_READ_FILE_SYNC);
  });

  it('optional chaining, casts and non-null assertions are transparent', () => {
    const code = `import fs from 'fs';\nfs?.readFileSync('a');\n(fs as typeof fs).readFileSync('b');\nfs!.readFileSync('c');`;
    assert.deepEqual(resolveCallee(code, `fs?.readFileSync('a')`), FS_READ_FILE_SYNC);
    assert.deepEqual(resolveCallee(code, `(fs as typeof fs).readFileSync('b')`), FS_READ_FILE_SYNC);
    assert.deepEqual(resolveCallee(code, `fs!.readFileSync('c')`), FS_READ_FILE_SYNC);
  });
});

describe('resolveReference: near-misses resolve to nothing', () => {
  it('a local object with a method named readFileSync', () => {
    const code = `const cache = { readFileSync(p: string) { return p; } };\ncache.readFileSync('a');`;
    assert.equal(resolveCallee(code, `cache.readFileSync('a')`), null);
  });

  it('a local object named fs', () => {
    const code = `const fs = { readFileSync: (p: string) => p };\nfs.readFileSync('a');`;
    assert.equal(resolveCallee(code, `fs.readFileSync('a')`), null);
  });

  it('a local function named readFileSync', () => {
    const code = `function readFileSync(p: string) { return p; }\nreadFileSync('a');`;
    assert.equal(resolveCallee(code, `readFileSync('a')`), null);
  });

  it('an undeclared global named like an export', () => {
    assert.equal(resolveCallee(`readFileSync('a');`, `readFileSync('a')`), null);
  });

  it('a parameter that shadows the import', () => {
    const code = `import fs from 'fs';\nexport function f(fs: { readFileSync(p: string): void }) { fs.readFileSync('a'); }`;
    assert.equal(resolveCallee(code, `fs.readFileSync('a')`), null);
  });

  it('a shadowed `require` declared in the file', () => {
    const code = `function require(name: string) { return { readFileSync: () => name }; }\nconst fs = require('fs');\nfs.readFileSync('a');`;
    assert.equal(resolveCallee(code, `fs.readFileSync('a')`), null);
  });

  it('a `require` parameter', () => {
    const code = `export function load(require: (m: string) => any) { require('fs').readFileSync('a'); }`;
    assert.equal(resolveCallee(code, `require('fs').readFileSync('a')`), null);
  });

  it('a `let` reassigned after its require', () => {
    const code = `let fs = require('fs');\nfs = { readFileSync() {} };\nfs.readFileSync('a');`;
    assert.equal(resolveCallee(code, `fs.readFileSync('a')`, 'file.cjs'), null);
  });

  it('require with a computed or extra argument', () => {
    const code = `const name = 'fs';\nrequire(name).readFileSync('a');\nrequire('fs', 1).readFileSync('b');`;
    assert.equal(resolveCallee(code, `require(name).readFileSync('a')`, 'file.cjs'), null);
    assert.equal(resolveCallee(code, `require('fs', 1).readFileSync('b')`, 'file.cjs'), null);
  });

  it('computed property access by variable', () => {
    const code = `import fs from 'fs';\nconst key = 'readFileSync';\n(fs as any)[key]('a');`;
    assert.equal(resolveCallee(code, `(fs as any)[key]('a')`), null);
  });

  it('a for-of binding and a catch parameter', () => {
    const code = `import fs from 'fs';\nfor (const fs of [1]) { fs.toFixed(); }\ntry {} catch (fs) { (fs as any).readFileSync('a'); }`;
    assert.equal(resolveCallee(code, `fs.toFixed()`), null);
    assert.equal(resolveCallee(code, `(fs as any).readFileSync('a')`), null);
  });

  it('`this.fs` and results of calls other than require', () => {
    const code = `class A { fs: any; run() { this.fs.readFileSync('a'); makeFs().readFileSync('b'); } }\ndeclare function makeFs(): any;`;
    assert.equal(resolveCallee(code, `this.fs.readFileSync('a')`), null);
    assert.equal(resolveCallee(code, `makeFs().readFileSync('b')`), null);
  });

  it('a variable declared twice with var', () => {
    const code = `var fs = require('fs');\nvar fs = require('fs');\nfs.readFileSync('a');`;
    assert.equal(resolveCallee(code, `fs.readFileSync('a')`, 'file.cjs'), null);
  });
});

describe('refMatches', () => {
  it('matches module and path, with or without node: and default', () => {
    assert.ok(refMatches({ module: 'fs', path: ['readFileSync'] }, 'node:fs', 'readFileSync'));
    assert.ok(refMatches({ module: 'p-limit', path: [] }, 'p-limit', 'default'));
    assert.ok(refMatches({ module: 'p-limit', path: [] }, 'p-limit'));
  });

  it('rejects other modules, shorter and longer paths, and null', () => {
    assert.ok(!refMatches({ module: 'fs', path: ['readFileSync'] }, 'fs', 'readFile'));
    assert.ok(!refMatches({ module: 'fs', path: ['readFileSync'] }, 'fs'));
    assert.ok(!refMatches({ module: 'fs', path: [] }, 'fs', 'readFileSync'));
    assert.ok(!refMatches({ module: 'fs-extra', path: ['readFileSync'] }, 'fs', 'readFileSync'));
    assert.ok(!refMatches(null, 'fs', 'readFileSync'));
  });

  it('a namespace `default` member is the default export', () => {
    assert.ok(refMatches({ module: 'p-limit', path: ['default'] }, 'p-limit', 'default'));
  });
});

describe('importedModules', () => {
  it('collects imports, require and dynamic import, normalized', () => {
    const code = [
      `import fs from 'node:fs';`,
      `import type { Mutex } from 'async-mutex';`,
      `import { readFile } from 'fs/promises';`,
      `const cp = require('child_process');`,
      `export async function f() { const m = await import('p-limit'); return [m, cp, fs, readFile]; }`,
      `const notAnImport = "require('lodash')";`,
    ].join('\n');
    const parsed = parse(code);
    const modules = importedModules(parsed.sourceCode);
    assert.deepEqual([...modules].sort(), ['async-mutex', 'child_process', 'fs', 'p-limit']);
    assert.equal(importedModules(parsed.sourceCode), modules, 'cached per SourceCode');
  });

  it("collects TypeScript's import-equals requires, exported or not", () => {
    const code = [
      `import fs = require('node:fs');`,
      `export import cp = require('child_process');`,
      `namespace N { export const x = 1; }`,
      `import alias = N.x;`,
      `export async function f() { return [fs, cp, alias]; }`,
    ].join('\n');
    assert.deepEqual([...importedModules(parse(code).sourceCode)].sort(), ['child_process', 'fs']);
  });

  it('counts calls in code only, whatever their spacing, and not words in comments', () => {
    const code = [
      `// require('bottleneck') in a comment`,
      `/* import('delay') */`,
      `const a = require ( 'async-mutex' );`,
      'const b = module.require(`p-queue`);',
      `const c = myrequire('lodash');`,
      `const d = x.import('ignored');`,
      `export { a, b, c, d };`,
    ].join('\n');
    assert.deepEqual([...importedModules(parse(code).sourceCode)].sort(), ['async-mutex', 'p-queue']);
  });

  it('is empty for a file without imports', () => {
    assert.equal(importedModules(parse(`export const x = 1;`).sourceCode).size, 0);
  });
});
