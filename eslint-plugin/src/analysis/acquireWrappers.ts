/**
 * Helpers that acquire or release for their caller: `getClient()` that returns `pool.connect()`,
 * `fetchConnection(conn)` that returns `conn ?? await pool.getConnection()`, a `new Promise` around
 * mysql's `pool.getConnection((err, c) => resolve(c))`, and `releaseConnection(c)` that calls
 * `c.release()`. Followed in the same file and into the project's own modules, a few calls deep.
 * What the caller then does with the result (`c.release()`, `release()`) is locks.ts's evidence;
 * this file only answers whether a function hands back something acquired, or gives back its
 * argument.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { constInit, findVariable, isFunctionNode, returnedValues, skipTransparent, staticPropertyName, walk } from './ast';
import { resolveCalleeFunction, resolveImportedFunction } from './callGraph';
import { resolveReference } from './imports';
import { ModuleAnswers, isProjectSpecifier, localExport } from './localModules';
import { importedFunction } from './moduleFunctions';

type Services = Readonly<TSESLint.SourceCode>;

/** Acquire methods whose result is the acquired thing (or its release function). */
const ACQUIRE_METHODS: ReadonlySet<string> = new Set(['connect', 'getConnection', 'acquire']);

/** Wrappers of wrappers are followed this deep: `getPool()` → `getConnection(pool)` → `pool.getConnection(cb)`. */
const MAX_DEPTH = 3;

interface Target {
  fn: FunctionNode;
  sourceCode: Services;
}

/** The function `callee` denotes: same file, or exported by one of the project's modules. */
function targetOf(sourceCode: Services, callee: TSESTree.Node): Target | null {
  const local = resolveCalleeFunction(sourceCode, callee);
  if (local) return { fn: local, sourceCode };
  const imported = importedFunction(sourceCode, callee) ?? resolveImportedFunction(sourceCode, callee);
  return imported ? { fn: imported.fn, sourceCode: imported.sourceCode } : exportedFunction(sourceCode, callee, 0);
}

/**
 * The function a value denotes across CommonJS re-exports the shared resolvers stop at:
 * `module.exports = db.getPool` with `db = require('./dbConnect')` and that module's
 * `module.exports = { getPool: async () => … }`.
 */
function exportedFunction(sourceCode: Services, node: TSESTree.Node, hops: number): Target | null {
  if (hops > MAX_DEPTH) return null;
  const expr = skipTransparent(node);
  if (isFunctionNode(expr)) return { fn: expr, sourceCode };
  const local = resolveCalleeFunction(sourceCode, expr);
  if (local) return { fn: local, sourceCode };
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const own = propertyValue(sourceCode, expr.object, staticPropertyName(expr));
    if (own) return exportedFunction(sourceCode, own, hops + 1);
  }
  if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.MemberExpression) return null;
  const ref = resolveReference(sourceCode, expr);
  if (!ref || !isProjectSpecifier(sourceCode, ref.module)) return null;
  // `module.exports = connectdb` with `const connectdb = { getPool }`: the named lookup reads
  // object literals only, so the property is looked up on the default export here.
  const found = localExport(sourceCode, ref) ??
    (ref.path.length === 1 ? withRest(localExport(sourceCode, { ...ref, path: [] }), ref.path) : null);
  if (!found || found.rest.length > 1) return null;
  const { value, rest } = found;
  if (rest.length === 0) return exportedFunction(value.sourceCode, value.node, hops + 1);
  const member = propertyValue(value.sourceCode, value.node, rest[0] ?? null);
  return member ? exportedFunction(value.sourceCode, member, hops + 1) : null;
}

function withRest<T extends { rest: readonly string[] }>(found: T | null, rest: readonly string[]): T | null {
  return found && found.rest.length === 0 ? { ...found, rest } : null;
}

