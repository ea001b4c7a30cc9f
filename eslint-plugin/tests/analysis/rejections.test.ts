import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { asyncBodyRejection, callbackCannotThrow, chainCannotReject, functionCannotThrow, isFunctionNode, isRejectionGuarded } from '../../src/analysis';
import { parse } from './parse';

/** The first arrow function in `code`, asked with the file. */
function first(code: string): { guarded: boolean; cannotThrow: boolean } {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
  assert.ok(isFunctionNode(fn));
  return { guarded: isRejectionGuarded(fn, parsed.sourceCode), cannotThrow: functionCannotThrow(fn, parsed.sourceCode) };
}

describe('isRejectionGuarded: what the catch and finally blocks do', () => {
  it('a catch that logs or emits is a guard', () => {
    assert.equal(first('on(async () => { try { await a(); } catch (e) { console.error(e); } });').guarded, true);
    assert.equal(first("on(async () => { try { await a(); } catch (e) { this.emit('error', e); } });").guarded, true);
  });

  it('a catch or finally that throws passes the error on', () => {
    assert.equal(first('on(async () => { try { await a(); } catch (e) { log(e); throw e; } });').guarded, false);
    assert.equal(first('on(async () => { try { await a(); } catch (e) { if (fatal(e)) { throw e; } } });').guarded, false);
    assert.equal(first('on(async () => { try { await a(); } catch {} finally { throw new Error("x"); } });').guarded, false);
  });

  it('a throw inside a function declared in the catch block is not the catch block\'s', () => {
    assert.equal(first('on(async () => { try { await a(); } catch (e) { later(() => { throw e; }); } });').guarded, true);
  });

  it('a loop on a plain condition around a guarded body', () => {
    assert.equal(first('on(async () => { while (this.running) { try { await step(); } catch (e) { report(e); } } });').guarded, true);
    assert.equal(first('on(async () => { while (next()) { try { await step(); } catch (e) { report(e); } } });').guarded, false);
    assert.equal(first('on(async () => { while (this.running) { await step(); } });').guarded, false);
  });

  it('console logging around the guard, with the file', () => {
    assert.equal(first("on(async () => { console.log('start'); try { await a(); } catch (e) { console.error(e); } });").guarded, true);
    assert.equal(first("const console = make();\non(async () => { console.log('start'); try { await a(); } catch {} });").guarded, false);
  });
});

describe('functionCannotThrow', () => {
  it('bodies with nothing that can throw', () => {
    assert.equal(first('on(() => {});').cannotThrow, true);
    assert.equal(first('on((results) => console.log(results));').cannotThrow, true);
    assert.equal(first('const seen = new Set();\non(async () => { seen.clear(); });').cannotThrow, true);
  });

  it('bodies that call something unknown or read a property of a parameter', () => {
    assert.equal(first('on((results) => report(results));').cannotThrow, false);
    assert.equal(first('on((results) => console.log(results.length));').cannotThrow, false);
    assert.equal(first('on(async () => { await flush(); });').cannotThrow, false);
  });

  it('an async body that is guarded cannot reject either', () => {
    assert.equal(first('on(async () => { try { await flush(); } catch (e) { console.error(e); } });').cannotThrow, true);
  });
});

describe('chainCannotReject', () => {
  const chain = (code: string, text: string, rootSafe: boolean): boolean => {
    const parsed = parse(code);
    return chainCannotReject(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text), () => rootSafe);
  };

  it('callbacks that cannot throw after a root that cannot reject', () => {
    assert.equal(chain('p.finally(() => {});', 'p.finally(() => {})', true), true);
    assert.equal(chain('p.then(() => 1, undefined);', 'p.then(() => 1, undefined)', true), true);
    assert.equal(chain('p.finally(() => {});', 'p.finally(() => {})', false), false);
    assert.equal(chain('p.then(render);', 'p.then(render)', true), false);
  });

  it('a rejection handler that cannot throw settles the part before it, whatever the root', () => {
    assert.equal(chain('p.catch(() => {}).finally(() => {});', 'p.catch(() => {}).finally(() => {})', false), true);
    assert.equal(chain('p.then(() => 1, null);', 'p.then(() => 1, null)', false), false);
  });

  it('a callback declared in the file is read there', () => {
    const parsed = parse('function log(r) { console.log(r); }\nfunction count(r) { report(r.length); }\nlog;\ncount;');
    const [log, count] = parsed.all(AST_NODE_TYPES.ExpressionStatement).slice(-2).map((s) => s.expression);
    assert.ok(log && count);
    assert.equal(callbackCannotThrow(parsed.sourceCode, log), true);
    assert.equal(callbackCannotThrow(parsed.sourceCode, count), false);
  });
});

