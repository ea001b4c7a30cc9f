import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { RELEASING_FUNCTIONS } from './catalog';
import { resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Does `call` give back the resource it is passed at `index`, because it calls a library function
 * the catalogue says releases that argument (`commit(connection)` from a query builder that
 * releases the client)? Resolved through imports and requires, never by the function's name.
 */
export function releasedByLibrary(sourceCode: Services, call: TSESTree.CallExpression, index: number): boolean {
  const ref = resolveReference(sourceCode, call.callee);
  if (!ref) return false;
  const exported = ref.path.length === 0 ? 'default' : ref.path.length === 1 ? ref.path[0] : null;
  return RELEASING_FUNCTIONS.some((f) => f.module === ref.module && f.export === exported && f.argument === index);
}
