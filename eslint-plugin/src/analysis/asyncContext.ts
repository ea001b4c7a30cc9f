import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, skipTransparent, staticPropertyName } from './ast';

/** Array methods that call their callback before they return. */
const SYNC_CALLBACK_METHODS: ReadonlySet<string> = new Set([
  'map', 'forEach', 'filter', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex',
  'findLast', 'findLastIndex', 'flatMap', 'sort', 'toSorted',
]);

export interface AsyncContext {
  /** The async function, arrow, method or async generator whose body is running. */
  asyncFunction: FunctionNode;
  /** Synchronous callbacks between the node and that function, innermost first (`.map(x => …)`). */
  via: FunctionNode[];
}

/**
 * Is `fn` invoked before the call that receives it returns? True for array-method callbacks,
 * `Array.from(xs, fn)`, the `new Promise(executor)` executor and immediately invoked functions;
 * false for anything stored and called later (timers, listeners, unknown APIs).
 */
export function isSynchronouslyInvoked(fn: FunctionNode): boolean {
  // `xs.map((x => …) as Mapper)`: the argument is the cast, the callback is inside it.
  let arg: TSESTree.Node = fn;
  while (arg.parent && isTypeWrapper(arg.parent)) arg = arg.parent;
  const parent = arg.parent;
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.CallExpression && skipTransparent(parent.callee) === fn) return true;
  if (parent.type === AST_NODE_TYPES.NewExpression) {
    const callee = skipTransparent(parent.callee);
    return parent.arguments[0] === arg && callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Promise';
  }
  if (parent.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(parent.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = staticPropertyName(callee);
  if (name === null) return false;
  if (SYNC_CALLBACK_METHODS.has(name)) return parent.arguments[0] === arg;
  if (name === 'from' && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Array') {
    return parent.arguments[1] === arg;
  }
  return false;
}

export function isTypeWrapper(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.TSAsExpression ||
    node.type === AST_NODE_TYPES.TSSatisfiesExpression ||
    node.type === AST_NODE_TYPES.TSNonNullExpression ||
    node.type === AST_NODE_TYPES.TSTypeAssertion
  );
}

const contextCache = new WeakMap<FunctionNode, AsyncContext | null>();

/**
 * The async function whose execution `node` is part of, or null when `node` runs in synchronous
 * code, at module top level, or in a function that is only defined here and run later.
 */
export function getAsyncContext(node: TSESTree.Node): AsyncContext | null {
  let current: TSESTree.Node | undefined = node.parent;
  while (current) {
    if (isFunctionNode(current)) return functionContext(current);
    if (isBoundary(current)) return null;
    current = current.parent;
  }
  return null;
}

/** The async context that the body of `fn` runs in (itself when it is async). */
export function functionContext(fn: FunctionNode): AsyncContext | null {
  const cached = contextCache.get(fn);
  if (cached !== undefined) return cached;
  let result: AsyncContext | null;
  if (fn.async) {
    result = { asyncFunction: fn, via: [] };
  } else if (isSynchronouslyInvoked(fn)) {
    const outer = getAsyncContext(fn);
    result = outer ? { asyncFunction: outer.asyncFunction, via: [fn, ...outer.via] } : null;
  } else {
    result = null;
  }
  contextCache.set(fn, result);
  return result;
}

const PROMISE_CALLBACK_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

/**
 * The promise callback `node` runs in (`p.then(row => …)`, through any synchronously invoked
 * callbacks inside it), with the `.then()` call that registers it: the callback runs later, in
 * whatever context that call runs in. Null when the function around `node` is anything else.
 */
export function enclosingPromiseCallback(node: TSESTree.Node): { callback: FunctionNode; call: TSESTree.CallExpression; via: FunctionNode[] } | null {
  const via: FunctionNode[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (isBoundary(current)) return null;
    if (!isFunctionNode(current)) continue;
    if (isSynchronouslyInvoked(current)) {
      via.push(current);
      continue;
    }
    let arg: TSESTree.Node = current;
    while (arg.parent && isTypeWrapper(arg.parent)) arg = arg.parent;
    const call = arg.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(arg as TSESTree.CallExpressionArgument)) return null;
    const callee = skipTransparent(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !PROMISE_CALLBACK_METHODS.has(staticPropertyName(callee) ?? '')) return null;
    return { callback: current, call, via };
  }
  return null;
}

export function isInAsyncContext(node: TSESTree.Node): boolean {
  return getAsyncContext(node) !== null;
}

/** Class field initializers and static blocks run on their own schedule, not the enclosing function's. */
function isBoundary(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.PropertyDefinition ||
    node.type === AST_NODE_TYPES.StaticBlock ||
    node.type === AST_NODE_TYPES.AccessorProperty
  );
}
