import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { callbackHolder, findManualAcquisitions, getPermitCall, manualHolder, shortText } from '../../src/analysis';
import { parse } from './parse';

describe('manualHolder', () => {
  it('a semaphore permit counts the semaphore capacity', () => {
    const parsed = parse(`import { Sema } from 'async-sema';\nconst s = new Sema(3);\nasync function f() {\n  await s.acquire();\n  s.release();\n}`);
    const [acquisition] = findManualAcquisitions(parsed.sourceCode);
    assert.ok(acquisition);
    const holder = manualHolder(parsed.sourceCode, acquisition);
    assert.deepEqual([holder.noun, holder.unit, holder.taker, holder.capacity], ['permit', 'permits', 's.acquire()', 3]);
  });
  it('a lock holds one', () => {
    const parsed = parse(`import { Mutex } from 'async-mutex';\nconst m = new Mutex();\nasync function f() {\n  const r = await m.acquire();\n  r();\n}`);
    const [acquisition] = findManualAcquisitions(parsed.sourceCode);
    assert.ok(acquisition);
    assert.deepEqual([manualHolder(parsed.sourceCode, acquisition).noun, manualHolder(parsed.sourceCode, acquisition).capacity], ['lock', 1]);
  });
});

describe('callbackHolder', () => {
  it('a p-limit slot counts slots', () => {
    const parsed = parse(`import pLimit from 'p-limit';\nconst limit = pLimit(4);\nlimit(() => work());`);
    const permit = getPermitCall(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, 'limit(() => work())'), []);
    assert.ok(permit);
    const holder = callbackHolder(parsed.sourceCode, permit);
    assert.deepEqual([holder.noun, holder.unit, holder.taker, holder.capacity], ['permit', 'slots', 'limit(...)', 4]);
  });
});

describe('shortText', () => {
  it('keeps short text, flattened', () => {
    assert.equal(shortText('sleep(\n  10)'), 'sleep( 10)');
  });
  it('cuts long calls at their arguments', () => {
    assert.equal(shortText(`fetchWithRetry(${'x'.repeat(60)})`), 'fetchWithRetry(...)');
  });
});
