import type * as ts from 'typescript';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { annotatesPromise, calleeName, constInit, findVariable, isFunctionNode, patternNames, returnedValues, shortSource, skipTransparent, staticPropertyName, walk } from './ast';
import { getCallGraph, resolveCalleeFunction } from './callGraph';
import { combinatorCannotReject } from './combinators';
import type { ModuleRef } from './imports';
import { normalizeModule, resolveReference } from './imports';
import type { CheckerServices } from './typeQueries';
import { askChecker, typeAt } from './typeQueries';
import { wrapsGuardedCallback } from './guardedCallbacks';
import { branchesRuledOutAt } from './callSiteBranches';
import { importsProjectFile } from './dynamicImports';
import { importedFunction, importsProjectModules } from './moduleFunctions';
import { packagePromiseCall } from './packagePromises';
import { packagePromiseFunction } from './packageFunctions';
import { transactionCall } from './transactionCalls';
import { awaitedImport } from './awaitedImports';
import { ModuleAnswers } from './localModules';
import { callbackCannotThrow, chainCannotReject, handlesRejection, isRejectionGuarded, unguardedRejection } from './rejections';
import { moduleExportListSchema } from '../util/settings';

type Services = Readonly<TSESLint.SourceCode>;

/** What the type checker can say about an expression; absent without type information. */
export interface TypeOracle {
  /** True when the expression's type (or one member of its union) has a callable `then`. */
  isThenable(node: TSESTree.Node): boolean;
  /** `Promise<string>`, for messages. */
  typeText(node: TSESTree.Node): string;
  /** True when the expression's type is an array of thenables or a tuple holding one. */
  isThenableArray?(node: TSESTree.Node): boolean;
}

export type PromiseOrigin =
  /** A same-file function declared `async` or with a `Promise<…>` return type. */
  | { kind: 'local'; name: string; declaration: TSESTree.Node; declaredAsync: boolean }
  /**
   * A function of another of the project's modules that is `async` or returns a promise, found by
   * this same analysis run on that module; `canReject` is false when its body cannot reject,
   * `rejectsAtRunTime` when it also has no `await`, `throw` or returned promise that can reject
   * outside a `try` that keeps the error (see `asyncBodyRejection`).
   */
  | { kind: 'imported'; name: string; declaration: TSESTree.Node; declaredAsync: boolean; file: string; canReject: boolean; rejectsAtRunTime: boolean }
  /** `fetch`, `fs/promises`, `timers/promises`, a package function that returns one (`axios.post`, see `packagePromiseFunction`). */
  | { kind: 'library'; name: string }
  /** `Promise.all(…)`, `Promise.reject(…)`. */
  | { kind: 'combinator'; name: string }
  | { kind: 'constructor' }
  /** `.then()` / `.catch()` / `.finally()`; `handlesRejection` when a rejection handler is attached. */
  | { kind: 'chain'; method: 'then' | 'catch' | 'finally'; handlesRejection: boolean; property: TSESTree.Node }
  /**
   * A method of a well-known package's object (`message.reply`, `collection.insertMany`), or a
   * queue's or limiter's task (`queue.add(task)`), which rejects when the task does; see `packagePromiseCall`.
   */
  | { kind: 'package'; name: string; module: string; evidence: TSESTree.Node; evidenceFile: string | null; task: TSESTree.Node | null }
  /** A transaction method of a connection whose sibling method is awaited (`await conn.commit()`); see `transactionCall`. */
  | { kind: 'transaction'; name: string; sibling: string; evidence: TSESTree.Node }
  /**
   * A function of a project module the lint cannot read, awaited or chained elsewhere in the
   * program (`file` null: in this file); see `awaitedImport`.
   */
  | { kind: 'awaitedImport'; name: string; evidence: TSESTree.CallExpression; file: string | null }
  /** Known only from its type (typed mode). */
  | { kind: 'typed'; name: string; typeText: string };

const PROMISE_STATICS: ReadonlySet<string> = new Set(['all', 'allSettled', 'any', 'race', 'reject', 'resolve', 'try']);
/** `fs/promises` and `timers/promises` exports that return async iterators or plain values, not promises. */
const NOT_PROMISE_EXPORTS: ReadonlySet<string> = new Set(['watch', 'setInterval', 'constants', 'scheduler']);

/**
 * Why `node` evaluates to a promise, or null when that cannot be told. Syntax first (same-file
 * async functions, well-known promise APIs, chains); the type checker only adds to that, so an
 * `any` or unresolved type never hides a syntactic finding.
 */
export function promiseOrigin(sourceCode: Services, node: TSESTree.Node, types?: TypeOracle): PromiseOrigin | null {
  const expr = skipTransparent(node);
  const syntactic = syntacticOrigin(sourceCode, expr, 0);
  if (syntactic) return syntactic;
  if (types && isValueExpression(expr) && types.isThenable(expr)) {
    return { kind: 'typed', name: describeExpression(sourceCode, expr), typeText: types.typeText(expr) };
  }
  return null;
}

/** Imported functions whose own returns are followed into further modules at most this deep. */
const MAX_MODULE_DEPTH = 3;

