import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { enclosingFunction, inFlightWork } from '../../src/analysis';
import { parse } from './parse';

/** What is in flight at the call `target` (its source text). */
function at(code: string, target: string): string | null {
  const parsed = parse(code);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, target);
  const fn = enclosingFunction(call);
  assert.ok(fn);
  const found = inFlightWork(parsed.sourceCode, call, fn);
  return found && `${found.kind} at line ${found.at.loc.start.line}`;
}

describe('inFlightWork', () => {
  it('an async fan-out callback: map, forEach, Array.from', () => {
    assert.equal(at('async function f(xs) {\n  await Promise.all(xs.map(async (x) => { block(x); }));\n}', 'block(x)'), 'fan-out at line 2');
    assert.equal(at('function f(xs) {\n  xs.forEach(async (x) => { block(x); });\n}', 'block(x)'), 'fan-out at line 2');
    assert.equal(at('async function f(xs) {\n  await Promise.all(Array.from(xs, async (x) => block(x)));\n}', 'block(x)'), 'fan-out at line 2');
  });
  it('a function the file runs from a fan-out, directly or one step away', () => {
    assert.equal(at('async function work(x) { block(x); }\nasync function f(xs) {\n  await Promise.all(xs.map((x) => work(x)));\n}', 'block(x)'), 'fan-out at line 3');
    assert.equal(at('async function work(x) { block(x); }\nasync function f(xs) {\n  await Promise.all(xs.map(work));\n}', 'block(x)'), 'fan-out at line 3');
    assert.equal(at('async function work(x) { block(x); }\nasync function step(x) { await work(x); }\nasync function f(xs) {\n  await Promise.all(xs.map(async (x) => step(x)));\n}', 'block(x)'), 'fan-out at line 4');
  });
  it('a task started beside other work', () => {
    assert.equal(at('async function work() { block(); }\nasync function f() {\n  await Promise.all([work(), other()]);\n}', 'block()'), 'concurrent task at line 3');
    assert.equal(at('async function f() {\n  const p = load();\n  block();\n  await p;\n}', 'block()'), 'concurrent task at line 2');
    assert.equal(at('async function f() {\n  void load();\n  block();\n}', 'block()'), 'concurrent task at line 2');
    assert.equal(at('async function f() {\n  load().catch(log);\n  block();\n}', 'block()'), 'concurrent task at line 2');
    assert.equal(at('async function work() { block(); }\nasync function f() {\n  const p = work();\n  await other();\n  await p;\n}', 'block()'), 'concurrent task at line 3');
  });
  it('sequential code: nothing in flight (near misses)', () => {
    assert.equal(at('async function f(xs) {\n  for (const x of xs) { await step(x); block(x); }\n}', 'block(x)'), null);
    assert.equal(at('async function f(xs) {\n  xs.map((x) => block(x));\n}', 'block(x)'), null);
    assert.equal(at('async function f() {\n  const p = load();\n  await p;\n  block();\n}', 'block()'), null);
    assert.equal(at('async function f() {\n  await load();\n  block();\n}', 'block()'), null);
    assert.equal(at('async function main() { block(); }\nmain();', 'block()'), null);
    // Started and awaited with nothing else awaited between: the task ran alone.
    assert.equal(at('async function work() { block(); }\nasync function f() {\n  const p = work();\n  await p;\n}', 'block()'), null);
    // One element is no fan-out.
    assert.equal(at('async function work() { block(); }\nasync function f() {\n  await Promise.all([work()]);\n}', 'block()'), null);
  });
});
