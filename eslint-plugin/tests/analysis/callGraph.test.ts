import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { CallGraph, FunctionInfo } from '../../src/analysis';
import { getCallGraph, resolveCalleeFunction, runningFunction } from '../../src/analysis';
import type { Parsed } from './parse';
import { parse } from './parse';

function graphOf(code: string): { parsed: Parsed; graph: CallGraph } {
  const parsed = parse(code);
  return { parsed, graph: getCallGraph(parsed.sourceCode) };
}

/** The single function called `name`. */
function named(graph: CallGraph, name: string): FunctionInfo {
  const found = graph.functions.filter((f) => f.name === name);
  assert.equal(found.length, 1, `expected one function named ${name}, found ${found.length}`);
  return found[0] as FunctionInfo;
}

/** Target names of the calls `fn` makes, in source order (`?` for unresolved). */
function callees(fn: FunctionInfo): string[] {
  return fn.calls.map((site) => (site.target ? (site.target.name ?? '<anonymous>') : '?'));
}

/** Resolves the call whose text is `text`. */
function targetOf(parsed: Parsed, graph: CallGraph, text: string): FunctionInfo | null {
  return graph.resolveCall(parsed.find(AST_NODE_TYPES.CallExpression, text));
}

describe('getCallGraph: functions', () => {
  it('names and flags every kind of function', () => {
    const { graph } = graphOf(
      [
        `function decl() {}`,
        `async function asyncDecl() {}`,
        `const arrow = async () => {};`,
        `const expr = function () {};`,
        `function* gen() {}`,
        `class Service { async method() {} field = () => {}; static make(): Promise<Service> { return Promise.resolve(new Service()); } }`,
        `const api = { send() {}, async post() {} };`,
        `export const handlers: Record<string, () => void> = {};`,
        `handlers.onTick = function () {};`,
      ].join('\n'),
    );
    const summary = (name: string) => {
      const f = named(graph, name);
      return { isAsync: f.isAsync, isGenerator: f.isGenerator, returnsPromiseType: f.returnsPromiseType };
    };
    assert.deepEqual(summary('decl'), { isAsync: false, isGenerator: false, returnsPromiseType: false });
    assert.deepEqual(summary('asyncDecl'), { isAsync: true, isGenerator: false, returnsPromiseType: false });
    assert.deepEqual(summary('arrow'), { isAsync: true, isGenerator: false, returnsPromiseType: false });
    assert.equal(summary('expr').isAsync, false);
    assert.equal(summary('gen').isGenerator, true);
    assert.equal(summary('method').isAsync, true);
    assert.equal(summary('field').isAsync, false);
    assert.equal(summary('make').returnsPromiseType, true);
    assert.equal(summary('send').isAsync, false);
    assert.equal(summary('post').isAsync, true);
    assert.equal(summary('onTick').isAsync, false);
  });

  it('finds the same functions, in source order, with or without a scope manager', () => {
    const parsed = parse([
      `function outer() { return [1].map((x) => x); }`,
      `class C { async m() { const inner = function named() {}; return inner; } }`,
      `const top = async () => {};`,
    ].join('\n'));
    const withScopes = getCallGraph(parsed.sourceCode).functions.map((f) => f.node);
    const bare = Object.create(parsed.sourceCode, { scopeManager: { value: null } }) as typeof parsed.sourceCode;
    const walked = getCallGraph(bare).functions.map((f) => f.node);
    assert.equal(withScopes.length, 5);
    assert.deepEqual(withScopes, walked);
    assert.deepEqual(withScopes.map((n) => n.range[0]), [...withScopes.map((n) => n.range[0])].sort((a, b) => a - b));
  });

  it('anonymous callbacks are functions with a null name', () => {
    const { parsed, graph } = graphOf(`[1].map((x) => x);`);
    const arrow = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(arrow);
    assert.equal(graph.infoOf(arrow)?.name, null);
  });

  it('is cached per SourceCode', () => {
    const parsed = parse(`function f() {}`);
    assert.equal(getCallGraph(parsed.sourceCode), getCallGraph(parsed.sourceCode));
  });
});

