/**
 * Values a file creates itself and so can vouch for: the global `Map`/`Set` it constructs, and
 * values that can never be null or undefined. Used by `cannotThrow` (promises.ts) to prove calls
 * and property reads safe; the conservative answer is always "unknown".
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { constInit, findVariable, skipTransparent, staticPropertyName, walk } from './ast';
import { thisClass } from './construction';

type Services = Readonly<TSESLint.SourceCode>;

/** `Date.now()`, `performance.now()`: global functions that return without throwing (arguments are the caller's to check). */
export function isNeverThrowingCall(call: TSESTree.CallExpression, sourceCode?: Services): boolean {
  if (!NEVER_THROWING_CALLS.has(calleePath(call.callee))) return false;
  const root = calleeRoot(call.callee);
  // A local object named `performance` is not the global one.
  return !sourceCode || !findVariable(sourceCode, root)?.defs.length;
}

/** Global functions that return without throwing whatever their (throw-free) arguments. */
const NEVER_THROWING_CALLS: ReadonlySet<string> = new Set(['Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint', 'Symbol']);

type CollectionKind = 'Map' | 'Set' | 'WeakMap' | 'WeakSet';

/**
 * Methods that cannot throw on a real collection, with whether their result may be nullish
 * (`get` finds nothing). `WeakMap#set` and `WeakSet#add` throw on a primitive key, so they are absent.
 */
const COLLECTION_METHODS: Readonly<Record<CollectionKind, Readonly<Record<string, 'value' | 'maybeNullish'>>>> = {
  Map: { get: 'maybeNullish', has: 'value', set: 'value', delete: 'value', clear: 'maybeNullish', keys: 'value', values: 'value', entries: 'value' },
  Set: { has: 'value', add: 'value', delete: 'value', clear: 'maybeNullish', keys: 'value', values: 'value', entries: 'value' },
  WeakMap: { get: 'maybeNullish', has: 'value', delete: 'value' },
  WeakSet: { has: 'value', delete: 'value' },
};

/** `cache.get(key)` on a collection the file creates: whether the result may be nullish; null otherwise. */
export function collectionCallResult(sourceCode: Services, call: TSESTree.CallExpression): 'value' | 'maybeNullish' | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || call.optional) return null;
  const method = staticPropertyName(callee);
  const kind = collectionKind(sourceCode, callee.object);
  return kind && method !== null ? COLLECTION_METHODS[kind][method] ?? null : null;
}

/**
 * `cache` bound by `const cache = new Map()`, or `this.cache` where every assignment to it in the
 * class (field initializer included) is `new Map()`: a real collection, never nullish.
 */
function collectionKind(sourceCode: Services, node: TSESTree.Node): CollectionKind | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const init = constInit(sourceCode, expr);
    return init ? constructedCollection(sourceCode, init) : null;
  }
  if (expr.type !== AST_NODE_TYPES.MemberExpression || expr.object.type !== AST_NODE_TYPES.ThisExpression) return null;
  const name = staticPropertyName(expr);
  const classNode = thisClass(expr);
  if (name === null || !classNode) return null;
  let perClass = fieldCollections.get(classNode.body);
  if (!perClass) {
    perClass = new Map();
    fieldCollections.set(classNode.body, perClass);
  }
  const hit = perClass.get(name);
  if (hit !== undefined) return hit;
  let found: CollectionKind | null = null;
  let agreed = true;
  const note = (value: TSESTree.Node | null | undefined): void => {
    const kind = value ? constructedCollection(sourceCode, value) : null;
    if (!kind || (found && found !== kind)) agreed = false;
    found ??= kind;
  };
  walk(classNode.body, sourceCode.visitorKeys, (n) => {
    if (n.type === AST_NODE_TYPES.PropertyDefinition && !n.computed && staticName(n.key) === name && !n.static) note(n.value);
    if (n.type === AST_NODE_TYPES.AssignmentExpression && n.left.type === AST_NODE_TYPES.MemberExpression &&
      n.left.object.type === AST_NODE_TYPES.ThisExpression && staticPropertyName(n.left) === name) {
      note(n.operator === '=' ? n.right : null);
    }
  });
  const kind = agreed ? found : null;
  perClass.set(name, kind);
  return kind;
}

const fieldCollections = new WeakMap<TSESTree.ClassBody, Map<string, CollectionKind | null>>();

function staticName(key: TSESTree.Node): string | null {
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  return key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string' ? key.value : null;
}

/** `new Map(…)` of the global `Map` (not a class of the same name declared or imported here). */
function constructedCollection(sourceCode: Services, node: TSESTree.Node): CollectionKind | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.NewExpression || expr.callee.type !== AST_NODE_TYPES.Identifier) return null;
  const name = expr.callee.name;
  const known = name === 'Map' || name === 'Set' || name === 'WeakMap' || name === 'WeakSet';
  return known && !findVariable(sourceCode, expr.callee)?.defs.length ? name : null;
}

/** Values that are certainly not null or undefined, so reading a property of them cannot throw. */
export function cannotBeNullish(node: TSESTree.Node, sourceCode: Services): boolean {
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.Literal:
      return expr.value !== null || 'regex' in expr || 'bigint' in expr;
    case AST_NODE_TYPES.ObjectExpression:
    case AST_NODE_TYPES.ArrayExpression:
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.FunctionExpression:
    case AST_NODE_TYPES.TemplateLiteral:
      return true;
    case AST_NODE_TYPES.ThisExpression:
      // In a method or a field initializer `this` is the instance; elsewhere it may be undefined.
      return thisClass(expr) !== null;
    case AST_NODE_TYPES.CallExpression:
      return collectionCallResult(sourceCode, expr) === 'value';
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.MemberExpression:
      return collectionKind(sourceCode, expr) !== null;
    default:
      return false;
  }
}

/** The identifier a callee of plain names starts from (`performance` in `performance.now`). */
function calleeRoot(callee: TSESTree.Node): TSESTree.Identifier {
  let current = skipTransparent(callee);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = skipTransparent(current.object);
  return current as TSESTree.Identifier;
}

/** `performance.now` for a callee of plain names, '' for anything else. */
function calleePath(callee: TSESTree.Node): string {
  const parts: string[] = [];
  let current = skipTransparent(callee);
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(current);
    if (name === null || current.computed) return '';
    parts.unshift(name);
    current = skipTransparent(current.object);
  }
  if (current.type !== AST_NODE_TYPES.Identifier) return '';
  parts.unshift(current.name);
  return parts.join('.');
}
