import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, isNullOrUndefined, skipTransparent, staticPropertyName, walk } from './ast';
import { resolveCalleeFunction } from './callGraph';
import { cannotBeNullish, collectionCallResult, isNeverThrowingCall } from './knownValues';
import { importedFunction, importsProjectModules } from './moduleFunctions';

/**
 * Can this code throw, can this promise reject? Conservative answers for the places where a
 * rejection would go unhandled: a function whose whole body is guarded, a statement that cannot
 * throw, a `.then/.catch/.finally` chain whose promise cannot reject and whose callbacks cannot
 * throw. "Unknown" is always "it can".
 */

type Services = Readonly<TSESLint.SourceCode>;

/**
 * An async function that cannot reject: its returned chain handles rejection, or every statement
 * of its body is guarded — a `try { … } catch` whose catch and finally blocks throw nothing
 * themselves, a `return` or declaration of something that cannot throw, an `if` on a plain
 * condition whose branches are guarded (fastify's `if (fn.length === 1) { try … catch …; return }
 * try … catch …`), a `while` on a plain condition around a guarded body (a job loop that catches
 * every error and emits it). With `sourceCode`, statements that cannot throw count as guarded too.
 */
export function isRejectionGuarded(fn: FunctionNode, sourceCode?: Services): boolean {
  const body = fn.body;
  if (!body) return false;
  if (body.type !== AST_NODE_TYPES.BlockStatement) {
    const expr = skipTransparent(body);
    return expr.type === AST_NODE_TYPES.CallExpression && handlesRejection(expr);
  }
  return containsTry(body.body) && body.body.every((s) => isGuardedStatement(s, sourceCode));
}

/** Names a CommonJS module has without declaring them, which the host's `globalThis` does not hold. */
const MODULE_NAMES: ReadonlySet<string> = new Set(['require', 'module', 'exports', '__dirname', '__filename']);

/**
 * A call in one of `fn`'s catch blocks (not in a nested function) of a name declared nowhere: no
 * binding in scope, no configured global, not a global of the running host, never assigned in the
 * file (`catch (error) { return next(error) }` where `next` is no parameter). It throws a
 * `ReferenceError` inside the catch, so the catch does not keep the error: the function rejects.
 */
export function catchCallsUndeclared(sourceCode: Services, fn: FunctionNode): TSESTree.CallExpression | null {
  const body = fn.body;
  if (body?.type !== AST_NODE_TYPES.BlockStatement) return null;
  let found: TSESTree.CallExpression | null = null;
  walk(body, sourceCode.visitorKeys, (node) => {
    if (found || (node !== body && isFunctionNode(node))) return false;
    if (node.type !== AST_NODE_TYPES.CatchClause) return true;
    walk(node.body, sourceCode.visitorKeys, (inner) => {
      if (found || isFunctionNode(inner)) return false;
      if (inner.type === AST_NODE_TYPES.CallExpression && inner.callee.type === AST_NODE_TYPES.Identifier && isUndeclared(sourceCode, inner.callee)) {
        found = inner;
      }
      return true;
    });
    return true;
  });
  return found;
}

function isUndeclared(sourceCode: Services, id: TSESTree.Identifier): boolean {
  if (findVariable(sourceCode, id) || MODULE_NAMES.has(id.name) || id.name in globalThis) return false;
  const through = sourceCode.scopeManager?.globalScope?.through ?? [];
  return !through.some((r) => r.identifier.name === id.name && r.isWrite());
}

function containsTry(statements: readonly TSESTree.Statement[]): boolean {
  return statements.some((s) => s.type === AST_NODE_TYPES.TryStatement ||
    ((s.type === AST_NODE_TYPES.WhileStatement || s.type === AST_NODE_TYPES.DoWhileStatement) &&
      s.body.type === AST_NODE_TYPES.BlockStatement && containsTry(s.body.body)));
}

