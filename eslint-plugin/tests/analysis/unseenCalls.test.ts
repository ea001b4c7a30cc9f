import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { exitsOnlyAfterShutdown, findManualAcquisitions, isUnseenCall } from '../../src/analysis';
import { parse } from './parse';

function unseen(code: string, text: string): boolean {
  const parsed = parse(code);
  return isUnseenCall(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text));
}

describe('isUnseenCall', () => {
  it('a package function and a method of a value from elsewhere are out of sight', () => {
    assert.equal(unseen("import { track } from 'metrics';\ntrack('x');", "track('x')"), true);
    assert.equal(unseen("export function f(signal, h) { signal.addEventListener('abort', h); }", "signal.addEventListener('abort', h)"), true);
  });

  it('a function of this file is in sight', () => {
    assert.equal(unseen("function check(x) { if (!x) throw new Error('x'); }\ncheck(1);", 'check(1)'), false);
  });

  it('the host functions that throw on bad input, and node assert, are never unseen', () => {
    assert.equal(unseen('export function f(body) { return JSON.parse(body); }', 'JSON.parse(body)'), false);
    assert.equal(unseen('export function f(s) { return decodeURIComponent(s); }', 'decodeURIComponent(s)'), false);
    assert.equal(unseen("import assert from 'node:assert';\nexport function f(x) { assert.ok(x); }", 'assert.ok(x)'), false);
    // A local `JSON` is no longer the host's.
    assert.equal(unseen('const JSON = make();\nexport function f(b) { return JSON.parse(b); }', 'JSON.parse(b)'), true);
  });

  it('an inline callback that may throw makes the call in sight', () => {
    assert.equal(unseen('export function f(items) { items.forEach((i) => { if (!i) throw new Error(); }); }', 'items.forEach((i) => { if (!i) throw new Error(); })'), false);
    assert.equal(unseen('export function f(items) { items.forEach(() => {}); }', 'items.forEach(() => {})'), true);
  });
});

describe('exitsOnlyAfterShutdown', () => {
  const poller = (stop: string): string => `
import { Sema } from 'async-sema';
export class Poller {
  constructor() { this.sema = new Sema(1); this.stopped = false; }
  async poll() {
    await this.sema.acquire();
    if (this.stopped) return null;
    await this.fetch();
    this.sema.release();
  }
  ${stop}
}`;

  function ask(code: string): boolean {
    const parsed = parse(code);
    const acquisition = findManualAcquisitions(parsed.sourceCode)[0];
    assert.ok(acquisition);
    return exitsOnlyAfterShutdown(parsed.sourceCode, acquisition, parsed.find(AST_NODE_TYPES.IfStatement, 'if (this.stopped) return null;').test);
  }

  it('the flag raised only where the owner is released too', () => {
    assert.equal(ask(poller('close() { this.stopped = true; this.sema.release(); }')), true);
  });

  it('a flag raised without a release, or to a value we cannot read, is no shutdown', () => {
    assert.equal(ask(poller('pause() { this.stopped = true; }')), false);
    assert.equal(ask(poller('close(v) { this.stopped = v; this.sema.release(); }')), false);
    assert.equal(ask(poller('')), false);
  });
});
