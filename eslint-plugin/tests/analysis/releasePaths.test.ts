import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReleasePathOptions, ReleaseProblem } from '../../src/analysis';
import { checkReleasePaths, findManualAcquisitions, firstExit } from '../../src/analysis';
import { parse } from './parse';

const HEADER = `import { Mutex } from 'async-mutex';\nconst m = new Mutex();\n`;

/** The problem for the only acquisition in `body` (wrapped in an async function), with the line it points at. */
function check(body: string, options?: ReleasePathOptions): { kind: string; line: number | null } | null {
  const parsed = parse(`${HEADER}async function f(x) {\n${body}\n}`);
  const [acquisition] = findManualAcquisitions(parsed.sourceCode);
  assert.ok(acquisition, 'no acquisition found');
  const problem = checkReleasePaths(acquisition, options);
  return problem ? { kind: problem.kind, line: pointLine(problem) } : null;
}

function pointLine(problem: ReleaseProblem): number | null {
  switch (problem.kind) {
    case 'notInFinally':
    case 'throwBeforeTry':
    case 'throwBeforeHandOver':
      return problem.thrower.loc.start.line;
    case 'earlyExit':
      return problem.exit.loc.start.line;
    case 'releasedOnlyInCatch':
      return problem.release.call.loc.start.line;
    case 'unreleasedPath':
      return problem.at.loc.start.line;
    case 'returnWithoutAwait':
      return problem.returnStatement.loc.start.line;
    case 'neverReleased':
      return null;
  }
}

// Lines: 1-2 header, 3 `async function f`, 4 the first body line.
describe('checkReleasePaths: guaranteed releases', () => {
  it('finally after the acquire', () => {
    assert.equal(check(`const r = await m.acquire();\ntry { await x(); } finally { r(); }`), null);
  });

  it('acquire inside the guarded try', () => {
    assert.equal(check(`let r;\ntry { r = await m.acquire(); await x(); } finally { r?.(); }`), null);
  });

  it('nothing can throw between acquire and release', () => {
    assert.equal(check(`const r = await m.acquire();\nx.n += 1;\nconst t = Date.now();\nr();`), null);
  });

  it('both branches release before they leave', () => {
    assert.equal(check(`const r = await m.acquire();\nif (x.a) { r(); return 1; }\nr();\nreturn 2;`), null);
  });

  it('a catch that releases and rethrows, and a release at the end of the try', () => {
    assert.equal(check(`const r = await m.acquire();\ntry { await x(); r(); } catch (e) { r(); throw e; }`), null);
  });

  it('a loop nested in the region may break', () => {
    assert.equal(check(`const r = await m.acquire();\nfor (const y of x) { if (y) break; }\nr();`), null);
  });
});

describe('checkReleasePaths: problems', () => {
  it('a call between acquire and release', () => {
    assert.deepEqual(check(`const r = await m.acquire();\nawait x.run();\nr();`), { kind: 'notInFinally', line: 5 });
  });

  it('an early return', () => {
    assert.deepEqual(check(`const r = await m.acquire();\nif (!x) return;\nr();`), { kind: 'earlyExit', line: 5 });
  });

  it('a break out of the loop that holds the acquire', () => {
    assert.deepEqual(check(`for (const y of x) {\nconst r = await m.acquire();\nif (y) break;\nr();\n}`), { kind: 'earlyExit', line: 6 });
  });

  it('released only in catch', () => {
    assert.deepEqual(check(`const r = await m.acquire();\ntry { await x(); } catch (e) { r(); throw e; }`), {
      kind: 'releasedOnlyInCatch',
      line: 5,
    });
  });

  it('the catch rethrows before the release after it', () => {
    assert.deepEqual(check(`const r = await m.acquire();\ntry { await x(); } catch (e) {\nthrow e;\n}\nr();`), {
      kind: 'earlyExit',
      line: 6,
    });
  });

  it('released in try only, the catch swallows', () => {
    assert.deepEqual(check(`const r = await m.acquire();\ntry {\nawait x();\nr();\n} catch (e) {}`), { kind: 'notInFinally', line: 6 });
  });

  it('a branch that does not release', () => {
    assert.deepEqual(check(`const r = await m.acquire();\nif (x.done) { r(); }`), { kind: 'unreleasedPath', line: 5 });
  });

  it('code that can throw before the guarding try', () => {
    assert.deepEqual(check(`const r = await m.acquire();\nawait x.prepare();\ntry { await x(); } finally { r(); }`), {
      kind: 'throwBeforeTry',
      line: 5,
    });
  });

  it('never released', () => {
    assert.deepEqual(check(`const r = await m.acquire();\nawait x();`), { kind: 'neverReleased', line: null });
  });

  it('an un-awaited return in the guarded try, when the caller can tell promises', () => {
    const isPromise = (expr: TSESTree.Expression): boolean => expr.type === 'CallExpression';
    const body = `const r = await m.acquire();\ntry {\nreturn x.run();\n} finally { r(); }`;
    assert.deepEqual(check(body, { isPromise }), { kind: 'returnWithoutAwait', line: 6 });
    assert.equal(check(body), null, 'without a promise oracle the return is not judged');
  });
});

