import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { resolveCalleeFunction } from './callGraph';
import { handlerRegistration } from './handlers';
import { sourceFileOf } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** Functions of the same file followed to find a listen: `createServer()` awaits `restartServer()`, which listens. */
const MAX_DEPTH = 2;

const listenCache = new WeakMap<FunctionNode, TSESTree.Node | null>();

/**
 * Where `fn` puts a server up while it runs (its body and its synchronous callbacks, such as a
 * promise executor), the first in source order: a `x.listen(…)` call, `x.listen` handed to a call
 * (`promisify(server.listen)`), or a call of a function of the same file that does either.
 */
export function firstListen(sourceCode: Services, fn: FunctionNode): TSESTree.Node | null {
  return listenIn(sourceCode, fn, 0);
}

function listenIn(sourceCode: Services, fn: FunctionNode, depth: number): TSESTree.Node | null {
  if (listenCache.has(fn)) return listenCache.get(fn) ?? null;
  // A call cycle puts no server up by itself.
  listenCache.set(fn, null);
  let found: TSESTree.Node | null = null;
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    if (found && n.range[0] >= found.range[0]) return false;
    if (isFunctionNode(n) && !isSynchronouslyInvoked(n)) return false;
    if (isListen(n) || (n.type === AST_NODE_TYPES.CallExpression && depth < MAX_DEPTH && callsListener(sourceCode, n, fn, depth))) {
      found = n;
      return false;
    }
    return true;
  });
  // Only the outermost question is cached: a deeper one stopped at the depth limit.
  if (depth > 0) listenCache.delete(fn);
  else listenCache.set(fn, found);
  return found;
}

/** `server.listen(…)`, or `server.listen` read as the argument of a call (`promisify(server.listen)`, `.bind`). */
function isListen(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(node) !== 'listen') return false;
  const parent = node.parent;
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.callee === node) return true;
  return parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(node);
}

function callsListener(sourceCode: Services, call: TSESTree.CallExpression, fn: FunctionNode, depth: number): boolean {
  const target = resolveCalleeFunction(sourceCode, call.callee) ?? exportsMember(sourceCode, call.callee);
  return target !== null && target !== fn && !isFunctionNode(skipTransparent(call.callee)) && listenIn(sourceCode, target, depth + 1) !== null;
}

/** `exports.restartServer()` in the file that assigns `exports.restartServer = async () => …` at top level. */
function exportsMember(sourceCode: Services, callee: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(callee);
  if (expr.type !== AST_NODE_TYPES.MemberExpression || !isExportsObject(expr.object)) return null;
  const name = staticPropertyName(expr);
  if (name === null) return null;
  let found: FunctionNode | null = null;
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const assignment = statement.expression;
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left.type !== AST_NODE_TYPES.MemberExpression) continue;
    if (!isExportsObject(assignment.left.object) || staticPropertyName(assignment.left) !== name) continue;
    // Assigned twice: which one runs depends on when.
    if (found) return null;
    const value = skipTransparent(assignment.right);
    if (!isFunctionNode(value)) return null;
    found = value;
  }
  return found;
}

function isExportsObject(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) return expr.name === 'exports';
  return expr.type === AST_NODE_TYPES.MemberExpression && expr.object.type === AST_NODE_TYPES.Identifier && expr.object.name === 'module' &&
    staticPropertyName(expr) === 'exports';
}

/**
 * Does `node`, in `fn`, run before `fn` puts its server up? Then nothing is served yet from what
 * `fn` starts: `async function start() { const ssl = readCerts(); … server.listen(port) }`.
 * A function a framework runs per request (`app.post('/preview', async () => { … s.listen(0) })`)
 * or that is handed to other code as a callback (`bus.on('tenant', …)`, which may run it again and
 * again) does not count, nor a promise callback: the caller decides those.
 */
export function isBeforeOwnListen(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  if (isCallbackArgument(fn)) return false;
  const listen = firstListen(sourceCode, fn);
  if (listen === null || node.range[1] > listen.range[0]) return false;
  return handlerRegistration(sourceCode, sourceFileOf(sourceCode) ?? '', fn) === null;
}

function isCallbackArgument(fn: FunctionNode): boolean {
  let arg: TSESTree.Node = fn;
  while (arg.parent && (arg.parent.type === AST_NODE_TYPES.TSAsExpression || arg.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) arg = arg.parent;
  const parent = arg.parent;
  return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.callee !== arg;
}
