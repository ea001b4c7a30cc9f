import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, shortSource, skipTransparent, staticPropertyName } from './ast';
import { isAwaitingEmitter } from './emitters';
import { resolveReference } from './imports';
import { isEntryStart } from './phase';
import { jobRegistration } from './jobSchedulers';
import { implementationMethods, libraryCallbackRegistration } from './libraryCallbacks';
import type { CallPattern } from './promises';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Where no-orphaned-promise looks for promises nobody takes: calls that store a callback and
 * drop what it returns (listeners, timers, `process.nextTick`), and the entry script's own start.
 */

/** Calls whose promises are conventionally left alone: node:test registers and awaits them itself. */
export const DEFAULT_ALLOWED_CALLS: readonly CallPattern[] = [
  { module: 'node:test', export: 'default' },
  { module: 'node:test', export: 'test' },
  { module: 'node:test', export: 'describe' },
  { module: 'node:test', export: 'it' },
  { module: 'node:test', export: 'suite' },
];

/** Registrations whose async callbacks the library awaits and routes errors from. */
export const DEFAULT_ALLOWED_CALLBACKS: readonly CallPattern[] = [
  // Hono: `app.on(method, path, handler)` registers a route; rejections go to `app.onError`.
  { module: 'hono', method: 'on' },
  // Telegraf and grammY: `bot.on(filter, handler)` is middleware; rejections go to `bot.catch`.
  { module: 'telegraf', method: 'on' },
  { module: 'grammy', method: 'on' },
];

const LISTENER_METHODS: ReadonlySet<string> = new Set([
  'on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'addEventListener',
]);
const TIMERS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

export interface CallbackRegistration {
  /** How the registration reads in messages: `socket.on`, `setTimeout`, `.on()` when the receiver is long. */
  name: string;
  /** The first argument that may be a callback whose promise is dropped. */
  callbackIndex: number;
  /** A callback passed by name may be a function imported from a project module (job schedulers). */
  followsImports?: true;
  /** The argument at `callbackIndex` is an object whose methods are the callbacks (a gRPC service implementation). */
  implementation?: true;
}

/**
 * `emitter.on(event, cb)`, `setTimeout(cb)`, `process.nextTick(cb)`, a job scheduler that drops
 * the job's promise (see `jobRegistration`), a library API that does the same (see
 * `libraryCallbackRegistration`): a call that runs `cb` later and throws away its promise. Null for anything else, and for a listener on an emitter whose
 * `emit` awaits its listeners (see `isAwaitingEmitter`).
 */
export function callbackRegistration(sourceCode: Services, call: TSESTree.CallExpression): CallbackRegistration | null {
  const callee = skipTransparent(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  if (callee.type === AST_NODE_TYPES.MemberExpression && method !== null && LISTENER_METHODS.has(method)) {
    if (isAwaitingEmitter(sourceCode, callee.object)) return null;
    return { name: shortSource(sourceCode, callee) ?? `.${method}()`, callbackIndex: 1 };
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && method === 'nextTick') {
    const obj = skipTransparent(callee.object);
    return obj.type === AST_NODE_TYPES.Identifier && obj.name === 'process' && isGlobal(sourceCode, obj)
      ? { name: 'process.nextTick', callbackIndex: 0 }
      : null;
  }
  const job = jobRegistration(sourceCode, call) ?? libraryCallbackRegistration(sourceCode, call);
  if (job) return job;
  if (callee.type === AST_NODE_TYPES.Identifier && TIMERS.has(callee.name)) {
    const ref = resolveReference(sourceCode, callee);
    const isTimer = isGlobal(sourceCode, callee) || (ref?.module === 'timers' && ref.path.length === 1);
    return isTimer ? { name: callee.name, callbackIndex: 0 } : null;
  }
  return null;
}

/** The values `registration` runs as callbacks: the arguments from its index on, or the methods of the implementation it is handed. */
export function registeredCallbacks(sourceCode: Services, call: TSESTree.CallExpression, registration: CallbackRegistration): TSESTree.Node[] {
  const from = call.arguments.slice(registration.callbackIndex);
  if (!registration.implementation) return from;
  const object = from[0];
  return object ? implementationMethods(sourceCode, object) : [];
}

/** An entry script's `main()` (maybe followed by `.then`/`.finally`) at top level: Node prints the rejection and exits non-zero. */
export function startsEntryChain(sourceCode: Services, expr: TSESTree.Node): boolean {
  let root = skipTransparent(expr);
  while (root.type === AST_NODE_TYPES.CallExpression && root.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['then', 'finally'].includes(staticPropertyName(root.callee) ?? '')) {
    root = skipTransparent(root.callee.object);
  }
  return root.type === AST_NODE_TYPES.CallExpression && isEntryStart(sourceCode, root);
}

/** `new Promise(async (resolve) => …)` on the global `Promise`: its async executor, or null. */
export function asyncPromiseExecutor(sourceCode: Services, expr: TSESTree.Node): TSESTree.Node | null {
  const executor = promiseExecutor(sourceCode, expr);
  return executor?.async ? executor : null;
}

/** `new Promise((resolve) => …)` on the global `Promise`: its executor function, whose return value the constructor ignores. */
export function promiseExecutor(sourceCode: Services, expr: TSESTree.Node): FunctionNode | null {
  if (expr.type !== AST_NODE_TYPES.NewExpression) return null;
  const callee = skipTransparent(expr.callee);
  const executor = expr.arguments[0];
  return callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Promise' && isGlobal(sourceCode, callee) && isFunctionNode(executor)
    ? executor
    : null;
}

function isGlobal(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return !variable || variable.defs.length === 0;
}
