/**
 * An acquire an Express middleware stores on its request and leaves for a later middleware to
 * give back: `connect: async (req, res, next) => { req.client = await pool.connect(); next() }`,
 * released by a `close` middleware mounted after the routes. Express runs that later middleware
 * only when every handler before it calls `next()`; a route that answers with `res.json(…)`, a
 * handler that throws past the error handler, a client that hangs up, and the client stays out
 * of the pool. Releasing when the response ends (`res.on('close', …)`, `onFinished(res, …)`)
 * covers every way the request can end, and then the store is only a hand-over.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { enclosingFunction, skipTransparent, staticPropertyName, walk } from './ast';
import { handlerRegistration, importedRegistration } from './handlers';
import type { Acquisition } from './locks';

type Services = Readonly<TSESLint.SourceCode>;

export interface RequestHold {
  /** `req.client = await pool.connect()`. */
  store: TSESTree.AssignmentExpression;
  /** `req.client`, as written. */
  target: TSESTree.MemberExpression;
  /** The middleware the acquire runs in. */
  handler: FunctionNode;
  /** A release of the same request property in another function of the file (the later middleware), for evidence. */
  laterRelease: TSESTree.CallExpression | null;
}

/** What gives a pooled client or resource back when called on it. */
const RELEASES: ReadonlySet<string> = new Set(['release', 'destroy', 'end', 'close']);

/**
 * The hold, when `acquisition` is stored on a property of the request parameter of a function
 * Express runs per request (registered in the file or by a file importing it, or told by usage),
 * and that function neither releases it itself nor arranges a release on the response's end.
 * Null otherwise: a store on `this` or on a module object is a hand-over to code that owns it.
 */
export function requestHold(sourceCode: Services, filename: string, acquisition: Acquisition): RequestHold | null {
  const escape = acquisition.escape;
  const fn = acquisition.function;
  if (escape?.kind !== 'stored' || !fn || escape.node.type !== AST_NODE_TYPES.AssignmentExpression) return null;
  const target = escape.node.left;
  if (target.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(target) === null) return null;
  const request = fn.params[0];
  const root = skipTransparent(target.object);
  if (request?.type !== AST_NODE_TYPES.Identifier || root.type !== AST_NODE_TYPES.Identifier || root.name !== request.name) return null;
  const registration = handlerRegistration(sourceCode, filename, fn) ?? importedRegistration(sourceCode, fn);
  if (registration?.framework !== 'express') return null;
  if (releasedHere(sourceCode, fn, target)) return null;
  const property = staticPropertyName(target) ?? '';
  return { store: escape.node, target, handler: fn, laterRelease: releaseElsewhere(sourceCode, fn, property) };
}

/** `req.<property>.release()` in a function of the file other than `handler`, `req` that function's first parameter. */
function releaseElsewhere(sourceCode: Services, handler: FunctionNode, property: string): TSESTree.CallExpression | null {
  let found: TSESTree.CallExpression | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (found || node === handler) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !RELEASES.has(staticPropertyName(callee) ?? '')) return true;
    const held = skipTransparent(callee.object);
    if (held.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(held) !== property) return true;
    const request = skipTransparent(held.object);
    const owner = enclosingFunction(node);
    const first = owner?.params[0];
    if (request.type === AST_NODE_TYPES.Identifier && first?.type === AST_NODE_TYPES.Identifier && first.name === request.name) found = node;
    return !found;
  });
  return found;
}

/**
 * `req.client.release()` anywhere in the middleware, most often in a listener on the response's
 * end (`res.on('close', () => req.client.release())`, `onFinished(res, …)`): it gives it back.
 */
function releasedHere(sourceCode: Services, fn: FunctionNode, target: TSESTree.MemberExpression): boolean {
  const stored = sourceCode.getText(target);
  let found = false;
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(node.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && RELEASES.has(staticPropertyName(callee) ?? '') &&
      sourceCode.getText(skipTransparent(callee.object)) === stored) {
      found = true;
    }
    return !found;
  });
  return found;
}
