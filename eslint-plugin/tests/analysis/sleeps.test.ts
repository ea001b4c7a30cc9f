import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { createSleepAnalysis, enclosingRetryLoop, isFunctionNode, isWaitedFor, mayContainSleeps, moduleSourceCode, sourceFileOf } from '../../src/analysis';
import { scratch, write } from '../project/helpers';
import type { ModuleExport } from '../../src/util/settings';
import { parse } from './parse';

/** The kind of the first call or `new` whose text is `text`. */
function classify(code: string, text: string, extra: Parameters<typeof createSleepAnalysis>[1] = []): string | null {
  const parsed = parse(code);
  const analysis = createSleepAnalysis(parsed.sourceCode, extra);
  const calls = [...parsed.all(AST_NODE_TYPES.CallExpression), ...parsed.all(AST_NODE_TYPES.NewExpression)];
  const node = calls.find((c) => parsed.sourceCode.getText(c) === text);
  assert.ok(node, `no call ${text}`);
  return analysis.classify(node);
}

describe('createSleepAnalysis: classify', () => {
  it('timers/promises setTimeout in every import form', () => {
    assert.equal(classify(`import { setTimeout } from 'node:timers/promises';\nsetTimeout(5);`, 'setTimeout(5)'), 'sleep');
    assert.equal(classify(`import { setTimeout as s } from 'timers/promises';\ns(5);`, 's(5)'), 'sleep');
    assert.equal(classify(`import * as t from 'node:timers/promises';\nt.setTimeout(5);`, 't.setTimeout(5)'), 'sleep');
    assert.equal(classify(`import t from 'node:timers';\nt.promises.setTimeout(5);`, 't.promises.setTimeout(5)'), 'sleep');
    assert.equal(classify(`const { setTimeout: w } = require('timers/promises');\nw(5);`, 'w(5)'), 'sleep');
    assert.equal(classify(`const { promises } = require('node:timers');\npromises.setTimeout(5);`, 'promises.setTimeout(5)'), 'sleep');
    assert.equal(classify(`import { scheduler } from 'node:timers/promises';\nscheduler.wait(5);`, 'scheduler.wait(5)'), 'sleep');
  });

  it('the callback setTimeout is not a sleep by itself', () => {
    assert.equal(classify(`setTimeout(() => 1, 5);`, 'setTimeout(() => 1, 5)'), null);
    assert.equal(classify(`import { setTimeout } from 'node:timers';\nsetTimeout(() => 1, 5);`, 'setTimeout(() => 1, 5)'), null);
  });

  it('timer promises: expression, block and wrapped-resolve executors', () => {
    assert.equal(classify(`new Promise((r) => setTimeout(r, 5));`, 'new Promise((r) => setTimeout(r, 5))'), 'sleep');
    assert.equal(classify(`new Promise(function (r) { setTimeout(r, 5); });`, 'new Promise(function (r) { setTimeout(r, 5); })'), 'sleep');
    assert.equal(classify(`new Promise((ok) => { return setTimeout(() => ok(), 5); });`, 'new Promise((ok) => { return setTimeout(() => ok(), 5); })'), 'sleep');
    assert.equal(classify(`new Promise((ok) => { setTimeout(() => { ok(); }, 5); });`, 'new Promise((ok) => { setTimeout(() => { ok(); }, 5); })'), 'sleep');
  });

  it('promises that are not plain timers', () => {
    assert.equal(classify(`new Promise((r, j) => setTimeout(j, 5));`, 'new Promise((r, j) => setTimeout(j, 5))'), null);
    assert.equal(classify(`new Promise((r) => { log(); setTimeout(r, 5); });`, 'new Promise((r) => { log(); setTimeout(r, 5); })'), null);
    assert.equal(classify(`new Promise((r) => queueMicrotask(r));`, 'new Promise((r) => queueMicrotask(r))'), null);
    assert.equal(classify(`class Promise2 {}\nnew Promise2();`, 'new Promise2()'), null);
  });

  it('promisify(setTimeout), direct and through a const', () => {
    assert.equal(classify(`import { promisify } from 'node:util';\nconst w = promisify(setTimeout);\nw(5);`, 'w(5)'), 'sleep');
    assert.equal(classify(`import util from 'util';\nutil.promisify(setTimeout)(5);`, 'util.promisify(setTimeout)(5)'), 'sleep');
    assert.equal(classify(`import { promisify } from 'node:util';\nconst r = promisify(readFile);\nr(5);\ndeclare const readFile: any;`, 'r(5)'), null);
  });

  it('the delay package and retry helpers', () => {
    assert.equal(classify(`import delay from 'delay';\ndelay(5);`, 'delay(5)'), 'sleep');
    assert.equal(classify(`import pRetry from 'p-retry';\npRetry(() => 1);`, 'pRetry(() => 1)'), 'retry');
    assert.equal(classify(`import retry from 'async-retry';\nretry(() => 1);`, 'retry(() => 1)'), 'retry');
    assert.equal(classify(`import { backOff } from 'exponential-backoff';\nbackOff(() => 1);`, 'backOff(() => 1)'), 'retry');
    assert.equal(classify(`const promiseRetry = require('promise-retry');\npromiseRetry(() => 1);`, 'promiseRetry(() => 1)'), 'retry');
    assert.equal(classify(`import { retry } from './retry';\nretry(() => 1);`, 'retry(() => 1)'), null);
  });

  it('same-file helpers recognised by body, not by name', () => {
    assert.equal(classify(`const nap = (ms: number) => new Promise((r) => setTimeout(r, ms));\nnap(5);`, 'nap(5)'), 'sleep');
    assert.equal(
      classify(`import { setTimeout as s } from 'node:timers/promises';\nasync function b(n: number) { const ms = 2 ** n; log(ms); await s(ms); }\nb(1);\ndeclare function log(x: unknown): void;`, 'b(1)'),
      'sleep',
    );
    assert.equal(classify(`async function sleep(ms: number) { await fetch('/' + ms); }\nsleep(5);`, 'sleep(5)'), null);
    assert.equal(
      classify(`import { setTimeout as s } from 'node:timers/promises';\nasync function waitForJob() { await fetch('/'); await s(5); }\nwaitForJob();`, 'waitForJob()'),
      null,
    );
  });

  it('team-declared sleeps: exports and methods', () => {
    assert.equal(classify(`import { pause } from '@acme/time';\npause(5);`, 'pause(5)', [{ module: '@acme/time', export: 'pause' }]), 'sleep');
    assert.equal(classify(`import { pause } from '@acme/time';\npause(5);`, 'pause(5)'), null);
    assert.equal(classify(`declare const clock: any;\nclock.idle(5);`, 'clock.idle(5)', [{ method: 'idle' } as ModuleExport]), 'sleep');
    assert.equal(
      classify(`import { Clock } from '@acme/time';\nconst clock = new Clock();\nclock.idle(5);`, 'clock.idle(5)', [{ module: '@acme/other', method: 'idle' }]),
      null,
    );
  });
});