describe('checkReleasePaths: code proved unable to throw', () => {
  /** As `check`, with the file passed so collection calls can be proved safe; `cache` is a module-level Map. */
  function checkInFile(body: string): { kind: string; line: number | null } | null {
    const parsed = parse(`${HEADER}const cache = new Map();\nasync function f(x) {\n${body}\n}`);
    const [acquisition] = findManualAcquisitions(parsed.sourceCode);
    assert.ok(acquisition, 'no acquisition found');
    const problem = checkReleasePaths(acquisition, { sourceCode: parsed.sourceCode });
    return problem ? { kind: problem.kind, line: pointLine(problem) } : null;
  }

  // Lines: 1-2 header, 3 the Map, 4 `async function f`, 5 the first body line.
  it('only Map operations between acquire and release', () => {
    assert.equal(checkInFile(`const r = await m.acquire();\nif (!cache.has(x)) cache.set(x, Date.now());\ncache.delete('old');\nr();`), null);
  });

  it('a read on what Map#get returns can throw', () => {
    assert.deepEqual(checkInFile(`const r = await m.acquire();\nconst n = cache.get(x).count;\nr();`), { kind: 'notInFinally', line: 6 });
  });

  it('destructuring what Map#get returns can throw', () => {
    assert.deepEqual(checkInFile(`const r = await m.acquire();\nconst { count } = cache.get(x);\nr();`), { kind: 'notInFinally', line: 6 });
  });

  it('an optional read on it cannot', () => {
    assert.equal(checkInFile(`const r = await m.acquire();\nconst n = cache.get(x)?.count;\nr();`), null);
  });

  it('without the file the same Map call counts as a thrower', () => {
    const parsed = parse(`${HEADER}const cache = new Map();\nasync function f(x) {\nconst r = await m.acquire();\ncache.set(x, 1);\nr();\n}`);
    const [acquisition] = findManualAcquisitions(parsed.sourceCode);
    assert.ok(acquisition);
    assert.equal(checkReleasePaths(acquisition)?.kind, 'notInFinally');
  });
});

describe('firstExit', () => {
  it('skips exits that stay inside loops and switches of the node, and nested functions', () => {
    const parsed = parse(`async function f(xs) {\nfor (const x of xs) { if (x) break; continue; }\nswitch (xs) { case 1: break; }\nxs.map(() => { return 1; });\nif (xs) return 2;\n}`);
    const body = parsed.ast.body[0] as TSESTree.FunctionDeclaration;
    const [loop, sw, map, ret] = body.body.body;
    assert.equal(firstExit(loop as TSESTree.Node), null);
    assert.equal(firstExit(sw as TSESTree.Node), null);
    assert.equal(firstExit(map as TSESTree.Node), null);
    assert.equal(firstExit(ret as TSESTree.Node)?.type, 'ReturnStatement');
  });
});