function syntacticOrigin(sourceCode: Services, expr: TSESTree.Node, depth: number): PromiseOrigin | null {
  if (expr.type === AST_NODE_TYPES.NewExpression) {
    const callee = skipTransparent(expr.callee);
    return callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Promise' && isGlobal(sourceCode, callee)
      ? { kind: 'constructor' }
      : null;
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(expr.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const chain = chainOrigin(expr, callee);
    if (chain) return chain;
    const obj = skipTransparent(callee.object);
    const name = staticPropertyName(callee);
    if (name !== null && PROMISE_STATICS.has(name) && obj.type === AST_NODE_TYPES.Identifier && obj.name === 'Promise' &&
      isGlobal(sourceCode, obj)) {
      return { kind: 'combinator', name: `Promise.${name}` };
    }
  }
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'fetch' && isGlobal(sourceCode, callee)) {
    return { kind: 'library', name: 'fetch' };
  }
  const words = fileWords(sourceCode);
  if (words.promiseApis) {
    const ref = resolveReference(sourceCode, callee);
    if (ref && isPromiseApi(ref)) return { kind: 'library', name: refName(ref) };
    // `(fs.rm || fs.rmdir)(dir)`: a fallback between promise APIs calls one of them.
    if (callee.type === AST_NODE_TYPES.LogicalExpression && callee.operator !== '&&') {
      const refs = [callee.left, callee.right].map((side) => resolveReference(sourceCode, skipTransparent(side)));
      if (refs.every((r) => r !== null && isPromiseApi(r))) return { kind: 'library', name: refs.map((r) => refName(r as ModuleRef)).join(' || ') };
    }
  }
  const fromFunction = packagePromiseFunction(sourceCode, expr);
  if (fromFunction) return { kind: 'library', name: [fromFunction.module, ...fromFunction.path.filter((p) => p !== 'default')].join('.') };
  const fromPackage = packagePromiseCall(sourceCode, expr);
  if (fromPackage) return { kind: 'package', ...fromPackage };
  const transaction = transactionCall(sourceCode, expr);
  if (transaction) return { kind: 'transaction', ...transaction };
  if (depth <= MAX_MODULE_DEPTH && importsProjectModules(sourceCode)) {
    const imported = importedOrigin(sourceCode, callee, depth);
    if (imported) return imported;
    const awaited = awaitedImport(sourceCode, expr);
    if (awaited) return { kind: 'awaitedImport', ...awaited };
  }
  if (!words.promiseFunctions) return null;
  const forwarded = forwardedCall(sourceCode, callee);
  if (forwarded) return forwarded;
  // Scope lookups are the expensive part: only names that some promise function in the file has.
  const name = callee.type === AST_NODE_TYPES.Identifier
    ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  if (!isFunctionNode(callee) && (name === null || !promiseFunctionNames(sourceCode).has(name))) return null;
  const declared = declaredPromiseFunction(sourceCode, callee);
  if (declared) return declared;
  const target = getCallGraph(sourceCode).resolveCall(expr);
  if (target && !target.isGenerator && (target.isAsync || target.returnsPromiseType)) {
    return {
      kind: 'local',
      name: target.name ?? 'an async function',
      declaration: target.node,
      declaredAsync: target.isAsync,
    };
  }
  return null;
}

/** `this.load.apply(this, args)`, `load.call(null, id)`: the same-file async function called through `call`/`apply`. */
function forwardedCall(sourceCode: Services, callee: TSESTree.Node): PromiseOrigin | null {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method !== 'call' && method !== 'apply') return null;
  const inner = skipTransparent(callee.object);
  const name = inner.type === AST_NODE_TYPES.Identifier ? inner.name : inner.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(inner) : null;
  if (name === null || !promiseFunctionNames(sourceCode).has(name)) return null;
  const target = resolveCalleeFunction(sourceCode, inner);
  if (!target?.async || target.generator) return null;
  return { kind: 'local', name, declaration: target, declaredAsync: true };
}

function importedOrigin(sourceCode: Services, callee: TSESTree.Node, depth: number): PromiseOrigin | null {
  const target = importedFunction(sourceCode, callee);
  if (!target) return null;
  const summary = promiseSummary(target.sourceCode, target.fn, depth + 1);
  return summary
    ? {
      kind: 'imported', name: target.name, declaration: target.fn, declaredAsync: target.fn.async, file: target.file,
      canReject: summary.canReject, rejectsAtRunTime: summary.rejectsAtRunTime,
    }
    : null;
}

interface Summary {
  canReject: boolean;
  rejectsAtRunTime: boolean;
}

const summaries = new ModuleAnswers<FunctionNode, Summary | null>();

/**
 * Does a function (in whatever module `sourceCode` is) return a promise, and can that promise
 * reject? Async functions and `Promise<…>` return types always return one; another function does
 * when each of its `return`s is a promise this analysis recognises. Cached per function node, so
 * per parse of its module.
 */
function promiseSummary(sourceCode: Services, fn: FunctionNode, depth: number): Summary | null {
  const hit = summaries.get(sourceCode, fn);
  if (hit !== undefined) return hit;
  summaries.set(fn, null); // cycle guard: two modules returning each other's calls
  const summary = computeSummary(sourceCode, fn, depth);
  summaries.set(fn, summary);
  return summary;
}

function computeSummary(sourceCode: Services, fn: FunctionNode, depth: number): Summary | null {
  if (fn.generator) return null;
  if (fn.async) return { canReject: !isRejectionGuarded(fn, sourceCode), rejectsAtRunTime: asyncBodyRejection(sourceCode, fn) !== null };
  if (annotatesPromise(fn.returnType)) return { canReject: true, rejectsAtRunTime: true };
  const returned = returnedValues(fn, sourceCode.visitorKeys);
  if (returned.length === 0) return null;
  let canReject = false;
  let rejectsAtRunTime = false;
  for (const value of returned) {
    const origin = syntacticOrigin(sourceCode, skipTransparent(value), depth);
    if (!origin) return null;
    if (promiseCanReject(sourceCode, value, origin)) canReject = true;
    if (promiseCanReject(sourceCode, value, origin, true)) rejectsAtRunTime = true;
  }
  return { canReject, rejectsAtRunTime };
}

/**
 * Can the promise `node` evaluates to (whose origin is `origin`) reject? Not when it is a chain
 * with a rejection handler, an async function whose body is guarded (same-file or imported), or
 * a chain that cannot reject (`Promise.allSettled(…).finally(…)`, see `chainCannotReject`). With
 * `atRunTime`, an async function also counts as guarded when nothing but a synchronous call could
 * reject it (see `asyncBodyRejection`): the question `recommended` asks.
 */