describe('isWaitedFor', () => {
  function waited(code: string, text: string): boolean {
    const parsed = parse(code);
    return isWaitedFor(parsed.find(AST_NODE_TYPES.CallExpression, text));
  }
  it('await, return, arrow body, awaited Promise.all element', () => {
    assert.equal(waited(`async () => { await s(1); };`, 's(1)'), true);
    assert.equal(waited(`function f() { return s(1); }`, 's(1)'), true);
    assert.equal(waited(`const f = () => s(1);`, 's(1)'), true);
    assert.equal(waited(`async () => { await Promise.all([a(), s(1)]); };`, 's(1)'), true);
  });
  it('started, chained, raced or thrown away', () => {
    assert.equal(waited(`async () => { void s(1); };`, 's(1)'), false);
    assert.equal(waited(`async () => { const p = s(1); await p; };`, 's(1)'), false);
    assert.equal(waited(`async () => { await Promise.race([a(), s(1)]); };`, 's(1)'), false);
    assert.equal(waited(`xs.forEach(() => s(1));`, 's(1)'), false);
    assert.equal(waited(`async () => { await s(1).then(a); };`, 's(1)'), false);
  });
});

describe('enclosingRetryLoop', () => {
  function loopOf(code: string, text: string): string | null {
    const parsed = parse(code);
    const loop = enclosingRetryLoop(parsed.find(AST_NODE_TYPES.CallExpression, text));
    return loop ? loop.type : null;
  }
  it('a sleep in the catch of a try inside a loop', () => {
    assert.equal(loopOf(`async () => { for (;;) { try { return await a(); } catch { await s(1); } } };`, 's(1)'), 'ForStatement');
    assert.equal(loopOf(`async () => { while (true) { try { return await a(); } catch (e) { if (x) { await s(1); } } } };`, 's(1)'), 'WhileStatement');
  });
  it('a sleep after a try … catch in the loop body', () => {
    assert.equal(loopOf(`async () => { do { try { return await a(); } catch {} await s(1); } while (x); };`, 's(1)'), 'DoWhileStatement');
  });
  it('not a retry loop', () => {
    assert.equal(loopOf(`async () => { for (;;) { await a(); await s(1); } };`, 's(1)'), null);
    assert.equal(loopOf(`async () => { try { await a(); } catch { await s(1); } };`, 's(1)'), null);
    assert.equal(loopOf(`async () => { for (;;) { try { await a(); } catch { xs.map(async () => { await s(1); }); } } };`, 's(1)'), null);
  });
});