function isGuardedStatement(statement: TSESTree.Statement, sourceCode: Services | undefined): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.TryStatement:
      if (sourceCode && statement.finalizer && finallyEndsProcess(sourceCode, statement.finalizer)) return true;
      // `catch (e) { log(e); throw e; }` passes the error on: the function still rejects.
      return statement.handler !== null && !throwsDirectly(statement.handler.body) &&
        (!statement.finalizer || !throwsDirectly(statement.finalizer));
    case AST_NODE_TYPES.BlockStatement:
      return statement.body.every((s) => isGuardedStatement(s, sourceCode));
    case AST_NODE_TYPES.EmptyStatement:
    case AST_NODE_TYPES.BreakStatement:
    case AST_NODE_TYPES.ContinueStatement:
    case AST_NODE_TYPES.FunctionDeclaration:
      return true;
    case AST_NODE_TYPES.ReturnStatement:
      return !statement.argument || cannotThrow(statement.argument, sourceCode);
    case AST_NODE_TYPES.VariableDeclaration:
      return isThrowFreeDeclaration(statement, sourceCode);
    case AST_NODE_TYPES.ExpressionStatement:
      return sourceCode !== undefined && (cannotThrow(statement.expression, sourceCode) || isConsoleCall(statement.expression, sourceCode));
    case AST_NODE_TYPES.IfStatement:
      return isPlainCondition(statement.test) && isGuardedStatement(statement.consequent, sourceCode) &&
        (!statement.alternate || isGuardedStatement(statement.alternate, sourceCode));
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
      return isPlainCondition(statement.test) && isGuardedStatement(statement.body, sourceCode);
    default:
      return false;
  }
}

const CONSOLE_METHODS: ReadonlySet<string> = new Set(['log', 'info', 'warn', 'error', 'debug', 'trace']);

/**
 * `console.error(error)` on the global `console`, with arguments that cannot throw: the logger a
 * guarded body routes its errors to. Kept out of `cannotThrow` itself, where a release or a
 * rejection could otherwise be judged safe after printing.
 */
function isConsoleCall(expr: TSESTree.Node, sourceCode: Services): boolean {
  if (expr.type !== AST_NODE_TYPES.CallExpression || expr.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = expr.callee.object;
  const method = staticPropertyName(expr.callee);
  if (object.type !== AST_NODE_TYPES.Identifier || object.name !== 'console' || method === null || !CONSOLE_METHODS.has(method)) return false;
  if (findVariable(sourceCode, object)?.defs.length) return false;
  return expr.arguments.every((a) => a.type !== AST_NODE_TYPES.SpreadElement && cannotThrow(a, sourceCode));
}

/**
 * Where an async function's own body can reject the way such bodies fail at run time: an `await`
 * or `for await` of a promise that can reject (`canReject` says which), a `throw`, a returned
 * promise that can reject, outside any `try` whose `catch` keeps the error. Synchronous calls that
 * might throw all the same (a header set on a response, an assertion, a property read) are not
 * counted: `isRejectionGuarded` is the answer that counts them. Null when there is no such place.
 * Statements in `ruledOut` are branches that cannot run (see `branchesRuledOutAt`).
 */
export function unguardedRejection(
  fn: FunctionNode,
  sourceCode: Services,
  canReject: (value: TSESTree.Node, how: 'awaited' | 'returned') => boolean,
  ruledOut?: ReadonlySet<TSESTree.Node>,
): TSESTree.Node | null {
  if (fn.generator || !fn.body) return null;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return canReject(fn.body, 'returned') ? fn.body : null;
  let found: TSESTree.Node | null = null;
  const visit = (node: TSESTree.Node, guarded: boolean): void => {
    if (found || (node !== fn.body && isFunctionNode(node)) || ruledOut?.has(node)) return;
    if (node.type === AST_NODE_TYPES.TryStatement) {
      const exits = node.finalizer !== null && finallyEndsProcess(sourceCode, node.finalizer);
      const keeps = exits || (node.handler !== null && !throwsDirectly(node.handler.body));
      visit(node.block, guarded || keeps);
      if (node.handler) visit(node.handler.body, guarded || exits);
      if (node.finalizer) visit(node.finalizer, guarded);
      return;
    }
    if (!guarded && (isRejectionSource(node, canReject) || isReadOfUnsetValue(sourceCode, node))) {
      found = node;
      return;
    }
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const item of child) if (isNode(item)) visit(item, guarded);
      } else if (isNode(child)) {
        visit(child, guarded);
      }
    }
  };
  visit(fn.body, false);
  return found;
}

