import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import type { CollectionContext } from './collections';
import { isHelperSlice } from './collections';

const MAX_DEPTH = 6;

/** Copies and derivations no larger than the collection they are called on. */
const NARROWING_METHODS: ReadonlySet<string> = new Set(['map', 'filter', 'flat', 'sort', 'reverse', 'toSorted', 'toReversed', 'values', 'keys']);
/** Calls that put one item in a collection. */
const FILLING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'add', 'set']);
/** Array callbacks run once per item. */
const PER_ITEM_METHODS: ReadonlySet<string> = new Set(['forEach', 'map', 'flatMap', 'filter']);

/**
 * Whether the collection `node` holds up to one item per item of a list the code walks in slices:
 * `batch.processArray(ids, async (slice) => { slice.forEach((id) => found.add(lookup(id))); }, { batch: 500 })`
 * and then `Array.from(found)`. The code cut that list into slices because its author expects it
 * to be long; a collection gathered from every slice is as long again, whatever the list's origin.
 * Followed through `const`/`let` copies (a `let` reassigned only with a derivation of itself),
 * `Array.from`, spreads and narrowing array methods.
 */
export function spansSlicedList(ctx: CollectionContext, node: TSESTree.Node, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) return identifierSpans(ctx, expr, depth);
  if (expr.type === AST_NODE_TYPES.ArrayExpression) {
    const only = expr.elements.length === 1 ? expr.elements[0] : null;
    return only?.type === AST_NODE_TYPES.SpreadElement && spansSlicedList(ctx, only.argument, depth + 1);
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(expr.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(callee.object);
  const method = staticPropertyName(callee);
  const first = expr.arguments[0];
  if (object.type === AST_NODE_TYPES.Identifier && object.name === 'Array' && method === 'from' && !findVariable(ctx.sourceCode, object)?.defs.length) {
    return first !== undefined && first.type !== AST_NODE_TYPES.SpreadElement && spansSlicedList(ctx, first, depth + 1);
  }
  return method !== null && NARROWING_METHODS.has(method) && spansSlicedList(ctx, object, depth + 1);
}

function identifierSpans(ctx: CollectionContext, id: TSESTree.Identifier, depth: number): boolean {
  const variable = findVariable(ctx.sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return false;
  const rewritten = variable.references.every((r) => {
    if (!r.isWrite() || r.init) return true;
    const assignment = r.identifier.parent;
    return assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.operator === '=' && derivesFrom(assignment.right, variable);
  });
  if (!rewritten) return false;
  return isEmptyCollection(def.node.init) ? filledPerSliceItem(ctx, variable) : spansSlicedList(ctx, def.node.init, depth + 1);
}

/** `xs = xs.filter(…)`: a derivation of the variable's own value. */
function derivesFrom(node: TSESTree.Node, variable: TSESLint.Scope.Variable): boolean {
  let expr = skipTransparent(node);
  while (expr.type === AST_NODE_TYPES.CallExpression) {
    const callee = skipTransparent(expr.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !NARROWING_METHODS.has(staticPropertyName(callee) ?? '')) return false;
    expr = skipTransparent(callee.object);
  }
  return expr.type === AST_NODE_TYPES.Identifier && variable.references.some((r) => r.identifier === expr);
}

function isEmptyCollection(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.ArrayExpression) return expr.elements.length === 0;
  return expr.type === AST_NODE_TYPES.NewExpression && expr.arguments.length === 0 &&
    expr.callee.type === AST_NODE_TYPES.Identifier && (expr.callee.name === 'Set' || expr.callee.name === 'Map');
}

/** Every `push`/`add` into the collection runs once per item of a slice a helper hands over, and there is one. */
function filledPerSliceItem(ctx: CollectionContext, variable: TSESLint.Scope.Variable): boolean {
  let fills = 0;
  for (const reference of variable.references) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const call = member.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member || !FILLING_METHODS.has(staticPropertyName(member) ?? '')) continue;
    if (!perSliceItem(ctx, call)) return false;
    fills++;
  }
  return fills > 0;
}

/** `node` runs inside a per-item callback, or a `for…of`, over a handed slice. */
function perSliceItem(ctx: CollectionContext, node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    let walked: TSESTree.Node | null = null;
    if (current.type === AST_NODE_TYPES.ForOfStatement) walked = current.right;
    else if (isFunctionNode(current)) walked = walkedBy(current);
    if (walked && isHandedSlice(ctx, walked)) return true;
  }
  return false;
}

/** `xs` of `xs.forEach(fn)`, `xs.map(fn)`. */
function walkedBy(fn: FunctionNode): TSESTree.Node | null {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return null;
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && PER_ITEM_METHODS.has(staticPropertyName(callee) ?? '') ? callee.object : null;
}

function isHandedSlice(ctx: CollectionContext, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(ctx.sourceCode, expr)?.defs[0];
  return def?.type === 'Parameter' && isFunctionNode(def.node) && isHelperSlice(ctx, def.node, def.name);
}
