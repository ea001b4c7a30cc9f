import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { ModuleExport } from '../../src/util/settings';
import { getPermitCall, isLimiterCall } from '../../src/analysis';
import { parse } from './parse';

interface Summary {
  kind: string;
  capacity: number | null;
  callbacks: string[];
}

/** The permit call whose source text starts with `prefix`, summarised. */
function permitOf(code: string, prefix: string, custom: readonly ModuleExport[] = []): Summary | null {
  const parsed = parse(code);
  const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) => parsed.sourceCode.getText(c).startsWith(prefix));
  assert.ok(call, `no call starting with ${prefix}`);
  const found = getPermitCall(parsed.sourceCode, call, custom);
  return found
    ? { kind: found.kind, capacity: found.capacity, callbacks: found.callbacks.map((c) => parsed.sourceCode.getText(c)) }
    : null;
}

describe('getPermitCall: library shapes', () => {
  it('a p-limit limiter on the instance: this.limit(fn); a field that is not one is nothing', () => {
    assert.deepEqual(permitOf(`import pLimit from 'p-limit';\nclass C {\n  private limit = pLimit(3);\n  run() { return this.limit(() => 1); }\n}`, 'this.limit('), {
      kind: 'limiter', capacity: 3, callbacks: ['() => 1'],
    });
    assert.equal(permitOf(`class C {\n  private limit = (f: () => number) => f();\n  run() { return this.limit(() => 1); }\n}`, 'this.limit('), null);
  });

  it('generic-pool: pool.use(fn) holds a pooled resource, max from the options', () => {
    assert.deepEqual(permitOf(`import genericPool from 'generic-pool';\nconst pool = genericPool.createPool(factory, { max: 4 });\npool.use((r) => r.go());\ndeclare const factory: any;`, 'pool.use('), {
      kind: 'genericPool', capacity: 4, callbacks: ['(r) => r.go()'],
    });
    assert.equal(permitOf(`import express from 'express';\nconst app = express();\napp.use((req, res) => res.end());`, 'app.use('), null);
  });

  it('p-limit: limit(fn, ...args) and limit.map, capacity from a literal, a const or options', () => {
    assert.deepEqual(permitOf(`import pLimit from 'p-limit';\nconst limit = pLimit(8);\nlimit(() => 1);`, 'limit('), {
      kind: 'limiter', capacity: 8, callbacks: ['() => 1'],
    });
    assert.deepEqual(permitOf(`import pLimit from 'p-limit';\nconst N = 3;\nconst limit = pLimit(N);\nlimit(work, 1);\ndeclare function work(n: number): Promise<void>;`, 'limit('), {
      kind: 'limiter', capacity: 3, callbacks: ['work'],
    });
    assert.deepEqual(permitOf(`import pLimit from 'p-limit';\nconst limit = pLimit({ concurrency: 5 });\nlimit.map([1], (x) => x);`, 'limit.map('), {
      kind: 'limiter', capacity: 5, callbacks: ['(x) => x'],
    });
    assert.equal(permitOf(`import pLimit from 'p-limit';\nconst limit = pLimit(n());\nlimit(() => 1);\ndeclare function n(): number;`, 'limit(')?.capacity, null);
  });

  it('p-map: the mapper holds one of `concurrency` slots; no option is no bound', () => {
    assert.deepEqual(permitOf(`import pMap from 'p-map';\npMap([1], (x) => x, { concurrency: 3 });`, 'pMap('), {
      kind: 'limiter', capacity: 3, callbacks: ['(x) => x'],
    });
    assert.equal(permitOf(`import pMap from 'p-map';\npMap([1], (x) => x);`, 'pMap(')?.capacity, Infinity);
    assert.equal(permitOf(`const pMap = require('p-map');\npMap([1], (x) => x, opts);\ndeclare const opts: any;`, 'pMap(')?.capacity, null);
    assert.equal(permitOf(`import pMap from './p-map';\npMap([1], (x) => x, { concurrency: 3 });`, 'pMap('), null);
  });

  it('async-mutex runExclusive on Mutex, Semaphore, withTimeout and a typed parameter', () => {
    assert.deepEqual(permitOf(`import { Mutex } from 'async-mutex';\nconst m = new Mutex();\nm.runExclusive(() => 1);`, 'm.run'), {
      kind: 'mutex', capacity: 1, callbacks: ['() => 1'],
    });
    assert.deepEqual(permitOf(`import { Semaphore } from 'async-mutex';\nconst s = new Semaphore(4);\ns.runExclusive(() => 1, 2);`, 's.run'), {
      kind: 'semaphore', capacity: 4, callbacks: ['() => 1'],
    });
    assert.equal(permitOf(`import { Mutex, withTimeout } from 'async-mutex';\nconst m = withTimeout(new Mutex(), 10);\nm.runExclusive(() => 1);`, 'm.run')?.kind, 'mutex');
    assert.equal(permitOf(`import type { MutexInterface } from 'async-mutex';\nfunction f(m: MutexInterface) { return m.runExclusive(() => 1); }`, 'm.run')?.kind, 'mutex');
  });

  it('runExclusive on an unknown object counts only where async-mutex is imported', () => {
    assert.equal(permitOf(`import 'async-mutex';\ndeclare const m: any;\nm.runExclusive(() => 1);`, 'm.run')?.capacity, null);
    assert.equal(permitOf(`declare const m: any;\nm.runExclusive(() => 1);`, 'm.run'), null);
  });

  it('p-queue add/addAll, with and without a concurrency bound', () => {
    assert.deepEqual(permitOf(`import PQueue from 'p-queue';\nconst q = new PQueue({ concurrency: 2 });\nq.addAll([() => 1, () => 2]);`, 'q.addAll'), {
      kind: 'queue', capacity: 2, callbacks: ['() => 1', '() => 2'],
    });
    assert.equal(permitOf(`import PQueue from 'p-queue';\nconst q = new PQueue();\nq.add(() => 1);`, 'q.add')?.capacity, Infinity);
    assert.equal(permitOf(`import PQueue from 'p-queue';\nconst q = new PQueue(opts);\nq.add(() => 1);\ndeclare const opts: any;`, 'q.add')?.capacity, null);
  });

  it('bottleneck schedule (with options first) and wrap', () => {
    assert.deepEqual(permitOf(`import Bottleneck from 'bottleneck';\nconst b = new Bottleneck({ maxConcurrent: 2 });\nb.schedule({ id: 'a' }, () => 1);`, 'b.schedule'), {
      kind: 'bottleneck', capacity: 2, callbacks: ['() => 1'],
    });
    assert.equal(permitOf(`import Bottleneck from 'bottleneck';\nconst b = new Bottleneck({ minTime: 5 });\nb.wrap(() => 1);`, 'b.wrap')?.capacity, Infinity);
  });

  it('async-lock acquire(key, cb); without a callback it is not a callback region', () => {
    assert.deepEqual(permitOf(`import AsyncLock from 'async-lock';\nconst l = new AsyncLock();\nl.acquire('k', () => 1);`, 'l.acquire'), {
      kind: 'keyedLock', capacity: 1, callbacks: ['() => 1'],
    });
    assert.equal(permitOf(`import AsyncLock from 'async-lock';\nconst l = new AsyncLock();\nl.acquire('k');`, 'l.acquire'), null);
  });

  it('navigator.locks.request: exclusive and shared', () => {
    assert.deepEqual(permitOf(`navigator.locks.request('a', () => 1);`, 'navigator'), { kind: 'webLock', capacity: 1, callbacks: ['() => 1'] });
    assert.deepEqual(permitOf(`globalThis.navigator.locks.request('a', { mode: 'shared' }, () => 1);`, 'globalThis'), {
      kind: 'webLock', capacity: null, callbacks: ['() => 1'],
    });
    assert.equal(permitOf(`const navigator = { locks: { request(a: string, b: () => number) { return b(); } } };\nnavigator.locks.request('a', () => 1);`, 'navigator.locks'), null);
  });

  it('team-declared shapes: export and method', () => {
    const custom = [{ module: '@acme/limits', export: 'withPermit' }, { module: '@acme/limits', method: 'enter' }];
    assert.equal(permitOf(`import { withPermit } from '@acme/limits';\nwithPermit('k', () => 1);`, 'withPermit', custom)?.kind, 'custom');
    assert.equal(permitOf(`import { createGate } from '@acme/limits';\nconst g = createGate();\ng.enter(() => 1);`, 'g.enter', custom)?.kind, 'custom');
    assert.equal(permitOf(`import { createGate } from '@acme/other';\nconst g = createGate();\ng.enter(() => 1);`, 'g.enter', custom), null);
    assert.equal(permitOf(`import { withPermit } from '@acme/limits';\nwithPermit('k', () => 1);`, 'withPermit'), null);
  });

  it('look-alikes are not permits', () => {
    assert.equal(permitOf(`const limit = (f: () => number) => f();\nlimit(() => 1);`, 'limit('), null);
    assert.equal(permitOf(`import pLimit from 'p-limit';\nconst limit = pLimit(2);\nlimit.clearQueue();`, 'limit.clear'), null);
    assert.equal(permitOf(`import { Mutex } from 'async-mutex';\nconst m = new Mutex();\nm.acquire();`, 'm.acquire'), null);
  });
});

describe('isLimiterCall', () => {
  it('limiters, queues and bottleneck, not locks', () => {
    const parsed = parse(`import pLimit from 'p-limit';
import PQueue from 'p-queue';
import { Mutex } from 'async-mutex';
const limit = pLimit(2);
const q = new PQueue({ concurrency: 1 });
const m = new Mutex();
limit(() => 1);
q.add(() => 2);
m.runExclusive(() => 3);
other(() => 4);
declare function other(f: () => number): void;`);
    const results = parsed.all(AST_NODE_TYPES.CallExpression)
      .filter((c) => c.parent.type === AST_NODE_TYPES.ExpressionStatement)
      .map((c) => isLimiterCall(parsed.sourceCode, c));
    assert.deepEqual(results, [true, true, false, false]);
  });
});
