import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DISK_CACHE_MS, readText, resetProject, setOverlay, withReadLog } from '../../src/project';
import { FreshCache } from '../../src/project/freshCache';
import { scratch, write } from './helpers';

beforeEach(() => {
  resetProject();
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
});
afterEach(() => mock.timers.reset());

/** A cache whose answer is the text of `file`, counting how often it was computed. */
function textCache(file: string): { ask: () => string | null; computed: () => number } {
  const cache = new FreshCache<string | null>(10);
  let count = 0;
  return {
    ask: () => cache.get('key', () => {
      count++;
      return readText(file);
    }),
    computed: () => count,
  };
}

describe('FreshCache past its expiry', () => {
  it('keeps an answer whose reads still hold, and replays them into the open log', () => {
    const file = write(path.join(scratch('fresh'), 'a.ts'), 'export const a = 1;\n');
    const { ask, computed } = textCache(file);
    withReadLog(ask);
    mock.timers.tick(DISK_CACHE_MS + 1);
    const { value, reads } = withReadLog(ask);
    assert.equal(value, 'export const a = 1;\n');
    assert.equal(computed(), 1, 'the reads still hold: not computed again');
    assert.deepEqual(reads.map((r) => r.path), [file]);
  });

  it('computes again when a read no longer holds', () => {
    const file = write(path.join(scratch('fresh'), 'b.ts'), 'export const b = 1;\n');
    setOverlay(file, 'export const b = 2;\n');
    const { ask, computed } = textCache(file);
    withReadLog(ask);
    // A content edit keeps the epoch: only the expiry and the reads stand between it and a stale answer.
    setOverlay(file, 'export const b = 3;\n');
    mock.timers.tick(DISK_CACHE_MS + 1);
    assert.equal(withReadLog(ask).value, 'export const b = 3;\n');
    assert.equal(computed(), 2);
  });
});
