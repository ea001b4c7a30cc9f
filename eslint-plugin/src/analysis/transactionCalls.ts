/**
 * A transaction call told a promise by how the same connection is used: `conn.rollback()` after
 * `await conn.beginTransaction()` or `await conn.commit()` on the same variable. A driver whose
 * transaction methods are awaited is a promise API (mysql2/promise, promise-mysql, a knex or
 * sequelize transaction, a typeorm query runner), so its other transaction methods return
 * promises too; a dropped one rejects when the connection is gone, often the very reason a
 * `catch` rolls back.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/** Methods that belong together on one connection or transaction object. */
const FAMILIES: readonly ReadonlySet<string>[] = [
  new Set(['beginTransaction', 'commit', 'rollback']),
  new Set(['startTransaction', 'commitTransaction', 'rollbackTransaction']),
];

export interface TransactionCall {
  /** `conn.rollback`, for messages. */
  name: string;
  /** The awaited call of the same family on the same variable. */
  evidence: TSESTree.CallExpression;
  /** `commit`, the evidence's method, for messages. */
  sibling: string;
}

/** The evidence that `call` returns a promise, or null when there is none or `call` takes a callback. */
export function transactionCall(sourceCode: Services, call: TSESTree.CallExpression): TransactionCall | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  const family = method === null ? undefined : FAMILIES.find((f) => f.has(method));
  const object = skipTransparent(callee.object);
  if (!family || object.type !== AST_NODE_TYPES.Identifier) return null;
  // The callback form (`conn.rollback(() => …)`) returns nothing.
  if (call.arguments.some((a) => isFunctionNode(a))) return null;
  const variable = findVariable(sourceCode, object);
  for (const ref of variable?.references ?? []) {
    const member = ref.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== ref.identifier || member === callee) continue;
    const sibling = staticPropertyName(member);
    const other = member.parent;
    if (sibling === null || !family.has(sibling) || other?.type !== AST_NODE_TYPES.CallExpression || other.callee !== member) continue;
    if (other.parent?.type === AST_NODE_TYPES.AwaitExpression) {
      return { name: `${object.name}.${method ?? ''}`, evidence: other, sibling };
    }
  }
  return null;
}
