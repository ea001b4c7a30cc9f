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

/**
 * The `x.listen(…, cb)` call `fn` is the callback of (its last argument), or null. Node runs `cb`
 * once, as the `listening` event, when the server starts listening: `listen()` binds the handle
 * and queues that event with `process.nextTick`, while connections arrive through the event
 * loop's poll phase, which comes only after the tick queue has drained. So the callback's own
 * synchronous run (up to its first `await`) comes before this server handles any request. Other
 * servers of the process may already serve by then (a second server put up later); the run is
 * still one step of starting the process, once per process, like the code before a listen.
 */
export function listenCallbackCall(fn: FunctionNode): TSESTree.CallExpression | null {
  let arg: TSESTree.Node = fn;
  while (arg.parent && (arg.parent.type === AST_NODE_TYPES.TSAsExpression || arg.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) arg = arg.parent;
  const call = arg.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[call.arguments.length - 1] !== arg) return null;
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'listen' ? call : null;
}

/**
 * Does `node` run in `fn`'s first synchronous stretch, before its first `await` (or `for await`)?
 * After it, other callbacks (requests among them) run before `fn` resumes.
 */
export function beforeFirstAwait(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  if (!fn.async) return true;
  let first: number | null = null;
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    if (first !== null && n.range[0] >= first) return false;
    if (isFunctionNode(n) && !isSynchronouslyInvoked(n)) return false;
    if (n.type === AST_NODE_TYPES.AwaitExpression || (n.type === AST_NODE_TYPES.ForOfStatement && n.await)) {
      // The awaited operand is evaluated before the pause: `await setup()` starts `setup` first.
      const pause = n.type === AST_NODE_TYPES.AwaitExpression ? n.argument.range[1] : n.range[0];
      if (first === null || pause < first) first = pause;
    }
    return true;
  });
  return first === null || node.range[1] <= first;
}

/**
 * Is `listen` (a `x.listen(…)` call in `fn`) the first server `fn` itself puts up, `fn` being no
 * callback handed to other code and no request handler? Then it runs as `fn` starts its server.
 */
export function isOwnFirstListen(sourceCode: Services, fn: FunctionNode, listen: TSESTree.CallExpression): boolean {
  return !isCallbackArgument(fn) && firstListen(sourceCode, fn) === listen.callee &&
    handlerRegistration(sourceCode, sourceFileOf(sourceCode) ?? '', fn) === null;
}
