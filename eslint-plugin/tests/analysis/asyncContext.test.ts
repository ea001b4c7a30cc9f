import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TSESTree } from '@typescript-eslint/utils';
import { functionName, getAsyncContext, isInAsyncContext, isSynchronouslyInvoked } from '../../src/analysis';
import type { FunctionNode } from '../../src/analysis';
import { parse } from './parse';

/** The call `block()` marks the spot being asked about in each snippet. */
const PRELUDE = `declare function block(): void;\ndeclare const items: number[];\n`;

function contextAt(code: string, nth = 0): ReturnType<typeof getAsyncContext> {
  const parsed = parse(PRELUDE + code);
  return getAsyncContext(parsed.find(AST_NODE_TYPES.CallExpression, 'block()', nth));
}

/** Name of the async function `block()` runs in, or null. */
function asyncNameAt(code: string, nth = 0): string | null | undefined {
  const context = contextAt(code, nth);
  return context ? (functionName(context.asyncFunction) ?? '<anonymous>') : undefined;
}

describe('getAsyncContext: async functions of every shape', () => {
  it('async function declaration', () => {
    assert.equal(asyncNameAt(`async function load() { block(); }`), 'load');
  });

  it('async function expression and async arrow', () => {
    assert.equal(asyncNameAt(`const load = async function () { block(); };`), 'load');
    assert.equal(asyncNameAt(`const load = async () => { block(); };`), 'load');
    assert.equal(asyncNameAt(`const load = async () => block();`), 'load');
  });

  it('async class method and async object method', () => {
    assert.equal(asyncNameAt(`class Service { async load() { block(); } }`), 'load');
    assert.equal(asyncNameAt(`const api = { async load() { block(); } };`), 'load');
  });

  it('async generator function and method', () => {
    assert.equal(asyncNameAt(`async function* stream() { block(); yield 1; }`), 'stream');
    assert.equal(asyncNameAt(`class Feed { async *rows() { block(); } }`), 'rows');
  });

  it('a parameter default runs as part of the call', () => {
    assert.equal(asyncNameAt(`async function load(x = block()) { return x; }`), 'load');
  });

  it('the innermost async function wins', () => {
    const context = contextAt(`async function outer() { const inner = async () => { block(); }; await inner(); }`);
    assert.equal(context && functionName(context.asyncFunction), 'inner');
    assert.deepEqual(context?.via, []);
  });

  it('an async callback handed to forEach is its own async context', () => {
    assert.equal(asyncNameAt(`function run() { items.forEach(async function each() { block(); }); }`), 'each');
  });
});

describe('getAsyncContext: synchronous callbacks run inside the async function', () => {
  for (const method of ['map', 'forEach', 'filter', 'some', 'every', 'find', 'flatMap', 'sort']) {
    it(`.${method} callback`, () => {
      const context = contextAt(`async function load() { items.${method}((x: any) => { block(); return x; }); }`);
      assert.equal(context && functionName(context.asyncFunction), 'load');
      assert.equal(context?.via.length, 1);
    });
  }

  it('.reduce callback with an initial value', () => {
    assert.equal(asyncNameAt(`async function sum() { return items.reduce((a, b) => { block(); return a + b; }, 0); }`), 'sum');
  });

  it('nested callbacks list every hop, innermost first', () => {
    const parsed = parse(PRELUDE + `async function load() { items.map((a) => [a].forEach(function inner(b) { block(); })); }`);
    const context = getAsyncContext(parsed.find(AST_NODE_TYPES.CallExpression, 'block()'));
    const arrow = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.equal(context && functionName(context.asyncFunction), 'load');
    assert.deepEqual(context?.via.map((fn) => functionName(fn) ?? fn.type), ['inner', arrow?.type]);
    assert.equal(context?.via[1], arrow);
  });

  it('the new Promise executor', () => {
    assert.equal(asyncNameAt(`async function wait() { await new Promise<void>((resolve) => { block(); resolve(); }); }`), 'wait');
  });

  it('immediately invoked arrow and function expressions', () => {
    assert.equal(asyncNameAt(`async function load() { (() => { block(); })(); }`), 'load');
    assert.equal(asyncNameAt(`async function load() { (function () { block(); })(); }`), 'load');
  });

  it('Array.from with a map function', () => {
    assert.equal(asyncNameAt(`async function load() { Array.from(items, (x) => { block(); return x; }); }`), 'load');
  });

  it('optional-call array method', () => {
    assert.equal(asyncNameAt(`async function load(xs?: number[]) { xs?.map((x) => { block(); return x; }); }`), 'load');
  });

  it('a callback wrapped in a type assertion', () => {
    assert.equal(asyncNameAt(`async function load() { items.forEach(((x: number) => { block(); }) as (x: number) => void); }`), 'load');
  });
});

