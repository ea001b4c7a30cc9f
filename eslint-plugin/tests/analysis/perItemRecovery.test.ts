import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { runsAgainAfterFailure } from '../../src/analysis';
import { parse } from './parse';

/** Does the code around the call `target` (its source text) run it again after it failed? */
function again(code: string, target = 'take()'): boolean {
  const parsed = parse(code);
  return runsAgainAfterFailure(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, target));
}

describe('runsAgainAfterFailure', () => {
  it('a loop whose iteration catches: try/catch inside the loop, .catch on the item', () => {
    assert.equal(again('async function f(xs) {\n  for (const x of xs) {\n    try { await take(); } catch (e) { log(e); }\n  }\n}'), true);
    assert.equal(again('async function f() {\n  while (more()) {\n    try { await take(); } catch {}\n  }\n}'), true);
    assert.equal(again('async function one(x) { await take(); }\nasync function f(xs) {\n  for (const x of xs) await one(x).catch(log);\n}'), true);
  });
  it('an iteration callback that catches, or allSettled over a map', () => {
    assert.equal(again('function f(xs) {\n  xs.forEach(async (x) => { try { await take(); } catch (e) { log(e); } });\n}'), true);
    assert.equal(again('async function f(xs) {\n  await Promise.allSettled(xs.map(async (x) => { await take(); }));\n}'), true);
    assert.equal(again('async function one(x) { await take(); }\nasync function f(xs) {\n  await Promise.allSettled(xs.map(one));\n}'), true);
  });
  it('the catch in the acquiring function, the loop in a same-file caller two calls up', () => {
    assert.equal(again('async function one(x) {\n  try { await take(); } catch (e) { log(e); }\n}\nasync function step(x) { await one(x); }\nasync function f(xs) {\n  for (const x of xs) await step(x);\n}'), true);
  });
  it('near misses: no loop, a catch outside the loop, a loop that stops at the first failure', () => {
    assert.equal(again('async function f() {\n  try { await take(); } catch (e) { process.exit(1); }\n}\nf();'), false);
    assert.equal(again('async function f(xs) {\n  try {\n    for (const x of xs) await take();\n  } catch (e) { log(e); }\n}'), false);
    assert.equal(again('async function f(xs) {\n  for (const x of xs) await take();\n}'), false);
    assert.equal(again('async function f(xs) {\n  await Promise.all(xs.map(async (x) => { await take(); }));\n}'), false);
    // An exported function: its callers in other files are not seen, so nothing is known to repeat it.
    assert.equal(again('export async function f() {\n  await take();\n}'), false);
  });
});
