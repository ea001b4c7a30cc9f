import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, skipTransparent } from './ast';

/**
 * `await tracer.trace('extendLocks', async (span) => { try { … } catch (e) { emit('error', e) } })`:
 * an awaited call of unknown code whose work is an inline async callback that catches its own
 * errors. The wrapper (a tracing span, a context scope, a retry) runs the callback and passes its
 * promise on; what it adds of its own is bookkeeping. `recommended` then judges the await by the
 * callback (`settles`, the run-time question), the way it judges a synchronous call: as not
 * failing at run time. Every function handed to the call must settle, and one must be async.
 * Known limitation, left to `strict`: a wrapper that does I/O itself (a transaction's `COMMIT`).
 */
export function wrapsGuardedCallback(expr: TSESTree.Node, settles: (fn: FunctionNode) => boolean): boolean {
  const call = skipTransparent(expr);
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const callbacks: FunctionNode[] = [];
  for (const argument of call.arguments) if (isFunctionNode(argument)) callbacks.push(argument);
  return callbacks.some((fn) => fn.async) && callbacks.every((fn) => !fn.generator && settles(fn));
}
