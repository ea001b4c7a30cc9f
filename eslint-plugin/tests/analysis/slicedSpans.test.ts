import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { spansSlicedList } from '../../src/analysis';
import { parse } from './parse';

// A same-file helper that awaits its callback on one window slice of its list after another.
const helper = `async function inSlices(list, fn) {
  for (let i = 0; i < list.length; i += 100) await fn(list.slice(i, i + 100));
}
`;

/** Whether the argument of the last `send(…)` call spans the sliced list. */
function spans(body: string): boolean {
  const parsed = parse(`${helper}export async function run(ids, send) {\n${body}\n}`);
  const calls = parsed.all(AST_NODE_TYPES.CallExpression).filter((c) => c.callee.type === AST_NODE_TYPES.Identifier && c.callee.name === 'send');
  const arg = calls.at(-1)?.arguments[0];
  assert.ok(arg, 'no send(…) call');
  return spansSlicedList({ sourceCode: parsed.sourceCode }, arg);
}

describe('spansSlicedList', () => {
  it('a collection filled once per item of each handed slice, and its copies', () => {
    assert.equal(spans(`const found = new Set();\nawait inSlices(ids, async (s) => { s.forEach((id) => found.add(id)); });\nsend(found);`), true);
    assert.equal(spans(`const found = [];\nawait inSlices(ids, async (s) => { for (const id of s) found.push(id); });\nsend([...found].filter(Boolean));`), true);
    assert.equal(spans(`const found = new Set();\nawait inSlices(ids, async (s) => { s.forEach((id) => found.add(id)); });\nlet list = Array.from(found);\nlist = list.filter(Boolean);\nsend(list);`), true);
  });

  it('not one item per slice, nor a collection also filled elsewhere, nor one reassigned with something else', () => {
    assert.equal(spans(`const counts = [];\nawait inSlices(ids, async (s) => { counts.push(s.length); });\nsend(counts);`), false);
    assert.equal(spans(`const found = [];\nawait inSlices(ids, async (s) => { s.forEach((id) => found.push(id)); });\nids.forEach((id) => found.push(id));\nsend(found);`), false);
    assert.equal(spans(`const found = new Set();\nawait inSlices(ids, async (s) => { s.forEach((id) => found.add(id)); });\nlet list = Array.from(found);\nlist = ['a'];\nsend(list);`), false);
    assert.equal(spans(`const found = [];\nids.forEach((id) => found.push(id));\nsend(found);`), false);
  });
});
