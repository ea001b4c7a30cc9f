import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { contains, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Is `node` work done once per process (or once per key) and then served from memory? A blocking
 * call there costs one stall, at first use, not one per request:
 * - lazy initialisation behind a flag or an empty slot that the guarded code fills:
 *   `if (!wasm) wasm = readFileSync(p)`, `if (!loaded) { …; loaded = true }`, `this.x ??= …`,
 *   `return cache ?? (cache = readFileSync(p))`;
 * - a memoised read: `if (cache.has(k)) return cache.get(k); … cache.set(k, value)` on a cache
 *   that outlives the call (declared outside the function, or a field).
 * The slot must outlive the function: a local flag is set anew on every call.
 */
export function isOncePerProcess(sourceCode: Services, node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current; child = current, current = current.parent) {
    if (isFunctionNode(current)) {
      // A synchronous callback (`files.map((f) => readFileSync(f))`) runs inside its caller's guard.
      if (!current.async && isSynchronouslyInvoked(current)) continue;
      return isMemoised(sourceCode, current, node) || fillsAfterEarlyReturn(sourceCode, current, node);
    }
    switch (current.type) {
      case AST_NODE_TYPES.AssignmentExpression:
        // `slot ??= readFileSync(p)`, `slot ||= …`
        if ((current.operator === '??=' || current.operator === '||=') && current.right === child &&
          outlives(sourceCode, current.left, node)) {
          return true;
        }
        break;
      case AST_NODE_TYPES.LogicalExpression:
        // `slot ?? (slot = readFileSync(p))`, `slot || (slot = …)`
        if ((current.operator === '??' || current.operator === '||') && current.right === child &&
          assigns(sourceCode, current.right, current.left) && outlives(sourceCode, current.left, node)) {
          return true;
        }
        break;
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (current.consequent === child && guardsEmptySlot(sourceCode, current.test, child, node)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

/**
 * `if (cache) return cache; cache = readFileSync(p);`, `if (cache.x !== undefined) return
 * cache.x; … cache.x = result` (filled later, in a callback too): the function answers from an
 * outliving slot before it reaches the call, and fills that slot after the guard. Until the slot
 * is emptied again the call does not run.
 */
function fillsAfterEarlyReturn(sourceCode: Services, fn: TSESTree.Node, at: TSESTree.Node): boolean {
  let guard: { key: string; end: number } | null = null;
  walk(fn, sourceCode.visitorKeys, (node) => {
    if (guard || (node !== fn && isFunctionNode(node))) return false;
    if (node.type === AST_NODE_TYPES.IfStatement && node.range[1] <= at.range[0] && returns(node.consequent)) {
      const slot = filledSlot(node.test);
      const key = slot && outlives(sourceCode, slot, at) ? slotKey(slot) : null;
      if (key !== null) guard = { key, end: node.range[1] };
    }
    return guard === null;
  });
  const found = guard as { key: string; end: number } | null;
  if (!found) return false;
  let fills = false;
  walk(fn, sourceCode.visitorKeys, (node) => {
    if (fills) return false;
    if (node.range[0] < found.end) return true;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && slotKey(node.left) === found.key) fills = true;
    // `.then(() => updateCache(x))`: a function of the file that fills the slot.
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier) {
      const def = findVariable(sourceCode, node.callee)?.defs[0];
      if (def?.type === 'FunctionName' && def.node !== fn && fillsSlot(sourceCode, def.node, found.key)) fills = true;
    }
    return !fills;
  });
  return fills;
}

function fillsSlot(sourceCode: Services, within: TSESTree.Node, key: string): boolean {
  let found = false;
  walk(within, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && slotKey(node.left) === key) found = true;
    return !found;
  });
  return found;
}

/** The slot a test finds filled: `slot`, `slot !== undefined`, `slot != null`, `null !== slot`. */
function filledSlot(test: TSESTree.Expression): TSESTree.Node | null {
  const e = skipTransparent(test);
  if (e.type === AST_NODE_TYPES.BinaryExpression && (e.operator === '!==' || e.operator === '!=')) {
    if (isEmptyValue(e.right)) return e.left;
    return isEmptyValue(e.left) ? e.right : null;
  }
  return slotKey(e) === null ? null : e;
}

function returns(node: TSESTree.Statement): boolean {
  if (node.type === AST_NODE_TYPES.ReturnStatement) return true;
  return node.type === AST_NODE_TYPES.BlockStatement && node.body.length === 1 && node.body[0]?.type === AST_NODE_TYPES.ReturnStatement;
}

