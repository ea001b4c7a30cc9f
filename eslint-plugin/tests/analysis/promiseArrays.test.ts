import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TypeOracle } from '../../src/analysis';
import { isAwaitedArrayCombined, mapForOfRewrite, promiseArrayOrigin, promiseOrigin } from '../../src/analysis';
import { parse } from './parse';

/** The kind of array of promises the expression statement on the last line holds, or null. */
function arrayKind(code: string, types?: TypeOracle): string | null {
  const parsed = parse(code);
  const statements = parsed.all(AST_NODE_TYPES.ExpressionStatement);
  const last = statements[statements.length - 1];
  assert.ok(last);
  // As the rule asks: a chain with a rejection handler needs nothing.
  const isPromise = (node: TSESTree.Node): boolean => {
    const origin = promiseOrigin(parsed.sourceCode, node, types);
    return origin !== null && !(origin.kind === 'chain' && origin.handlesRejection);
  };
  return promiseArrayOrigin(parsed.sourceCode, last.expression, isPromise, types)?.kind ?? null;
}

const SEND = 'async function send(id: string) { return id; }\n';

describe('promiseArrayOrigin', () => {
  it('knows .map with an async callback, a promise-valued arrow body, and promise functions by name', () => {
    assert.equal(arrayKind('declare const xs: string[];\nxs.map(async (x) => x);'), 'map');
    assert.equal(arrayKind('declare const xs: string[];\nxs.map(async function (x) { return x; });'), 'map');
    assert.equal(arrayKind(`${SEND}declare const xs: string[];\nxs.map((x) => send(x));`), 'map');
    assert.equal(arrayKind(`${SEND}declare const xs: string[];\nxs.map(send);`), 'map');
    assert.equal(arrayKind('declare const xs: string[];\nxs.map(fetch);'), 'map');
    assert.equal(arrayKind("import { readFile } from 'node:fs/promises';\ndeclare const xs: string[];\nxs.map(readFile);"), 'map');
    assert.equal(arrayKind('[1, 2].map(() => Promise.reject(new Error("x")));'), 'map');
  });

  it('knows array literals with a promise in them, also through a spread', () => {
    assert.equal(arrayKind(`${SEND}[send('a'), 1];`), 'literal');
    assert.equal(arrayKind(`${SEND}declare const xs: string[];\n[...xs.map(send)];`), 'literal');
    assert.equal(arrayKind('[1, , "two"];'), null);
    assert.equal(arrayKind('declare const xs: string[];\n[...xs];'), null);
  });

  it('leaves out what is not an array of promises', () => {
    assert.equal(arrayKind('declare const xs: string[];\nxs.map((x) => x.length);'), null);
    assert.equal(arrayKind('declare const xs: string[];\nxs.map(String);'), null);
    assert.equal(arrayKind('declare const xs: string[];\nxs.map((x) => { return fetch(x); });'), null);
    assert.equal(arrayKind('declare const xs: string[];\nxs.map(async function* (x) { yield x; });'), null);
    assert.equal(arrayKind("import { notify } from './elsewhere';\ndeclare const xs: string[];\nxs.map(notify);"), null);
    assert.equal(arrayKind('declare const xs: string[];\nxs.forEach(async (x) => x);'), null);
    // A same-file async function that cannot reject.
    assert.equal(arrayKind('async function safe(x: string) { try { await fetch(x); } catch {} }\ndeclare const xs: string[];\nxs.map(safe);'), null);
  });

  describe('with types', () => {
    const arrays: TypeOracle = { isThenable: () => false, typeText: () => 'Promise<void>[]', isThenableArray: () => true };

    it('adds what only the type knows', () => {
      assert.equal(arrayKind('declare const jobs: unknown;\njobs;', arrays), 'typed');
      assert.equal(arrayKind("import { notify } from './elsewhere';\ndeclare const xs: string[];\nxs.map(notify);", arrays), 'typed');
      assert.equal(arrayKind('declare const xs: string[];\nxs.map((x) => { return fetch(x); });', arrays), 'typed');
    });

    it('never overrules what the syntax decided', () => {
      // The arrow's body was asked about and is a handled chain; the named callback cannot reject.
      assert.equal(arrayKind('declare const xs: string[];\nxs.map((x) => fetch(x).catch(console.error));', arrays), null);
      assert.equal(arrayKind('async function safe(x: string) { try { await fetch(x); } catch {} }\ndeclare const xs: string[];\nxs.map(safe);', arrays), null);
      // Literals and functions are not asked about.
      assert.equal(arrayKind('[1, 2];', arrays), null);
    });

    it('asks nothing of an oracle without the array question', () => {
      const plain: TypeOracle = { isThenable: () => false, typeText: () => 'any' };
      assert.equal(arrayKind('declare const jobs: unknown;\njobs;', plain), null);
    });
  });
});

