import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, skipTransparent, staticPropertyName } from './ast';
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
 * A `const` bound to such a literal counts as the literal when nothing but combinators reads it
 * (`const plugins = [import('./a'), import('./b')]` … `await Promise.all(plugins)`): nothing else
 * can have added to it.
 */
export function combinatorCannotReject(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  mapperSettles: (mapper: TSESTree.Node) => boolean,
  elementSettles: (element: TSESTree.Node) => boolean,
): boolean {
  const method = promiseCombinator(sourceCode, call);
  if (method === null || method === 'allSettled' || call.arguments.length !== 1) return false;
  const argument = skipTransparent(call.arguments[0]!);
  const input = argument.type === AST_NODE_TYPES.Identifier ? (combinedOnlyArray(sourceCode, argument) ?? argument) : argument;
  if (input.type === AST_NODE_TYPES.ArrayExpression) {
    if (method === 'any' && input.elements.length === 0) return false;
    return input.elements.every((e) => e !== null && e.type !== AST_NODE_TYPES.SpreadElement && elementSettles(e));
  }
  if (method === 'any' || input.type !== AST_NODE_TYPES.CallExpression || input.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const mapper = input.arguments[0];
  return staticPropertyName(input.callee) === 'map' && input.arguments.length === 1 &&
    mapper !== undefined && mapper.type !== AST_NODE_TYPES.SpreadElement && mapperSettles(mapper);
}

/**
 * The array literal a `const` is bound to, when every read of the name is the input of a combinator:
 * no `push`, no index write, no hand-off to code that could change it. Otherwise null.
 */
function combinedOnlyArray(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): TSESTree.ArrayExpression | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id !== def.name) return null;
  const init = def.node.init ? skipTransparent(def.node.init) : null;
  if (init?.type !== AST_NODE_TYPES.ArrayExpression || def.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) return null;
  const onlyCombined = variable.references.every((ref) => {
    if (ref.init) return true;
    const call = ref.identifier.parent;
    return call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === ref.identifier && promiseCombinator(sourceCode, call) !== null;
  });
  return onlyCombined ? init : null;
}
