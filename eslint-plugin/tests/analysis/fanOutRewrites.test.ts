import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TSESTree } from '@typescript-eslint/utils';
import type { BoundingLibraries, BoundingRewrite } from '../../src/analysis';
import { describeFanOut, fanOutRewrite, mergeEdits, sliceRewrite } from '../../src/analysis';
import { parse } from './parse';

const both: BoundingLibraries = { pMap: true, pLimit: true };
const pMapOnly: BoundingLibraries = { pMap: true, pLimit: false };
const pLimitOnly: BoundingLibraries = { pMap: false, pLimit: true };
const neither: BoundingLibraries = { pMap: false, pLimit: false };

/** The code after the rewrite, or null; `library` says which library the rewrite chose. */
function applied(code: string, rewrite: BoundingRewrite | null): { library: string; output: string } | null {
  if (!rewrite) return null;
  let output = code;
  for (const edit of mergeEdits(rewrite.edits).reverse()) {
    output = output.slice(0, edit.range[0]) + edit.text + output.slice(edit.range[1]);
  }
  return { library: rewrite.library, output };
}

/** The first `Promise.<method>(…)` call in `code`, with its combinator name. */
function combinatorIn(code: string, filename?: string) {
  const parsed = parse(code, filename);
  const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) =>
    c.callee.type === AST_NODE_TYPES.MemberExpression && c.callee.object.type === AST_NODE_TYPES.Identifier && c.callee.object.name === 'Promise');
  assert.ok(call, 'no Promise combinator');
  const property = (call.callee as TSESTree.MemberExpression).property as TSESTree.Identifier;
  const arg = call.arguments[0];
  assert.ok(arg);
  const fanOut = describeFanOut({ sourceCode: parsed.sourceCode }, arg, 16);
  assert.ok(fanOut, 'no fan-out');
  return { parsed, call, method: property.name, fanOut };
}

function rewriteFanOut(code: string, libraries: BoundingLibraries, filename?: string) {
  const { parsed, call, method, fanOut } = combinatorIn(code, filename);
  return applied(code, fanOutRewrite(parsed.sourceCode, call, method, fanOut, libraries, '4'));
}

function rewriteSlices(code: string, libraries: BoundingLibraries) {
  const { parsed, call, method, fanOut } = combinatorIn(code);
  assert.equal(fanOut.size.kind, 'chunk');
  if (fanOut.size.kind !== 'chunk') return null;
  return applied(code, sliceRewrite(parsed.sourceCode, fanOut.size.chunk, call, method, libraries));
}

