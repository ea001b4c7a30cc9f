import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { handedArguments, isFunctionNode, moduleSourceCode, sequentialWalk, settlesWithin, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

beforeEach(() => resetProject());

function walkOf(code: string, callText: string): string | null {
  const { sourceCode, find } = parse(code);
  const found = sequentialWalk(sourceCode, find(AST_NODE_TYPES.CallExpression, callText), 0);
  return found ? `${found.walker.type} over ${sourceCode.getText(found.list)}` : null;
}

describe('sequentialWalk', () => {
  it('finds a for…of loop that awaits each call', () => {
    assert.equal(walkOf('async function f(xs) { for (const b of xs) await run(b); }', 'run(b)'), 'ForOfStatement over xs');
  });
  it('finds a reduce promise chain, in the then and the async forms', () => {
    assert.equal(walkOf('const p = xs.reduce((q, b) => q.then(() => run(b)), Promise.resolve());', 'run(b)'), 'CallExpression over xs');
    assert.equal(walkOf('const p = xs.reduce(async (q, b) => { await q; await run(b); }, Promise.resolve());', 'run(b)'), 'CallExpression over xs');
  });
  it('is null when the walk does not wait for the call', () => {
    // Not awaited: every item's call starts at once.
    assert.equal(walkOf('async function f(xs) { for (const b of xs) run(b); }', 'run(b)'), null);
    // The accumulator is not chained on: the calls overlap.
    assert.equal(walkOf('const p = xs.reduce((q, b) => run(b), Promise.resolve());', 'run(b)'), null);
    assert.equal(walkOf('const p = xs.reduce(async (q, b) => { await run(b); }, Promise.resolve());', 'run(b)'), null);
    // No initial value: the first item is the accumulator.
    assert.equal(walkOf('const p = xs.reduce((q, b) => q.then(() => run(b)));', 'run(b)'), null);
    // Awaited as the argument of another call, which is what the loop waits for.
    assert.equal(walkOf('async function f(xs) { for (const b of xs) await wrap(run(b)); }', 'run(b)'), null);
  });
  it('is null for an argument that is not the item', () => {
    assert.equal(walkOf('async function f(xs, b) { for (const x of xs) await run(b); }', 'run(b)'), null);
    assert.equal(walkOf('async function f(xs) { for (let b of xs) { b = b.slice(1); await run(b); } }', 'run(b)'), null);
  });
});

describe('settlesWithin', () => {
  const settles = (code: string, text: string): boolean => {
    const { find } = parse(code);
    return settlesWithin(find(AST_NODE_TYPES.CallExpression, text));
  };
  it('is true for an awaited or returned call', () => {
    assert.equal(settles('async function f(xs) { await Promise.all(xs); }', 'Promise.all(xs)'), true);
    assert.equal(settles('function f(xs) { return Promise.all(xs); }', 'Promise.all(xs)'), true);
    assert.equal(settles('const f = (xs) => Promise.all(xs);', 'Promise.all(xs)'), true);
    assert.equal(settles('async function f(xs) { const ok = (await Promise.all(xs)).filter(Boolean); }', 'Promise.all(xs)'), true);
  });
  it('is false for a call left running', () => {
    assert.equal(settles('function f(xs) { Promise.all(xs); }', 'Promise.all(xs)'), false);
    assert.equal(settles('function f(xs) { const p = Promise.all(xs); return 1; }', 'Promise.all(xs)'), false);
  });
});

describe('handedArguments', () => {
  function fnNamed(name: string): { sourceCode: NonNullable<ReturnType<typeof moduleSourceCode>>; fn: FunctionNode } {
    const sourceCode = moduleSourceCode(fixture('fan-out-origins/src/batches.js'));
    assert.ok(sourceCode);
    let fn: FunctionNode | null = null;
    walk(sourceCode.ast, sourceCode.visitorKeys, (node: TSESTree.Node) => {
      if (node.type === AST_NODE_TYPES.MethodDefinition && node.key.type === AST_NODE_TYPES.Identifier && node.key.name === name && isFunctionNode(node.value)) fn = node.value;
      if (node.type === AST_NODE_TYPES.FunctionDeclaration && node.id?.name === name) fn = node;
      return true;
    });
    assert.ok(fn);
    return { sourceCode, fn };
  }
  it('lists the this.m(…) calls of an instance method and the calls of a file function', () => {
    const method = fnNamed('cleanBatch');
    const sites = handedArguments(method.sourceCode, method.fn, method.fn.params[0] as TSESTree.Node);
    assert.deepEqual(sites?.map((s) => [method.sourceCode.getText(s.call), s.index]), [['this.cleanBatch(batch)', 0]]);
    const plain = fnNamed('sendBatch');
    assert.deepEqual(handedArguments(plain.sourceCode, plain.fn, plain.fn.params[0] as TSESTree.Node)?.map((s) => s.call.loc.start.line), [23]);
  });
  it('is null for an exported function nobody in the package calls', () => {
    const exported = fnNamed('sendAll');
    assert.equal(handedArguments(exported.sourceCode, exported.fn, exported.fn.params[0] as TSESTree.Node), null);
  });
  it('is null without a file to ask about', () => {
    const { sourceCode, find } = parse('async function run(b) { await Promise.all(b.map(f)); }\nrun([]);');
    const fn = find(AST_NODE_TYPES.FunctionDeclaration, 'async function run(b) { await Promise.all(b.map(f)); }');
    assert.equal(handedArguments(sourceCode, fn, fn.params[0] as TSESTree.Node), null);
  });
});
