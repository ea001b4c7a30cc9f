import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { releasedByLibrary } from '../../src/analysis';
import { parse } from './parse';

/** Does the call whose text is `target` release its argument at `index`? */
function released(code: string, target: string, index = 0): boolean {
  const parsed = parse(code);
  return releasedByLibrary(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, target), index);
}

const IMPORT = "import { commit, rollback } from '@evershop/postgres-query-builder';\n";

describe('releasedByLibrary', () => {
  it('a catalogued function, imported or required under any name', () => {
    assert.equal(released(`${IMPORT}commit(connection);`, 'commit(connection)'), true);
    assert.equal(released(`${IMPORT}rollback(connection);`, 'rollback(connection)'), true);
    assert.equal(released("import { commit as done } from '@evershop/postgres-query-builder';\ndone(c);", 'done(c)'), true);
    assert.equal(released("const qb = require('@evershop/postgres-query-builder');\nqb.rollback(c);", 'qb.rollback(c)'), true);
  });
  it('near misses: another argument, another export, another module, a local function', () => {
    assert.equal(released(`${IMPORT}commit(connection);`, 'commit(connection)', 1), false);
    assert.equal(released("import { startTransaction } from '@evershop/postgres-query-builder';\nstartTransaction(c);", 'startTransaction(c)'), false);
    assert.equal(released("import { commit } from 'isomorphic-git';\ncommit(repo);", 'commit(repo)'), false);
    assert.equal(released('function commit(c) {}\ncommit(c);', 'commit(c)'), false);
  });
});
