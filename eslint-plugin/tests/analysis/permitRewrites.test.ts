import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { Edit, LoopNode } from '../../src/analysis';
import { getPermitCall, moveRetryLoopOutside, soleResult, swappableCallback, swapRetryNesting } from '../../src/analysis';
import { parse } from './parse';

function apply(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.range[0] - a.range[0])) out = out.slice(0, e.range[0]) + e.text + out.slice(e.range[1]);
  return out;
}

/** The first permit call in `code` and its first callback, as the rule sees them. */
function firstPermit(code: string) {
  const parsed = parse(code);
  for (const call of parsed.all(AST_NODE_TYPES.CallExpression)) {
    const permit = getPermitCall(parsed.sourceCode, call);
    if (permit) return { parsed, permit, callback: permit.callbacks[0] as TSESTree.Node };
  }
  throw new Error('no permit call');
}

describe('swappableCallback and soleResult', () => {
  it('one-shot callbacks without parameters', () => {
    const { parsed, permit, callback } = firstPermit(`import pLimit from 'p-limit';\nconst limit = pLimit(2);\nlimit(async () => { return await go(); });\ndeclare function go(): Promise<void>;`);
    const fn = swappableCallback(parsed.sourceCode, permit.call, callback);
    assert.ok(fn);
    assert.equal(soleResult(fn)?.type, AST_NODE_TYPES.CallExpression);
  });

  it('wrap, map and addAll are not one-shot; callbacks with parameters are not swapped', () => {
    const wrap = firstPermit(`import Bottleneck from 'bottleneck';\nconst b = new Bottleneck({ maxConcurrent: 1 });\nb.wrap(() => go());\ndeclare function go(): Promise<void>;`);
    assert.equal(swappableCallback(wrap.parsed.sourceCode, wrap.permit.call, wrap.callback), null);
    const keyed = firstPermit(`import AsyncLock from 'async-lock';\nconst l = new AsyncLock();\nl.acquire('k', (done: () => void) => done());`);
    assert.equal(swappableCallback(keyed.parsed.sourceCode, keyed.permit.call, keyed.callback), null);
  });

  it('a function expression that uses this is not moved into an arrow', () => {
    const { parsed, permit, callback } = firstPermit(`import pLimit from 'p-limit';\nconst limit = pLimit(2);\nlimit(function (this: any) { return this.go(); });`);
    assert.equal(swappableCallback(parsed.sourceCode, permit.call, callback), null);
  });
});

describe('swapRetryNesting', () => {
  it('keeps the retry options and the attempt parameters', () => {
    const code = `import pLimit from 'p-limit';\nimport pRetry from 'p-retry';\nconst limit = pLimit(2);\nexport const f = () => limit(() => pRetry((n) => go(n), { retries: 2 }));\ndeclare function go(n: number): Promise<void>;`;
    const { parsed, permit, callback } = firstPermit(code);
    const fn = swappableCallback(parsed.sourceCode, permit.call, callback);
    assert.ok(fn);
    const retry = soleResult(fn) as TSESTree.CallExpression;
    const edit = swapRetryNesting(parsed.sourceCode, permit.call, fn, retry);
    assert.ok(edit);
    assert.equal(apply(code, [edit]).split('\n')[3], 'export const f = () => pRetry((n) => limit(() => go(n)), { retries: 2 });');
  });

  it('refuses when the retry is not the whole callback, or its attempt is not an arrow', () => {
    const code = `import pLimit from 'p-limit';\nimport pRetry from 'p-retry';\nconst limit = pLimit(2);\nlimit(async () => { log(); return pRetry(go); });\ndeclare function go(): Promise<void>;\ndeclare function log(): void;`;
    const { parsed, permit, callback } = firstPermit(code);
    const fn = swappableCallback(parsed.sourceCode, permit.call, callback);
    assert.ok(fn);
    const retry = parsed.find(AST_NODE_TYPES.CallExpression, 'pRetry(go)');
    assert.equal(swapRetryNesting(parsed.sourceCode, permit.call, fn, retry), null);
  });
});

describe('moveRetryLoopOutside', () => {
  const loopOf = (parsed: ReturnType<typeof parse>): LoopNode => parsed.all(AST_NODE_TYPES.ForStatement)[0] as LoopNode;

  it('refuses when the permit call is not the last statement of the function', () => {
    const code = `import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export async function f() {
  if (Math.random() > 0.5) {
    return limit(async () => {
      for (;;) {
        try {
          return await go();
        } catch {
          await sleep(10);
        }
      }
    });
  }
  return null;
}
declare function go(): Promise<void>;`;
    const { parsed, permit, callback } = firstPermit(code);
    const fn = swappableCallback(parsed.sourceCode, permit.call, callback);
    assert.ok(fn);
    assert.equal(moveRetryLoopOutside(parsed.sourceCode, permit.call, fn, loopOf(parsed)), null);
  });

  it('refuses when the try block can continue the loop', () => {
    const code = `import pLimit from 'p-limit';
import { setTimeout as sleep } from 'node:timers/promises';
const limit = pLimit(2);
export async function f() {
  return limit(async () => {
    for (;;) {
      try {
        if (await skip()) continue;
        return await go();
      } catch {
        await sleep(10);
      }
    }
  });
}
declare function go(): Promise<void>;
declare function skip(): Promise<boolean>;`;
    const { parsed, permit, callback } = firstPermit(code);
    const fn = swappableCallback(parsed.sourceCode, permit.call, callback);
    assert.ok(fn);
    assert.equal(moveRetryLoopOutside(parsed.sourceCode, permit.call, fn, loopOf(parsed)), null);
  });
});
