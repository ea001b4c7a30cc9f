import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { BlockingOptions } from '../../src/analysis';
import {
  DEFAULT_BLOCKING_OPTIONS,
  busyWait,
  catalogueEntry,
  createChainAnalysis,
  describeChain,
  getCallGraph,
  matchBlockingCall,
  mayBeBlockingName,
  mentionsClock,
  staticNumber,
} from '../../src/analysis';
import type { Parsed } from './parse';
import { parse } from './parse';

/** The catalogue name of the call with this text, or null when it is not blocking. */
function blockingName(parsed: Parsed, text: string, options: BlockingOptions = DEFAULT_BLOCKING_OPTIONS): string | null {
  const call = parsed.find(AST_NODE_TYPES.CallExpression, text);
  return matchBlockingCall(parsed.sourceCode, call, options)?.api.name ?? null;
}

describe('catalogueEntry', () => {
  it('knows every *Sync export of fs and fs-extra, with promise twins where the value is the same', () => {
    assert.deepEqual(catalogueEntry({ module: 'fs', path: ['readFileSync'] })?.twin, {
      kind: 'promise', module: 'node:fs/promises', export: 'readFile', namespacePath: ['promises'],
    });
    assert.equal(catalogueEntry({ module: 'fs', path: ['fsyncSync'] })?.name, 'fs.fsyncSync');
    assert.equal(catalogueEntry({ module: 'fs', path: ['openSync'] })?.twin, null);
    assert.equal(catalogueEntry({ module: 'fs', path: ['existsSync'] })?.twin?.result, 'exists');
    assert.equal(catalogueEntry({ module: 'fs', path: ['realpathSync', 'native'] })?.name, 'fs.realpathSync.native');
    assert.equal(catalogueEntry({ module: 'fs-extra', path: ['existsSync'] })?.twin?.export, 'pathExists');
    assert.equal(catalogueEntry({ module: 'fs-extra', path: ['outputJsonSync'] })?.twin?.export, 'outputJson');
  });

  it('does not take fs.promises, callback forms or the bare word Sync', () => {
    assert.equal(catalogueEntry({ module: 'fs', path: ['promises', 'readFile'] }), null);
    assert.equal(catalogueEntry({ module: 'fs', path: ['readFile'] }), null);
    assert.equal(catalogueEntry({ module: 'fs', path: ['Sync'] }), null);
    assert.equal(catalogueEntry({ module: 'fs', path: [] }), null);
  });

  it('covers child_process, execa, crypto, zlib, bcrypt and glob', () => {
    assert.equal(catalogueEntry({ module: 'child_process', path: ['execSync'] })?.twin?.result, 'stdout');
    assert.equal(catalogueEntry({ module: 'child_process', path: ['spawnSync'] })?.twin, null);
    assert.equal(catalogueEntry({ module: 'child_process', path: ['exec'] }), null);
    assert.ok(catalogueEntry({ module: 'execa', path: ['$', 'sync'] }));
    assert.equal(catalogueEntry({ module: 'execa', path: ['execa'] }), null);
    assert.equal(catalogueEntry({ module: 'crypto', path: ['scryptSync'] })?.twin?.export, 'scrypt');
    assert.equal(catalogueEntry({ module: 'crypto', path: ['randomBytes'] })?.sized, 'randomBytes');
    assert.equal(catalogueEntry({ module: 'crypto', path: ['createHash'] }), null);
    assert.equal(catalogueEntry({ module: 'zlib', path: ['brotliDecompressSync'] })?.twin?.export, 'brotliDecompress');
    assert.equal(catalogueEntry({ module: 'bcryptjs', path: ['genSaltSync'] })?.twin?.export, 'genSalt');
    assert.equal(catalogueEntry({ module: 'glob', path: ['globSync'] })?.twin?.export, 'glob');
    assert.equal(catalogueEntry({ module: 'glob', path: ['sync'] })?.twin, null);
    assert.equal(catalogueEntry({ module: 'fast-glob', path: ['sync'] })?.twin?.export, 'async');
    assert.equal(catalogueEntry({ module: 'lodash', path: ['debounceSync'] }), null);
  });
});

