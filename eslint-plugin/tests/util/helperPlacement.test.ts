import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { DEFAULT_RANDOM_BYTES_THRESHOLD } from '../../src/analysis';
import type { JudgedContext, RunContext } from '../../src/util/blockingReports';
import { helperPlacement } from '../../src/util/helperPlacement';
import { parse } from '../analysis/parse';

const blocking = { blockingCalls: [], allow: [], randomBytesThreshold: DEFAULT_RANDOM_BYTES_THRESHOLD };

/** `judged`: the context of each call of `helper`, by line (`serving` by default); with it, those calls are made in async code. */
function place(code: string, options: { strict?: boolean; reportedLines?: number[]; judged?: Record<number, JudgedContext> } = {}) {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration).find((f) => f.id?.name === 'helper');
  assert.ok(fn);
  const servingCalls = new Map<TSESTree.CallExpression, RunContext>();
  if (options.judged) {
    for (const call of parsed.all(AST_NODE_TYPES.CallExpression)) {
      const caller = parsed.all(AST_NODE_TYPES.FunctionDeclaration).find((f) => f.range[0] < call.range[0] && call.range[1] < f.range[1] && f !== fn);
      if (call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'helper' && caller) servingCalls.set(call, { asyncFunction: caller, via: [] });
    }
  }
  const found = helperPlacement(parsed.sourceCode, fn, servingCalls, {
    blocking,
    strict: options.strict ?? false,
    serves: () => false,
    reportedLines: new Set(options.reportedLines ?? []),
    judgeCall: (call) => options.judged?.[call.loc.start.line] ?? 'serving',
  });
  return {
    found,
    calls: found.calls.map((c) => ('follow' in c ? `follow ${c.call.loc.start.line}` : `${c.name} ${c.call.loc.start.line}`)),
  };
}

const helper = [
  "import fs from 'node:fs';",
  'function other() { return 1; }',
  'function helper(p: string) {',
  '  if (!fs.existsSync(p)) return null;',
  '  other();',
  '  return fs.readFileSync(p, "utf8");',
  '}',
  'async function serve(p: string) { return helper(p); }',
].join('\n');

describe('helperPlacement', () => {
  it('lists blocking calls and helpers to follow in body order, naming a caller it was not told serves as a function', () => {
    const { found, calls } = place(helper);
    assert.deepEqual(calls, ['follow 5', 'fs.readFileSync 6']);
    assert.equal(found.ctx.sync, true);
    assert.equal(found.ctx.servedBy, 'function `serve` calls (line 8) while the process serves');
    assert.deepEqual(found.evidence.map((e) => e.line), [8]);
  });

  it('keeps the single metadata call when strict (near miss of the quiet default)', () => {
    assert.deepEqual(place(helper, { strict: true }).calls, ['fs.existsSync 4', 'follow 5', 'fs.readFileSync 6']);
  });

  it('skips a line already reported where it is', () => {
    assert.deepEqual(place(helper, { reportedLines: [6] }).calls, ['follow 5']);
  });

  it('finds a busy wait in the helper', () => {
    const { found } = place('function helper() { const end = Date.now() + 5; while (Date.now() < end) {} }\nasync function serve() { helper(); }');
    assert.deepEqual(found.waits.map((w) => w.wait.clockName), ['Date.now()']);
  });

  const twoCallers = [
    "import fs from 'node:fs';",
    'function helper(p: string) { return fs.readFileSync(p, "utf8"); }',
    'async function start(p: string) { return helper(p); }',
    'async function serve(p: string) { return helper(p); }',
  ].join('\n');

  it('says the callers serve when one of them was judged serving', () => {
    const { found } = place(twoCallers, { strict: true, judged: { 3: 'startup', 4: 'serving' } });
    assert.equal(found.ctx.judged, 'serving');
    assert.equal(found.ctx.servedBy, 'async function `start` calls (line 3) and async function `serve` calls (line 4) while the process serves');
    assert.deepEqual(found.evidence.map((e) => e.message), ['runs it while serving from here', 'runs it while serving from here']);
  });

  it('does not say the process serves when every caller was judged at startup or in one-shot code (strict)', () => {
    const startup = place(twoCallers, { strict: true, judged: { 3: 'startup', 4: 'startup' } }).found;
    assert.equal(startup.ctx.judged, 'startup');
    assert.equal(startup.ctx.servedBy, 'async function `start` calls (line 3) and async function `serve` calls (line 4)');
    assert.deepEqual(startup.evidence.map((e) => e.message), ['runs it from here', 'runs it from here']);
    assert.equal(place(twoCallers, { strict: true, judged: { 3: 'one-shot', 4: 'one-shot' } }).found.ctx.judged, 'one-shot');
  });
});
