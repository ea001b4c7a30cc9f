import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { DEFAULT_RANDOM_BYTES_THRESHOLD } from '../../src/analysis';
import { helperPlacement } from '../../src/util/helperPlacement';
import { parse } from '../analysis/parse';

const blocking = { blockingCalls: [], allow: [], randomBytesThreshold: DEFAULT_RANDOM_BYTES_THRESHOLD };

function place(code: string, options: { strict?: boolean; reportedLines?: number[] } = {}) {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration).find((f) => f.id?.name === 'helper');
  assert.ok(fn);
  const found = helperPlacement(parsed.sourceCode, fn, new Map(), {
    blocking,
    strict: options.strict ?? false,
    serves: () => false,
    reportedLines: new Set(options.reportedLines ?? []),
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
});
