import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TypeOracle } from '../../src/analysis';
import {
  chainRootText, droppedExpressions, forEachDropsRejections, forOfRewrite, isFunctionNode, isPromiseHandled, isRejectionGuarded, isVariableRead,
  matchesAllowList, promiseOrigin,
} from '../../src/analysis';
import { parse } from './parse';

/** The kind of promise the call whose text is `text` makes, or null. */
function originKind(code: string, text: string, types?: TypeOracle): string | null {
  const parsed = parse(code);
  const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) => parsed.sourceCode.getText(c) === text) ??
    parsed.find(AST_NODE_TYPES.NewExpression, text);
  return promiseOrigin(parsed.sourceCode, call, types)?.kind ?? null;
}

/** Is the call whose text is `text` looked after? */
function handled(code: string, text: string, allowVoid = true): boolean {
  const parsed = parse(code);
  return isPromiseHandled(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text), allowVoid);
}

describe('promiseOrigin without types', () => {
  it('knows same-file async functions, arrows, methods and declared Promise return types', () => {
    assert.equal(originKind('async function a() {}\na();', 'a()'), 'local');
    assert.equal(originKind('const a = async () => 1;\na();', 'a()'), 'local');
    assert.equal(originKind('class C { async m() {} run() { this.m(); } }', 'this.m()'), 'local');
    assert.equal(originKind('function a(): Promise<number> { return Promise.resolve(1); }\na();', 'a()'), 'local');
    assert.equal(originKind('declare function a(): Promise<void>;\na();', 'a()'), 'local');
    assert.equal(originKind('(async () => {})();', '(async () => {})()'), 'local');
  });

  it('ignores sync functions, async generators and unknown imports', () => {
    assert.equal(originKind('function a() { return 1; }\na();', 'a()'), null);
    assert.equal(originKind('async function* a() {}\na();', 'a()'), null);
    assert.equal(originKind("import { a } from './a';\na();", 'a()'), null);
    assert.equal(originKind('declare function a(): number;\na();', 'a()'), null);
  });

  it('knows fetch, fs/promises and timers/promises, but not their iterator exports', () => {
    assert.equal(originKind("fetch('x');", "fetch('x')"), 'library');
    assert.equal(originKind("import { readFile } from 'node:fs/promises';\nreadFile('x');", "readFile('x')"), 'library');
    assert.equal(originKind("import fs from 'fs';\nfs.promises.stat('x');", "fs.promises.stat('x')"), 'library');
    assert.equal(originKind("import { setTimeout } from 'timers/promises';\nsetTimeout(1);", 'setTimeout(1)'), 'library');
    assert.equal(originKind("import { setInterval } from 'timers/promises';\nsetInterval(1);", 'setInterval(1)'), null);
    assert.equal(originKind("import { watch } from 'fs/promises';\nwatch('x');", "watch('x')"), null);
    assert.equal(originKind("import fs from 'fs';\nfs.readFileSync('x');", "fs.readFileSync('x')"), null);
  });

  it('knows Promise statics and the constructor, unless `Promise` or `fetch` is shadowed', () => {
    assert.equal(originKind('Promise.all([]);', 'Promise.all([])'), 'combinator');
    assert.equal(originKind('Promise.reject(1);', 'Promise.reject(1)'), 'combinator');
    assert.equal(originKind('new Promise(() => {});', 'new Promise(() => {})'), 'constructor');
    assert.equal(originKind('const Promise = { all() {} };\nPromise.all([]);', 'Promise.all([])'), null);
    assert.equal(originKind("function fetch(u: string) { return u; }\nfetch('x');", "fetch('x')"), null);
  });

  it('tells chains with and without a rejection handler apart', () => {
    const code = 'declare const p: any;\np.then(a);\np.then(a, b);\np.then(a, null);\np.catch(h);\np.catch(h).finally(f);\np.finally(f);';
    const parsed = parse(code);
    const at = (text: string): unknown => {
      const origin = promiseOrigin(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text));
      return origin?.kind === 'chain' ? [origin.method, origin.handlesRejection] : null;
    };
    assert.deepEqual(at('p.then(a)'), ['then', false]);
    assert.deepEqual(at('p.then(a, b)'), ['then', true]);
    assert.deepEqual(at('p.then(a, null)'), ['then', false]);
    assert.deepEqual(at('p.catch(h)'), ['catch', true]);
    assert.deepEqual(at('p.catch(h).finally(f)'), ['finally', true]);
    assert.deepEqual(at('p.finally(f)'), ['finally', false]);
  });
});

