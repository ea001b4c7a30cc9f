/**
 * What the code between an acquire and its release does, as release-in-finally asks it: whether
 * an expression returned there hands back a promise (so `finally` would release before the work
 * settles), and whether the acquire itself can fail or only waits its turn.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { skipTransparent, staticPropertyName } from './ast';
import { getCallGraph } from './callGraph';
import { getConstruction } from './construction';
import type { Acquisition } from './locks';
import type { CheckerServices } from './typeQueries';
import { typeHasProperty } from './typeQueries';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A pool client's own methods that answer with a promise (`client.query(…)`). */
const DB_CLIENT_PROMISE_METHODS = new Set(['query', 'execute']);

/**
 * Whether `expr` evaluates to a promise: `new Promise`, a `.then`/`.catch`/`.finally` chain, a
 * `Promise.*` call, a query on the held client, a call to an async function of the file, or a
 * value whose type has `then` when there are types.
 */
export function handsBackPromise(sourceCode: SourceCode, services: CheckerServices | null, acquisition: Acquisition, expr: TSESTree.Expression): boolean {
  const node = skipTransparent(expr);
  if (node.type === AST_NODE_TYPES.NewExpression) {
    return node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'Promise';
  }
  if (services && typeHasProperty(services, node, 'then')) return true;
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(node.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(callee);
    if (name === 'then' || name === 'catch' || name === 'finally') return true;
    const object = skipTransparent(callee.object);
    if (object.type === AST_NODE_TYPES.Identifier && object.name === 'Promise') return true;
    const resource = acquisition.resourceNode;
    if (acquisition.kind === 'dbClient' && resource && object.type === AST_NODE_TYPES.Identifier && object.name === resource.name) {
      return DB_CLIENT_PROMISE_METHODS.has(name ?? '');
    }
  }
  const target = getCallGraph(sourceCode).resolveCall(node);
  return Boolean(target && (target.isAsync || target.returnsPromiseType));
}

/**
 * A lock or permit acquire that only waits: nothing in it can fail but a timeout, and
 * `withTimeout`/`tryAcquire` wrappers are what add one.
 */
export function waitsUntilGranted(sourceCode: SourceCode, acquisition: Acquisition): boolean {
  if (acquisition.kind !== 'lock' && acquisition.kind !== 'permit') return false;
  if (acquisition.acquireExpression.type !== AST_NODE_TYPES.AwaitExpression || acquisition.acquireCall.arguments.length > 0) return false;
  const owner = acquisition.owner;
  return !owner || (getConstruction(sourceCode, owner)?.wrappedBy.length ?? 0) === 0;
}
