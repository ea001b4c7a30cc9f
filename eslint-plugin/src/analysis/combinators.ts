import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { skipTransparent, staticPropertyName } from './ast';
import { isGlobalName } from './collections';

const COMBINATORS: ReadonlySet<string> = new Set(['all', 'allSettled', 'any', 'race']);

/** `Promise.all(…)` and its siblings on the global `Promise` (not a shadowing local): the method name. */
export function promiseCombinator(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression): string | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const object = skipTransparent(callee.object);
  const method = staticPropertyName(callee);
  const combinator = object.type === AST_NODE_TYPES.Identifier && object.name === 'Promise' && method !== null && COMBINATORS.has(method);
  return combinator && isGlobalName(sourceCode, object) ? method : null;
}

