import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSleepAnalysis, detachedSleepsHolding, findManualAcquisitions } from '../../src/analysis';
import { parse } from './parse';

/** Lines of the detached sleeps holding the only acquisition in `code`. */
function detached(code: string): number[] {
  const parsed = parse(code);
  const [acquisition] = findManualAcquisitions(parsed.sourceCode);
  assert.ok(acquisition, 'no acquisition found');
  const analysis = createSleepAnalysis(parsed.sourceCode, [], null);
  return detachedSleepsHolding(parsed.sourceCode, analysis, acquisition).map((s) => s.node.loc.start.line);
}

const HEADER = `import pRetry from 'p-retry';\nimport { Mutex } from 'async-mutex';\nconst m = new Mutex();\n`;

describe('detachedSleepsHolding', () => {
  it('a retry not waited for whose callback releases', () => {
    assert.deepEqual(detached(`${HEADER}async function f() {\n  const release = await m.acquire();\n  pRetry(async () => { await work(); release(); });\n}`), [6]);
  });
  it('a retry whose chained catch releases', () => {
    assert.deepEqual(detached(`${HEADER}async function f() {\n  const release = await m.acquire();\n  pRetry(() => work()).catch(() => release());\n}`), [6]);
  });
  it('a retry not waited for that does not release', () => {
    assert.deepEqual(detached(`${HEADER}async function f() {\n  const release = await m.acquire();\n  pRetry(() => work()).catch(console.error);\n  release();\n}`), []);
  });
  it('an awaited retry is left to sitesIn', () => {
    assert.deepEqual(detached(`${HEADER}async function f() {\n  const release = await m.acquire();\n  await pRetry(async () => { await work(); release(); });\n}`), []);
  });
});
