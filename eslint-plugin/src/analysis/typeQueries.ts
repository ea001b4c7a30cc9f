import type * as ts from 'typescript';
import type { TSESTree } from '@typescript-eslint/utils';

/**
 * The one way the analysis asks TypeScript's checker anything. Every question runs through
 * `askChecker`, so a failing checker never takes a rule down with it.
 *
 * Why a checker can fail: on some recursive generic types TypeScript overflows its own stack
 * (`tsc` does too, on the same file), and a program built from a broken project can throw from
 * deep inside type resolution. Either way the answer becomes "type unknown", which every caller
 * already treats like linting without types: the syntactic verdict stands.
 */
export function askChecker<T, U>(question: () => T, unknown: U): T | U {
  try {
    return question();
  } catch {
    return unknown;
  }
}

export interface CheckerServices {
  program: ts.Program;
  esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node | undefined };
}

/**
 * The type of an ESTree node, or null when the checker cannot tell.
 *
 * Asking in source order (the enclosing statement and the callee first, as typescript-eslint's
 * promise rules happen to) does not reliably avoid the overflow: on the recursive shape in the
 * tests, plain TypeScript overflows in every order tried, and whether it does under ESLint
 * depends on how much stack is already in use. The guard is what holds.
 */
export function typeAt(services: CheckerServices, node: TSESTree.Node): ts.Type | null {
  const tsNode = services.esTreeNodeToTSNodeMap.get(node);
  if (!tsNode) return null;
  const checker = services.program.getTypeChecker();
  return askChecker(() => checker.getTypeAtLocation(tsNode), null);
}

/** Whether the node's type has a property of this name (`then`, for a promise); false when unknown. */
export function typeHasProperty(services: CheckerServices, node: TSESTree.Node, name: string): boolean {
  const type = typeAt(services, node);
  return type !== null && askChecker(() => type.getProperty(name) !== undefined, false);
}