/**
 * `let ret; try { ret = await get(); } catch {} … ret.status`: a property read on a variable that
 * only a `try` block assigns, after a `catch` that may have left it `undefined`. The TypeError
 * rejects the function exactly when the awaited call failed.
 */
function isReadOfUnsetValue(sourceCode: Services, node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.optional || node.object.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, node.object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.init || def.node.id !== def.name) return false;
  const writes = variable.references.filter((ref) => ref.isWrite());
  return writes.length > 0 && writes.every((ref) => insideTryBlock(ref.identifier, def.node));
}

/** A catch block that can finish normally: one that ends in `return` or `throw` leaves no unset value behind. */
function fallsThrough(block: TSESTree.BlockStatement): boolean {
  const last = block.body[block.body.length - 1];
  return last?.type !== AST_NODE_TYPES.ReturnStatement && last?.type !== AST_NODE_TYPES.ThrowStatement;
}

/** Inside the block of a `try` whose `catch` can finish normally, below `scope` (the declaration's own statement list). */
function insideTryBlock(node: TSESTree.Node, declarator: TSESTree.Node): boolean {
  const stop = declarator.parent?.parent;
  for (let current: TSESTree.Node | undefined = node; current && current !== stop; current = current.parent) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (parent?.type === AST_NODE_TYPES.TryStatement && parent.block === current && parent.handler) return fallsThrough(parent.handler.body);
  }
  return false;
}

function isRejectionSource(node: TSESTree.Node, canReject: (value: TSESTree.Node, how: 'awaited' | 'returned') => boolean): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.ThrowStatement:
      return true;
    case AST_NODE_TYPES.AwaitExpression:
      return canReject(node.argument, 'awaited');
    case AST_NODE_TYPES.ForOfStatement:
      return node.await;
    case AST_NODE_TYPES.ReturnStatement:
      return node.argument !== null && canReject(node.argument, 'returned');
    default:
      return false;
  }
}

const ENDS_PROCESS: ReadonlySet<string> = new Set(['exit', 'abort', 'reallyExit']);

/**
 * `finally { process.exit(code) }`: a statement of the block itself ends the process on the global
 * `process`, so an error from the `try` or `catch` never leaves the function as a rejection.
 */
function finallyEndsProcess(sourceCode: Services, block: TSESTree.BlockStatement): boolean {
  return block.body.some((statement) => {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return false;
    const call = skipTransparent(statement.expression);
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const object = call.callee.object;
    return object.type === AST_NODE_TYPES.Identifier && object.name === 'process' && !findVariable(sourceCode, object)?.defs.length &&
      ENDS_PROCESS.has(staticPropertyName(call.callee) ?? '');
  });
}

/** A `throw` that belongs to this block (not to a function declared in it). */
function throwsDirectly(block: TSESTree.BlockStatement): boolean {
  let found = false;
  const visit = (node: TSESTree.Node): void => {
    if (found || isFunctionNode(node)) return;
    if (node.type === AST_NODE_TYPES.ThrowStatement) {
      found = true;
      return;
    }
    for (const value of Object.values(node)) {
      if (value === node.parent) continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) {
        visit(value);
      }
    }
  };
  for (const statement of block.body) visit(statement);
  return found;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** `const a = 1, b = () => …;`: plain names bound to values whose evaluation cannot throw. */
export function isThrowFreeDeclaration(statement: TSESTree.Statement, sourceCode?: Services): boolean {
  return statement.type === AST_NODE_TYPES.VariableDeclaration &&
    statement.declarations.every((d) => d.id.type === AST_NODE_TYPES.Identifier && (!d.init || cannotThrow(d.init, sourceCode)));
}

/**
 * A condition that calls nothing, awaits nothing and cannot throw: names, literals, property reads,
 * operators on them. `in` and `instanceof` throw on a right side of the wrong kind, so they are left out.
 */
export function isPlainCondition(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.ThisExpression:
      return true;
    case AST_NODE_TYPES.MemberExpression:
      return !expr.computed && isPlainCondition(expr.object);
    case AST_NODE_TYPES.UnaryExpression:
      return expr.operator !== 'delete' && isPlainCondition(expr.argument);
    case AST_NODE_TYPES.BinaryExpression:
      return expr.operator !== 'in' && expr.operator !== 'instanceof' && isPlainCondition(expr.left) && isPlainCondition(expr.right);
    case AST_NODE_TYPES.LogicalExpression:
      return isPlainCondition(expr.left) && isPlainCondition(expr.right);
    default:
      return false;
  }
}