export function promiseCanReject(sourceCode: Services, node: TSESTree.Node, origin: PromiseOrigin, atRunTime = false): boolean {
  switch (origin.kind) {
    case 'chain': {
      if (origin.handlesRejection) return false;
      const expr = skipTransparent(node);
      return expr.type !== AST_NODE_TYPES.CallExpression ||
        !chainCannotReject(sourceCode, expr, (root) => rootCannotReject(sourceCode, root, atRunTime),
          atRunTime ? (callback) => callbackSettlesAtRunTime(sourceCode, callback) : undefined);
    }
    case 'local':
      if (!origin.declaredAsync || !isFunctionNode(origin.declaration)) return true;
      return !isRejectionGuarded(origin.declaration) && (!atRunTime || rejectsAtCall(sourceCode, node, origin.declaration));
    case 'imported':
      return atRunTime ? origin.rejectsAtRunTime : origin.canReject;
    case 'package':
      return origin.task === null || taskCanReject(sourceCode, origin.task, atRunTime);
    case 'constructor':
      return !atRunTime || !executorWithoutReject(node);
    default:
      return true;
  }
}

/**
 * Can this call of a same-file async function reject at run time? As `asyncBodyRejection` asks,
 * without the branches the call site's own condition rules out (`branchesRuledOutAt`).
 */
function rejectsAtCall(sourceCode: Services, call: TSESTree.Node, fn: FunctionNode): boolean {
  if (asyncBodyRejection(sourceCode, fn) === null) return false;
  const ruledOut = branchesRuledOutAt(sourceCode, call, fn);
  return ruledOut === null || unguardedRejection(fn, sourceCode, (value, how) => valueCanReject(sourceCode, value, how), ruledOut) !== null;
}

/**
 * `new Promise((resolve) => setTimeout(resolve, ms))`: an inline executor that never names
 * `reject`. Only a synchronous throw from the executor itself could reject the promise, the
 * kind of failure `recommended` leaves out of an async body too (see `asyncBodyRejection`).
 */
function executorWithoutReject(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.NewExpression || expr.arguments.length !== 1) return false;
  const executor = skipTransparent(expr.arguments[0] as TSESTree.Node);
  if (!isFunctionNode(executor) || executor.params.length >= 2) return false;
  // A rest parameter (`(...fns) => …`) may hold `reject`.
  return executor.params.every((param) => param.type === AST_NODE_TYPES.Identifier);
}

/**
 * Can a queue's task reject (at run time: as `recommended` judges a callback)? An inline function or
 * one of this file's is judged by its body; a task this analysis cannot see only under `strict`.
 */
function taskCanReject(sourceCode: Services, task: TSESTree.Node, atRunTime: boolean): boolean {
  const expr = skipTransparent(task);
  const fn = isFunctionNode(expr)
    ? expr
    : expr.type === AST_NODE_TYPES.Identifier || expr.type === AST_NODE_TYPES.MemberExpression ? resolveCalleeFunction(sourceCode, expr) : null;
  if (!fn) return !atRunTime;
  return atRunTime ? !callbackSettlesAtRunTime(sourceCode, fn) : !callbackCannotThrow(sourceCode, fn);
}

const runTimeRejections = new WeakMap<FunctionNode, TSESTree.Node | null>();

/**
 * Where an async function can reject at run time: an `await` of a promise that can reject, a
 * `throw`, a returned promise that can reject, outside any `try` whose `catch` keeps the error
 * (`unguardedRejection`); an awaited value whose origin is unknown counts, a returned one does
 * not. Null when its body is guarded (`isRejectionGuarded`) or no such place exists: only a
 * synchronous call could then reject it, like a failed assertion or a header set on a response.
 */
export function asyncBodyRejection(sourceCode: Services, fn: FunctionNode): TSESTree.Node | null {
  const hit = runTimeRejections.get(fn);
  if (hit !== undefined) return hit;
  // Cycle guard: a function awaiting itself (a retry loop) is judged by its other awaits.
  runTimeRejections.set(fn, null);
  const found = isRejectionGuarded(fn, sourceCode)
    ? null
    : unguardedRejection(fn, sourceCode, (value, how) => valueCanReject(sourceCode, value, how));
  runTimeRejections.set(fn, found);
  return found;
}

function valueCanReject(sourceCode: Services, value: TSESTree.Node, how: 'awaited' | 'returned'): boolean {
  const expr = skipTransparent(value);
  if (importsProjectFile(sourceCode, expr)) return false;
  // `const delay = sleep(5); … await delay`: the promise started where the `const` is set.
  const started = expr.type === AST_NODE_TYPES.Identifier ? constInit(sourceCode, expr) : null;
  if (started && skipTransparent(started).type === AST_NODE_TYPES.CallExpression && syntacticOrigin(sourceCode, skipTransparent(started), 0)) {
    return valueCanReject(sourceCode, started, how);
  }
  const origin = syntacticOrigin(sourceCode, expr, 0);
  // `await Promise.all(plugins)` over promises that cannot reject at run time.
  if (origin?.kind === 'combinator') return !rootCannotReject(sourceCode, expr, true);
  if (origin) return promiseCanReject(sourceCode, expr, origin, true);
  // Unknown code that only wraps a callback which catches its own errors (a tracing span).
  return how === 'awaited' && expr.type !== AST_NODE_TYPES.Literal && !wrapsGuardedCallback(expr, (fn) => callbackSettlesAtRunTime(sourceCode, fn));
}

/**
 * A chain callback judged the way `recommended` judges an async body (`asyncBodyRejection`): an
 * inline function with no `throw`, and no await or returned promise that can reject, outside a
 * `try` that keeps the error; a synchronous call in it (`logger.error(e)`) is not counted.
 */
function callbackSettlesAtRunTime(sourceCode: Services, callback: TSESTree.Node): boolean {
  if (callbackCannotThrow(sourceCode, callback)) return true;
  const fn = skipTransparent(callback);
  if (!isFunctionNode(fn)) return false;
  return fn.async ? asyncBodyRejection(sourceCode, fn) === null : unguardedRejection(fn, sourceCode, (value, how) => valueCanReject(sourceCode, value, how)) === null;
}