/** `name`'s value in the object literal `node` is, directly or through a `const`. */
function propertyValue(sourceCode: Services, node: TSESTree.Node, name: string | null): TSESTree.Node | null {
  if (name === null) return null;
  let expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const init = constInit(sourceCode, expr);
    if (!init) return null;
    expr = skipTransparent(init);
  }
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return null;
  for (const prop of expr.properties) {
    if (prop.type === AST_NODE_TYPES.Property && !prop.computed && prop.kind === 'init' &&
      ((prop.key.type === AST_NODE_TYPES.Identifier && prop.key.name === name) || (prop.key.type === AST_NODE_TYPES.Literal && prop.key.value === name))) {
      return prop.value;
    }
  }
  return null;
}

// Per lint generation for project modules: a wrapper's answer may rest on a module further down.
const wrapperCache = new ModuleAnswers<FunctionNode, boolean>();

/** Does `call` (not itself an acquire method) call a function that hands back an acquired resource? */
export function callsAcquireWrapper(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  if (call.arguments.some((a) => isFunctionNode(a))) return false;
  const target = targetOf(sourceCode, call.callee);
  return target !== null && isAcquireWrapper(target, 0);
}

function isAcquireWrapper(target: Target, depth: number): boolean {
  const hit = wrapperCache.get(target.sourceCode, target.fn);
  if (hit !== undefined) return hit;
  wrapperCache.set(target.fn, false); // recursion guard
  const result = returnedValues(target.fn, target.sourceCode.visitorKeys).some((expr) => yieldsAcquired(target.sourceCode, expr, depth, new Set()));
  wrapperCache.set(target.fn, result);
  return result;
}

/** Does evaluating `node` (awaited) produce something acquired? */
function yieldsAcquired(sourceCode: Services, node: TSESTree.Node, depth: number, seen: Set<TSESLint.Scope.Variable>): boolean {
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return yieldsAcquired(sourceCode, expr.argument, depth, seen);
    case AST_NODE_TYPES.LogicalExpression:
      // `conn ?? (await pool.getConnection())`: acquired when nothing was handed in.
      return yieldsAcquired(sourceCode, expr.left, depth, seen) || yieldsAcquired(sourceCode, expr.right, depth, seen);
    case AST_NODE_TYPES.ConditionalExpression:
      return yieldsAcquired(sourceCode, expr.consequent, depth, seen) || yieldsAcquired(sourceCode, expr.alternate, depth, seen);
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(sourceCode, expr);
      if (!variable || seen.has(variable)) return false;
      seen.add(variable);
      return variable.references.some((r) => r.writeExpr !== null && r.writeExpr !== undefined && yieldsAcquired(sourceCode, r.writeExpr, depth, seen));
    }
    case AST_NODE_TYPES.NewExpression:
      return isPromisifiedAcquire(sourceCode, expr);
    case AST_NODE_TYPES.CallExpression: {
      if (isAcquireMethodCall(expr)) return true;
      if (depth >= MAX_DEPTH || expr.arguments.some((a) => isFunctionNode(a))) return false;
      const target = targetOf(sourceCode, expr.callee);
      return target !== null && isAcquireWrapper(target, depth + 1);
    }
    default:
      return false;
  }
}

/** `x.connect()`, `x.getConnection()`, `x.acquire()` in promise form (no callback). */
function isAcquireMethodCall(call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && ACQUIRE_METHODS.has(staticPropertyName(callee) ?? '') &&
    !call.arguments.some((a) => isFunctionNode(a));
}

/**
 * `new Promise((resolve, reject) => pool.getConnection((err, conn) => { … resolve(conn); }))`:
 * the callback form of an acquire, resolved with the resource the callback receives.
 */
function isPromisifiedAcquire(sourceCode: Services, expr: TSESTree.NewExpression): boolean {
  const callee = skipTransparent(expr.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || callee.name !== 'Promise') return false;
  const executor = expr.arguments[0];
  if (!isFunctionNode(executor)) return false;
  const resolve = executor.params[0];
  if (resolve?.type !== AST_NODE_TYPES.Identifier) return false;
  let found = false;
  walk(executor.body, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const method = node.callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(node.callee) : null;
    const callback = node.arguments[node.arguments.length - 1];
    if (method === null || !ACQUIRE_METHODS.has(method) || !isFunctionNode(callback)) return true;
    const resource = callback.params[1];
    if (resource?.type !== AST_NODE_TYPES.Identifier) return true;
    walk(callback.body, sourceCode.visitorKeys, (inner) => {
      if (found) return false;
      if (inner.type === AST_NODE_TYPES.CallExpression && inner.callee.type === AST_NODE_TYPES.Identifier &&
        inner.callee.name === resolve.name && inner.arguments[0]?.type === AST_NODE_TYPES.Identifier &&
        inner.arguments[0].name === resource.name) {
        found = true;
      }
      return true;
    });
    return !found;
  });
  return found;
}

