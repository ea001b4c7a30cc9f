/**
 * Library calls that store a callback, run it later and drop the promise it returns, told by
 * what the receiver is (a framework's server object, a construction from the package), never by
 * a variable's name. Each row was read from the package's docs or source:
 * - `listen(…, cb)` on Node's server, an Express or Koa app, a fastify instance: Node adds `cb` as
 *   a `listening` listener, and Express and Koa hand it to `server.listen`; fastify's docs call
 *   it "the same as the Node core" callback (a promise is returned only without one), and it is
 *   called once the server is up, after the plugins have loaded;
 * - @grpc/grpc-js `server.addService(service, implementation)`: the server calls each method of
 *   the implementation as `handler.func(call, callback)` (`handleUnary`, `handleServerStreaming`
 *   in its `server.ts`) and never reads what it returns: only `callback`, or the stream, answers
 *   the call, so a rejection is unhandled and the client waits until its deadline;
 * - async (caolan) 3 queues (`queue`, `priorityQueue`, `cargo`, `cargoQueue`): `q.drain(fn)`,
 *   `empty`, `saturated`, `unsaturated` and `error` store `fn` as the event's handler and call it
 *   with the event's arguments, dropping what it returns (the worker's promise is awaited; before
 *   3 the handlers were properties, assigned rather than called).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { constInit, isFunctionNode, shortSource, skipTransparent, staticPropertyName } from './ast';
import { getConstruction } from './construction';
import { listeningServer } from './handlers';
import { refMatches } from './imports';
import { sourceFileOf } from './localModules';
import { dependencyVersion } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

export interface LibraryCallbackRegistration {
  /** How the registration reads in messages: the callee, `server.listen`. */
  name: string;
  /** The argument that is the callback, or the object whose methods are (`implementation`). */
  callbackIndex: number;
  /** The argument is an object whose methods are the callbacks: a gRPC service implementation. */
  implementation?: true;
}

const QUEUE_EVENTS: ReadonlySet<string> = new Set(['drain', 'empty', 'saturated', 'unsaturated', 'error']);
const QUEUE_FACTORIES: readonly string[] = ['queue', 'priorityQueue', 'cargo', 'cargoQueue'];

/** The registration when `call` hands a callback to one of the APIs above, else null. */
export function libraryCallbackRegistration(sourceCode: Services, call: TSESTree.CallExpression): LibraryCallbackRegistration | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  const last = call.arguments.length - 1;
  const lastArg = call.arguments[last];
  if (method === 'listen') {
    if (!lastArg || !(isFunctionNode(lastArg) || lastArg.type === AST_NODE_TYPES.Identifier)) return null;
    return listeningServer(sourceCode, callee.object) ? { name: calleeText(sourceCode, callee), callbackIndex: last } : null;
  }
  if (method === 'addService') {
    if (call.arguments.length !== 2 || !implementationObject(sourceCode, call.arguments[1] as TSESTree.Node)) return null;
    const ref = getConstruction(sourceCode, callee.object)?.ref ?? null;
    return refMatches(ref, '@grpc/grpc-js', 'Server') ? { name: calleeText(sourceCode, callee), callbackIndex: 1, implementation: true } : null;
  }
  if (method !== null && QUEUE_EVENTS.has(method) && call.arguments.length === 1 && lastArg &&
    (isFunctionNode(lastArg) || lastArg.type === AST_NODE_TYPES.Identifier)) {
    const ref = getConstruction(sourceCode, callee.object)?.ref ?? null;
    const fromAsync = QUEUE_FACTORIES.some((f) => refMatches(ref, 'async', f) || refMatches(ref, `async/${f}`));
    return fromAsync && asyncMajor(sourceCode) >= 3 ? { name: calleeText(sourceCode, callee), callbackIndex: 0 } : null;
  }
  return null;
}

/**
 * The callbacks of a service implementation: the values of an object literal's properties and
 * methods, written in place or held by a `const` of this file. Spreads and computed keys are skipped.
 */
export function implementationMethods(sourceCode: Services, node: TSESTree.Node): TSESTree.Node[] {
  const object = implementationObject(sourceCode, node);
  if (!object) return [];
  const values: TSESTree.Node[] = [];
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && !property.computed && property.kind === 'init') values.push(property.value);
  }
  return values;
}

function implementationObject(sourceCode: Services, node: TSESTree.Node): TSESTree.ObjectExpression | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.ObjectExpression) return expr;
  const init = expr.type === AST_NODE_TYPES.Identifier ? constInit(sourceCode, expr) : null;
  const value = init ? skipTransparent(init) : null;
  return value?.type === AST_NODE_TYPES.ObjectExpression ? value : null;
}

function asyncMajor(sourceCode: Services): number {
  const file = sourceFileOf(sourceCode);
  return (file ? dependencyVersion(file, 'async').major : null) ?? -1;
}

function calleeText(sourceCode: Services, callee: TSESTree.Node): string {
  return shortSource(sourceCode, callee) ?? 'the library';
}