/**
 * The start of a chain that cannot reject: `Promise.allSettled(…)`, `Promise.all/race/any` over
 * promises that cannot reject (`combinatorCannotReject`), or a call of a function that cannot
 * reject; with `atRunTime`, also one that cannot reject at run time, and a dynamic import of the
 * project's own code (`importsProjectFile`).
 */
function rootCannotReject(sourceCode: Services, root: TSESTree.Node, atRunTime: boolean): boolean {
  const expr = skipTransparent(root);
  if (atRunTime && importsProjectFile(sourceCode, expr)) return true;
  if (expr.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(expr.callee);
  // `allSettled` only rejects for an argument that is not iterable, which is a type error, not a failure.
  if (callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'allSettled' &&
    callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Promise' && isGlobal(sourceCode, callee.object)) {
    return true;
  }
  if (combinatorCannotReject(sourceCode, expr, (mapper) => mapperSettles(sourceCode, mapper, atRunTime),
    (element) => elementSettles(sourceCode, element, atRunTime))) {
    return true;
  }
  const origin = syntacticOrigin(sourceCode, expr, 0);
  return origin !== null && (origin.kind === 'local' || origin.kind === 'imported') && !promiseCanReject(sourceCode, expr, origin, atRunTime);
}

/** A promise a combinator waits for that cannot reject: a root as above, or a chain that cannot (`a().catch(log)`). */
function elementSettles(sourceCode: Services, element: TSESTree.Node, atRunTime: boolean): boolean {
  const expr = skipTransparent(element);
  if (rootCannotReject(sourceCode, expr, atRunTime)) return true;
  const origin = syntacticOrigin(sourceCode, expr, 0);
  return origin?.kind === 'chain' && !promiseCanReject(sourceCode, expr, origin, atRunTime);
}

/**
 * A `.map(…)` callback (inline, or a function of this file) whose promises cannot reject: an async
 * body that catches its own errors (`asyncBodyRejection` at run time, `isRejectionGuarded` for
 * `strict`), or an expression body that is such a promise. Anything else is unknown.
 */
function mapperSettles(sourceCode: Services, mapper: TSESTree.Node, atRunTime: boolean): boolean {
  const expr = skipTransparent(mapper);
  const fn = isFunctionNode(expr) ? expr : expr.type === AST_NODE_TYPES.Identifier ? resolveCalleeFunction(sourceCode, expr) : null;
  if (!fn || fn.generator || !fn.body) return false;
  if (fn.async) return atRunTime ? asyncBodyRejection(sourceCode, fn) === null : isRejectionGuarded(fn, sourceCode);
  return fn.body.type !== AST_NODE_TYPES.BlockStatement && elementSettles(sourceCode, fn.body, atRunTime);
}

interface FileWords {
  /** An `async` keyword or the word `Promise`/`PromiseLike`: same-file promise functions are possible. */
  promiseFunctions: boolean;
  /** The word `promises` (`fs/promises`, `timers/promises`, `fs.promises`). */
  promiseApis: boolean;
}

const wordsCache = new WeakMap<object, FileWords>();

/**
 * One cheap text search per file that lets most calls skip the expensive questions: a file that
 * never says `async` or `Promise` declares no function the syntax could call a promise source, so
 * the call graph need not be built; a file that never says `promises` imports no promise API.
 * A word in a comment only costs the precise check, never a finding.
 */
function fileWords(sourceCode: Services): FileWords {
  const hit = wordsCache.get(sourceCode);
  if (hit) return hit;
  const text = sourceCode.text;
  const words: FileWords = {
    promiseFunctions: text.includes('async') || text.includes('Promise'),
    promiseApis: text.includes('promises'),
  };
  wordsCache.set(sourceCode, words);
  return words;
}

const namesCache = new WeakMap<object, ReadonlySet<string>>();

/** Names of the file's async and `Promise`-returning functions, methods and `declare function`s. */
function promiseFunctionNames(sourceCode: Services): ReadonlySet<string> {
  const hit = namesCache.get(sourceCode);
  if (hit) return hit;
  const names = new Set<string>();
  for (const fn of getCallGraph(sourceCode).functions) {
    if (fn.name !== null && !fn.isGenerator && (fn.isAsync || fn.returnsPromiseType)) names.add(fn.name);
  }
  for (const statement of sourceCode.ast.body) {
    const inner = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration
      ? statement.declaration
      : statement;
    if (inner?.type === AST_NODE_TYPES.TSDeclareFunction && inner.id && annotatesPromise(inner.returnType)) {
      names.add(inner.id.name);
    }
  }
  namesCache.set(sourceCode, names);
  return names;
}

/** `declare function f(): Promise<T>` and overload signatures, which the call graph does not hold. */
function declaredPromiseFunction(sourceCode: Services, callee: TSESTree.Node): PromiseOrigin | null {
  if (callee.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, callee);
  const signatures = variable?.defs.filter((def) => def.node.type === AST_NODE_TYPES.TSDeclareFunction) ?? [];
  if (!variable || signatures.length === 0) return null;
  const all = variable.defs.every((def) => {
    const fn = def.node;
    if (fn.type === AST_NODE_TYPES.FunctionDeclaration && fn.async) return true;
    return (fn.type === AST_NODE_TYPES.TSDeclareFunction || fn.type === AST_NODE_TYPES.FunctionDeclaration) &&
      annotatesPromise(fn.returnType);
  });
  const first = signatures[0]?.node;
  return all && first ? { kind: 'local', name: callee.name, declaration: first, declaredAsync: false } : null;
}

function chainOrigin(call: TSESTree.CallExpression, callee: TSESTree.MemberExpression): PromiseOrigin | null {
  const name = staticPropertyName(callee);
  if (name === 'then') {
    return { kind: 'chain', method: 'then', handlesRejection: isHandler(call.arguments[1]), property: callee.property };
  }
  if (name === 'catch') {
    return { kind: 'chain', method: 'catch', handlesRejection: isHandler(call.arguments[0]), property: callee.property };
  }
  if (name === 'finally') {
    // `.finally()` passes the settlement through: handled exactly when what it follows is.
    const before = skipTransparent(callee.object);
    const inner = before.type === AST_NODE_TYPES.CallExpression && before.callee.type === AST_NODE_TYPES.MemberExpression
      ? chainOrigin(before, before.callee)
      : null;
    return { kind: 'chain', method: 'finally', handlesRejection: inner?.kind === 'chain' && inner.handlesRejection, property: callee.property };
  }
  return null;
}

/** A rejection handler argument: present, and not the literal `undefined`/`null`. */
function isHandler(arg: TSESTree.Node | undefined): boolean {
  if (!arg) return false;
  if (arg.type === AST_NODE_TYPES.Identifier && arg.name === 'undefined') return false;
  if (arg.type === AST_NODE_TYPES.Literal && arg.value === null) return false;
  return true;
}

function isPromiseApi(ref: ModuleRef): boolean {
  if ((ref.module !== 'fs' && ref.module !== 'timers') || ref.path[0] !== 'promises' || ref.path.length !== 2) return false;
  return !NOT_PROMISE_EXPORTS.has(ref.path[1] as string);
}

function refName(ref: ModuleRef): string {
  return ref.path[ref.path.length - 1] ?? ref.module;
}

function isGlobal(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return !variable || variable.defs.length === 0;
}

/** Expressions whose type is worth asking about: not literals, functions or classes. */
function isValueExpression(expr: TSESTree.Node): boolean {
  switch (expr.type) {
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.MemberExpression:
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return true;
    default:
      return false;
  }
}

/** A short name for messages: the callee's name, or the expression itself when short. */
export function describeExpression(sourceCode: Services, node: TSESTree.Node): string {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.CallExpression || expr.type === AST_NODE_TYPES.NewExpression) {
    const name = calleeName(expr);
    if (name) return name;
  }
  return shortSource(sourceCode, expr) ?? 'this expression';
}