const releaseCache = new ModuleAnswers<FunctionNode, Map<string, boolean>>();

/**
 * Does `call` give back its argument at `index`: does the function it calls call `.release()` (or
 * one of `names`) on that parameter, or hand it to a function that does? A condition around it
 * (`if (!borrowed) connection.release()`) still counts: the helper releases what it acquired.
 */
export function callsReleaseHelper(sourceCode: Services, call: TSESTree.CallExpression, index: number, names: readonly string[]): boolean {
  const target = targetOf(sourceCode, call.callee);
  return target !== null && releasesParameter(target, index, names, 0);
}

function releasesParameter(target: Target, index: number, names: readonly string[], depth: number): boolean {
  const param = target.fn.params[index];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const key = `${index}:${names.join(',')}`;
  let byKey = releaseCache.get(target.sourceCode, target.fn);
  if (!byKey) releaseCache.set(target.fn, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit !== undefined) return hit;
  byKey.set(key, false);
  const variable = findVariable(target.sourceCode, param);
  let result = false;
  for (const reference of variable?.references ?? []) {
    const id = reference.identifier;
    const parent = id.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === id && names.includes(staticPropertyName(parent) ?? '') &&
      parent.parent?.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent) {
      result = true;
      break;
    }
    if (depth < MAX_DEPTH && parent?.type === AST_NODE_TYPES.CallExpression && parent.callee !== id) {
      const next = targetOf(target.sourceCode, parent.callee);
      if (next && releasesParameter(next, (parent.arguments as readonly TSESTree.Node[]).indexOf(id), names, depth + 1)) {
        result = true;
        break;
      }
    }
  }
  byKey.set(key, result);
  return result;
}

// Per lint generation, like the wrappers: the lender may be a project module's function.
const lenderCache = new ModuleAnswers<FunctionNode, number | null>();

/**
 * The argument of `call` that its helper hands back when it is given, taking from the pool only
 * when it is not: `fetchConnection(conn)` returning `conn ?? await pool.getConnection()` (or
 * `conn || …`, `conn ? conn : …`), or starting with `if (conn) return conn;`. Its index; null when
 * the helper is no such lender or the call does not pass that argument.
 */
export function lentArgument(sourceCode: Services, call: TSESTree.CallExpression): number | null {
  if (call.arguments.some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return null;
  const target = targetOf(sourceCode, call.callee);
  const index = target ? lendingParameter(target, 0) : null;
  return index !== null && index < call.arguments.length ? index : null;
}

/** Does evaluating `node` (awaited) produce something acquired: `await pool.getConnection()`, a wrapper's call? */
export function yieldsAcquiredValue(sourceCode: Services, node: TSESTree.Node): boolean {
  return yieldsAcquired(sourceCode, node, 0, new Set());
}

function lendingParameter(target: Target, depth: number): number | null {
  const hit = lenderCache.get(target.sourceCode, target.fn);
  if (hit !== undefined) return hit;
  lenderCache.set(target.fn, null); // recursion guard
  let found: number | null = null;
  for (let index = 0; index < target.fn.params.length && found === null; index++) {
    if (lendsParameter(target, index, depth)) found = index;
  }
  lenderCache.set(target.fn, found);
  return found;
}

function lendsParameter(target: Target, index: number, depth: number): boolean {
  const { fn, sourceCode } = target;
  const param = fn.params[index];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, param);
  // A helper that swaps the argument for something else lends nothing.
  if (!variable || variable.references.some((r) => r.isWrite())) return false;
  const name = param.name;
  const returned = returnedValues(fn, sourceCode.visitorKeys);
  // `if (conn) return conn;` first, then `return pool.getConnection()`: the acquire itself must come after the guard.
  const guard = fn.body.type === AST_NODE_TYPES.BlockStatement ? fn.body.body.find((s) => returnsWhenGiven(s, name)) : undefined;
  let lends = false;
  for (const value of returned) {
    const expr = valueOf(sourceCode, value);
    if (lendExpression(sourceCode, expr, name, depth)) lends = true;
    else if (guard && expr.range[0] >= guard.range[1] && yieldsAcquired(sourceCode, expr, depth, new Set())) lends = true;
    else if (!(guard && value.range[1] <= guard.range[1] && value.range[0] >= guard.range[0])) return false;
  }
  return lends;
}

