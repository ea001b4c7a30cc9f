import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { asyncBodyRejection, isFunctionNode, wrapsGuardedCallback } from '../../src/analysis';
import { parse } from './parse';

const GUARDED = 'async (span) => { try { await extend(ids); } catch (error) { emitter.emit("error", error); } }';
const UNGUARDED = 'async (span) => { await extend(ids); }';

/** Does the first function of `code` (an async one) reject at run time? */
function rejects(code: string): boolean {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0];
  assert.ok(isFunctionNode(fn));
  return asyncBodyRejection(parsed.sourceCode, fn) !== null;
}

describe('wrapsGuardedCallback', () => {
  it('asks the callbacks of a call, through parentheses', () => {
    const parsed = parse(`(worker.trace('internal', 'extend', ${GUARDED}));`);
    const [statement] = parsed.all(AST_NODE_TYPES.ExpressionStatement);
    assert.ok(statement);
    assert.equal(wrapsGuardedCallback(statement.expression, () => true), true);
    assert.equal(wrapsGuardedCallback(statement.expression, () => false), false);
  });
  it('needs an async callback among the arguments', () => {
    const parsed = parse('worker.trace("extend", () => 1);\nworker.trace("extend", name);');
    const [sync, none] = parsed.all(AST_NODE_TYPES.ExpressionStatement);
    assert.ok(sync && none);
    assert.equal(wrapsGuardedCallback(sync.expression, () => true), false);
    assert.equal(wrapsGuardedCallback(none.expression, () => true), false);
  });
});

describe('asyncBodyRejection: an await of unknown code that wraps a guarded callback', () => {
  it('does not reject at run time', () => {
    assert.equal(rejects(`async function extendLocks(ids) { await this.worker.trace('internal', 'extendLocks', ${GUARDED}); }`), false);
    assert.equal(rejects(`async function run() { return await context.with(scope, ${GUARDED}); }`), false);
  });
  it('near misses: the callback can reject, a second callback can, no callback, a plain await', () => {
    assert.equal(rejects(`async function extendLocks(ids) { await this.worker.trace('internal', 'extendLocks', ${UNGUARDED}); }`), true);
    assert.equal(rejects(`async function run() { await retry(${GUARDED}, async () => { await report(); }); }`), true);
    assert.equal(rejects('async function run() { await this.worker.trace("internal", options); }'), true);
    assert.equal(rejects('async function run() { await this.worker.extend(ids); }'), true);
  });
});
