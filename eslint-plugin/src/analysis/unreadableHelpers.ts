import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import { resolveReference } from './imports';
import { isUnreadableProjectModule } from './localModules';
import { carriedValue } from './valueCarriers';

type Services = Readonly<TSESLint.SourceCode>;

/** Methods whose callback receives one transaction or connection (`knex.transaction(async (trx) => …)`). */
export const HANDLE_CALLBACK_METHODS: ReadonlySet<string> = new Set(['transaction', '$transaction', 'begin', 'withTransaction', 'connection']);

/**
 * `await getBars()`, `await Result.safe(listThreads())`, `await sdk.getPairs()` with `sdk` made by
 * `getSdk(…)`: the awaited work is a helper of the project's that the lint cannot read (left out of
 * the folder, or generated). A collection an async helper hands back was loaded from somewhere
 * (a query, a request, a listing), so its size is the stored data's; nothing else about it is known.
 */
export function awaitsUnreadableHelper(sourceCode: Services, awaited: TSESTree.Node): boolean {
  let expr = skipTransparent(awaited);
  for (let hops = 0; expr.type === AST_NODE_TYPES.CallExpression && hops < 4; hops++) {
    const carried = carriedValue(sourceCode, expr);
    if (!carried) return fromUnreadableModule(sourceCode, expr.callee, 0);
    expr = skipTransparent(carried);
  }
  return false;
}

/** The callee, or the object it is a method of, comes from an import of an unreadable project module. */
function fromUnreadableModule(sourceCode: Services, node: TSESTree.Node, depth: number): boolean {
  const expr = skipTransparent(node);
  const ref = resolveReference(sourceCode, expr);
  if (ref) return isUnreadableProjectModule(sourceCode, ref.module);
  if (depth > 3) return false;
  if (expr.type === AST_NODE_TYPES.MemberExpression) return fromUnreadableModule(sourceCode, expr.object, depth + 1);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  // `const sdk = getSdk(client)`: a client the unreadable module made.
  // `prisma.$transaction(async (tx) => …)`: the transaction handed to the callback is the same client's.
  const param = findVariable(sourceCode, expr)?.defs[0];
  if (param?.type === 'Parameter' && isFunctionNode(param.node) && param.node.params[0] === param.name) {
    const host = param.node.parent;
    const callee = host?.type === AST_NODE_TYPES.CallExpression && host.arguments.includes(param.node as TSESTree.CallExpressionArgument) ? skipTransparent(host.callee) : null;
    return callee?.type === AST_NODE_TYPES.MemberExpression && HANDLE_CALLBACK_METHODS.has(staticPropertyName(callee) ?? '') &&
      fromUnreadableModule(sourceCode, callee.object, depth + 1);
  }
  // A `let` nothing assigns again holds its first value as surely as a `const` (yapi's `let inst = yapi.getInst(M)`).
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return false;
  if (def.node.parent.kind !== 'const' && variable?.references.some((r) => r.isWrite() && !r.init)) return false;
  const init = skipTransparent(def.node.init);
  return (init.type === AST_NODE_TYPES.CallExpression || init.type === AST_NODE_TYPES.NewExpression) &&
    fromUnreadableModule(sourceCode, init.callee, depth + 1);
}
