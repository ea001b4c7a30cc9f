import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * `Promise.resolve(value).then(() => {})`: a value of any kind is turned into a promise only to
 * hang a callback that does nothing on it, with no rejection handler. The chain's one effect is
 * that a rejection of `value` (a buffered promise whose earlier `.catch(() => {})` silenced it)
 * surfaces as unhandled again, which is what its author asks for. A `.then(() => {})` on any
 * other promise (`save().then(() => {})`) is a dropped call like any other, and stays reported.
 */
export function resurfacesRejection(sourceCode: Services, node: TSESTree.Node): boolean {
  const call = skipTransparent(node);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== 1) return false;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'then') return false;
  const [callback] = call.arguments;
  if (!isFunctionNode(callback) || callback.async || callback.generator || !isEmptyBody(callback.body)) return false;
  const root = skipTransparent(callee.object);
  if (root.type !== AST_NODE_TYPES.CallExpression || root.arguments.length !== 1) return false;
  const rootCallee = skipTransparent(root.callee);
  if (rootCallee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(rootCallee) !== 'resolve') return false;
  const object = skipTransparent(rootCallee.object);
  return object.type === AST_NODE_TYPES.Identifier && object.name === 'Promise' && !findVariable(sourceCode, object)?.defs.length;
}

/** `{}` (comments allowed), `undefined` or `void 0`: a callback that does nothing. */
function isEmptyBody(body: TSESTree.Node | null | undefined): boolean {
  if (!body) return false;
  if (body.type === AST_NODE_TYPES.BlockStatement) return body.body.length === 0;
  const expr = skipTransparent(body);
  return (expr.type === AST_NODE_TYPES.Identifier && expr.name === 'undefined') ||
    (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === 'void' && expr.argument.type === AST_NODE_TYPES.Literal);
}
