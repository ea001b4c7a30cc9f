import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import type { BlockingCall } from './blockingApis';
import { findObjectProperty, isFunctionNode, skipTransparent } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';

/**
 * A catalogued call that asks or changes the metadata of one path, once, in `within`: an
 * `existsSync`, `statSync`, `mkdirSync(dir, { recursive: true })` or `rmdirSync` that is neither
 * repeated there nor a recursive remove; or cheap CPU work done once (`genSaltSync`). Removing a
 * file (`unlinkSync`, `rmSync`) frees its data, and is not one of them (see `blockingApis.ts`). It costs
 * microseconds, not a stall other work notices; repeated over a listing or over request data it
 * adds up, and stays blocking.
 */
export function isSingleMetadataCall(found: BlockingCall, within: FunctionNode): boolean {
  const { api, call } = found;
  if ((api.kind !== 'metadata' && api.kind !== 'remove' && api.kind !== 'cheap') || call.type !== AST_NODE_TYPES.CallExpression) return false;
  if (api.kind === 'remove' && !isPlainRemove(call)) return false;
  return !isRepeatedIn(call, within);
}

/**
 * Does `node` run more than once each time `within` runs: inside a loop's body (or a `for`
 * loop's test and update), or inside a callback an array method calls once per element? A
 * `while (existsSync(p))` test that is the probe itself is not: the loop only goes on while
 * the path it just made up is taken, which is how unique file names are picked.
 */
export function isRepeatedIn(node: TSESTree.Node, within: FunctionNode): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && child !== within; child = current, current = current.parent) {
    if (isFunctionNode(child) && isSynchronouslyInvoked(child) && isPerElementCallback(child)) return true;
    if (isFunctionNode(child) && !isSynchronouslyInvoked(child)) return false;
    switch (current.type) {
      case AST_NODE_TYPES.ForStatement:
        if (child !== current.init) return true;
        break;
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
        if (child === current.body) return true;
        break;
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
        if (child === current.body || !isProbeTest(current.test, node)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

/** `xs.map(fn)`, `Array.from(xs, fn)`: not the `new Promise` executor or an immediately invoked function. */
function isPerElementCallback(fn: FunctionNode): boolean {
  let arg: TSESTree.Node = fn;
  while (arg.parent && arg.parent.type !== AST_NODE_TYPES.CallExpression && arg.parent.type !== AST_NODE_TYPES.NewExpression) {
    arg = arg.parent;
  }
  const parent = arg.parent;
  return parent?.type === AST_NODE_TYPES.CallExpression && skipTransparent(parent.callee) !== fn &&
    parent.arguments.includes(arg as TSESTree.CallExpressionArgument);
}

/** The loop's whole test is the call, perhaps negated: `while (existsSync(p))`, `while (!existsSync(p))`. */
function isProbeTest(test: TSESTree.Expression, call: TSESTree.Node): boolean {
  let expr = skipTransparent(test);
  while (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '!') expr = skipTransparent(expr.argument);
  return expr === call;
}

/** `rmdirSync(p)`, `rmdirSync(p, { recursive: false })`: no `recursive` that may be true, no options hidden in a variable. */
function isPlainRemove(call: TSESTree.CallExpression): boolean {
  const options = call.arguments[1];
  if (!options) return true;
  const expr = skipTransparent(options);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression || expr.properties.some((p) => p.type !== AST_NODE_TYPES.Property || p.computed)) {
    return false;
  }
  const recursive = findObjectProperty(expr, 'recursive');
  return !recursive || (recursive.value.type === AST_NODE_TYPES.Literal && recursive.value.value === false);
}