describe('sitesIn', () => {
  function sites(code: string, fnIndex = -1): { text: string; kind: string; via: string | null; loop: boolean }[] {
    const parsed = parse(code);
    const analysis = createSleepAnalysis(parsed.sourceCode);
    const fns = [
      ...parsed.all(AST_NODE_TYPES.ArrowFunctionExpression),
      ...parsed.all(AST_NODE_TYPES.FunctionDeclaration),
      ...parsed.all(AST_NODE_TYPES.FunctionExpression),
    ].filter(isFunctionNode).sort((a, b) => a.range[0] - b.range[0]);
    const fn = fns.at(fnIndex) as TSESTree.ArrowFunctionExpression;
    return analysis.sitesIn(fn).map((s) => ({
      text: parsed.sourceCode.getText(s.node),
      kind: s.kind,
      via: s.via ? parsed.sourceCode.getText(s.via.node) : null,
      loop: s.retryLoop !== null,
    }));
  }

  it('direct sleeps, retries and calls into same-file functions that sleep', () => {
    const code = `import { setTimeout as s } from 'node:timers/promises';
import pRetry from 'p-retry';
async function withRetry() { for (;;) { try { return await a(); } catch { await s(10); } } }
async function plain() { return a(); }
const region = async () => { await s(1); await pRetry(a); await withRetry(); await plain(); s(2); };
declare function a(): Promise<void>;`;
    assert.deepEqual(sites(code), [
      { text: 's(1)', kind: 'sleep', via: null, loop: false },
      { text: 'pRetry(a)', kind: 'retry', via: null, loop: false },
      { text: 'withRetry()', kind: 'sleep', via: 's(10)', loop: false },
    ]);
  });

  it('does not enter functions that run later, does enter synchronous callbacks', () => {
    const code = `import { setTimeout as s } from 'node:timers/promises';
const region = async (xs: number[]) => {
  setTimeout(async () => { await s(1); }, 0);
  const later = async () => { await s(2); };
  await Promise.all(xs.map(async (x) => { await s(x); }));
  return later;
};`;
    assert.deepEqual(sites(code, 0), [{ text: 's(x)', kind: 'sleep', via: null, loop: false }]);
  });

  it('the work of an awaited race is waited for, its deadline timer is not', () => {
    const code = `import { setTimeout as s } from 'node:timers/promises';
async function settle() { await a(); await s(5); }
const region = async () => { await Promise.race([settle(), s(1000)]); void Promise.race([settle()]); };
declare function a(): Promise<void>;`;
    assert.deepEqual(sites(code), [{ text: 'settle()', kind: 'sleep', via: 's(5)', loop: false }]);
  });

  it('a promise handed to a same-file function that waits for that parameter', () => {
    const code = `import { setTimeout as s } from 'node:timers/promises';
async function settle() { await a(); await s(5); }
const deadline = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<T>((_, no) => setTimeout(no, ms))]);
const keep = (p: Promise<void>) => { kept.push(p); };
const region = async () => { await deadline(settle(), 10); keep(settle()); await keep(settle()); };
declare function a(): Promise<void>;
declare const kept: Promise<void>[];`;
    assert.deepEqual(sites(code), [{ text: 'settle()', kind: 'sleep', via: 's(5)', loop: false }]);
  });

  it('recursion terminates', () => {
    const code = `import { setTimeout as s } from 'node:timers/promises';
async function a(n: number): Promise<void> { if (n) await b(n - 1); }
async function b(n: number): Promise<void> { await a(n); await s(1); }
const region = async () => { await a(3); };`;
    assert.deepEqual(sites(code), [{ text: 'a(3)', kind: 'sleep', via: 'b(n - 1)', loop: false }]);
  });
});

