import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findManualAcquisitions, leakBeforeHandOver } from '../../src/analysis';
import { parse } from './parse';

const HEADER = `import { Mutex } from 'async-mutex';\nconst m = new Mutex();\n`;

/** The lines of the leak for the only acquisition in `body` (wrapped in an async function), or null. */
function leak(body: string): { thrower: number; handOver: number } | null {
  const parsed = parse(`${HEADER}async function f(x) {\n${body}\n}`);
  const [acquisition] = findManualAcquisitions(parsed.sourceCode);
  assert.ok(acquisition, 'no acquisition found');
  const found = leakBeforeHandOver(acquisition, { sourceCode: parsed.sourceCode });
  return found ? { thrower: found.thrower.loc.start.line, handOver: found.handOver.loc.start.line } : null;
}

// Lines: 1-2 header, 3 `async function f`, 4 the first body line.
describe('leakBeforeHandOver: lost before the hand-over', () => {
  it('an await between the acquire and the return', () => {
    assert.deepEqual(leak(`const r = await m.acquire();\nawait x.warm();\nreturn r;`), { thrower: 5, handOver: 6 });
  });
  it('a throw between the acquire and storing it', () => {
    assert.deepEqual(leak(`const r = await m.acquire();\nif (!x) throw new Error('no');\nthis.release = r;`), { thrower: 5, handOver: 6 });
  });
  it('an await before the listener that releases is attached', () => {
    assert.deepEqual(leak(`const r = await m.acquire();\nawait x.open();\nx.on('close', () => r());`), { thrower: 5, handOver: 6 });
  });
  it('a catch that leaves before it releases', () => {
    assert.deepEqual(
      leak(`let key;\ntry {\nconst r = await m.acquire();\nawait x.check();\nkey = 1;\nreturn { r };\n} catch (e) {\nif (!key) throw e;\nm.release();\n}`),
      { thrower: 7, handOver: 9 },
    );
  });
  it('a catch that releases by a key only set after the line that threw', () => {
    assert.deepEqual(
      leak(`let key;\ntry {\nconst r = await m.acquire();\nawait x.check();\nkey = 1;\nreturn { r };\n} catch (e) {\nawait m.unlock(key);\nthrow e;\n}`),
      { thrower: 7, handOver: 9 },
    );
  });
});

describe('leakBeforeHandOver: nothing lost', () => {
  it('handed on at once', () => {
    assert.equal(leak(`const r = await m.acquire();\nreturn r;`), null);
  });
  it('only synchronous calls before the hand-over', () => {
    assert.equal(leak(`const r = await m.acquire();\nx.log('got it');\nreturn r;`), null);
  });
  it('a catch around the window that releases and rethrows', () => {
    assert.equal(leak(`const r = await m.acquire();\ntry { await x.warm(); } catch (e) { r(); throw e; }\nreturn r;`), null);
  });
  it('an enclosing catch that releases first', () => {
    assert.equal(leak(`try {\nconst r = await m.acquire();\nawait x.warm();\nreturn r;\n} catch (e) {\nm.release();\nthrow e;\n}`), null);
  });
  it('not handed on at all: releasePaths decides', () => {
    assert.equal(leak(`const r = await m.acquire();\nawait x.warm();\nr();`), null);
  });
  it('a catch that releases by a key set before the line that threw', () => {
    assert.equal(leak(`let key;\ntry {\nconst r = await m.acquire();\nkey = 1;\nawait x.check();\nreturn { r };\n} catch (e) {\nawait m.unlock(key);\nthrow e;\n}`), null);
  });
  it('an await that cannot reject', () => {
    assert.equal(leak(`const r = await m.acquire();\nawait 1;\nreturn r;`), null);
  });
});