/**
 * Expressions whose evaluation cannot throw: names, literals, functions, plain literals of those,
 * and calls that never throw (`Date.now()`, `performance.now()`). With `sourceCode`, also property
 * reads on values that cannot be null or undefined (`this.count`, `cache.size`), and the methods of a
 * `Map` or `Set` the file creates itself that cannot throw (`cache.get(key)`, `seen.add(id)`).
 */
export function cannotThrow(expr: TSESTree.Node, sourceCode?: Services): boolean {
  switch (expr.type) {
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.ThisExpression:
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.FunctionExpression:
      return true;
    case AST_NODE_TYPES.ObjectExpression:
      return expr.properties.every((p) => p.type === AST_NODE_TYPES.Property && !p.computed && cannotThrow(p.value, sourceCode));
    case AST_NODE_TYPES.ArrayExpression:
      return expr.elements.every((e) => e === null || cannotThrow(e, sourceCode));
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.ChainExpression:
      return cannotThrow(expr.expression, sourceCode);
    case AST_NODE_TYPES.MemberExpression:
      // A read on `null` or `undefined` throws; an optional read (`a?.b`) stops there instead.
      return sourceCode !== undefined && (!expr.computed || expr.property.type === AST_NODE_TYPES.Literal) &&
        cannotThrow(expr.object, sourceCode) && (expr.optional || cannotBeNullish(expr.object, sourceCode));
    case AST_NODE_TYPES.CallExpression:
      if (!expr.arguments.every((a) => a.type !== AST_NODE_TYPES.SpreadElement && cannotThrow(a, sourceCode))) return false;
      return isNeverThrowingCall(expr, sourceCode) || (sourceCode !== undefined &&
        (collectionCallResult(sourceCode, expr) !== null || isTimerCall(sourceCode, expr) || calleeCannotThrow(sourceCode, expr)));
    default:
      return false;
  }
}

/** Functions whose bodies are being judged, so that a recursive call is not trusted on its own word. */
const judging = new Set<FunctionNode>();

/**
 * `timeoutGuard(message, { key })` where `timeoutGuard` is a function of this file or of one of the
 * project's modules whose body cannot throw (`return setTimeout(() => …, ms)`), and whose default
 * parameters cannot throw either. The callee is named by the call, never by its name's meaning.
 */
function calleeCannotThrow(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  if (call.optional) return false;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const local = resolveCalleeFunction(sourceCode, callee);
  if (local) return bodyCannotThrow(local, sourceCode);
  const imported = importsProjectModules(sourceCode) ? importedFunction(sourceCode, callee) : null;
  return imported !== null && bodyCannotThrow(imported.fn, imported.sourceCode);
}

function bodyCannotThrow(fn: FunctionNode, sourceCode: Services): boolean {
  if (judging.has(fn) || judging.size > 8) return false;
  judging.add(fn);
  try {
    const defaults = fn.params.every((p) => p.type !== AST_NODE_TYPES.AssignmentPattern || cannotThrow(p.right, sourceCode));
    return defaults && fn.params.every((p) => p.type === AST_NODE_TYPES.Identifier || p.type === AST_NODE_TYPES.AssignmentPattern) &&
      functionCannotThrow(fn, sourceCode);
  } finally {
    judging.delete(fn);
  }
}

const TIMER_SETTERS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const TIMER_CLEARERS: ReadonlySet<string> = new Set(['clearTimeout', 'clearInterval', 'clearImmediate']);

/**
 * The host's timers, not shadowed: `clearTimeout(anything)` returns quietly, and `setTimeout(fn, ms)`
 * throws only when `fn` is not a function, so it counts only with an inline function.
 */
function isTimerCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || findVariable(sourceCode, callee)?.defs.length) return false;
  if (TIMER_CLEARERS.has(callee.name)) return true;
  return TIMER_SETTERS.has(callee.name) && call.arguments[0] !== undefined && isFunctionNode(call.arguments[0]);
}


