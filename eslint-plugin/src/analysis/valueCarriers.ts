import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { skipTransparent } from './ast';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Library functions whose result holds the value of their first argument, or its items: a result
 * wrapper around a promise (`Result.safe(p)`, `to(p)`), a state proxy and its snapshot, lodash's
 * reshaping of an array (`chunk(xs, n)`, `flatten(xs)`, `uniq(xs)`). What the argument's items
 * are, the result's are.
 */
const CARRIERS: readonly { module: string; path: readonly string[] }[] = [
  { module: 'oxide.ts', path: ['Result', 'safe'] }, { module: 'oxide.ts', path: ['Option', 'safe'] },
  { module: 'neverthrow', path: ['ResultAsync', 'fromPromise'] }, { module: 'neverthrow', path: ['ResultAsync', 'fromSafePromise'] },
  { module: 'neverthrow', path: ['fromPromise'] }, { module: 'neverthrow', path: ['fromSafePromise'] },
  { module: 'await-to-js', path: ['default'] }, { module: 'await-to-js', path: ['to'] },
  ...['valtio', 'valtio/vanilla'].flatMap((module) => [{ module, path: ['proxy'] }, { module, path: ['snapshot'] }]),
  ...['lodash', 'lodash-es'].flatMap((module) =>
    ['chunk', 'flatten', 'flattenDeep', 'compact', 'uniq', 'uniqBy', 'sortBy', 'orderBy', 'values', 'shuffle', 'without', 'difference', 'filter', 'reject']
      .map((name) => ({ module, path: [name] }))),
];

/** The argument whose value `call`'s result carries, when `call` is a catalogued carrier. */
export function carriedValue(sourceCode: Services, call: TSESTree.CallExpression): TSESTree.Node | null {
  const arg = call.arguments[0];
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return null;
  const ref = resolveReference(sourceCode, skipTransparent(call.callee));
  if (!ref) return null;
  // `import chunk from 'lodash/chunk'` is the same function as lodash's `chunk`.
  const [pkg, member] = ref.module.startsWith('lodash/') ? ['lodash', ref.module.slice('lodash/'.length)] : [ref.module, null];
  const path = member === null ? ref.path : [member, ...ref.path];
  return CARRIERS.some((c) => refMatches({ module: pkg, path }, c.module, ...c.path)) ? arg : null;
}
