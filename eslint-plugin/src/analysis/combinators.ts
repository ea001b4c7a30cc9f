import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
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


/**
 * `Promise.all(items.map(async (x) => { try { … } catch { return fallback; } }))`,
 * `Promise.race([a(), b()])`: a combinator that waits for promises none of which can reject, so it
 * cannot reject either (as `allSettled` never does). `mapperSettles` judges the one callback of a
 * `.map(…)` argument, `elementSettles` each element of an array literal; a spread or a hole is
 * unknown. `Promise.any` rejects for an empty input, so only a non-empty literal counts for it.
 */
export function combinatorCannotReject(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  mapperSettles: (mapper: TSESTree.Node) => boolean,
  elementSettles: (element: TSESTree.Node) => boolean,
): boolean {
  const method = promiseCombinator(sourceCode, call);
  if (method === null || method === 'allSettled' || call.arguments.length !== 1) return false;
  const input = skipTransparent(call.arguments[0]!);
  if (input.type === AST_NODE_TYPES.ArrayExpression) {
    if (method === 'any' && input.elements.length === 0) return false;
    return input.elements.every((e) => e !== null && e.type !== AST_NODE_TYPES.SpreadElement && elementSettles(e));
  }
  if (method === 'any' || input.type !== AST_NODE_TYPES.CallExpression || input.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const mapper = input.arguments[0];
  return staticPropertyName(input.callee) === 'map' && input.arguments.length === 1 &&
    mapper !== undefined && mapper.type !== AST_NODE_TYPES.SpreadElement && mapperSettles(mapper);
}