/** `.catch(h)` or `.then(ok, h)`: the call attaches a rejection handler. */
export function handlesRejection(call: TSESTree.CallExpression): boolean {
  const name = call.callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(call.callee) : null;
  return (name === 'catch' && call.arguments.length >= 1) || (name === 'then' && call.arguments.length >= 2);
}

/**
 * A function that returns without throwing: an expression body that cannot throw, or a block
 * whose every statement is guarded or cannot throw. An async function counts when it cannot
 * reject: its promise then settles without an error either way.
 */
export function functionCannotThrow(fn: FunctionNode, sourceCode: Services): boolean {
  if (fn.generator) return false;
  const body = fn.body;
  if (!body) return false;
  if (body.type !== AST_NODE_TYPES.BlockStatement) {
    return cannotThrow(body, sourceCode) || isConsoleCall(body, sourceCode) || (fn.async && isRejectionGuarded(fn, sourceCode));
  }
  return body.body.every((s) => isGuardedStatement(s, sourceCode));
}

/**
 * A chain callback that cannot throw: an inline function as above, a function of this file or of
 * one of the project's modules that cannot throw, or no callback at all (`undefined`, `null`).
 */
export function callbackCannotThrow(sourceCode: Services, callback: TSESTree.Node): boolean {
  const expr = skipTransparent(callback);
  if (isNoCallback(expr)) return true;
  if (isFunctionNode(expr)) return functionCannotThrow(expr, sourceCode);
  if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.MemberExpression) return false;
  const local = resolveCalleeFunction(sourceCode, expr);
  if (local) return functionCannotThrow(local, sourceCode);
  const imported = importsProjectModules(sourceCode) ? importedFunction(sourceCode, expr) : null;
  return imported !== null && functionCannotThrow(imported.fn, imported.sourceCode);
}

/** `undefined` or `null` in a callback's place: no callback. */
function isNoCallback(node: TSESTree.Node): boolean {
  return isNullOrUndefined(node);
}

const CHAIN_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

/**
 * A `.then/.catch/.finally` chain that cannot end in a rejection: every callback from the end back
 * to the first rejection handler cannot throw, and, when no handler is reached, the promise the
 * chain starts from cannot reject (`rootCannotReject`). `Promise.allSettled(jobs).finally(done)`
 * and `Promise.allSettled(jobs).then(log)` with a `log` that cannot throw are such chains.
 * `callbackSettles` says which callbacks cannot throw (`callbackCannotThrow` unless told).
 */
export function chainCannotReject(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  rootCannotReject: (root: TSESTree.Node) => boolean,
  callbackSettles: (callback: TSESTree.Node) => boolean = (callback) => callbackCannotThrow(sourceCode, callback),
): boolean {
  let expr: TSESTree.Node = call;
  for (let depth = 0; depth < 16; depth++) {
    if (expr.type !== AST_NODE_TYPES.CallExpression || expr.callee.type !== AST_NODE_TYPES.MemberExpression) break;
    const method = staticPropertyName(expr.callee);
    if (method === null || !CHAIN_METHODS.has(method)) break;
    const callbacks = method === 'catch' || method === 'finally' ? expr.arguments.slice(0, 1) : expr.arguments.slice(0, 2);
    if (!callbacks.every((c) => c.type !== AST_NODE_TYPES.SpreadElement && callbackSettles(c))) return false;
    // A rejection handler that cannot throw settles everything before it.
    const handler = method === 'catch' ? expr.arguments[0] : method === 'then' ? expr.arguments[1] : undefined;
    if (handler && !isNoCallback(handler)) return true;
    expr = skipTransparent(expr.callee.object);
  }
  return rootCannotReject(expr);
}

/**
 * `new Promise(async (resolve, reject) => { const done = …; try { await … } catch (e) { reject(e); } })`
 * (vscode-jsonrpc's request sender): declarations that cannot throw, then one `try/catch`, so no
 * error escapes into the executor's own promise.
 */
export function isExecutorGuarded(fn: TSESTree.FunctionLike): boolean {
  const body = fn.body;
  if (body?.type !== AST_NODE_TYPES.BlockStatement) return false;
  const last = body.body[body.body.length - 1];
  if (last?.type !== AST_NODE_TYPES.TryStatement || !last.handler) return false;
  return body.body.slice(0, -1).every((s) => isThrowFreeDeclaration(s));
}
