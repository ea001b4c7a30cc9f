import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, skipTransparent, staticPropertyName, walk } from './ast';
import { enclosingClass, thisClass } from './construction';
import { runningFunction } from './callGraph';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Every call of the same-file function `fn`, when all its uses can be seen and are calls; null
 * when it is exported, a method, or used otherwise (aliased, passed as a callback), since it may
 * then be called from anywhere.
 */
export function callsOf(sourceCode: Services, fn: FunctionNode): TSESTree.CallExpression[] | null {
  const binding = bindingOf(fn);
  const variable = binding && !isExported(fn) ? findVariable(sourceCode, binding) : null;
  if (!variable) return null;
  const calls: TSESTree.CallExpression[] = [];
  for (const reference of variable.references) {
    const id = reference.identifier;
    if (id === binding || reference.init) continue;
    const parent = id.parent;
    if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.callee !== id) return null;
    calls.push(parent);
  }
  return calls;
}

/**
 * Is every call of the same-file function `fn` one that `entry` accepts, or made in a
 * synchronous same-file function every call of which is (through helpers that are too)? A
 * function nobody calls does not count: nothing says where it runs.
 */
export function onlyCalledFrom(
  sourceCode: Services,
  entry: (call: TSESTree.CallExpression) => boolean,
): (fn: FunctionNode) => boolean {
  const memo = new Map<FunctionNode, boolean>();
  const only = (fn: FunctionNode): boolean => {
    const known = memo.get(fn);
    if (known !== undefined) return known;
    // Recursion: a helper reached only through itself is not known to run there.
    memo.set(fn, false);
    const calls = callsOf(sourceCode, fn);
    const result = calls !== null && calls.length > 0 && calls.every((call) => {
      if (entry(call)) return true;
      const owner = runningFunction(call);
      return owner !== null && owner !== fn && !owner.async && !owner.generator && only(owner);
    });
    memo.set(fn, result);
    return result;
  };
  return only;
}

/** `function f` → `f`; `const f = () => …` → `f`. Only these are bindings whose every use can be seen. */
export function bindingOf(fn: FunctionNode): TSESTree.Identifier | null {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id;
  const parent = fn.parent;
  if (
    parent?.type === AST_NODE_TYPES.VariableDeclarator &&
    parent.init === fn &&
    parent.id.type === AST_NODE_TYPES.Identifier &&
    parent.parent.kind === 'const'
  ) {
    return parent.id;
  }
  return null;
}

export function isExported(fn: FunctionNode): boolean {
  const statement = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.parent : fn.parent?.parent?.parent;
  return statement?.type === AST_NODE_TYPES.ExportNamedDeclaration || statement?.type === AST_NODE_TYPES.ExportDefaultDeclaration;
}

/**
 * Every use of a private method (`#m`, or TypeScript's `private m`) of the class it is in, when
 * each is a `this.m` of that class: nothing outside the class can reach it, so these are all the
 * ways it runs. Null for any other function, or when a use is on another object (`other.#m()`),
 * inside a function with its own `this`, or by a computed key.
 */
export function privateMethodUses(sourceCode: Services, fn: FunctionNode): TSESTree.MemberExpression[] | null {
  const member = fn.parent;
  if (member?.type !== AST_NODE_TYPES.MethodDefinition && member?.type !== AST_NODE_TYPES.PropertyDefinition) return null;
  if (member.value !== fn || member.computed || (member.type === AST_NODE_TYPES.MethodDefinition && member.kind !== 'method')) return null;
  const { key: memberKey } = member;
  const isHash = memberKey.type === AST_NODE_TYPES.PrivateIdentifier;
  if (memberKey.type !== AST_NODE_TYPES.PrivateIdentifier && (memberKey.type !== AST_NODE_TYPES.Identifier || member.accessibility !== 'private')) return null;
  const name = memberKey.name;
  const cls = enclosingClass(member);
  if (!cls) return null;
  const uses: TSESTree.MemberExpression[] = [];
  let known = true;
  walk(cls.body, sourceCode.visitorKeys, (node) => {
    if (!known) return false;
    if (node.type !== AST_NODE_TYPES.MemberExpression) return true;
    const key = node.property;
    if (node.computed && key.type !== AST_NODE_TYPES.Literal) {
      // `this[key]` may be this method.
      if (!isHash && skipTransparent(node.object).type === AST_NODE_TYPES.ThisExpression) known = false;
      return known;
    }
    if (staticPropertyName(node) !== name || (key.type === AST_NODE_TYPES.PrivateIdentifier) !== isHash) return true;
    if (node.object.type !== AST_NODE_TYPES.ThisExpression || thisClass(node) !== cls || inStaticMember(node) !== member.static) {
      known = false;
      return false;
    }
    uses.push(node);
    return true;
  });
  return known ? uses : null;
}

/** In a static member or block, `this` is the class itself. */
function inStaticMember(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.StaticBlock) return true;
    if (current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition ||
      current.type === AST_NODE_TYPES.AccessorProperty) {
      return current.static;
    }
  }
  return false;
}