describe('mapForOfRewrite', () => {
  const rewrite = (code: string): string | null => {
    const parsed = parse(code);
    const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) =>
      c.callee.type === AST_NODE_TYPES.MemberExpression && parsed.sourceCode.getText(c.callee).endsWith('.map'));
    assert.ok(call);
    return mapForOfRewrite(parsed.sourceCode, call)?.text ?? null;
  };

  it('rewrites a statement of its own, also under await or void', () => {
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(async (x) => { await g(x); }); }'), 'for (const x of xs) { await g(x); }');
    assert.equal(rewrite('async function f(xs: string[]) { await xs.map(async (x) => g(x)); }'), 'for (const x of xs) { await g(x); }');
    assert.equal(rewrite('async function f(xs: string[]) { void xs.map((x) => g(x)); }'), 'for (const x of xs) { await g(x); }');
  });

  it('refuses what would change more than the scheduling', () => {
    assert.equal(rewrite('async function f(xs: string[]) { const ys = xs.map(async (x) => g(x)); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { ok && xs.map(async (x) => g(x)); }'), null);
    assert.equal(rewrite('function f(xs: string[]) { xs.map(async (x) => { await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(async (x, i) => { await g(x, i); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(async (x) => { if (!x) return; await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(async (x) => { var y = await g(x); h(y); }); }'), null);
    assert.equal(rewrite('async function f(xs?: string[]) { xs?.map(async (x) => { await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(g); }'), null);
  });

  it('keeps a var that belongs to a nested function', () => {
    assert.equal(rewrite('async function f(xs: string[]) { xs.map(async (x) => { await g(function () { var y = x; return y; }); }); }'),
      'for (const x of xs) { await g(function () { var y = x; return y; }); }');
  });
});

describe('isAwaitedArrayCombined', () => {
  const combined = (code: string): boolean => {
    const parsed = parse(code);
    const awaited = parsed.all(AST_NODE_TYPES.AwaitExpression).find((a) => a.argument.type === AST_NODE_TYPES.CallExpression &&
      parsed.sourceCode.getText(a.argument.callee).endsWith('.map'));
    assert.ok(awaited);
    return isAwaitedArrayCombined(parsed.sourceCode, awaited);
  };

  it('sees the array reach Promise.all directly or through a variable', () => {
    assert.equal(combined('async function f(xs: string[]) { await Promise.all(await xs.map(async (x) => x)); }'), true);
    assert.equal(combined('async function f(xs: string[]) { const ps = await xs.map(async (x) => x); await Promise.allSettled(ps); }'), true);
  });

  it('does not count other uses or a local Promise', () => {
    assert.equal(combined('async function f(xs: string[]) { const ps = await xs.map(async (x) => x); console.log(ps); }'), false);
    assert.equal(combined('async function f(xs: string[]) { await xs.map(async (x) => x); }'), false);
    assert.equal(combined('const Promise = { all: (x: unknown) => x };\nasync function f(xs: string[]) { Promise.all(await xs.map(async (x) => x)); }'), false);
    assert.equal(combined('async function f(xs: string[]) { await Promise.resolve(await xs.map(async (x) => x)); }'), false);
  });
});
