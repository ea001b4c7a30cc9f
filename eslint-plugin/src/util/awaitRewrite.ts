import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';

// Helpers for suggestions that put `await` in front of a rewritten call.

/**
 * exec/execFile resolve `{ stdout, stderr }` with stdout decoded as UTF-8, while the sync forms
 * return a Buffer unless given an encoding. Offer the rewrite only where the value means the same:
 * discarded, converted with `.toString()`, or already decoded by an `encoding` option.
 */
export function stdoutKeepsMeaning(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return true;
  if (
    parent.type === AST_NODE_TYPES.MemberExpression && parent.object === call && !parent.computed &&
    parent.property.type === AST_NODE_TYPES.Identifier && parent.property.name === 'toString' &&
    parent.parent.type === AST_NODE_TYPES.CallExpression && parent.parent.arguments.length === 0
  ) {
    return true;
  }
  const last = call.arguments[call.arguments.length - 1];
  if (last?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  return last.properties.some(
    (p) => p.type === AST_NODE_TYPES.Property && !p.computed && p.key.type === AST_NODE_TYPES.Identifier &&
      p.key.name === 'encoding' && p.value.type === AST_NODE_TYPES.Literal && typeof p.value.value === 'string' &&
      p.value.value !== 'buffer',
  );
}

/** `await x` may stand bare only where an expression of the lowest precedence is allowed. */
export function awaitNeedsParens(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  switch (parent.type) {
    case AST_NODE_TYPES.ExpressionStatement:
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.SwitchStatement:
    case AST_NODE_TYPES.ArrayExpression:
    case AST_NODE_TYPES.TemplateLiteral:
    case AST_NODE_TYPES.SpreadElement:
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.LogicalExpression:
      return false;
    case AST_NODE_TYPES.BinaryExpression:
      return parent.operator === '**' && parent.left === call;
    case AST_NODE_TYPES.ArrowFunctionExpression:
      return parent.body !== call;
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.init !== call;
    case AST_NODE_TYPES.AssignmentExpression:
      return parent.right !== call;
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      return parent.callee === call;
    case AST_NODE_TYPES.Property:
      return parent.value !== call;
    case AST_NODE_TYPES.ConditionalExpression:
      return parent.test === call;
    default:
      return true;
  }
}
