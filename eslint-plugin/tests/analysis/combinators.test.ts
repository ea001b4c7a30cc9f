import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { boundingLibraries, combinatorCannotReject, promiseCombinator } from '../../src/analysis';
import { parse } from './parse';

describe('promise combinators', () => {
  it('names the global combinators only', () => {
    const parsed = parse(`Promise.all(a); Promise.allSettled(b); Promise.resolve(c);
function local(Promise) { Promise.all(d); }`);
    const names = parsed.all(AST_NODE_TYPES.CallExpression).map((c) => promiseCombinator(parsed.sourceCode, c));
    assert.deepEqual(names, ['all', 'allSettled', null, null]);
  });
});

describe('combinators that cannot reject', () => {
  // The judges stand in for the promise analysis: a callee or mapper named `safe` cannot reject.
  const safeMapper = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.Identifier && node.name === 'safe';
  const safeElement = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.CallExpression && safeMapper(node.callee);
  const judge = (code: string): boolean[] => {
    const parsed = parse(code);
    return parsed.all(AST_NODE_TYPES.CallExpression)
      .filter((c) => promiseCombinator(parsed.sourceCode, c) !== null)
      .map((c) => combinatorCannotReject(parsed.sourceCode, c, safeMapper, safeElement));
  };

  it('accepts a map or a literal whose promises cannot reject', () => {
    assert.deepEqual(judge('Promise.all(xs.map(safe)); Promise.race([safe(), safe()]); Promise.any([safe()]); Promise.all([]);'), [true, true, true, true]);
  });

  it('rejects unknown elements, spreads, other methods, allSettled, and any over a map', () => {
    assert.deepEqual(
      judge('Promise.all(xs.map(risky)); Promise.all([safe(), risky()]); Promise.all([...jobs]); Promise.all(xs.filter(safe)); Promise.any(xs.map(safe)); Promise.any([]); Promise.all(jobs);'),
      [false, false, false, false, false, false, false],
    );
    // `allSettled` is judged elsewhere, and never by the elements.
    assert.deepEqual(judge('Promise.allSettled([risky()]);'), [false]);
  });

  it('reads a const array that only combinators read as its literal', () => {
    assert.deepEqual(judge('const jobs = [safe(), safe()];\nasync function f() { await Promise.all(jobs); await Promise.race(jobs); }'), [true, true]);
    assert.deepEqual(judge('const jobs = [safe(), risky()];\nPromise.all(jobs);'), [false]);
  });

  it('does not trust a named array that something else reads, a let, or an export', () => {
    // Near misses: `push` may add a promise that rejects; a `let` may be rebound; an export is changed elsewhere.
    assert.deepEqual(judge('const jobs = [safe()];\njobs.push(risky());\nPromise.all(jobs);'), [false]);
    assert.deepEqual(judge('const jobs = [safe()];\nextend(jobs);\nPromise.all(jobs);'), [false]);
    assert.deepEqual(judge('let jobs = [safe()];\nPromise.all(jobs);'), [false]);
    assert.deepEqual(judge('export const jobs = [safe()];\nPromise.all(jobs);'), [false]);
  });
});

describe('bounding libraries', () => {
  it('sees a limiter library the file imports', () => {
    const withLimit = parse(`import pLimit from 'p-limit';\nexport const limit = pLimit(2);`);
    assert.deepEqual(boundingLibraries(withLimit.sourceCode, 'file.ts'), { pMap: false, pLimit: true });
    const none = parse('export const x = 1;');
    assert.deepEqual(boundingLibraries(none.sourceCode, 'file.ts'), { pMap: false, pLimit: false });
  });
});
