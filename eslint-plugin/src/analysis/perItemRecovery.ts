import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { declaredName, findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/** Array methods that run their callback once per element. */
const ITERATION_METHODS: ReadonlySet<string> = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'reduce']);
/** How far same-file call sites are followed: `acquire` in `work`, called from `step`, called in a loop. */
const MAX_DEPTH = 3;

/**
 * Does the code around `node` go on to run it again after a run of it failed? That takes a loop
 * (`for`, `while`, an iteration callback like `items.forEach(…)`) whose iteration catches what
 * went wrong and moves to the next item: a `try`/`catch` between the loop and `node`, or
 * `Promise.allSettled(items.map(…))`, in `node`'s function or in a same-file function that calls
 * it (three calls deep). A one-shot script whose failure escapes to its end never runs `node`
 * again, so what a failed run leaked dies with the process.
 */
export function runsAgainAfterFailure(sourceCode: Services, node: TSESTree.Node): boolean {
  return recoversAround(sourceCode, node, false, 0, new Set());
}

function recoversAround(sourceCode: Services, node: TSESTree.Node, caught: boolean, depth: number, seen: Set<FunctionNode>): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current; child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.TryStatement && current.block === child && current.handler) caught = true;
    // `await work(item).catch(log)`
    else if (current.type === AST_NODE_TYPES.MemberExpression && current.object === child && staticPropertyName(current) === 'catch') caught = true;
    else if (isLoop(current, child) && caught) return true;
    else if (isFunctionNode(current)) {
      const iteration = iterationCall(current);
      if (iteration) {
        if (caught || isSettledAll(iteration)) return true;
        continue;
      }
      // A callback handed to something else: who runs it, and how often, is not known here.
      return depth < MAX_DEPTH && !seen.has(current) && callersRecover(sourceCode, current, caught, depth, seen);
    }
  }
  return false;
}

/** `child` is the part of `loop` that runs once per iteration. */
function isLoop(loop: TSESTree.Node, child: TSESTree.Node): boolean {
  switch (loop.type) {
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
      return loop.body === child;
    default:
      return false;
  }
}

/** `items.forEach(fn)`, `items.map(async (x) => …)`: the call that runs `fn` per element. */
function iterationCall(fn: FunctionNode): TSESTree.CallExpression | null {
  const parent = fn.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== fn) return null;
  const callee = skipTransparent(parent.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  return ITERATION_METHODS.has(staticPropertyName(callee) ?? '') ? parent : null;
}

/** `Promise.allSettled(items.map(…))`: every item runs to its end, failed or not. */
function isSettledAll(iteration: TSESTree.CallExpression): boolean {
  const outer = iteration.parent;
  if (outer?.type !== AST_NODE_TYPES.CallExpression || outer.arguments[0] !== iteration) return false;
  const callee = skipTransparent(outer.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'allSettled' &&
    callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Promise';
}

function callersRecover(sourceCode: Services, fn: FunctionNode, caught: boolean, depth: number, seen: Set<FunctionNode>): boolean {
  seen.add(fn);
  const id = declaredName(fn);
  const variable = id ? findVariable(sourceCode, id) : null;
  if (!variable) return false;
  return variable.references.some((reference) => {
    const ref = reference.identifier;
    const parent = ref.parent;
    if (!reference.isRead() || !parent) return false;
    // `items.forEach(work)`: run per element; a failure of one stops the rest unless caught inside.
    if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === ref && parent.callee !== ref) {
      const callee = skipTransparent(parent.callee);
      const iterates = callee.type === AST_NODE_TYPES.MemberExpression && ITERATION_METHODS.has(staticPropertyName(callee) ?? '');
      return iterates && (caught || isSettledAll(parent));
    }
    if (parent.type !== AST_NODE_TYPES.CallExpression || skipTransparent(parent.callee) !== ref) return false;
    return recoversAround(sourceCode, parent, caught, depth + 1, seen);
  });
}
