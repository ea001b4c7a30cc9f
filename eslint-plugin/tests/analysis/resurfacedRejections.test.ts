import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { resurfacesRejection } from '../../src/analysis';
import { parse } from './parse';

/** Whether the first statement's expression is a chain written to let a rejection surface. */
function resurfaces(code: string): boolean {
  const parsed = parse(code);
  const [statement] = parsed.all(AST_NODE_TYPES.ExpressionStatement);
  assert.ok(statement);
  return resurfacesRejection(parsed.sourceCode, statement.expression);
}

describe('resurfacesRejection', () => {
  it('Promise.resolve(value) with a callback that does nothing and no rejection handler', () => {
    assert.equal(resurfaces('Promise.resolve(v).then(() => {});'), true);
    assert.equal(resurfaces('Promise.resolve(v).then(function () { /* let it surface */ });'), true);
    assert.equal(resurfaces('Promise.resolve(buffered[0]).then(() => undefined);'), true);
    assert.equal(resurfaces('(Promise.resolve(v)).then(() => void 0);'), true);
  });
  it('near misses: another promise, a callback with work, a handler, a local Promise', () => {
    assert.equal(resurfaces('save().then(() => {});'), false);
    assert.equal(resurfaces('Promise.resolve(v).then(() => { log(v); });'), false);
    assert.equal(resurfaces('Promise.resolve(v).then(() => next());'), false);
    assert.equal(resurfaces('Promise.resolve(v).then(async () => {});'), false);
    assert.equal(resurfaces('Promise.resolve(v).then(() => {}, () => {});'), false);
    assert.equal(resurfaces('Promise.resolve().then(() => {});'), false);
    assert.equal(resurfaces('Promise.reject(v).then(() => {});'), false);
    assert.equal(resurfaces('Promise.resolve(v).then(() => {}).then(() => {});'), false);
    assert.equal(resurfaces('const Promise = lib;\nPromise.resolve(v).then(() => {});'), false);
    assert.equal(resurfaces('Promise.resolve(v).finally(() => {});'), false);
  });
});
