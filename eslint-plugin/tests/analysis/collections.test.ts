import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { CollectionContext } from '../../src/analysis';
import { collectionSize, describeFanOut, expressionWork, isWorker, mapperWork } from '../../src/analysis';
import { parse } from './parse';

/** The size of the expression `text` as it appears in `code`. */
function sizeOf(code: string, text: string): string {
  const parsed = parse(code);
  const ctx: CollectionContext = { sourceCode: parsed.sourceCode };
  const node = [...parsed.all(AST_NODE_TYPES.Identifier), ...parsed.all(AST_NODE_TYPES.CallExpression), ...parsed.all(AST_NODE_TYPES.ArrayExpression)]
    .find((n) => parsed.sourceCode.getText(n) === text);
  assert.ok(node, `no node ${text}`);
  const size = collectionSize(ctx, node);
  if (size.kind === 'bounded') return `bounded ${size.count}`;
  if (size.kind === 'chunk') return `chunk ${size.chunk.via} ${parsed.sourceCode.getText(size.chunk.size)}`;
  return 'unknown';
}

/** What the mapper passed to the first `.map(…)` / `Array.from(…, fn)` in `code` starts. */
function workOf(code: string): string {
  const parsed = parse(code);
  const ctx: CollectionContext = { sourceCode: parsed.sourceCode };
  const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) =>
    c.callee.type === AST_NODE_TYPES.MemberExpression && c.callee.property.type === AST_NODE_TYPES.Identifier &&
    (c.callee.property.name === 'map' || c.callee.property.name === 'from'));
  assert.ok(call);
  const mapper = call.arguments[call.arguments.length - 1];
  assert.ok(mapper);
  return mapperWork(ctx, mapper);
}

/** The fan-out found in the argument of the last `Promise.all(…)` in `code`. */
function fanOutOf(code: string, max = 16): string {
  const parsed = parse(code);
  const ctx: CollectionContext = { sourceCode: parsed.sourceCode };
  const all = parsed.all(AST_NODE_TYPES.CallExpression).filter((c) => parsed.sourceCode.getText(c.callee) === 'Promise.all');
  const arg = all[all.length - 1]?.arguments[0];
  assert.ok(arg);
  const fanOut = describeFanOut(ctx, arg, max);
  if (!fanOut) return 'none';
  return `${fanOut.shape} ${fanOut.size.kind}`;
}