describe('matchBlockingCall', () => {
  it('resolves through imports, requires and renames, never by suffix alone', () => {
    const parsed = parse(
      [
        `import * as nfs from 'node:fs';`,
        `import { execSync as run } from 'child_process';`,
        `const { gzipSync } = require('zlib');`,
        `const store = { flushSync() {} };`,
        `nfs.statSync('a'); run('ls'); gzipSync(b); store.flushSync(); require('fs').mkdirSync('d');`,
        `declare const b: Buffer;`,
      ].join('\n'),
    );
    assert.equal(blockingName(parsed, `nfs.statSync('a')`), 'fs.statSync');
    assert.equal(blockingName(parsed, `run('ls')`), 'child_process.execSync');
    assert.equal(blockingName(parsed, `gzipSync(b)`), 'zlib.gzipSync');
    assert.equal(blockingName(parsed, `require('fs').mkdirSync('d')`), 'fs.mkdirSync');
    assert.equal(blockingName(parsed, `store.flushSync()`), null);
  });

  it('judges randomBytes and randomFillSync by their static size', () => {
    const parsed = parse(
      [
        `import crypto from 'node:crypto';`,
        `const KB = 1024;`,
        `const big = Buffer.alloc(128 * KB);`,
        `crypto.randomBytes(16); crypto.randomBytes(128 * KB); crypto.randomBytes(n); crypto.randomBytes(1 << 20, cb);`,
        `crypto.randomFillSync(big); crypto.randomFillSync(big, 0, 16); crypto.randomFillSync(new Float64Array(10000));`,
        `declare const n: number; declare const cb: () => void;`,
      ].join('\n'),
    );
    assert.equal(blockingName(parsed, `crypto.randomBytes(16)`), null);
    assert.equal(blockingName(parsed, `crypto.randomBytes(128 * KB)`), 'crypto.randomBytes');
    assert.equal(blockingName(parsed, `crypto.randomBytes(n)`), null);
    assert.equal(blockingName(parsed, `crypto.randomBytes(1 << 20, cb)`), null);
    assert.equal(blockingName(parsed, `crypto.randomFillSync(big)`), 'crypto.randomFillSync');
    assert.equal(blockingName(parsed, `crypto.randomFillSync(big, 0, 16)`), null);
    assert.equal(blockingName(parsed, `crypto.randomFillSync(new Float64Array(10000))`), 'crypto.randomFillSync');
    const lower = { ...DEFAULT_BLOCKING_OPTIONS, randomBytesThreshold: 8 };
    assert.equal(blockingName(parsed, `crypto.randomBytes(16)`, lower), 'crypto.randomBytes');
  });

  it('recognises the global Atomics.wait, not a local Atomics', () => {
    const global = parse(`Atomics.wait(view, 0, 0, 5); globalThis.Atomics.wait(view, 0, 0, 5);\ndeclare const view: Int32Array;`);
    assert.equal(blockingName(global, `Atomics.wait(view, 0, 0, 5)`), 'Atomics.wait');
    assert.equal(blockingName(global, `globalThis.Atomics.wait(view, 0, 0, 5)`), 'Atomics.wait');
    const local = parse(`const Atomics = { wait() {} };\nAtomics.wait();`);
    assert.equal(blockingName(local, `Atomics.wait()`), null);
  });

  it('adds configured entries and drops allowed ones', () => {
    const parsed = parse(`import { loadSync } from '@acme/cfg';\nimport { readFileSync } from 'fs';\nloadSync(); readFileSync('a');`);
    const options: BlockingOptions = {
      ...DEFAULT_BLOCKING_OPTIONS,
      blockingCalls: [{ module: '@acme/cfg', export: 'loadSync' }],
      allow: [{ module: 'node:fs', export: 'readFileSync' }],
    };
    assert.equal(blockingName(parsed, `loadSync()`), null);
    assert.equal(blockingName(parsed, `loadSync()`, options), '@acme/cfg.loadSync');
    assert.equal(blockingName(parsed, `readFileSync('a')`, options), null);
  });
});

describe('mayBeBlockingName', () => {
  it('passes every catalogued name and configured export, and filters the rest', () => {
    for (const name of ['readFileSync', 'execaSync', 'wait', 'randomBytes', 'sync', 's', 'native', null]) {
      assert.equal(mayBeBlockingName(name), true, String(name));
    }
    for (const name of ['readFile', 'map', 'log', 'query']) assert.equal(mayBeBlockingName(name), false, name);
    const options = { ...DEFAULT_BLOCKING_OPTIONS, blockingCalls: [{ module: 'db', export: 'client.query' }] };
    assert.equal(mayBeBlockingName('query', options), true);
  });
});

describe('staticNumber', () => {
  it('folds literals, arithmetic and const names; gives up on anything else', () => {
    const parsed = parse(`const A = 2 ** 10; let B = 3;\nf(A * 4, 1 << 3, B, '8', A + g());\ndeclare function f(...a: unknown[]): void; declare function g(): number;`);
    const args = parsed.find(AST_NODE_TYPES.CallExpression, `f(A * 4, 1 << 3, B, '8', A + g())`).arguments;
    assert.deepEqual(args.map((a) => staticNumber(parsed.sourceCode, a, 0)), [4096, 8, null, null, null]);
  });
});