/** Where the first arrow function in `code` can reject at run time, as source text, or null. */
function runTime(code: string): string | null {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
  assert.ok(isFunctionNode(fn));
  const at = asyncBodyRejection(parsed.sourceCode, fn);
  return at ? parsed.sourceCode.getText(at) : null;
}

describe('asyncBodyRejection: what rejects an async body at run time', () => {
  it('an await, a throw or a for await outside any try', () => {
    assert.equal(runTime('on(async () => { check(); await a(); });'), 'await a()');
    assert.equal(runTime("on(async (id) => { if (!id) throw new Error('no id'); try { await a(); } catch {} });"), "throw new Error('no id');");
    assert.equal(runTime('on(async (xs) => { for await (const x of xs) use(x); });'), 'for await (const x of xs) use(x);');
  });

  it('synchronous calls before a try that keeps the error do not count', () => {
    assert.equal(runTime('on(async (req, res) => { allow(res); const { a = d.b } = req.query; assert.ok(a); try { await load(a); } catch (e) { log(e); } });'), null);
    assert.equal(runTime('on(async (x) => { if (!valid(x)) { close(x); return; } try { await a(); } catch (e) { emitter.emit("error", e); } });'), null);
  });

  it('a promise built with an executor that never names reject: only a synchronous throw of the executor could reject it', () => {
    assert.equal(runTime('on(async () => { await new Promise((resolve) => setTimeout(resolve, 1000)); });'), null);
    assert.equal(runTime('on(async () => { await new Promise(function (resolve) { timer = setTimeout(resolve, 10); }); });'), null);
    // Near misses: an executor that can reject, one whose rest parameter holds reject, one passed by name.
    assert.equal(runTime('on(async () => { await new Promise((resolve, reject) => stream.on("error", reject)); });'), 'await new Promise((resolve, reject) => stream.on("error", reject))');
    assert.equal(runTime('on(async () => { await new Promise((...fns) => later(fns)); });'), 'await new Promise((...fns) => later(fns))');
    assert.equal(runTime('on(async () => { await new Promise(executor); });'), 'await new Promise(executor)');
  });

  it('a catch that rethrows, or a try with only a finally, still rejects', () => {
    assert.equal(runTime('on(async () => { try { await a(); } catch (e) { throw e; } });'), 'await a()');
    assert.equal(runTime('on(async () => { try { await a(); } finally { done(); } });'), 'await a()');
  });

  it('an awaited same-file function that cannot reject is no source', () => {
    assert.equal(runTime('async function poll() { try { await a(); } catch (e) { log(e); } }\non(async () => { await poll(); });'), null);
    assert.equal(runTime('async function poll() { await a(); }\non(async () => { await poll(); });'), 'await poll()');
  });

  it('a read of a value only a try block assigns, after a catch that may leave it unset', () => {
    assert.equal(runTime('on(async () => { let r; try { r = await a(); } catch {} use(r.status); });'), 'r.status');
    assert.equal(runTime('on(async () => { let r; try { r = await a(); } catch {} use(r?.status); });'), null);
    assert.equal(runTime('on(async () => { let r = {}; try { r = await a(); } catch {} use(r.status); });'), null);
    // A catch that answers and returns: past the try, the value is set.
    assert.equal(runTime('on(async (res) => { let r; try { r = parse(); } catch { res.end(); return; } use(r.status); });'), null);
  });
});

describe('cannotThrow: calls of functions in sight, and the host timers', () => {
  it('a same-file function whose body cannot throw', () => {
    assert.equal(first("function guard(m) { return setTimeout(function () { console.warn(m); }, 10); }\non(() => { guard('slow'); });").cannotThrow, true);
    assert.equal(first("function guard(m) { if (!m) throw new Error('x'); return m; }\non(() => { guard('slow'); });").cannotThrow, false);
    // A default parameter is evaluated on the call: one that can throw counts.
    assert.equal(first("function guard(m, ms = config.timeout()) { return setTimeout(function () { return m; }, ms); }\non(() => { guard('x'); });").cannotThrow, false);
  });

  it('a recursive function is not trusted on its own word', () => {
    assert.equal(first('function loop(n) { return loop(n); }\non(() => { loop(1); });').cannotThrow, false);
  });

  it('timers: clearTimeout always, setTimeout only with an inline callback, never when shadowed', () => {
    assert.equal(first('on((t) => { clearTimeout(t); });').cannotThrow, true);
    assert.equal(first('on(() => { setTimeout(() => {}, 10); });').cannotThrow, true);
    assert.equal(first('on((fn) => { setTimeout(fn, 10); });').cannotThrow, false);
    assert.equal(first('const clearTimeout = make();\non((t) => { clearTimeout(t); });').cannotThrow, false);
  });
});