describe('getAsyncContext: code that does not run in an async function', () => {
  it('module top level, even with top-level await', () => {
    assert.equal(contextAt(`block();\nawait Promise.resolve();`), null);
  });

  it('a plain synchronous function', () => {
    assert.equal(contextAt(`function load() { block(); }`), null);
  });

  it('a setTimeout callback defined in an async function', () => {
    assert.equal(contextAt(`async function load() { setTimeout(() => { block(); }, 10); }`), null);
  });

  it('an event listener registered in an async function', () => {
    assert.equal(contextAt(`declare const emitter: any;\nasync function load() { emitter.on('data', () => { block(); }); }`), null);
  });

  it('a named helper defined in an async function and called later by a timer', () => {
    const code = `async function load() { function later() { block(); } setTimeout(later, 10); }`;
    assert.equal(contextAt(code), null);
  });

  it('a helper defined in an async function and handed to a listener', () => {
    const code = `declare const server: any;\nasync function start() { const onRequest = () => { block(); }; server.on('request', onRequest); }`;
    assert.equal(contextAt(code), null);
  });

  it('a .then callback runs later, as a microtask', () => {
    assert.equal(contextAt(`async function load(p: Promise<number>) { p.then(() => { block(); }); }`), null);
  });

  it('setImmediate, queueMicrotask and process.nextTick callbacks', () => {
    const code = [
      `async function load() {`,
      `  setImmediate(() => block());`,
      `  queueMicrotask(() => block());`,
      `  process.nextTick(() => block());`,
      `}`,
    ].join('\n');
    for (const nth of [0, 1, 2]) assert.equal(contextAt(code, nth), null, `call #${nth}`);
  });

  it('a sync callback inside a timer callback inside an async function', () => {
    assert.equal(contextAt(`async function load() { setTimeout(() => items.forEach(() => block()), 0); }`), null);
  });

  it('a callback passed in a position the array method does not call', () => {
    assert.equal(contextAt(`declare const other: any;\nasync function load() { items.map(other, () => block()); }`), null);
  });

  it('a class defined inside an async function: field initializers and static blocks', () => {
    const code = `async function load() { class Cache { data = block(); static { block(); } } return Cache; }`;
    assert.equal(contextAt(code, 0), null);
    assert.equal(contextAt(code, 1), null);
  });

  it('a sync method of a class defined inside an async function', () => {
    assert.equal(contextAt(`async function load() { return class { run() { block(); } }; }`), null);
  });
});

describe('isSynchronouslyInvoked', () => {
  function firstArrow(code: string): FunctionNode {
    const parsed = parse(PRELUDE + code);
    const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(fn);
    return fn;
  }

  it('is true for array callbacks, executors and IIFEs', () => {
    assert.ok(isSynchronouslyInvoked(firstArrow(`items.map((x) => x);`)));
    assert.ok(isSynchronouslyInvoked(firstArrow(`new Promise((resolve) => resolve(1));`)));
    assert.ok(isSynchronouslyInvoked(firstArrow(`(() => 1)();`)));
  });

  it('is false for timers, listeners, stored functions and unknown callees', () => {
    assert.ok(!isSynchronouslyInvoked(firstArrow(`setTimeout(() => 1);`)));
    assert.ok(!isSynchronouslyInvoked(firstArrow(`declare const e: any;\ne.on('x', () => 1);`)));
    assert.ok(!isSynchronouslyInvoked(firstArrow(`const f = () => 1;`)));
    assert.ok(!isSynchronouslyInvoked(firstArrow(`declare function use(f: () => number): void;\nuse(() => 1);`)));
    assert.ok(!isSynchronouslyInvoked(firstArrow(`Array.from(() => 1);`)));
  });

  it('is false for the second argument of a Promise and for other constructors', () => {
    assert.ok(!isSynchronouslyInvoked(firstArrow(`declare const Other: any;\nnew Other(() => 1);`)));
  });
});

describe('isInAsyncContext', () => {
  it('agrees with getAsyncContext', () => {
    const parsed = parse(PRELUDE + `async function a() { block(); }\nfunction b() { block(); }`);
    const [inAsync, inSync] = parsed.all(AST_NODE_TYPES.CallExpression) as TSESTree.CallExpression[];
    assert.ok(inAsync && isInAsyncContext(inAsync));
    assert.ok(inSync && !isInAsyncContext(inSync));
  });
});
