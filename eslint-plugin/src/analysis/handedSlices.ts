import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, returnedValues, skipTransparent, staticPropertyName } from './ast';
import { knownCallers } from './knownCallers';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * A list walked one item after another, the next item's work starting only when the last one's
 * has settled: `for (const b of batches) await f(b)`, or the promise chain
 * `batches.reduce((queue, b) => queue.then(() => f(b)), Promise.resolve())`.
 */
export interface SequentialWalk {
  /** The list walked (`batches`). */
  list: TSESTree.Node;
  /** The loop, or the `reduce` call, that walks it. */
  walker: TSESTree.ForOfStatement | TSESTree.CallExpression;
}

/**
 * The sequential walk whose item `call` receives as its argument `index`, or null when that
 * argument is not such an item or the walk does not wait for `call` before the next item.
 */
export function sequentialWalk(sourceCode: Services, call: TSESTree.CallExpression, index: number): SequentialWalk | null {
  const arg = call.arguments[index];
  if (arg?.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, arg);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || variable.references.some((r) => r.isWrite() && !r.init)) return null;
  if (def.type === 'Variable') {
    const declaration = def.node.parent;
    const loop = declaration.parent;
    if (loop?.type !== AST_NODE_TYPES.ForOfStatement || loop.left !== declaration || def.node.init || loop.await) return null;
    return awaitedWithin(call, loop) ? { list: loop.right, walker: loop } : null;
  }
  if (def.type !== 'Parameter') return null;
  const step = def.node as FunctionNode;
  const reduce = step.parent;
  const accumulator = step.params[0];
  if (step.params[1] !== def.name || accumulator?.type !== AST_NODE_TYPES.Identifier) return null;
  // Without an initial value the first item is the accumulator and its work is never chained.
  if (reduce?.type !== AST_NODE_TYPES.CallExpression || reduce.arguments[0] !== step || reduce.arguments.length !== 2) return null;
  const callee = skipTransparent(reduce.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'reduce') return null;
  return chainsAfter(sourceCode, step, accumulator.name, call) ? { list: callee.object, walker: reduce } : null;
}

/**
 * The calls that hand `fn` its parameter `param`: every known call of it (same file, instance
 * methods through `this.m(…)`), each with its argument there. Null when a call is made from
 * another file, spreads its arguments, or nothing says who calls `fn`.
 */
export function handedArguments(sourceCode: Services, fn: FunctionNode, param: TSESTree.Node): { call: TSESTree.CallExpression; index: number }[] | null {
  const index = fn.params.indexOf(param as TSESTree.Parameter);
  if (index < 0 || param.type !== AST_NODE_TYPES.Identifier) return null;
  const sites = knownCallers(sourceCode, fn);
  if (!sites || sites.length === 0) return null;
  const calls: { call: TSESTree.CallExpression; index: number }[] = [];
  for (const site of sites) {
    if (site.sourceCode !== sourceCode || site.call.type !== AST_NODE_TYPES.CallExpression) return null;
    if (site.call.arguments.slice(0, index + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return null;
    calls.push({ call: site.call, index });
  }
  return calls;
}

/**
 * Whether the promise of `call` settles before the function it is in returns (awaited on the
 * way up, or returned): a caller that waits for the function then waits for it.
 */
export function settlesWithin(call: TSESTree.CallExpression): boolean {
  let child: TSESTree.Node = call;
  for (let current = call.parent; current; child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.AwaitExpression || current.type === AST_NODE_TYPES.ReturnStatement) return true;
    if (isFunctionNode(current)) return current.body === child;
    if (current.type === AST_NODE_TYPES.TSAsExpression || current.type === AST_NODE_TYPES.TSNonNullExpression) continue;
    // `(await Promise.all(xs.map(f))).filter(…)`: the await sits above a member or a call of the result.
    if (current.type === AST_NODE_TYPES.MemberExpression && current.object === child) continue;
    if (current.type === AST_NODE_TYPES.CallExpression && current.callee === child) continue;
    return false;
  }
  return false;
}

/** `(queue, b) => queue.then(() => f(b))`, or `async (queue, b) => { await queue; await f(b); }`. */
function chainsAfter(sourceCode: Services, step: FunctionNode, accumulator: string, call: TSESTree.CallExpression): boolean {
  const body = step.body;
  if (step.async && body.type === AST_NODE_TYPES.BlockStatement) {
    const first = body.body[0];
    const waited = first?.type === AST_NODE_TYPES.ExpressionStatement && first.expression.type === AST_NODE_TYPES.AwaitExpression &&
      isName(first.expression.argument, accumulator);
    return waited && awaitedWithin(call, step);
  }
  return returnedValues(step, sourceCode.visitorKeys).some((value) => {
    const chained = skipTransparent(value);
    if (chained.type !== AST_NODE_TYPES.CallExpression) return false;
    const then = skipTransparent(chained.callee);
    if (then.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(then) !== 'then' || !isName(then.object, accumulator)) return false;
    const next = chained.arguments[0];
    return next !== undefined && isFunctionNode(next) && returnedValues(next, sourceCode.visitorKeys).some((v) => skipTransparent(v) === call);
  });
}

function isName(node: TSESTree.Node, name: string): boolean {
  const expr = skipTransparent(node);
  return expr.type === AST_NODE_TYPES.Identifier && expr.name === name;
}

/** `await call` inside `boundary` (through parentheses and type assertions only). */
function awaitedWithin(call: TSESTree.Node, boundary: TSESTree.Node): boolean {
  let current = call.parent;
  while (current?.type === AST_NODE_TYPES.TSAsExpression || current?.type === AST_NODE_TYPES.TSNonNullExpression) current = current.parent;
  if (current?.type !== AST_NODE_TYPES.AwaitExpression) return false;
  for (let up: TSESTree.Node | undefined = current.parent; up; up = up.parent) {
    if (up === boundary) return true;
    if (isFunctionNode(up)) return false;
  }
  return false;
}