/**
 * The expressions whose values a statement throws away: the expression itself, both branches of
 * `a ? b() : c()`, both sides of `a() || b()`, every item of a sequence. `await` and (when
 * `allowVoid`) `void` consume their operand, so nothing under them is dropped.
 */
export function droppedExpressions(expression: TSESTree.Expression, allowVoid: boolean): TSESTree.Node[] {
  const out: TSESTree.Node[] = [];
  const visit = (node: TSESTree.Node, depth: number): void => {
    const expr = skipTransparent(node);
    if (depth > 16) return;
    switch (expr.type) {
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.AssignmentExpression:
        return;
      case AST_NODE_TYPES.UnaryExpression:
        if (expr.operator === 'void' && !allowVoid) visit(expr.argument, depth + 1);
        return;
      case AST_NODE_TYPES.ConditionalExpression:
        visit(expr.consequent, depth + 1);
        visit(expr.alternate, depth + 1);
        return;
      case AST_NODE_TYPES.LogicalExpression:
        visit(expr.left, depth + 1);
        visit(expr.right, depth + 1);
        return;
      case AST_NODE_TYPES.SequenceExpression:
        for (const item of expr.expressions) visit(item, depth + 1);
        return;
      default:
        // The original node, so a fix that wraps it keeps any `as T` inside the wrapper.
        out.push(node);
    }
  };
  visit(expression, 0);
  return out;
}

const ARRAY_COLLECTORS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice']);

/**
 * Is the promise `node` evaluates to looked after? Awaited, returned (also as an arrow body),
 * yielded, chained with a rejection handler, voided (when `allowVoid`), passed as an argument,
 * stored on an object, put in an array or variable that is itself used later. False when it is
 * thrown away, or kept in a local variable or array that nothing reads.
 */
export function isPromiseHandled(sourceCode: Services, node: TSESTree.Node, allowVoid: boolean): boolean {
  let current: TSESTree.Node = node;
  for (let depth = 0; depth < 32; depth++) {
    const parent = current.parent;
    if (!parent) return false;
    switch (parent.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.SpreadElement:
        current = parent;
        continue;
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.test === current) return true;
        current = parent;
        continue;
      case AST_NODE_TYPES.SequenceExpression:
        if (parent.expressions[parent.expressions.length - 1] !== current) return false;
        current = parent;
        continue;
      case AST_NODE_TYPES.ExpressionStatement:
        return false;
      case AST_NODE_TYPES.UnaryExpression:
        return parent.operator !== 'void' || allowVoid;
      case AST_NODE_TYPES.MemberExpression: {
        if (parent.object !== current) return true;
        const call = parent.parent;
        const name = staticPropertyName(parent);
        if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return true;
        if (name === 'then') {
          if (isHandler(call.arguments[1])) return true;
          current = call;
          continue;
        }
        if (name === 'catch') {
          if (isHandler(call.arguments[0])) return true;
          current = call;
          continue;
        }
        if (name === 'finally') {
          current = call;
          continue;
        }
        return true;
      }
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression:
        if (parent.callee === current) return true;
        return parent.type === AST_NODE_TYPES.NewExpression || !isCollectedIntoUnreadArray(sourceCode, parent);
      case AST_NODE_TYPES.VariableDeclarator:
        if (parent.init !== current || parent.id.type !== AST_NODE_TYPES.Identifier) return true;
        return isVariableRead(sourceCode, parent.id);
      case AST_NODE_TYPES.AssignmentExpression:
        if (parent.right !== current || parent.left.type !== AST_NODE_TYPES.Identifier) return true;
        return isVariableRead(sourceCode, parent.left);
      default:
        // Awaited, returned, yielded, an arrow's value, a property value, a template part: used.
        return true;
    }
  }
  return true;
}

/** `pending.push(p)` where `pending` is a local array that is never read other than to add to it. */
function isCollectedIntoUnreadArray(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = staticPropertyName(callee);
  const target = skipTransparent(callee.object);
  if (name === null || !ARRAY_COLLECTORS.has(name) || target.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, target);
  if (!variable || variable.defs.length === 0 || !isLocalDeclaration(variable)) return false;
  return variable.references.every((ref) => {
    if (!ref.isRead()) return true;
    const member = ref.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== ref.identifier) return false;
    const method = staticPropertyName(member);
    return method !== null && ARRAY_COLLECTORS.has(method) && member.parent?.type === AST_NODE_TYPES.CallExpression &&
      member.parent.callee === member && isExpressionStatementValue(member.parent);
  });
}

