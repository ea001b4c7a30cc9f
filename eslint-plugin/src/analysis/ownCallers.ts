import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable } from './ast';
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