describe('fanOutRewrite', () => {
  const mapped = 'import { send } from "./send";\nexport async function run(rows: string[]) {\n  await Promise.all(rows.map((r) => send(r)));\n}\n';

  it('moves a mapped Promise.all into pMap, importing it next to the last import', () => {
    assert.deepEqual(rewriteFanOut(mapped, both), {
      library: 'p-map',
      output: 'import { send } from "./send";\nimport pMap from "p-map";\nexport async function run(rows: string[]) {\n  await pMap(rows, (r) => send(r), { concurrency: 4 });\n}\n',
    });
  });

  it('runs each call through a limiter declared before the statement when only p-limit is available', () => {
    assert.deepEqual(rewriteFanOut(mapped, pLimitOnly), {
      library: 'p-limit',
      output: 'import { send } from "./send";\nimport pLimit from "p-limit";\nexport async function run(rows: string[]) {\n  const limit = pLimit(4);\n  await Promise.all(rows.map((r) => limit(() => send(r))));\n}\n',
    });
  });

  it('uses the names already imported and picks a free limiter name', () => {
    const code = "import pLimit2 from 'p-limit';\nconst limit = 1;\nexport async function run(rows: string[]) {\n  await Promise.all(rows.map(send));\n}\ndeclare function send(r: string): Promise<void>;\n";
    assert.deepEqual(rewriteFanOut(code, pLimitOnly), {
      library: 'p-limit',
      output: "import pLimit2 from 'p-limit';\nconst limit = 1;\nexport async function run(rows: string[]) {\n  const limit2 = pLimit2(4);\n  await Promise.all(rows.map((item) => limit2(() => send(item))));\n}\ndeclare function send(r: string): Promise<void>;\n",
    });
  });

  it('wraps a pushed value in the limiter, declared before the loop', () => {
    const code = 'export async function run(rows: string[]) {\n  const jobs = [];\n  for (const r of rows) jobs.push(send(r));\n  await Promise.all(jobs);\n}\ndeclare function send(r: string): Promise<void>;\n';
    assert.deepEqual(rewriteFanOut(code, both), {
      library: 'p-limit',
      output: "import pLimit from 'p-limit';\n\nexport async function run(rows: string[]) {\n  const jobs = [];\n  const limit = pLimit(4);\n  for (const r of rows) jobs.push(limit(() => send(r)));\n  await Promise.all(jobs);\n}\ndeclare function send(r: string): Promise<void>;\n",
    });
  });

  it('falls back to p-limit when the mapper reads more than the item and the index', () => {
    const code = 'export async function run(rows: string[]) {\n  await Promise.all(rows.map((r, i, all) => send(r, all)));\n}\ndeclare function send(r: string, all: string[]): Promise<void>;\n';
    assert.equal(rewriteFanOut(code, pMapOnly), null);
    assert.equal(rewriteFanOut(code, both)?.library, 'p-limit');
  });

  it('leaves allSettled to p-limit: pMap would reject where allSettled reports', () => {
    const code = 'export async function run(rows: string[]) {\n  await Promise.allSettled(rows.map((r) => send(r)));\n}\ndeclare function send(r: string): Promise<void>;\n';
    assert.equal(rewriteFanOut(code, pMapOnly), null);
    assert.equal(rewriteFanOut(code, both)?.library, 'p-limit');
  });

  it('offers nothing without a bounding library, nor in a CommonJS file', () => {
    assert.equal(rewriteFanOut(mapped, neither), null);
    const cjs = "const { send } = require('./send');\nexports.run = async (rows) => {\n  await Promise.all(rows.map((r) => send(r)));\n};\n";
    assert.equal(rewriteFanOut(cjs, both, 'file.cjs'), null);
  });
});

describe('sliceRewrite', () => {
  const slices = 'export async function run(rows: string[]) {\n  for (let i = 0; i < rows.length; i += 10) {\n    await Promise.all(rows.slice(i, i + 10).map((r) => send(r)));\n  }\n}\ndeclare function send(r: string): Promise<void>;\n';

  it('replaces the loop with one pMap window of the slice size', () => {
    assert.deepEqual(rewriteSlices(slices, both), {
      library: 'p-map',
      output: "import pMap from 'p-map';\n\nexport async function run(rows: string[]) {\n  await pMap(rows, (r) => send(r), { concurrency: 10 });\n}\ndeclare function send(r: string): Promise<void>;\n",
    });
  });

  it('replaces the loop with a limiter of the slice size when only p-limit is available', () => {
    assert.deepEqual(rewriteSlices(slices, pLimitOnly), {
      library: 'p-limit',
      output: "import pLimit from 'p-limit';\n\nexport async function run(rows: string[]) {\n  const limit = pLimit(10);\n  await Promise.all(rows.map((r) => limit(() => send(r))));\n}\ndeclare function send(r: string): Promise<void>;\n",
    });
  });

  it('offers nothing when the loop does more than the batch', () => {
    const code = 'export async function run(rows: string[]) {\n  for (let i = 0; i < rows.length; i += 10) {\n    await Promise.all(rows.slice(i, i + 10).map((r) => send(r)));\n    console.log(i);\n  }\n}\ndeclare function send(r: string): Promise<void>;\n';
    assert.equal(rewriteSlices(code, both), null);
  });

  it('offers nothing when the loop steps by another size than the slice', () => {
    const code = 'export async function run(rows: string[]) {\n  for (let i = 0; i < rows.length; i += 5) {\n    await Promise.all(rows.slice(i, i + 10).map((r) => send(r)));\n  }\n}\ndeclare function send(r: string): Promise<void>;\n';
    assert.equal(rewriteSlices(code, both), null);
  });
});