/** A variable declared in this file and not exported: every use of it is visible here. */
function isLocalDeclaration(variable: TSESLint.Scope.Variable): boolean {
  return variable.defs.every((def) => {
    if (def.type !== 'Variable') return false;
    const declaration = def.node.parent;
    return declaration.parent?.type !== AST_NODE_TYPES.ExportNamedDeclaration && declaration.declare !== true;
  });
}

function isExpressionStatementValue(node: TSESTree.Node): boolean {
  return node.parent?.type === AST_NODE_TYPES.ExpressionStatement;
}

/**
 * Is the variable `id` names read anywhere in a way that keeps its value: awaited, returned,
 * passed, chained, copied? A bare `p;` statement is not a read that handles anything.
 */
export function isVariableRead(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  if (!variable || !isLocalDeclaration(variable)) return true;
  return variable.references.some((ref) => ref.isRead() && ref.identifier.parent?.type !== AST_NODE_TYPES.ExpressionStatement);
}

/**
 * The promise a `.then/.catch/.finally` chain starts from, as short code for messages; for a chain
 * with a rejection handler inside it, the handled part up to that handler.
 */
export function chainRootText(sourceCode: Services, node: TSESTree.Node): string {
  let expr = skipTransparent(node);
  let first = true;
  while (expr.type === AST_NODE_TYPES.CallExpression && expr.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['then', 'catch', 'finally'].includes(staticPropertyName(expr.callee) ?? '')) {
    // `task.catch(fatal).then(cb)`: `task` is handled, so the unhandled part starts at the handler.
    if (!first && handlesRejection(expr)) break;
    first = false;
    expr = skipTransparent(expr.callee.object);
  }
  const text = shortSource(sourceCode, expr);
  return text !== null ? `\`${text}\`` : 'the promise';
}

// ---- allow lists -------------------------------------------------------------------------------

/** An allow-list entry: an export of a module, or a method on objects from a module (or anywhere). */
export interface CallPattern {
  /** Module specifier, `node:` prefix optional; omitted: match by name alone. */
  module?: string;
  /** Export name; `default` for the default export. */
  export?: string;
  /** Method name called on an object imported from or constructed by `module`. */
  method?: string;
}

/** JSON schema for a list of `CallPattern`s: the shared settings' module/export/method entry. */
export const callPatternListSchema = moduleExportListSchema;

/**
 * Does `call` match an entry of an allow list? `{ module, export }` matches a call of that export
 * (also `test.skip(…)`-style one-segment modifiers); `{ module, method }` a `.method()` call on an
 * object imported from or constructed by the module; entries without `module` match by name.
 */
export function matchesAllowList(
  sourceCode: Services,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  entries: readonly CallPattern[],
): boolean {
  if (entries.length === 0) return false;
  const callee = skipTransparent(call.callee);
  const ref = resolveReference(sourceCode, callee);
  const member = callee.type === AST_NODE_TYPES.MemberExpression ? callee : null;
  const method = member ? staticPropertyName(member) : null;
  let receiverModule: string | null | undefined;
  for (const entry of entries) {
    if (entry.export !== undefined) {
      if (entry.module === undefined) {
        if (callee.type === AST_NODE_TYPES.Identifier && callee.name === entry.export) return true;
        continue;
      }
      if (ref && exportMatches(ref, entry.module, entry.export)) return true;
      continue;
    }
    if (entry.method === undefined || method !== entry.method) continue;
    if (entry.module === undefined) return true;
    if (receiverModule === undefined) receiverModule = member ? originModule(sourceCode, member.object, 0) : null;
    if (receiverModule === normalizeModule(entry.module).module) return true;
  }
  return false;
}

function exportMatches(ref: ModuleRef, module: string, exportName: string): boolean {
  const want = normalizeModule(module);
  if (ref.module !== want.module) return false;
  const path = exportName === 'default' ? [...want.path] : [...want.path, exportName];
  const extra = ref.path.length - path.length;
  return (extra === 0 || extra === 1) && path.every((p, i) => ref.path[i] === p);
}

/** The module an object comes from: imported from it, or built by `new X()` / `x()` of one of its exports. */
function originModule(sourceCode: Services, node: TSESTree.Node, depth: number): string | null {
  if (depth > 6) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.NewExpression || expr.type === AST_NODE_TYPES.CallExpression) {
    return resolveReference(sourceCode, expr.callee)?.module ?? null;
  }
  const direct = resolveReference(sourceCode, expr);
  if (direct) return direct.module;
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || !def.node.init || def.node.id !== def.name) return null;
  return originModule(sourceCode, def.node.init, depth + 1);
}

// ---- type information --------------------------------------------------------------------------

/** A `TypeOracle` over typescript-eslint's parser services; a failing checker answers "not known". */
export function createTypeOracle(services: CheckerServices): TypeOracle {
  const checker = services.program.getTypeChecker();
  return {
    isThenable(node) {
      const type = typeAt(services, node);
      const tsNode = services.esTreeNodeToTSNodeMap.get(node);
      if (!type || !tsNode) return false;
      return askChecker(() => {
        const parts = type.isUnion() ? type.types : [type];
        return parts.some((part) => {
          const then = part.getProperty('then');
          if (!then) return false;
          return checker.getTypeOfSymbolAtLocation(then, tsNode).getCallSignatures().length > 0;
        });
      }, false);
    },
    typeText(node) {
      const type = typeAt(services, node);
      return type ? askChecker(() => checker.typeToString(type), 'a promise') : 'a promise';
    },
    isThenableArray(node) {
      const type = typeAt(services, node);
      const tsNode = services.esTreeNodeToTSNodeMap.get(node);
      if (!type || !tsNode) return false;
      return askChecker(() => isThenableArrayType(checker, type, tsNode), false);
    },
  };
}