describe('helpers imported from project modules', () => {
  const root = scratch('sleep-modules');
  write(path.join(root, 'package.json'), '{"name":"app","dependencies":{"p-limit":"6.0.0"}}');
  write(path.join(root, 'utils/sleep.ts'), 'export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));\n');
  write(path.join(root, 'utils/poll.ts'), "import { sleep } from './sleep';\nexport async function poll(check: () => Promise<boolean>) {\n  while (!(await check())) await sleep(50);\n}\n");
  write(path.join(root, 'utils/plain.ts'), 'export async function plain() { return 1; }\n');
  write(path.join(root, 'app.ts'), "import { sleep } from './utils/sleep';\nimport { poll } from './utils/poll';\nimport { plain } from './utils/plain';\nexport const region = async () => { await sleep(1); await poll(ready); await plain(); };\ndeclare function ready(): Promise<boolean>;\n");
  write(path.join(root, 'quiet.ts'), "import { plain } from './utils/plain';\nexport const region = async () => { await plain(); };\n");
  const app = (): NonNullable<ReturnType<typeof moduleSourceCode>> => {
    const sourceCode = moduleSourceCode(path.join(root, 'app.ts'));
    assert.ok(sourceCode);
    return sourceCode;
  };

  it('an imported sleep is a sleep; an imported helper that sleeps is a site in its module', () => {
    const sourceCode = app();
    const analysis = createSleepAnalysis(sourceCode);
    const region = sourceCode.ast.body.flatMap((s) => (s.type === 'ExportNamedDeclaration' && s.declaration?.type === 'VariableDeclaration' ? s.declaration.declarations : []))[0]?.init;
    assert.ok(region && isFunctionNode(region));
    const found = analysis.sitesIn(region).map((s) => ({
      text: sourceCode.getText(s.node),
      via: s.via ? `${path.basename(sourceFileOf(s.via.sourceCode) ?? '')}:${s.via.sourceCode.getText(s.via.node)}` : null,
      origin: s.origin ? s.origin.sourceCode.getText(s.origin.node) : null,
    }));
    assert.deepEqual(found, [
      { text: 'sleep(1)', via: null, origin: 'new Promise<void>((r) => setTimeout(r, ms))' },
      { text: 'poll(ready)', via: 'poll.ts:sleep(50)', origin: null },
    ]);
  });

  it('the early exit looks into the modules a file imports', () => {
    assert.equal(mayContainSleeps(app(), [], false), true);
    const quiet = moduleSourceCode(path.join(root, 'quiet.ts'));
    assert.ok(quiet);
    assert.equal(mayContainSleeps(quiet, [], false), false);
  });
});
