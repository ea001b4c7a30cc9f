import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { createSleepAnalysis, helperName, isFunctionNode, onlyCalledHolding, placeSleep, sleepChain } from '../../src/analysis';
import { parse } from './parse';

/**
 * `region` stands for a callback that runs holding a permit: the sites it waits for are the
 * entries. Answers, for each named function, whether every call of it is made holding.
 */
function held(code: string, filename = 'file.ts'): Record<string, boolean> {
  const parsed = parse(code, filename);
  const analysis = createSleepAnalysis(parsed.sourceCode);
  const fns = [
    ...parsed.all(AST_NODE_TYPES.FunctionDeclaration),
    ...parsed.all(AST_NODE_TYPES.ArrowFunctionExpression),
    ...parsed.all(AST_NODE_TYPES.FunctionExpression),
  ].filter(isFunctionNode);
  const region = fns.find((f) => helperName(f) === 'region') as FunctionNode;
  const entries = new Set<TSESTree.Node>(analysis.sitesIn(region).map((s) => s.node));
  const onlyHeld = onlyCalledHolding(parsed.sourceCode, analysis, entries);
  const out: Record<string, boolean> = {};
  for (const fn of fns) {
    const name = helperName(fn);
    if (name && name !== 'region') out[name] = onlyHeld(fn);
  }
  return out;
}

const SLEEP = `import { setTimeout as s } from 'node:timers/promises';\ndeclare function work(): Promise<void>;\n`;

describe('onlyCalledHolding', () => {
  it('helpers called only from the region, directly or through one another', () => {
    assert.deepEqual(
      held(`${SLEEP}async function inner() { await work(); await s(1); }
const outer = async () => { await work(); await inner(); };
const region = async () => { await outer(); };`),
      { inner: true, outer: true },
    );
  });

  it('a call outside the region, or one the region does not wait for', () => {
    assert.deepEqual(
      held(`${SLEEP}async function a() { await work(); await s(1); }
async function b() { await work(); await s(1); }
const region = async () => { await a(); void b(); };
export const elsewhere = () => a();`),
      { a: false, b: false, elsewhere: false },
    );
  });

  it('exported, re-exported, aliased or passed around: callable from anywhere', () => {
    assert.deepEqual(
      held(`${SLEEP}export async function a() { await work(); await s(1); }
async function b() { await work(); await s(1); }
async function c() { await work(); await s(1); }
async function d() { await work(); await s(1); }
const region = async () => { await a(); await b(); await c(); await d(); };
export { b };
const alias = c;
register(d);
declare function register(f: unknown): void;`),
      { a: false, b: false, c: false, d: false },
    );
    assert.deepEqual(
      held(`const { setTimeout: s } = require('node:timers/promises');
async function a() { await work(); await s(1); }
const region = async () => { await a(); };
module.exports = { a };`, 'file.js'),
      { a: false },
    );
  });

  it('a retry by recursion runs where the first call does, but is no proof by itself', () => {
    assert.deepEqual(
      held(`${SLEEP}async function a(n: number): Promise<void> { await s(1); if (n) await a(n - 1); }
const region = async () => { await a(3); };`),
      { a: true },
    );
    assert.deepEqual(
      held(`${SLEEP}async function a(n: number): Promise<void> { await s(1); if (n) await a(n - 1); }
const region = async () => { await a(3); };
export const free = () => a(1);`),
      { a: false, free: false },
    );
  });

  it('private methods are reached only by this.m of their class', () => {
    const code = (modifier: string, extra = '') => `${SLEEP}class Client {
  ${modifier} async pace() { await work(); await s(1); }
  async request() { return this.region(); }
  private region = async () => { await this.pace(); };
  ${extra}
}
export { Client };`;
    assert.deepEqual(held(code('private')), { pace: true, request: false });
    assert.deepEqual(held(code('')), { pace: false, request: false });
    // Also called outside the region, or on another instance: not known to be held.
    assert.deepEqual(held(code('private', 'async other() { await this.pace(); }')), { pace: false, request: false, other: false });
    assert.deepEqual(held(code('private', 'async other(c: Client) { await c.pace(); }')), { pace: false, request: false, other: false });
  });
});

describe('placeSleep', () => {
  it('moves into held helpers and stops at the first one that is not', () => {
    const parsed = parse(`${SLEEP}async function inner() { await work(); await s(1); }
async function outer() { await work(); await inner(); }
const region = async () => { await outer(); };
export const free = () => inner();`);
    const analysis = createSleepAnalysis(parsed.sourceCode);
    const region = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression).find((f) => helperName(f) === 'region') as FunctionNode;
    const [site] = analysis.sitesIn(region);
    assert.ok(site);
    const onlyHeld = onlyCalledHolding(parsed.sourceCode, analysis, new Set([site.node]));
    const placement = placeSleep(parsed.sourceCode, sleepChain(site.node, site), onlyHeld);
    assert.equal(placement.kind, 'callee');
    assert.equal(parsed.sourceCode.getText(placement.node), 'inner()');
    assert.deepEqual(placement.before.map((l) => helperName(l.callee)), ['outer']);
    assert.equal(parsed.sourceCode.getText(placement.leaf.node), 's(1)');
  });
});
