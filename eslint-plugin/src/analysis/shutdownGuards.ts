import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { calleeName, skipTransparent, staticPropertyName, walk } from './ast';
import { thisClass } from './construction';
import type { Acquisition } from './locks';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * `await this.semaphore.acquire(); if (this.shouldStop) return null`, in a class whose only
 * `this.shouldStop = true` sits in a method that also gives the same owner back
 * (`close() { this.shouldStop = true; … this.semaphore.release() }`): the exit is taken only once the
 * owner has been shut down, by code that releases it itself, so leaving without a release leaks
 * nothing anyone still waits on. Decided from the class's own writes to the flag and its own
 * release calls, never from the flag's name.
 */
export function exitsOnlyAfterShutdown(sourceCode: Services, acquisition: Acquisition, test: TSESTree.Expression): boolean {
  const owner = acquisition.owner ? skipTransparent(acquisition.owner) : null;
  const flag = skipTransparent(test);
  if (owner?.type !== AST_NODE_TYPES.MemberExpression || owner.object.type !== AST_NODE_TYPES.ThisExpression) return false;
  if (flag.type !== AST_NODE_TYPES.MemberExpression || flag.object.type !== AST_NODE_TYPES.ThisExpression) return false;
  const flagName = staticPropertyName(flag);
  const ownerName = staticPropertyName(owner);
  const releases = new Set(acquisition.releaseCalls.filter((s) => s.form === 'ownerMethod').map((s) => calleeName(s.call)));
  const cls = thisClass(flag);
  if (flagName === null || ownerName === null || releases.size === 0 || !cls || thisClass(owner) !== cls) return false;
  let raised = 0;
  let other = false;
  walk(cls.body, sourceCode.visitorKeys, (node) => {
    if (other) return false;
    if (node.type !== AST_NODE_TYPES.AssignmentExpression || !isThisMember(node.left, flagName) || thisClass(node) !== cls) return true;
    const value = skipTransparent(node.right);
    if (value.type === AST_NODE_TYPES.Literal && value.value === false) return true;
    if (value.type !== AST_NODE_TYPES.Literal || value.value !== true || !releasesOwnerInSameMethod(sourceCode, node, ownerName, releases)) {
      other = true;
      return false;
    }
    raised++;
    return true;
  });
  return !other && raised > 0;
}

/** The method holding `assignment` also calls `this.<owner>.<release>()`. */
function releasesOwnerInSameMethod(sourceCode: Services, assignment: TSESTree.Node, ownerName: string, releases: ReadonlySet<string | null>): boolean {
  let method: TSESTree.Node | undefined = assignment.parent;
  while (method && method.type !== AST_NODE_TYPES.MethodDefinition) method = method.parent;
  if (!method) return false;
  let found = false;
  walk(method, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression &&
      releases.has(staticPropertyName(node.callee)) && isThisMember(node.callee.object, ownerName)) {
      found = true;
    }
    return true;
  });
  return found;
}

function isThisMember(node: TSESTree.Node, name: string): boolean {
  const expr = skipTransparent(node);
  return expr.type === AST_NODE_TYPES.MemberExpression && expr.object.type === AST_NODE_TYPES.ThisExpression && staticPropertyName(expr) === name;
}