/** `return x` through `await`, and through a `const` it was put in first. */
function valueOf(sourceCode: Services, node: TSESTree.Node): TSESTree.Node {
  let expr = skipTransparent(node);
  for (let hops = 0; hops < 3; hops++) {
    if (expr.type === AST_NODE_TYPES.AwaitExpression) expr = skipTransparent(expr.argument);
    else if (expr.type === AST_NODE_TYPES.Identifier && constInit(sourceCode, expr)) expr = skipTransparent(constInit(sourceCode, expr) as TSESTree.Node);
    else break;
  }
  return expr;
}

/** `p ?? acquire`, `p || acquire`, `p ? p : acquire`, `!p ? acquire : p`, or a lender called with `p` in its lent place. */
function lendExpression(sourceCode: Services, expr: TSESTree.Node, name: string, depth: number): boolean {
  const acquired = (node: TSESTree.Node): boolean => yieldsAcquired(sourceCode, node, depth, new Set());
  if (expr.type === AST_NODE_TYPES.LogicalExpression && (expr.operator === '??' || expr.operator === '||')) {
    return isNamed(expr.left, name) && acquired(expr.right);
  }
  if (expr.type === AST_NODE_TYPES.ConditionalExpression) {
    const given = givenTest(expr.test, name);
    if (given === true) return isNamed(expr.consequent, name) && acquired(expr.alternate);
    if (given === false) return acquired(expr.consequent) && isNamed(expr.alternate, name);
    return false;
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression || depth >= MAX_DEPTH) return false;
  const next = targetOf(sourceCode, expr.callee);
  const index = next ? lendingParameter(next, depth + 1) : null;
  return index !== null && isNamed(expr.arguments[index], name);
}

/** `if (p) return p;` (or in a block of its own). */
function returnsWhenGiven(statement: TSESTree.Statement, name: string): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || givenTest(statement.test, name) !== true) return false;
  const body = statement.consequent.type === AST_NODE_TYPES.BlockStatement && statement.consequent.body.length === 1
    ? statement.consequent.body[0]
    : statement.consequent;
  return body?.type === AST_NODE_TYPES.ReturnStatement && body.argument !== null && isNamed(body.argument, name);
}

/** True when `test` holds exactly when `p` was handed in (`p`, `p != null`), false when exactly when it was not (`!p`, `p === undefined`); null otherwise. */
function givenTest(test: TSESTree.Node, name: string): boolean | null {
  const expr = skipTransparent(test);
  if (isNamed(expr, name)) return true;
  if (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '!') {
    const inner = givenTest(expr.argument, name);
    return inner === null ? null : !inner;
  }
  if (expr.type !== AST_NODE_TYPES.BinaryExpression) return null;
  const other = isNamed(expr.left, name) ? expr.right : isNamed(expr.right, name) ? expr.left : null;
  if (!other || !isNothing(other)) return null;
  if (expr.operator === '!=' || expr.operator === '!==') return true;
  if (expr.operator === '==' || expr.operator === '===') return false;
  return null;
}

function isNothing(node: TSESTree.Node): boolean {
  return (node.type === AST_NODE_TYPES.Literal && node.value === null) || (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined');
}

function isNamed(node: TSESTree.Node | undefined, name: string): boolean {
  const expr = node && skipTransparent(node);
  return expr?.type === AST_NODE_TYPES.Identifier && expr.name === name;
}
