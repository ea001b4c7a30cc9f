import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import { resolveCalleeFunction } from './callGraph';
import { resolveReference } from './imports';
import { importedFunction, importsProjectModules } from './moduleFunctions';
import { functionCannotThrow } from './rejections';

type Services = Readonly<TSESLint.SourceCode>;

/** Globals that throw on input of the wrong shape: parsing and decoding. */
const THROWING_GLOBALS: ReadonlySet<string> = new Set([
  'JSON.parse', 'JSON.stringify', 'decodeURIComponent', 'decodeURI', 'encodeURIComponent', 'encodeURI', 'BigInt', 'structuredClone',
  'atob', 'btoa', 'Buffer.from', 'Buffer.alloc', 'require',
]);

/** Modules whose functions exist to throw. */
const THROWING_MODULES: ReadonlySet<string> = new Set(['assert', 'assert/strict']);

/**
 * Is a synchronous call's body out of sight? A call that `cannotThrow` could not clear is either
 * code we read and could not prove safe (a function of this file or of a readable project module),
 * or code we never see: a package's function, a method of a value from elsewhere
 * (`signal.addEventListener(…)`, `client.on(…)`), a function of a project module that is not
 * there to read. Only the second kind is "unseen"; the host's functions that throw on bad input
 * by design (`JSON.parse`, `new URL`, `decodeURIComponent`, node's `assert`) are never unseen.
 */
export function isUnseenCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const path = globalPath(sourceCode, callee);
  if (path !== null && THROWING_GLOBALS.has(path)) return false;
  const ref = resolveReference(sourceCode, callee);
  if (ref && THROWING_MODULES.has(ref.module.replace(/^node:/, ''))) return false;
  if (resolveCalleeFunction(sourceCode, callee)) return false;
  if (importsProjectModules(sourceCode) && importedFunction(sourceCode, callee)) return false;
  // A callback handed over may run right now (`items.forEach(fn)`): one that can throw is in sight.
  return call.arguments.every((a) => !isFunctionNode(a) || functionCannotThrow(a, sourceCode));
}

/** `JSON.parse` for `JSON.parse(…)` on the real global; null for anything bound in the file. */
function globalPath(sourceCode: Services, callee: TSESTree.Identifier | TSESTree.MemberExpression): string | null {
  const names: string[] = [];
  let current: TSESTree.Node = callee;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(current);
    if (name === null) return null;
    names.unshift(name);
    current = skipTransparent(current.object);
  }
  if (current.type !== AST_NODE_TYPES.Identifier || findVariable(sourceCode, current)?.defs.length) return null;
  return [current.name, ...names].join('.');
}
