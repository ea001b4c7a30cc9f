import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { callsOf, onlyCalledFrom, privateMethodUses } from '../../src/analysis';
import { parse } from './parse';

/** The function declared (or bound to a `const`) as `name`. */
function named(parsed: ReturnType<typeof parse>, name: string): FunctionNode {
  const fn = [...parsed.all(AST_NODE_TYPES.FunctionDeclaration), ...parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)].find((f) =>
    f.type === AST_NODE_TYPES.FunctionDeclaration ? f.id?.name === name
      : f.parent.type === AST_NODE_TYPES.VariableDeclarator && f.parent.id.type === AST_NODE_TYPES.Identifier && f.parent.id.name === name);
  assert.ok(fn, name);
  return fn;
}

/** Is `helper` only called from calls inside `async` functions, directly or through helpers that are? */
function onlyFromAsync(code: string, helper: string): boolean {
  const parsed = parse(code);
  const only = onlyCalledFrom(parsed.sourceCode, (call) => {
    for (let node: TSESTree.Node | undefined = call.parent; node; node = node.parent) {
      if (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.ArrowFunctionExpression) return node.async;
    }
    return false;
  });
  return only(named(parsed, helper));
}

describe('callsOf', () => {
  it('lists every call of a function whose every use is seen', () => {
    const parsed = parse(`function load() { return 1; }\nconst read = () => load();\nexport async function a() { load(); return read() + load(); }`);
    assert.deepEqual(callsOf(parsed.sourceCode, named(parsed, 'load'))?.map((c) => c.loc.start.line), [2, 3, 3]);
  });
  it('near misses: exported, passed as a value, or a `let` binding may be called from anywhere', () => {
    for (const code of [
      `export function load() { return 1; }\nload();`,
      `function load() { return 1; }\nexport const all = [load];`,
      `function load() { return 1; }\nsetTimeout(load, 5);`,
      `let load = () => 1;\nload();`,
    ]) {
      const parsed = parse(code);
      assert.equal(callsOf(parsed.sourceCode, named(parsed, 'load')), null, code);
    }
  });
});

describe('onlyCalledFrom', () => {
  it('every call accepted, directly or through helpers every call of which is', () => {
    assert.equal(onlyFromAsync(`function load() {}\nexport async function a() { load(); }\nexport const b = async () => load();`, 'load'), true);
    assert.equal(onlyFromAsync(`function load() {}\nfunction render() { return load(); }\nexport async function a() { render(); }`, 'load'), true);
  });
  it('near misses: a call outside, a helper also called outside, no call at all, recursion', () => {
    assert.equal(onlyFromAsync(`function load() {}\nload();\nexport async function a() { load(); }`, 'load'), false);
    assert.equal(onlyFromAsync(`function load() {}\nfunction render() { return load(); }\nrender();\nexport async function a() { render(); }`, 'load'), false);
    assert.equal(onlyFromAsync(`function load() {}`, 'load'), false);
    assert.equal(onlyFromAsync(`function walk(n: number): number { return n && walk(n - 1); }`, 'walk'), false);
  });
});

describe('privateMethodUses', () => {
  /** The uses of method `name` as source text, or null when they are not all known. */
  function uses(code: string, name: string): string[] | null {
    const parsed = parse(code);
    const method = parsed.all(AST_NODE_TYPES.MethodDefinition).find((m) => m.key.type !== AST_NODE_TYPES.PrivateIdentifier
      ? m.key.type === AST_NODE_TYPES.Identifier && m.key.name === name
      : `#${m.key.name}` === name);
    assert.ok(method, name);
    return privateMethodUses(parsed.sourceCode, method.value as FunctionNode)?.map((u) => parsed.sourceCode.getText(u.parent as TSESTree.Node)) ?? null;
  }

  it('every this.m of a #m or private m in its class', () => {
    assert.deepEqual(uses(`class C { #m() {} a() { this.#m(); } b = () => this.#m(); }`, '#m'), ['this.#m()', 'this.#m()']);
    assert.deepEqual(uses(`class C { private m() {} a() { return [1].map(() => this.m()); } }`, 'm'), ['this.m()']);
  });

  it('near misses: public, used on another object, under another this, or by a computed key', () => {
    assert.equal(uses(`class C { m() {} a() { this.m(); } }`, 'm'), null);
    assert.equal(uses(`class C { private m() {} a(o: C) { o.m(); } }`, 'm'), null);
    assert.equal(uses(`class C { private m() {} a() { return function (this: C) { this.m(); }; } }`, 'm'), null);
    assert.equal(uses(`class C { private m() {} a(k: string) { (this as any)[k](); } }`, 'm'), null);
  });
});
