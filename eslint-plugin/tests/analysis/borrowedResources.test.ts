import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { borrowsAtEveryCall, enclosingFunction, exportsAllUsed, moduleSourceCode, parameterSlot, walk } from '../../src/analysis';
import { lentArgument } from '../../src/analysis/acquireWrappers';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

// Acquires through a helper that lends back the caller's connection (fixtures/borrowed-connections):
// connection.js lends `conn` (`??` and an early return), the models call it with their own `conn`,
// controllers/orders.js hands in connections it took itself.
const at = (name: string): Readonly<TSESLint.SourceCode> => {
  const sourceCode = moduleSourceCode(fixture(`borrowed-connections/src/${name}`));
  assert.ok(sourceCode);
  return sourceCode;
};

/** The acquire call inside the function bound to `fn` (`getConnection(conn)`, `borrowOrTake(conn)`). */
function acquireIn(sourceCode: Readonly<TSESLint.SourceCode>, fn: string): TSESTree.CallExpression {
  let found: TSESTree.CallExpression | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (found || node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier) return true;
    if (!['getConnection', 'borrowOrTake'].includes(node.callee.name)) return true;
    const owner = enclosingFunction(node);
    const binding = owner?.parent?.type === AST_NODE_TYPES.VariableDeclarator ? owner.parent.id : null;
    if (binding?.type === AST_NODE_TYPES.Identifier && binding.name === fn) found = node;
    return true;
  });
  assert.ok(found, `no acquire in ${fn}`);
  return found;
}

beforeEach(() => resetProject());

describe('borrowsAtEveryCall', () => {
  it('holds when every call, through callers of callers, hands in a connection', () => {
    const orders = at('models/orders.js');
    // The controller passes its own `conn`; `recordOrder` passes a `conn` the controller fills.
    assert.equal(borrowsAtEveryCall(orders, acquireIn(orders, 'createOrder')), true);
    assert.equal(borrowsAtEveryCall(orders, acquireIn(orders, 'addLine')), true);
  });
  it('holds for an early-return lender, with a `let` the caller sets before the call', () => {
    const refunds = at('models/refunds.js');
    assert.equal(borrowsAtEveryCall(refunds, acquireIn(refunds, 'refund')), true);
  });
  it('fails when a call leaves the argument out (a spread does not count as passing it)', () => {
    const orders = at('models/orders.js');
    assert.equal(borrowsAtEveryCall(orders, acquireIn(orders, 'createDelivery')), false);
  });
  it('fails when the function is exported and nothing imports it', () => {
    const orphan = at('models/orphan.js');
    assert.equal(borrowsAtEveryCall(orphan, acquireIn(orphan, 'archiveOrder')), false);
  });
  it('fails when the module has an export nobody uses, even though the one call seen passes `conn`', () => {
    const carts = at('models/carts.js');
    assert.equal(exportsAllUsed(carts), false);
    assert.equal(borrowsAtEveryCall(carts, acquireIn(carts, 'clearCart')), false);
    assert.equal(exportsAllUsed(at('models/orders.js')), true);
  });
});

describe('parameterSlot', () => {
  it('a positional parameter and a destructured property', () => {
    const orders = at('models/orders.js');
    const slotOf = (fn: string): ReturnType<typeof parameterSlot> => {
      const call = acquireIn(orders, fn);
      const owner = enclosingFunction(call);
      assert.ok(owner);
      return parameterSlot(orders, owner, call.arguments[0] as TSESTree.Identifier);
    };
    assert.deepEqual(slotOf('createOrder'), { index: 0, property: 'conn' });
    assert.deepEqual(slotOf('addLine'), { index: 1, property: null });
  });
});

describe('lentArgument', () => {
  /** The argument index the last call `take(…)` in `code` gets back from its same-file helper. */
  const lent = (code: string): number | null => {
    const parsed = parse(code, 'file.js');
    const calls = parsed.all(AST_NODE_TYPES.CallExpression).filter((c) => c.callee.type === AST_NODE_TYPES.Identifier && c.callee.name === 'take');
    const call = calls[calls.length - 1];
    assert.ok(call);
    return lentArgument(parsed.sourceCode, call);
  };
  it('`??`, `||`, a conditional either way, and an early return', () => {
    assert.equal(lent('const take = async (sql, conn) => conn ?? (await pool.getConnection()); take(q, c);'), 1);
    assert.equal(lent('async function take(conn) { return conn || pool.connect(); } take(c);'), 0);
    assert.equal(lent('async function take(conn) { return conn != null ? conn : await pool.getConnection(); } take(c);'), 0);
    assert.equal(lent('async function take(conn) { return !conn ? await pool.getConnection() : conn; } take(c);'), 0);
    assert.equal(lent('async function take(conn) { if (conn) { return conn; } const c = await pool.getConnection(); return c; } take(c);'), 0);
  });
  it('through a helper that forwards to a lender', () => {
    assert.equal(lent('const lend = (conn) => conn ?? pool.connect(); const take = (conn) => lend(conn); take(c);'), 0);
  });
  it('null for helpers that always acquire, swap the argument, or return it without acquiring', () => {
    assert.equal(lent('async function take(conn) { return pool.getConnection(); } take(c);'), null);
    assert.equal(lent('async function take(conn) { conn = conn ?? other; return conn ?? pool.connect(); } take(c);'), null);
    assert.equal(lent('async function take(conn) { return conn; } take(c);'), null);
    assert.equal(lent('async function take(conn) { const c = await pool.connect(); if (conn) return conn; return c; } take(c);'), null);
  });
  it('null when the call does not pass the lent argument', () => {
    assert.equal(lent('const take = async (sql, conn) => conn ?? (await pool.getConnection()); take(q);'), null);
  });
});
