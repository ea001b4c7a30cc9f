/**
 * rxjs retries that wait between attempts, turned back into a promise:
 * `defer(() => from(work())).pipe(retryWhen((errors) => errors.pipe(mergeMap(() => timer(ms))))).toPromise()`,
 * `lastValueFrom(source.pipe(retry({ count: 3, delay: 1000 })))`. The promise settles only after
 * every backoff, so awaiting it sleeps like `p-retry` does. A `timer` that is not a retry's delay
 * (`timer(1000).pipe(map(…))`) and a retry without one (`retry(3)`) are not this.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

const RX_MODULES = ['rxjs', 'rxjs/operators'];
/** What a retry notifier waits on before the next attempt. */
const DELAYS = ['timer', 'delay', 'delayWhen', 'interval'];
const TO_PROMISE = ['lastValueFrom', 'firstValueFrom'];

function isRx(sourceCode: Services, callee: TSESTree.Node, names: readonly string[]): boolean {
  const ref = resolveReference(sourceCode, skipTransparent(callee));
  return ref !== null && RX_MODULES.some((module) => names.some((name) => refMatches(ref, module, name)));
}

/** Is `call` a promise made from an rxjs pipeline that retries with a delay? */
export function isDelayedRxRetry(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  let source: TSESTree.Node | undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'toPromise' && call.arguments.length === 0) {
    source = callee.object;
  } else if (isRx(sourceCode, callee, TO_PROMISE)) {
    source = call.arguments[0];
  }
  return source !== undefined && pipesDelayedRetry(sourceCode, source);
}

/** `x.pipe(a, b).pipe(c)`: does any operator in the chain retry with a delay? */
function pipesDelayedRetry(sourceCode: Services, node: TSESTree.Node): boolean {
  let current = skipTransparent(node);
  while (current.type === AST_NODE_TYPES.CallExpression) {
    const callee = skipTransparent(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    if (staticPropertyName(callee) === 'pipe' && current.arguments.some((op) => isDelayedRetryOperator(sourceCode, op))) return true;
    current = skipTransparent(callee.object);
  }
  return false;
}

function isDelayedRetryOperator(sourceCode: Services, node: TSESTree.Node): boolean {
  const op = skipTransparent(node);
  if (op.type !== AST_NODE_TYPES.CallExpression) return false;
  const [argument] = op.arguments;
  if (!argument) return false;
  // `retryWhen((errors) => errors.pipe(…timer(ms)…))`: the notifier waits before resubscribing.
  if (isRx(sourceCode, op.callee, ['retryWhen'])) return isFunctionNode(argument) && callsDelay(sourceCode, argument);
  // `retry({ count, delay })`: a number of milliseconds, or a function returning the notifier.
  if (isRx(sourceCode, op.callee, ['retry']) && argument.type === AST_NODE_TYPES.ObjectExpression) {
    for (const prop of argument.properties) {
      if (prop.type !== AST_NODE_TYPES.Property || prop.computed || staticKey(prop) !== 'delay') continue;
      const value = skipTransparent(prop.value);
      if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'number' && value.value > 0;
      return isFunctionNode(value) ? callsDelay(sourceCode, value) : true;
    }
  }
  return false;
}

function staticKey(prop: TSESTree.Property): string | null {
  if (prop.key.type === AST_NODE_TYPES.Identifier) return prop.key.name;
  return prop.key.type === AST_NODE_TYPES.Literal ? String(prop.key.value) : null;
}

/** Does `fn` call rxjs's `timer`/`delay`/… anywhere inside (nested operators included)? */
function callsDelay(sourceCode: Services, fn: TSESTree.Node): boolean {
  let found = false;
  walk(fn, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && isRx(sourceCode, node.callee, DELAYS)) found = true;
    return !found;
  });
  return found;
}
