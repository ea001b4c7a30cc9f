import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { boundingLibraries, promiseCombinator } from '../../src/analysis';
import { parse } from './parse';

describe('promise combinators', () => {
  it('names the global combinators only', () => {
    const parsed = parse(`Promise.all(a); Promise.allSettled(b); Promise.resolve(c);
function local(Promise) { Promise.all(d); }`);
    const names = parsed.all(AST_NODE_TYPES.CallExpression).map((c) => promiseCombinator(parsed.sourceCode, c));
    assert.deepEqual(names, ['all', 'allSettled', null, null]);
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
