import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_BLOCKING_OPTIONS, mayBlock, mayBlockInLocalModules } from '../../src/analysis';
import { parse } from './parse';

describe('mayBlock', () => {
  it('true for a blocking module, a declared one, a clock or Atomics', () => {
    assert.equal(mayBlock(parse(`import fs from 'node:fs'; fs.readFileSync('a');`).sourceCode, DEFAULT_BLOCKING_OPTIONS), true);
    const declared = { ...DEFAULT_BLOCKING_OPTIONS, blockingCalls: [{ module: 'legacy-db', export: 'loadSync' }] };
    assert.equal(mayBlock(parse(`import { loadSync } from 'legacy-db'; loadSync();`).sourceCode, declared), true);
    assert.equal(mayBlock(parse('while (Date.now() < t) {} declare const t: number;').sourceCode, DEFAULT_BLOCKING_OPTIONS), true);
  });
  it('false for a file that imports nothing that blocks', () => {
    assert.equal(mayBlock(parse(`import path from 'node:path'; path.join('a');`).sourceCode, DEFAULT_BLOCKING_OPTIONS), false);
  });
  it('mayBlockInLocalModules is false when the file imports no project module', () => {
    assert.equal(mayBlockInLocalModules(parse(`import fs from 'node:fs';`).sourceCode, DEFAULT_BLOCKING_OPTIONS), false);
  });
});