// ---- forEach(async …) → for…of -----------------------------------------------------------------

export interface ForOfRewrite {
  statement: TSESTree.ExpressionStatement;
  text: string;
}

/**
 * `xs.forEach(async (x) => { … })` whose callback can reject at run time (`asyncBodyRejection`):
 * no-orphaned-promise's `forEachAsync` under either preset. That report owns the statement: its
 * `for…of` rewrite also ends the fan-out, while a limiter around each call would leave every
 * rejection unhandled, so no-unbounded-fan-out stays quiet on it. A guarded callback, which only
 * strict's `forEachAsync` takes (for the lost order), leaves the burst to no-unbounded-fan-out.
 */
export function forEachDropsRejections(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  const callback = call.arguments[0];
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'forEach' || !isFunctionNode(callback)) return false;
  return callback.async && !callback.generator && asyncBodyRejection(sourceCode, callback) !== null;
}

/**
 * The `for…of` loop that runs `xs.forEach(async (x) => { … })` one item at a time, or null when
 * the rewrite would change more than the scheduling: not a statement of its own, not inside an
 * async function, an index or `thisArg` is used, the callback returns early, a parameter has a
 * default, the callback declares a `var` (it would move into the caller's scope), or the iterated
 * expression mentions the parameter (the loop variable would shadow it).
 */
export function forOfRewrite(sourceCode: Services, call: TSESTree.CallExpression): ForOfRewrite | null {
  const statement = call.parent;
  return statement?.type === AST_NODE_TYPES.ExpressionStatement ? loopRewrite(sourceCode, call, statement) : null;
}

/**
 * The same loop for `xs.map(async (x) => { … })` whose array nobody takes: a statement of its own,
 * also under `await` or `void` (`await xs.map(…)` awaits nothing, so the loop waits for more, not less).
 */
export function mapForOfRewrite(sourceCode: Services, call: TSESTree.CallExpression): ForOfRewrite | null {
  const parent = call.parent;
  const wrapped = parent?.type === AST_NODE_TYPES.AwaitExpression ||
    (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void');
  const statement = wrapped ? parent.parent : parent;
  return statement?.type === AST_NODE_TYPES.ExpressionStatement ? loopRewrite(sourceCode, call, statement) : null;
}

/** `statement` holds `call` (maybe under `await` or `void`) and nothing else; the loop replaces it. */
function loopRewrite(sourceCode: Services, call: TSESTree.CallExpression, statement: TSESTree.ExpressionStatement): ForOfRewrite | null {
  const callee = call.callee;
  const callback = call.arguments[0];
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  if (callee.optional || call.arguments.length !== 1 || callback?.type !== AST_NODE_TYPES.ArrowFunctionExpression) return null;
  const param = callback.params[0];
  if (callback.params.length !== 1 || !param || functionContextOf(statement) !== true) return null;
  const paramText = loopBinding(sourceCode, param);
  if (paramText === null) return null;
  const names = patternNames(param);
  if (mentionsAny(sourceCode, callee.object, names)) return null;
  let body: string;
  if (callback.body.type === AST_NODE_TYPES.BlockStatement) {
    if (hasOwnReturn(sourceCode, callback.body) || hasOwnVar(sourceCode, callback.body)) return null;
    body = sourceCode.getText(callback.body);
  } else {
    const expr = sourceCode.getText(callback.body);
    const simple = skipTransparent(callback.body).type === AST_NODE_TYPES.CallExpression && callback.body.type === AST_NODE_TYPES.CallExpression;
    body = `{ await ${simple ? expr : `(${expr})`}; }`;
  }
  return { statement, text: `for (const ${paramText} of ${sourceCode.getText(callee.object)}) ${body}` };
}

/** True when the statement runs directly in an async function (so `await` is legal there). */
function functionContextOf(node: TSESTree.Node): boolean {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression) {
      return current.async;
    }
    if (current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) return false;
    current = current.parent;
  }
  return false;
}

/** The parameter as a `const` binding: type annotations and defaults do not fit there. */
function loopBinding(sourceCode: Services, param: TSESTree.Parameter): string | null {
  if (param.type === AST_NODE_TYPES.Identifier) return param.name;
  if ((param.type === AST_NODE_TYPES.ObjectPattern || param.type === AST_NODE_TYPES.ArrayPattern) && !param.typeAnnotation) {
    return sourceCode.getText(param);
  }
  return null;
}


function mentionsAny(sourceCode: Services, root: TSESTree.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  walk(root, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.Identifier && names.has(node.name)) found = true;
    return !found;
  });
  return found;
}

/** A `return` that belongs to the callback itself (in a loop it would end the caller instead). */
function hasOwnReturn(sourceCode: Services, body: TSESTree.BlockStatement): boolean {
  let found = false;
  walk(body, sourceCode.visitorKeys, (node) => {
    if (found || (node !== body && isFunctionNode(node))) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement) found = true;
    return !found;
  });
  return found;
}

/** A `var` that belongs to the callback itself: in a loop it would be hoisted into the caller's scope. */
function hasOwnVar(sourceCode: Services, body: TSESTree.BlockStatement): boolean {
  let found = false;
  walk(body, sourceCode.visitorKeys, (node) => {
    if (found || (node !== body && isFunctionNode(node))) return false;
    if (node.type === AST_NODE_TYPES.VariableDeclaration && node.kind === 'var') found = true;
    return !found;
  });
  return found;
}

// ---- arrays of promises ------------------------------------------------------------------------

export type PromiseArrayOrigin =
  /** `xs.map(async …)`, `xs.map((x) => send(x))`, `xs.map(send)` where `send` returns a promise. */
  | { kind: 'map'; call: TSESTree.CallExpression; callback: TSESTree.Node }
  /** `[send(a), send(b)]`: an array literal with at least one promise in it. */
  | { kind: 'literal'; elements: TSESTree.Node[] }
  /** Known only from its type: `Promise<T>[]`, a tuple with a thenable in it. */
  | { kind: 'typed'; typeText: string };