describe('promiseOrigin with types', () => {
  const thenable: TypeOracle = { isThenable: () => true, typeText: () => 'Promise<void>' };
  const notThenable: TypeOracle = { isThenable: () => false, typeText: () => 'any' };

  it('adds what the checker knows', () => {
    assert.equal(originKind("import { a } from './a';\na();", 'a()', thenable), 'typed');
  });

  it('never drops a syntactic finding when the type is any', () => {
    assert.equal(originKind('async function a() {}\na();', 'a()', notThenable), 'local');
  });
});

describe('droppedExpressions', () => {
  const texts = (code: string, allowVoid = true): string[] => {
    const parsed = parse(code);
    const statement = parsed.ast.body[parsed.ast.body.length - 1] as TSESTree.ExpressionStatement;
    return droppedExpressions(statement.expression, allowVoid).map((n) => parsed.sourceCode.getText(n));
  };

  it('splits conditionals, logical operators and sequences', () => {
    assert.deepEqual(texts('declare const c: boolean;\nc ? a() : b();'), ['a()', 'b()']);
    assert.deepEqual(texts('a() || b();'), ['a()', 'b()']);
    assert.deepEqual(texts('(a(), b());'), ['a()', 'b()']);
  });

  it('stops at await, assignments and (when allowed) void', () => {
    assert.deepEqual(texts('async function f() {}\nawait a();'), []);
    assert.deepEqual(texts('let x;\nx = a();'), []);
    assert.deepEqual(texts('void a();'), []);
    assert.deepEqual(texts('void a();', false), ['a()']);
  });

  it('keeps TypeScript wrappers on the dropped node', () => {
    assert.deepEqual(texts('a() as Promise<void>;'), ['a() as Promise<void>']);
  });
});

describe('isPromiseHandled', () => {
  it('accepts await, return, arrow bodies, yield and handlers', () => {
    assert.equal(handled('async function f() { await a(); }', 'a()'), true);
    assert.equal(handled('function f() { return a(); }', 'a()'), true);
    assert.equal(handled('const f = () => a();', 'a()'), true);
    assert.equal(handled('async function* f() { yield a(); }', 'a()'), true);
    assert.equal(handled('a().catch(h);', 'a()'), true);
    assert.equal(handled('a().then(ok, h);', 'a()'), true);
    assert.equal(handled('a().then(ok).catch(h);', 'a()'), true);
  });

  it('rejects statements and chains without a handler', () => {
    assert.equal(handled('a();', 'a()'), false);
    assert.equal(handled('a().then(ok);', 'a()'), false);
    assert.equal(handled('a().finally(f);', 'a()'), false);
    assert.equal(handled('a().catch();', 'a()'), false);
    assert.equal(handled('(a(), b());', 'a()'), false);
  });

  it('treats void as handled only when allowed', () => {
    assert.equal(handled('void a();', 'a()'), true);
    assert.equal(handled('void a();', 'a()', false), false);
  });

  it('accepts arguments and object storage', () => {
    assert.equal(handled('track(a());', 'a()'), true);
    assert.equal(handled('const o = { p: a() };', 'a()'), true);
    assert.equal(handled('class C { p: unknown; f() { this.p = a(); } }', 'a()'), true);
    assert.equal(handled('Promise.all([a(), b()]);', 'a()'), true);
  });

  it('follows local variables to their uses', () => {
    assert.equal(handled('async function f() { const p = a(); await p; }', 'a()'), true);
    assert.equal(handled('function f() { const p = a(); return p; }', 'a()'), true);
    assert.equal(handled('function f() { const p = a(); }', 'a()'), false);
    assert.equal(handled('function f() { const p = a(); p; }', 'a()'), false);
    assert.equal(handled('export const p = a();', 'a()'), true);
    assert.equal(handled('function f() { let p; p = a(); g(p); }', 'a()'), true);
  });

  it('follows arrays that promises are pushed into', () => {
    assert.equal(handled('async function f() { const ps = []; ps.push(a()); await Promise.all(ps); }', 'a()'), true);
    assert.equal(handled('function f() { const ps = []; ps.push(a()); }', 'a()'), false);
    assert.equal(handled('function f() { const ps = []; ps.push(a()); return ps.length; }', 'a()'), true);
    // Not a local: someone else may read it.
    assert.equal(handled('class C { ps: unknown[] = []; f() { this.ps.push(a()); } }', 'a()'), true);
  });
});