describe('busyWait', () => {
  const loops = (parsed: Parsed) => [
    ...parsed.all(AST_NODE_TYPES.WhileStatement),
    ...parsed.all(AST_NODE_TYPES.DoWhileStatement),
    ...parsed.all(AST_NODE_TYPES.ForStatement),
  ].sort((a, b) => a.range[0] - b.range[0]);

  it('finds loops that compare a clock and never await', () => {
    const parsed = parse(
      [
        `while (Date.now() < end) {}`,
        `for (; performance.now() - t0 <= ms; ) spin();`,
        `do { spin(); } while (ready() && process.hrtime.bigint() < limit);`,
        `while (new Date().getTime() < end) {}`,
        `declare const end: number, t0: number, ms: number, limit: bigint; declare function spin(): void; declare function ready(): boolean;`,
      ].join('\n'),
    );
    assert.deepEqual(loops(parsed).map((l) => busyWait(parsed.sourceCode, l)?.clockName ?? null), [
      'Date.now()', 'performance.now()', 'process.hrtime.bigint()', 'new Date().getTime()',
    ]);
  });

  it('leaves polls, non-clock loops and shadowed clocks alone', () => {
    const parsed = parse(
      [
        `async function poll() { while (Date.now() < end) { await tick(); } }`,
        `async function* gen() { while (Date.now() < end) { yield 1; } }`,
        `while (i < n) i++;`,
        `while (Date.now() !== end) {}`,
        `function shadow(Date: { now(): number }) { while (Date.now() < end) {} }`,
        `while (Date.now() < end) { setTimeout(async () => { await tick(); }); }`,
        `declare let i: number; declare const n: number, end: number; declare function tick(): Promise<void>;`,
      ].join('\n'),
    );
    // The last loop's await is inside a callback that runs later: the loop itself still spins.
    assert.deepEqual(loops(parsed).map((l) => busyWait(parsed.sourceCode, l) !== null), [false, false, false, false, false, true]);
  });

  it('has a cheap pre-check for files that mention no clock', () => {
    assert.equal(mentionsClock(parse(`const x = 1;`).sourceCode), false);
    assert.equal(mentionsClock(parse(`const t = Date.now();`).sourceCode), true);
  });
});

describe('createChainAnalysis', () => {
  function chainOf(code: string, name: string): string | null {
    const parsed = parse(code);
    const graph = getCallGraph(parsed.sourceCode);
    const fn = graph.functions.find((f) => f.name === name);
    assert.ok(fn, `no function ${name}`);
    const chain = createChainAnalysis(parsed.sourceCode, DEFAULT_BLOCKING_OPTIONS, null).helperChain(fn.node);
    return chain ? describeChain(chain) : null;
  }

  it('names the blocking call a helper makes, directly or through further helpers', () => {
    const code = [
      `import { readFileSync } from 'node:fs';`,
      `function read() { return readFileSync('a'); }`,
      `function load() { return read(); }`,
      `const render = () => load() + 'x';`,
      `function pure() { return 1; }`,
    ].join('\n');
    assert.equal(chainOf(code, 'read'), 'calls `fs.readFileSync` (line 2)');
    assert.equal(chainOf(code, 'load'), 'calls `read()` (line 3), which calls `fs.readFileSync` (line 2)');
    assert.equal(chainOf(code, 'render'), 'calls `load()` (line 4), which calls `read()` (line 3), which calls `fs.readFileSync` (line 2)');
    assert.equal(chainOf(code, 'pure'), null);
  });

  it('prefers a direct blocking call over one further down', () => {
    const code = [
      `import { execSync } from 'node:child_process';`,
      `function inner() { return execSync('a'); }`,
      `function outer() { inner(); return execSync('b'); }`,
    ].join('\n');
    assert.equal(chainOf(code, 'outer'), 'calls `child_process.execSync` (line 3)');
  });

  it('finds busy waits, and skips async helpers, generators, timers and recursion', () => {
    const code = [
      `import { readFileSync } from 'node:fs';`,
      `function spin(ms: number) { const end = Date.now() + ms; while (Date.now() < end) {} }`,
      `async function later() { return readFileSync('a'); }`,
      `function* gen() { yield readFileSync('a'); }`,
      `function viaAsync() { return later(); }`,
      `function viaGen() { return gen(); }`,
      `function timer() { setTimeout(() => readFileSync('a'), 5); }`,
      `function loop(n: number): number { return n > 0 ? loop(n - 1) : 0; }`,
    ].join('\n');
    assert.equal(chainOf(code, 'spin'), 'busy-waits on `Date.now()` (line 2)');
    assert.equal(chainOf(code, 'viaAsync'), null);
    assert.equal(chainOf(code, 'viaGen'), null);
    assert.equal(chainOf(code, 'timer'), null);
    assert.equal(chainOf(code, 'loop'), null);
  });

  it('summarises a helper once, however many callers ask', () => {
    const parsed = parse(`import { readFileSync } from 'node:fs';\nfunction read() { return readFileSync('a'); }`);
    const fn = getCallGraph(parsed.sourceCode).functions.find((f) => f.name === 'read');
    assert.ok(fn);
    const analysis = createChainAnalysis(parsed.sourceCode, DEFAULT_BLOCKING_OPTIONS, null);
    assert.equal(analysis.helperChain(fn.node), analysis.helperChain(fn.node));
  });
});