/**
 * Why `node` evaluates to an array of promises, or null. `isPromise` says which expressions are
 * promises that need looking after (the caller's allow lists and guards apply to the elements and
 * to an arrow's expression body). An inline callback counts when it is async or its expression
 * body is such a promise; a named callback when it is a same-file async or `Promise`-returning
 * function that can reject, `fetch`, or an `fs/promises`/`timers/promises` function.
 */
export function promiseArrayOrigin(
  sourceCode: Services,
  node: TSESTree.Node,
  isPromise: (node: TSESTree.Node) => boolean,
  types?: TypeOracle,
): PromiseArrayOrigin | null {
  const expr = skipTransparent(node);
  const syntactic = syntacticArrayOrigin(sourceCode, expr, isPromise, 0);
  if (syntactic !== null) return syntactic || null;
  if (types?.isThenableArray && isValueExpression(expr) && types.isThenableArray(expr)) {
    return { kind: 'typed', typeText: types.typeText(expr) };
  }
  return null;
}

/**
 * `false` when the syntax has decided "nothing to look after" and the type must not overrule it:
 * a callback whose expression body was already asked about (types included) and found handled,
 * a named callback that cannot reject. The type says `Promise<void>[]` for those all the same.
 */
function syntacticArrayOrigin(
  sourceCode: Services,
  expr: TSESTree.Node,
  isPromise: (node: TSESTree.Node) => boolean,
  depth: number,
): PromiseArrayOrigin | null | false {
  if (depth > 4) return null;
  if (expr.type === AST_NODE_TYPES.ArrayExpression) {
    const elements = expr.elements.filter((element): element is TSESTree.Expression | TSESTree.SpreadElement => {
      if (!element) return false;
      if (element.type !== AST_NODE_TYPES.SpreadElement) return isPromise(element);
      return Boolean(syntacticArrayOrigin(sourceCode, skipTransparent(element.argument), isPromise, depth + 1));
    });
    return elements.length > 0 ? { kind: 'literal', elements } : null;
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(expr.callee);
  const callback = expr.arguments[0];
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'map' || !callback ||
    callback.type === AST_NODE_TYPES.SpreadElement) return null;
  if (isFunctionNode(callback)) {
    if (callback.generator) return null;
    if (callback.async) return { kind: 'map', call: expr, callback };
    if (callback.body.type === AST_NODE_TYPES.BlockStatement) return null;
    return isPromise(callback.body) ? { kind: 'map', call: expr, callback } : false;
  }
  const verdict = promiseFunctionVerdict(sourceCode, callback);
  return verdict === true ? { kind: 'map', call: expr, callback } : verdict === 'guarded' ? false : null;
}

/**
 * Does a function value make promises that can reject (what a call of it would be reported for)?
 * `'guarded'` for a same-file async function whose body cannot reject.
 */
function promiseFunctionVerdict(sourceCode: Services, fn: TSESTree.Node): boolean | 'guarded' {
  const expr = skipTransparent(fn);
  if (expr.type === AST_NODE_TYPES.Identifier && expr.name === 'fetch' && isGlobal(sourceCode, expr)) return true;
  const words = fileWords(sourceCode);
  if (words.promiseApis) {
    const ref = resolveReference(sourceCode, expr);
    if (ref && isPromiseApi(ref)) return true;
  }
  if (importsProjectModules(sourceCode)) {
    const imported = importedOrigin(sourceCode, expr, 0);
    if (imported?.kind === 'imported') return imported.canReject ? true : 'guarded';
  }
  if (!words.promiseFunctions) return false;
  // As for calls: scope lookups only for names that some promise function in the file has.
  const name = expr.type === AST_NODE_TYPES.Identifier
    ? expr.name
    : expr.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(expr) : null;
  if (name === null || !promiseFunctionNames(sourceCode).has(name)) return false;
  if (declaredPromiseFunction(sourceCode, expr)) return true;
  const target = getCallGraph(sourceCode).resolveCallee(expr);
  if (!target || target.isGenerator || !(target.isAsync || target.returnsPromiseType)) return false;
  // The same exemption a direct call gets: an async function guarded by `try/catch` cannot reject.
  return target.isAsync && isRejectionGuarded(target.node) ? 'guarded' : true;
}

const ARRAY_COMBINATORS: ReadonlySet<string> = new Set(['all', 'allSettled', 'any', 'race']);

/**
 * `await xs.map(…)` whose array still reaches a combinator: `Promise.all(await xs.map(…))`, or
 * `const jobs = await xs.map(…)` and later `Promise.allSettled(jobs)`. A needless `await`, but the
 * promises are taken.
 */
export function isAwaitedArrayCombined(sourceCode: Services, node: TSESTree.AwaitExpression): boolean {
  if (isCombinatorArgument(sourceCode, node)) return true;
  const parent = node.parent;
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.init !== node || parent.id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, parent.id);
  return variable?.references.some((ref) => ref.isRead() && isCombinatorArgument(sourceCode, ref.identifier)) ?? false;
}

function isCombinatorArgument(sourceCode: Services, node: TSESTree.Node): boolean {
  const call = node.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== node) return false;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !ARRAY_COMBINATORS.has(staticPropertyName(callee) ?? '')) return false;
  const obj = skipTransparent(callee.object);
  return obj.type === AST_NODE_TYPES.Identifier && obj.name === 'Promise' && isGlobal(sourceCode, obj);
}

/** True when the type (or one member of its union) is an array whose elements, or a tuple one of whose members, have a callable `then`. */
function isThenableArrayType(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): boolean {
  const isThenableType = (t: ts.Type): boolean => (t.isUnion() ? t.types : [t]).some((part) => {
    const then = part.getProperty('then');
    return then !== undefined && checker.getTypeOfSymbolAtLocation(then, at).getCallSignatures().length > 0;
  });
  return (type.isUnion() ? type.types : [type]).some((part) => {
    if (!checker.isArrayType(part) && !checker.isTupleType(part)) return false;
    return checker.getTypeArguments(part as ts.TypeReference).some(isThenableType);
  });
}
