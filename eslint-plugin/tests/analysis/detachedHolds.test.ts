import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSleepAnalysis, detachedSleepsHolding, findManualAcquisitions, sleepsBeforeNestedRelease } from '../../src/analysis';
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

/** Lines of the sleeps waited out before a nested release of the only acquisition in `code`. */
function beforeRelease(code: string): number[] {
  const parsed = parse(code);
  const [acquisition] = findManualAcquisitions(parsed.sourceCode);
  assert.ok(acquisition, 'no acquisition found');
  return sleepsBeforeNestedRelease(createSleepAnalysis(parsed.sourceCode, [], null), acquisition).map((s) => s.node.loc.start.line);
}

const TIMERS = `import { Mutex } from 'async-mutex';\nimport { setTimeout as sleep } from 'node:timers/promises';\nconst m = new Mutex();\n`;

describe('sleepsBeforeNestedRelease', () => {
  it('a listener that sleeps, then releases', () => {
    assert.deepEqual(beforeRelease(`${TIMERS}async function f(tx) {\n  await m.acquire();\n  tx.on('hash', async () => {\n    await sleep(3000);\n    m.release();\n  });\n}`), [7]);
  });
  it('a sleep after the release, or in a listener that does not release', () => {
    assert.deepEqual(beforeRelease(`${TIMERS}async function f(tx) {\n  await m.acquire();\n  tx.on('hash', async () => {\n    m.release();\n    await sleep(3000);\n  });\n}`), []);
    assert.deepEqual(beforeRelease(`${TIMERS}async function f(tx) {\n  await m.acquire();\n  tx.on('hash', async () => { await sleep(3000); });\n  tx.on('done', () => m.release());\n}`), []);
  });
  it('a listener set up after the lock was given back', () => {
    assert.deepEqual(beforeRelease(`${TIMERS}async function f(tx) {\n  await m.acquire();\n  m.release();\n  tx.on('hash', async () => {\n    await sleep(3000);\n    m.release();\n  });\n}`), []);
  });
});