/** `if (!slot) { … slot = … }`, `if (slot === undefined)`, `if (slot == null)`: the guarded branch fills the slot. */
function guardsEmptySlot(sourceCode: Services, test: TSESTree.Expression, branch: TSESTree.Node, at: TSESTree.Node): boolean {
  const slots: TSESTree.Node[] = [];
  const collect = (expr: TSESTree.Expression): void => {
    const e = skipTransparent(expr);
    if (e.type === AST_NODE_TYPES.UnaryExpression && e.operator === '!') slots.push(e.argument);
    else if (e.type === AST_NODE_TYPES.BinaryExpression && (e.operator === '===' || e.operator === '==')) {
      if (isEmptyValue(e.right)) slots.push(e.left);
      else if (isEmptyValue(e.left)) slots.push(e.right);
    } else if (e.type === AST_NODE_TYPES.LogicalExpression && e.operator === '&&') {
      collect(e.left);
      collect(e.right);
    } else if (e.type === AST_NODE_TYPES.LogicalExpression && e.operator === '||') {
      collect(e.left);
    }
  };
  collect(test);
  return slots.some((slot) => outlives(sourceCode, slot, at) && assigns(sourceCode, branch, slot));
}

function isEmptyValue(node: TSESTree.Node): boolean {
  const e = skipTransparent(node);
  return (e.type === AST_NODE_TYPES.Literal && (e.value === null || e.value === false)) ||
    (e.type === AST_NODE_TYPES.Identifier && e.name === 'undefined') ||
    (e.type === AST_NODE_TYPES.UnaryExpression && e.operator === 'void');
}

/** Does `within` assign to the same slot as `slot` (`x = …`, `this.x = …`, `Foo.x = …`)? */
function assigns(sourceCode: Services, within: TSESTree.Node, slot: TSESTree.Node): boolean {
  const key = slotKey(slot);
  return key !== null && fillsSlot(sourceCode, within, key);
}

/** `x` → `x`; `this.x` → `this.x`; `Cls.x` → `Cls.x`; anything else has no stable name. */
function slotKey(node: TSESTree.Node): string | null {
  const e = skipTransparent(node);
  if (e.type === AST_NODE_TYPES.Identifier) return e.name;
  if (e.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(e);
    const object = skipTransparent(e.object);
    if (name === null) return null;
    if (object.type === AST_NODE_TYPES.ThisExpression) return `this.${name}`;
    if (object.type === AST_NODE_TYPES.Identifier) return `${object.name}.${name}`;
  }
  return null;
}

/**
 * Does the slot keep its value between calls of the function around `at`? A variable declared
 * outside that function, a field of `this`, or a property of an outer object does; a local does not.
 */
function outlives(sourceCode: Services, slot: TSESTree.Node, at: TSESTree.Node): boolean {
  const e = skipTransparent(slot);
  let id: TSESTree.Node | null = null;
  if (e.type === AST_NODE_TYPES.Identifier) id = e;
  else if (e.type === AST_NODE_TYPES.MemberExpression) {
    const object = skipTransparent(e.object);
    if (object.type === AST_NODE_TYPES.ThisExpression) return true;
    if (object.type === AST_NODE_TYPES.Identifier) id = object;
  }
  if (id?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!variable || !def) return false;
  const fn = enclosingFunctionOf(at);
  return fn === null || !contains(fn, def.name);
}

function enclosingFunctionOf(node: TSESTree.Node): TSESTree.Node | null {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return null;
}

/**
 * `if (cache.has(k)) return cache.get(k); const v = readFileSync(…); cache.set(k, v)`: the
 * function answers from an outliving cache before the call and stores into it after.
 */
function isMemoised(sourceCode: Services, fn: TSESTree.Node, at: TSESTree.Node): boolean {
  const before = new Set<string>();
  const after = new Set<string>();
  walk(fn, sourceCode.visitorKeys, (node) => {
    if (node !== fn && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return true;
    const method = staticPropertyName(callee);
    const key = slotKey(callee.object);
    if (key === null) return true;
    if ((method === 'get' || method === 'has') && node.range[1] <= at.range[0] && outlives(sourceCode, callee.object, at)) {
      before.add(key);
    }
    if (method === 'set' && (node.range[0] >= at.range[1] || contains(node, at))) after.add(key);
    return true;
  });
  for (const key of before) if (after.has(key)) return true;
  return false;
}