describe('isVariableRead', () => {
  it('counts reads in closures and ignores bare statements', () => {
    const parsed = parse('const p = a();\nconst q = a();\nq;\nexport async function w() { await p; }');
    const [p, q] = parsed.all(AST_NODE_TYPES.VariableDeclarator).map((d) => d.id as TSESTree.Identifier);
    assert.equal(isVariableRead(parsed.sourceCode, p as TSESTree.Identifier), true);
    assert.equal(isVariableRead(parsed.sourceCode, q as TSESTree.Identifier), false);
  });
});

describe('matchesAllowList', () => {
  const matches = (code: string, text: string, entries: Parameters<typeof matchesAllowList>[2]): boolean => {
    const parsed = parse(code);
    return matchesAllowList(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text), entries);
  };

  it('matches exports with one modifier segment', () => {
    const list = [{ module: 'node:test', export: 'describe' }, { module: 'node:test', export: 'default' }];
    assert.equal(matches("import { describe } from 'node:test';\ndescribe('x', f);", "describe('x', f)", list), true);
    assert.equal(matches("import { describe } from 'node:test';\ndescribe.skip('x', f);", "describe.skip('x', f)", list), true);
    assert.equal(matches("import test from 'node:test';\ntest('x', f);", "test('x', f)", list), true);
    assert.equal(matches("import { mock } from 'node:test';\nmock.method(o, 'm');", "mock.method(o, 'm')", list), false);
    assert.equal(matches("import { describe } from 'vitest';\ndescribe('x', f);", "describe('x', f)", list), false);
  });

  it('matches methods on objects built from a module, and bare names', () => {
    const list = [{ module: 'hono', method: 'on' }, { export: 'flush' }];
    assert.equal(matches("import { Hono } from 'hono';\nconst app = new Hono();\napp.on('GET', '/', h);", "app.on('GET', '/', h)", list), true);
    assert.equal(matches("import { Router } from 'other';\nconst app = new Router();\napp.on('GET', '/', h);", "app.on('GET', '/', h)", list), false);
    assert.equal(matches('flush();', 'flush()', list), true);
  });
});

describe('forOfRewrite', () => {
  const rewrite = (code: string): string | null => {
    const parsed = parse(code);
    const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) =>
      c.callee.type === AST_NODE_TYPES.MemberExpression && parsed.sourceCode.getText(c.callee).endsWith('forEach'));
    assert.ok(call);
    return forOfRewrite(parsed.sourceCode, call)?.text ?? null;
  };

  it('rewrites a one-parameter async arrow in an async function', () => {
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x) => { await g(x); }); }'),
      'for (const x of xs) { await g(x); }');
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x) => g(x)); }'),
      'for (const x of xs) { await g(x); }');
    assert.equal(rewrite('async function f(xs: { a: string }[]) { xs.forEach(async ({ a }) => { await g(a); }); }'),
      'for (const { a } of xs) { await g(a); }');
  });

  it('refuses when behaviour would change beyond scheduling', () => {
    assert.equal(rewrite('function f(xs: string[]) { xs.forEach(async (x) => { await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x, i) => { await g(x, i); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x) => { if (x) return; await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x = "a") => { await g(x); }); }'), null);
    assert.equal(rewrite('async function f(x: { xs: string[] }) { x.xs.forEach(async (x) => { await g(x); }); }'), null);
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x) => { await g(x); }, this); }'), null);
    assert.equal(rewrite('async function f(xs?: string[]) { xs?.forEach(async (x) => { await g(x); }); }'), null);
    // A return inside a nested function is that function's own.
    assert.equal(rewrite('async function f(xs: string[]) { xs.forEach(async (x) => { await g(() => { return x; }); }); }'),
      'for (const x of xs) { await g(() => { return x; }); }');
  });
});