describe('collectionSize', () => {
  it('counts literal arrays, including spreads of known size', () => {
    assert.equal(sizeOf(`const xs = [1, 2, 3];`, '[1, 2, 3]'), 'bounded 3');
    assert.equal(sizeOf(`const a = [1, 2]; const xs = [...a, 3];`, '[...a, 3]'), 'bounded 3');
    assert.equal(sizeOf(`declare const s: Set<number>; const xs = [...s];`, '[...s]'), 'unknown');
  });

  it('follows a const array, unless something resizes it', () => {
    assert.equal(sizeOf(`const R = ['eu', 'us']; R.map(String);`, 'R'), 'bounded 2');
    assert.equal(sizeOf(`const R = ['eu', 'us']; R.push('ap'); R.map(String);`, 'R'), 'unknown');
    assert.equal(sizeOf(`let R = ['eu']; R = load(); R.map(String); declare function load(): string[];`, 'R'), 'unknown');
  });

  it('reads slice(0, K), slice(-K) and Array.from({ length: K }) with literal or const K', () => {
    assert.equal(sizeOf(`declare const xs: number[]; xs.slice(0, 10);`, 'xs.slice(0, 10)'), 'bounded 10');
    assert.equal(sizeOf(`declare const xs: number[]; const K = 4; xs.slice(0, K);`, 'xs.slice(0, K)'), 'bounded 4');
    assert.equal(sizeOf(`declare const xs: number[]; xs.slice(-3);`, 'xs.slice(-3)'), 'bounded 3');
    assert.equal(sizeOf(`declare const xs: number[]; declare const k: number; xs.slice(0, k);`, 'xs.slice(0, k)'), 'unknown');
    assert.equal(sizeOf(`Array.from({ length: 5 });`, 'Array.from({ length: 5 })'), 'bounded 5');
    assert.equal(sizeOf(`declare const n: number; Array.from({ length: n });`, 'Array.from({ length: n })'), 'unknown');
    assert.equal(sizeOf(`Array(3).fill(0);`, 'Array(3).fill(0)'), 'bounded 3');
  });

  it('keeps the bound through filter/map and reads Object.keys of a const object literal', () => {
    assert.equal(sizeOf(`const R = [1, 2]; R.filter(Boolean);`, 'R.filter(Boolean)'), 'bounded 2');
    assert.equal(sizeOf(`const O = { a: 1, b: 2 }; Object.keys(O);`, 'Object.keys(O)'), 'bounded 2');
    assert.equal(sizeOf(`declare const o: object; Object.keys(o);`, 'Object.keys(o)'), 'unknown');
  });

  it('reads tuple annotations without type information', () => {
    assert.equal(sizeOf(`function f(pair: [string, string]) { return pair; }`, 'pair'), 'bounded 2');
    assert.equal(sizeOf(`function f(rest: [string, ...string[]]) { return rest; }`, 'rest'), 'unknown');
  });

  it('recognises the three chunking shapes inside a loop', () => {
    assert.equal(
      sizeOf(`declare const xs: number[]; for (let i = 0; i < xs.length; i += 20) xs.slice(i, i + 20);`, 'xs.slice(i, i + 20)'),
      'chunk slice 20',
    );
    assert.equal(
      sizeOf(`declare const xs: number[]; declare const n: number; for (let i = 0; i < xs.length; i += n) xs.slice(i, Math.min(i + n, xs.length));`, 'xs.slice(i, Math.min(i + n, xs.length))'),
      'chunk slice n',
    );
    assert.equal(sizeOf(`declare const xs: number[]; while (xs.length) xs.splice(0, 5);`, 'xs.splice(0, 5)'), 'chunk splice 5');
    assert.equal(
      sizeOf(`import { chunk } from 'lodash'; declare const xs: number[]; for (const batch of chunk(xs, 50)) batch.map(String);`, 'batch'),
      'chunk chunk 50',
    );
    // Outside a loop, a window is just one slice.
    assert.equal(sizeOf(`declare const xs: number[]; declare const i: number; xs.slice(i, i + 20);`, 'xs.slice(i, i + 20)'), 'unknown');
    // A chunk helper from an unrelated module is not lodash's.
    assert.equal(
      sizeOf(`import { chunk } from './pieces'; declare const xs: number[]; for (const batch of chunk(xs, 50)) batch.map(String);`, 'batch'),
      'unknown',
    );
  });
});

