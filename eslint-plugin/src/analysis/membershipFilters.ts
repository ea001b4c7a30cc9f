import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

const MEMBERSHIP_METHODS: ReadonlySet<string> = new Set(['has', 'includes']);

/**
 * `xs.filter((x) => known.has(x.id))`: the items kept are ones `known` holds, so there are no more
 * of them than `known` has, however many `xs` brought. Returns `known`, or null when the predicate
 * is anything else (a negated test keeps what `known` lacks; a set read off the item, such as
 * `m.roles.cache.has(id)`, bounds nothing).
 */
export function membershipBound(sourceCode: Services, filter: TSESTree.CallExpression): TSESTree.Node | null {
  const callee = skipTransparent(filter.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'filter') return null;
  const predicate = filter.arguments[0] ? skipTransparent(filter.arguments[0]) : null;
  if (!predicate || !isFunctionNode(predicate)) return null;
  const test = predicateTest(predicate);
  if (test?.type !== AST_NODE_TYPES.CallExpression) return null;
  const testCallee = skipTransparent(test.callee);
  if (testCallee.type !== AST_NODE_TYPES.MemberExpression || !MEMBERSHIP_METHODS.has(staticPropertyName(testCallee) ?? '')) return null;
  const known = testCallee.object;
  return readsParameters(sourceCode, known, predicate) ? null : known;
}

function predicateTest(fn: FunctionNode): TSESTree.Node | null {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return skipTransparent(fn.body);
  const only = fn.body.body.length === 1 ? fn.body.body[0] : undefined;
  return only?.type === AST_NODE_TYPES.ReturnStatement && only.argument ? skipTransparent(only.argument) : null;
}

/** Whether `node` mentions a parameter of `fn` (then it is read off each item, not fixed). */
function readsParameters(sourceCode: Services, node: TSESTree.Node, fn: FunctionNode): boolean {
  let found = false;
  walk(node, sourceCode.visitorKeys, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.Identifier && findVariable(sourceCode, child)?.defs.some((d) => d.type === 'Parameter' && d.node === fn)) found = true;
    return undefined;
  });
  return found;
}