describe('getCallGraph: resolving calls', () => {
  it('by name, including calls before the declaration and recursion', () => {
    const { graph } = graphOf(`function a() { b(); a(); }\nfunction b() {}`);
    assert.deepEqual(callees(named(graph, 'a')), ['b', 'a']);
  });

  it('through const aliases, and alias chains', () => {
    const { graph } = graphOf(`function load() {}\nconst alias = load;\nconst again = alias;\nfunction run() { alias(); again(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['load', 'load']);
  });

  it('a `let` alias that is reassigned is not followed', () => {
    const { graph } = graphOf(`function load() {}\nfunction other() {}\nlet pick = load;\npick = other;\nfunction run() { pick(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });

  it('a `let` alias that is never reassigned is followed', () => {
    const { graph } = graphOf(`function load() {}\nlet pick = load;\nfunction run() { pick(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['load']);
  });

  it('this.method() from a method and from an arrow inside it', () => {
    const { graph } = graphOf(
      `class Jobs {\n  async run() { this.step(); [1].forEach(() => this.step()); }\n  step() {}\n}`,
    );
    assert.deepEqual(callees(named(graph, 'run')), ['step', '?', 'step']);
  });

  it('this.method() inside a nested function expression is not the instance', () => {
    const { parsed, graph } = graphOf(`class Jobs {\n  run() { return function (this: any) { this.step(); }; }\n  step() {}\n}`);
    assert.equal(targetOf(parsed, graph, 'this.step()'), null);
  });

  it('this.field() when the field holds an arrow function', () => {
    const { parsed, graph } = graphOf(`class Jobs {\n  handle = async () => {};\n  run() { this.handle(); }\n}`);
    assert.equal(targetOf(parsed, graph, 'this.handle()')?.name, 'handle');
  });

  it('private methods are told apart from public ones of the same name', () => {
    const { parsed, graph } = graphOf(`class Jobs {\n  async #work() {}\n  work() {}\n  run() { this.#work(); this.work(); }\n}`);
    assert.equal(targetOf(parsed, graph, 'this.#work()')?.isAsync, true);
    assert.equal(targetOf(parsed, graph, 'this.work()')?.isAsync, false);
  });

  it('Class.staticMethod(), but not an instance method through the class', () => {
    const { parsed, graph } = graphOf(`class Repo {\n  static async create() {}\n  save() {}\n}\nRepo.create();\n(Repo as any).save();`);
    assert.equal(targetOf(parsed, graph, 'Repo.create()')?.name, 'create');
    assert.equal(targetOf(parsed, graph, '(Repo as any).save()'), null);
  });

  it('this.x() in a static method calls the static member', () => {
    const { parsed, graph } = graphOf(`class Repo {\n  static async create() { this.init(); }\n  static init() {}\n  init() {}\n}`);
    const target = targetOf(parsed, graph, 'this.init()');
    assert.equal(target?.node.parent?.type === AST_NODE_TYPES.MethodDefinition && target.node.parent.static, true);
  });

  it('methods of a const object literal', () => {
    const { parsed, graph } = graphOf(`const api = { async send() {}, ping: () => 1 };\napi.send();\napi.ping();`);
    assert.equal(targetOf(parsed, graph, 'api.send()')?.name, 'send');
    assert.equal(targetOf(parsed, graph, 'api.ping()')?.name, 'ping');
  });

  it('an immediately invoked function', () => {
    const { parsed, graph } = graphOf(`(async () => {})();`);
    const arrow = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.equal(targetOf(parsed, graph, '(async () => {})()')?.node, arrow);
  });

  it("the module's own exports through `exports` and `module.exports`", () => {
    const { parsed, graph } = graphOf(
      [
        `export const start = async () => {};`,
        `export function stop() {}`,
        `exports.reload = () => 1;`,
        `function main() { exports.start(); exports.stop(); module.exports.reload(); exports.missing(); }`,
      ].join('\n'),
    );
    assert.equal(targetOf(parsed, graph, 'exports.start()')?.name, 'start');
    assert.equal(targetOf(parsed, graph, 'exports.stop()')?.name, 'stop');
    assert.equal(targetOf(parsed, graph, 'module.exports.reload()')?.name, 'reload');
    assert.equal(targetOf(parsed, graph, 'exports.missing()'), null);
  });

  it('resolveCallee on a bare callee expression', () => {
    const { parsed, graph } = graphOf(`function f() {}\nconst g = f;\nsetTimeout(g, 1);`);
    const g = parsed.find(AST_NODE_TYPES.Identifier, 'g', 1);
    assert.equal(graph.resolveCallee(g)?.name, 'f');
  });
});

describe('getCallGraph: near-misses stay unresolved', () => {
  it('a parameter shadowing a function name', () => {
    const { graph } = graphOf(`function load() {}\nfunction run(load: () => void) { load(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });

  it('imported functions and globals', () => {
    const { graph } = graphOf(`import { readFile } from 'fs/promises';\nasync function run() { await readFile('a'); setTimeout(() => {}, 1); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?', '?']);
  });

  it('a method on an object that is not a const literal', () => {
    const { graph } = graphOf(`let api = { send() {} };\napi = { send() {} };\nfunction run() { api.send(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });

  it('an `exports` or `module` the file declares itself', () => {
    const { graph } = graphOf(`export async function start() {}\nfunction run(exports: any, module: any) { exports.start(); module.exports.start(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?', '?']);
  });

  it('a computed member call', () => {
    const { graph } = graphOf(`const api = { send() {} };\nconst key = 'send';\nfunction run() { (api as any)[key](); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });

  it('a function declared twice with var', () => {
    const { graph } = graphOf(`var f = function () {};\nvar f = function () {};\nfunction run() { f(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });

  it('alias cycles terminate', () => {
    const { graph } = graphOf(`let a: any = () => b();\nlet b: any = a;\na = b;\nfunction run() { b(); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
  });
});

describe('getCallGraph: which function a call runs in', () => {
  it('calls in synchronous callbacks belong to the enclosing function', () => {
    const { graph } = graphOf(`function step() {}\nasync function run(xs: number[]) { xs.map(() => step()); new Promise(() => step()); (() => step())(); }`);
    assert.deepEqual(callees(named(graph, 'run')).filter((n) => n === 'step'), ['step', 'step', 'step']);
  });

  it('calls in timer callbacks belong to the callback, not the enclosing function', () => {
    const { parsed, graph } = graphOf(`function step() {}\nasync function run() { setTimeout(() => step(), 1); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?']);
    const arrow = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(arrow);
    assert.deepEqual(callees(graph.infoOf(arrow) as FunctionInfo), ['step']);
  });

  it('an async callback runs on its own', () => {
    const { parsed, graph } = graphOf(`function step() {}\nfunction run(xs: number[]) { xs.forEach(async () => step()); }`);
    assert.deepEqual(callees(named(graph, 'run')), ['?'], 'only the forEach call itself');
    const arrow = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(arrow);
    assert.equal(runningFunction(parsed.find(AST_NODE_TYPES.CallExpression, 'step()')), arrow);
  });

  it('top-level calls belong to no function', () => {
    const { parsed, graph } = graphOf(`function step() {}\nstep();`);
    assert.equal(runningFunction(parsed.find(AST_NODE_TYPES.CallExpression, 'step()')), null);
    assert.deepEqual(callees(named(graph, 'step')), []);
  });
});

describe('getCallGraph: bodiless TypeScript declarations', () => {
  it('a `declare function` resolves to nothing', () => {
    const { parsed, graph } = graphOf(`declare function remote(): string;\nasync function run() { remote(); }`);
    assert.equal(targetOf(parsed, graph, 'remote()'), null);
    assert.equal(resolveCalleeFunction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.Identifier, 'remote', 1)), null);
  });

  it('an overloaded function resolves to its implementation', () => {
    const { parsed, graph } = graphOf(
      `function load(p: string): string;\nfunction load(p: number): string;\nfunction load(p: string | number) { return String(p); }\nasync function run() { load(1); }`,
    );
    const target = targetOf(parsed, graph, 'load(1)');
    assert.equal(target?.name, 'load');
    assert.equal(target?.node.type, AST_NODE_TYPES.FunctionDeclaration);
    assert.ok(target?.node.body, 'the implementation, with its body');
  });

  it('overload signatures with no implementation (an ambient overload set) resolve to nothing', () => {
    const { parsed, graph } = graphOf(`declare function f(a: string): void;\ndeclare function f(a: number): void;\nasync function run() { f(1); }`);
    assert.equal(targetOf(parsed, graph, 'f(1)'), null);
  });

  it('a function merged with a namespace is left alone', () => {
    const { parsed, graph } = graphOf(`function f() {}\nnamespace f { export const x = 1; }\nasync function run() { f(); }`);
    assert.equal(targetOf(parsed, graph, 'f()'), null);
  });

  it('method overloads resolve to the member with a body; abstract members to nothing', () => {
    const { parsed, graph } = graphOf(`abstract class A {
  abstract load(): string;
  pick(x: string): string;
  pick(x: number): string;
  pick(x: string | number) { return String(x); }
  async run() { this.load(); this.pick(1); }
}`);
    assert.equal(targetOf(parsed, graph, 'this.load()'), null);
    const pick = targetOf(parsed, graph, 'this.pick(1)');
    assert.equal(pick?.name, 'pick');
    assert.ok(pick?.node.body);
  });

  it('no function in the graph is bodiless', () => {
    const { graph } = graphOf(`declare function a(): void;
function b(x: string): void;
function b(x: string) {}
declare class C { m(): void; }
abstract class D { abstract m(): void; n(): void; n() {} }
declare module 'm' { export function e(): void; }
namespace N { export declare function g(): void; }`);
    for (const fn of graph.functions) assert.ok(fn.node.body, `${fn.name ?? 'anonymous'} has a body`);
    assert.deepEqual(graph.functions.map((f) => f.name), ['b', 'n']);
  });
});