describe('mapperWork', () => {
  it('async functions that await something start work', () => {
    assert.equal(workOf(`declare function send(x: string): Promise<void>; declare const xs: string[]; xs.map(async (x) => { await send(x); });`), 'async');
    assert.equal(workOf(`declare const xs: { v: number }[]; xs.map(async (x) => x.v * 2);`), 'sync');
  });

  it('a call of an unknown function is presumed to start work; builtins and wrappers are not', () => {
    assert.equal(workOf(`import { send } from './mail'; declare const xs: string[]; xs.map((x) => send(x));`), 'async');
    assert.equal(workOf(`import { send } from './mail'; declare const xs: string[]; xs.map(send);`), 'async');
    assert.equal(workOf(`declare const xs: number[]; xs.map(String);`), 'sync');
    assert.equal(workOf(`declare const xs: number[]; xs.map((x) => Promise.resolve(x));`), 'existing');
    assert.equal(workOf(`declare const xs: number[]; xs.map((x) => JSON.stringify(x));`), 'sync');
  });

  it('already-running promises are not new work', () => {
    assert.equal(workOf(`declare const ups: { done: Promise<void> }[]; ups.map((u) => u.done);`), 'existing');
    assert.equal(workOf(`declare const ups: { done: Promise<void> }[]; ups.map((u) => u.done.then(() => 1));`), 'existing');
    assert.equal(workOf(`import { send } from './mail'; declare const xs: string[]; xs.map((x) => send(x).then(() => 1));`), 'async');
  });

  it('a limiter, a semaphore or a pool taken first bounds the work', () => {
    assert.equal(workOf(`import pLimit from 'p-limit'; import { send } from './mail'; const limit = pLimit(2); declare const xs: string[]; xs.map((x) => limit(() => send(x)));`), 'bounded');
    assert.equal(workOf(`import { Semaphore } from 'async-mutex'; import { send } from './mail'; const s = new Semaphore(2); declare const xs: string[];
      xs.map(async (x) => { const [, release] = await s.acquire(); try { await send(x); } finally { release(); } });`), 'bounded');
    assert.equal(workOf(`import pLimit from 'p-limit'; import { send, audit } from './mail'; const limit = pLimit(2); declare const xs: string[];
      xs.map(async (x) => { await audit(x); await limit(() => send(x)); });`), 'async');
    // p-queue without a concurrency admits everything.
    assert.equal(workOf(`import PQueue from 'p-queue'; import { send } from './mail'; const q = new PQueue(); declare const xs: string[]; xs.map((x) => q.add(() => send(x)));`), 'async');
  });

  it('same-file functions are followed', () => {
    assert.equal(workOf(`function label(x: { n: string }) { return x.n; } declare const xs: { n: string }[]; xs.map(label);`), 'existing');
    assert.equal(workOf(`function get(x: string) { return fetch(x); } declare const xs: string[]; xs.map(get);`), 'async');
  });

  it('team-declared limiter factories bound the work', () => {
    const parsed = parse(`import { createLimiter } from '@acme/limits'; import { send } from './mail'; const limit = createLimiter(3); declare const xs: string[]; xs.map((x) => limit(() => send(x)));`);
    const call = parsed.find(AST_NODE_TYPES.CallExpression, 'limit(() => send(x))');
    const withSetting: CollectionContext = { sourceCode: parsed.sourceCode, limiters: [{ module: '@acme/limits', export: 'createLimiter' }] };
    assert.equal(expressionWork(withSetting, call), 'bounded');
    assert.equal(expressionWork({ sourceCode: parsed.sourceCode }, call), 'async');
  });
});

describe('isWorker', () => {
  it('a loop pulling from shared state with an await inside is a worker', () => {
    const parsed = parse(`declare function send(x: string): Promise<void>; declare const xs: string[];
      const queue = [...xs];
      const worker = async () => { while (queue.length) { await send(queue.shift() as string); } };
      const local = async () => { const own = [...xs]; while (own.length) { await send(own.shift() as string); } };`);
    const fns = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression);
    assert.equal(isWorker(parsed.sourceCode, fns[0] as never), true);
    // Its queue is its own: N copies each process everything.
    assert.equal(isWorker(parsed.sourceCode, fns[1] as never), false);
  });
});

describe('describeFanOut', () => {
  it('maps, stored maps, push loops and literals', () => {
    assert.equal(fanOutOf(`import { send } from './mail'; declare const xs: string[]; Promise.all(xs.map(send));`), 'map unknown');
    assert.equal(fanOutOf(`import { send } from './mail'; declare const xs: string[]; const ps = xs.map(send); Promise.all(ps);`), 'stored unknown');
    assert.equal(fanOutOf(`import { send } from './mail'; declare const xs: string[]; const ps = []; for (const x of xs) ps.push(send(x)); Promise.all(ps);`), 'push unknown');
    assert.equal(fanOutOf(`import { send } from './mail'; Promise.all([send('a'), send('b'), send('c')]);`, 2), 'literal bounded');
    assert.equal(fanOutOf(`import { send } from './mail'; Promise.all([send('a'), send('b')]);`), 'none');
  });

  it('no fan-out when the size is small or the loop paces itself', () => {
    assert.equal(fanOutOf(`import { send } from './mail'; Promise.all(['a', 'b'].map(send));`), 'none');
    assert.equal(fanOutOf(`import { send } from './mail'; declare const xs: string[]; const ps = [];
      async function f() { for (const x of xs) { ps.push(send(x)); if (ps.length > 9) await Promise.all(ps.splice(0)); } }
      Promise.all(ps);`), 'none');
  });

  it('chunk loops are reported as chunks', () => {
    assert.equal(fanOutOf(`import { send } from './mail'; declare const xs: string[];
      async function f() { for (let i = 0; i < xs.length; i += 5) await Promise.all(xs.slice(i, i + 5).map(send)); }`), 'map chunk');
  });
});