describe('isRejectionGuarded', () => {
  const guarded = (code: string): boolean => {
    const parsed = parse(code);
    const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(isFunctionNode(fn));
    return isRejectionGuarded(fn);
  };

  it('accepts a body that is one try/catch, or a returned chain with a handler', () => {
    assert.equal(guarded('on(async () => { try { await a(); } catch (e) { log(e); } });'), true);
    assert.equal(guarded('on(async () => a().catch(log));'), true);
    assert.equal(guarded('on(async () => a().then(ok, log));'), true);
  });

  it('accepts guarded statements around try/catch: plain ifs, bare returns, safe declarations', () => {
    assert.equal(guarded(`on(async (fn, done) => {
  if (fn.length === 1) {
    try { fn(done); } catch (e) { done(e); }
    return;
  }
  const started = Date.now();
  try { await fn(); done(); } catch (e) { done(e); }
});`), true);
  });

  it('rejects an if that calls something, a statement outside the guards, a body with no try', () => {
    assert.equal(guarded('on(async (fn) => { if (ready()) { try { await fn(); } catch {} } });'), false);
    assert.equal(guarded('on(async (fn) => { if (fn.ok) return; prepare(); try { await fn(); } catch {} });'), false);
    assert.equal(guarded('on(async (fn) => { const x = load(); try { await fn(x); } catch {} });'), false);
    assert.equal(guarded('on(async (fn) => { if (fn.ok) return; });'), false);
  });

  it('rejects try/finally, statements outside the try, and unhandled bodies', () => {
    assert.equal(guarded('on(async () => { try { await a(); } finally { done(); } });'), false);
    assert.equal(guarded('on(async () => { try { await a(); } catch {} await b(); });'), false);
    assert.equal(guarded('on(async () => a());'), false);
  });
});

describe('chainRootText', () => {
  it('names the promise a chain starts from', () => {
    const parsed = parse("fetch('x').then(a).finally(b);");
    const call = parsed.find(AST_NODE_TYPES.CallExpression, "fetch('x').then(a).finally(b)");
    assert.equal(chainRootText(parsed.sourceCode, call), "`fetch('x')`");
  });

  it('stops at a rejection handler inside the chain: the promise before it is handled', () => {
    const parsed = parse('task.catch(fatal).then(report);');
    const call = parsed.find(AST_NODE_TYPES.CallExpression, 'task.catch(fatal).then(report)');
    assert.equal(chainRootText(parsed.sourceCode, call), '`task.catch(fatal)`');
  });
});

describe('forEachDropsRejections', () => {
  const drops = (code: string): boolean => {
    const parsed = parse(code);
    const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) => parsed.sourceCode.getText(c).startsWith('items.forEach'));
    assert.ok(call);
    return forEachDropsRejections(parsed.sourceCode, call);
  };
  it('an async callback that awaits something that can reject', () => {
    assert.equal(drops('items.forEach(async (item) => { await send(item); });'), true);
    assert.equal(drops('items.forEach(async (item) => { if (!item) throw new Error(); });'), true);
  });
  it('not a guarded async callback, nor one with nothing that rejects', () => {
    assert.equal(drops('items.forEach(async (item) => { try { await send(item); } catch (error) { console.error(error); } });'), false);
    assert.equal(drops('items.forEach(async (item) => { seen.add(item); });'), false);
  });
  it('not a plain callback, and not another method', () => {
    assert.equal(drops('items.forEach((item) => { send(item); });'), false);
    assert.equal(drops('items.forEach.call(list, async (item) => { await send(item); });'), false);
  });
});
