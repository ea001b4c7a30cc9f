import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { isDevOnly, moduleSourceCode, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

/** Whether the call `target` (its source text) runs only outside production. */
function devOnly(code: string, target = 'block()'): boolean {
  const parsed = parse(code);
  return isDevOnly(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, target));
}

/** The same question in a file of fixtures/dev-only, for the call whose text is `target`. */
function devOnlyIn(name: string, target: string): boolean {
  const sourceCode = moduleSourceCode(fixture(`dev-only/src/${name}`)) as Readonly<TSESLint.SourceCode>;
  assert.ok(sourceCode);
  let found: TSESTree.Node | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (!found && node.type === AST_NODE_TYPES.CallExpression && sourceCode.getText(node) === target) found = node;
  });
  assert.ok(found, target);
  return isDevOnly(sourceCode, found);
}

beforeEach(() => resetProject());

describe('isDevOnly', () => {
  it('under a test of NODE_ENV that rules production out', () => {
    assert.equal(devOnly("if (process.env.NODE_ENV !== 'production') { block(); }"), true);
    assert.equal(devOnly("if (process.env.NODE_ENV === 'development') block();"), true);
    assert.equal(devOnly("if ('test' == process.env.NODE_ENV && flag) block();"), true);
    assert.equal(devOnly("process.env.NODE_ENV !== 'production' && block();"), true);
    assert.equal(devOnly("const x = process.env.NODE_ENV === 'production' ? 1 : block();"), true);
    assert.equal(devOnly("if (process.env.NODE_ENV === 'production') run(); else block();"), true);
    assert.equal(devOnly("if (!(process.env.NODE_ENV === 'production')) block();"), true);
    assert.equal(devOnly("const debug = process.env.NODE_ENV !== 'production';\nif (debug) { app.get('/x', async () => block()); }"), true);
  });
  it('near misses: production may run it', () => {
    assert.equal(devOnly("if (process.env.NODE_ENV !== 'development') block();"), false);
    assert.equal(devOnly("if (process.env.NODE_ENV === 'production') block();"), false);
    assert.equal(devOnly("if (process.env.NODE_ENV !== 'production') other(); else block();"), false);
    assert.equal(devOnly("if (process.env.NODE_ENV !== 'production' || force) block();"), false);
    assert.equal(devOnly("const isDev = process.env.NODE_ENV === 'development';\nif (!isDev) block();"), false);
    assert.equal(devOnly("let debug = process.env.NODE_ENV !== 'production';\nif (debug) block();"), false);
    assert.equal(devOnly("if (process.env.DEBUG === 'production') block();"), false);
    assert.equal(devOnly("const process = { env: { NODE_ENV: 'x' } };\nif (process.env.NODE_ENV !== 'production') block();"), false);
    assert.equal(devOnly("if (process.env.NODE_ENV !== 'production') {}\nblock();"), false);
  });
  it('a test imported from one of the project modules', () => {
    assert.equal(devOnlyIn('server.js', "fs.cpSync('db.sqlite', 'db.snapshot')"), true);
    assert.equal(devOnlyIn('routes.ts', "fs.readFileSync('debug.log')"), true);
    // `!== 'development'` admits production; a `let` export may change.
    assert.equal(devOnlyIn('server.js', "fs.cpSync('db.snapshot', 'db.sqlite')"), false);
    assert.equal(devOnlyIn('routes.ts', "fs.readFileSync('flags.json')"), false);
  });
});
