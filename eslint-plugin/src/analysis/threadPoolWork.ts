import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, skipTransparent, walk } from './ast';
import { resolveCalleeFunction, runningFunction } from './callGraph';
import { FS_METADATA_CALLS } from './blockingApis';
import { isSerializedWork } from './dataSources';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * fs calls that touch only metadata: each is one request to libuv's thread pool (four threads by
 * default), which runs them a few at a time, and none holds a file descriptor between requests.
 * Reads, writes, copies and opens are left out: each keeps a descriptor open from open to close,
 * so thousands at once run out of them (EMFILE).
 */
const METADATA_CALLS: readonly string[] = [...FS_METADATA_CALLS, 'rm', 'rmdir', 'remove'];

function isMetadataCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const ref = resolveReference(sourceCode, skipTransparent(call.callee));
  return ref !== null && METADATA_CALLS.some((name) =>
    refMatches(ref, 'fs', 'promises', name) || refMatches(ref, 'fs-extra', name) || refMatches(ref, 'fs-extra', 'promises', name));
}

/**
 * Every call the mapper waits on is an fs metadata call (`lstat`, `rm`, `mkdir`) or the function
 * that runs the fan-out walking one level deeper: the thread pool queues them, so however many
 * items there are, a few run at a time and nothing downstream sees a burst.
 */
export function isThreadPoolWork(sourceCode: Services, work: TSESTree.Node, owner: FunctionNode | null): boolean {
  const fn = skipTransparent(work);
  const calls: TSESTree.CallExpression[] = [];
  let other = false;
  const collect = (node: TSESTree.Node): void => {
    const expr = skipTransparent(node);
    if (expr.type === AST_NODE_TYPES.CallExpression) calls.push(expr);
    else other = true;
  };
  if (!isFunctionNode(fn)) return false;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement && skipTransparent(fn.body).type !== AST_NODE_TYPES.AwaitExpression) collect(fn.body);
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.AwaitExpression) collect(node.argument);
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument && fn.async && skipTransparent(node.argument).type === AST_NODE_TYPES.CallExpression) {
      collect(node.argument);
    }
    return undefined;
  });
  let metadata = 0;
  for (const call of calls) {
    if (isMetadataCall(sourceCode, call)) metadata++;
    else if (owner === null || resolveCalleeFunction(sourceCode, call.callee) !== owner) return false;
  }
  return !other && metadata > 0;
}

/**
 * Work that queues somewhere below the fan-out whatever its size: on one connection or
 * transaction (`isSerializedWork`), or on the thread pool.
 */
export function isQueuedWork(sourceCode: Services, work: TSESTree.Node): boolean {
  return isSerializedWork(sourceCode, work) || isThreadPoolWork(sourceCode, work, runningFunction(work));
}
