import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FrameworkVerdict, FunctionNode } from '../analysis';
import {
  asyncBodyRejection, catchCallsUndeclared, handlerPromiseVerdict, importedHandlerVerdict, namedHandlerVerdict, packageWrapsHandlers, unguardedRequestRead, usageHandlerVerdict, isFunctionNode, isRejectionGuarded, mayRegisterHandlers,
} from '../analysis';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import { evidenceAt, recordEvidence } from './evidence';

export interface FrameworkHandlerChecks {
  /**
   * Async callbacks a server framework runs, judged by what that framework (at the version the
   * file runs against) does with their promise. Returns the arguments settled here: reported,
   * or looked after by the framework (hono's `app.on(…)` is a route, not an event listener).
   */
  checkCallbacks(call: TSESTree.CallExpression): ReadonlySet<TSESTree.Node>;
  /**
   * A named async function registered with a framework by name: in this file
   * (`app.get('/', handler)`), or, exported, by a file importing it (`router.get('/x', one)`).
   */
  checkNamed(fn: FunctionNode): void;
}

/**
 * The `frameworkIgnoresPromise` reports of no-orphaned-promise: one message, reached from a
 * handler written at its registration or from one registered by name, here or by an importer.
 */
export function frameworkHandlerChecks(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  strict: boolean,
  failureIsSeen: (node: TSESTree.Node) => boolean,
): FrameworkHandlerChecks {
  const sourceCode = context.sourceCode;
  const handlersPossible = mayRegisterHandlers(sourceCode, context.filename);

  /**
   * Can a handler's promise reject: an error outside any `try` that keeps it (at run time, for
   * `recommended`: an `await` or `throw`, or in Express a read into a request field the client may
   * leave out), or a catch block that calls a name declared nowhere and so throws itself.
   */
  const handlerRejects = (fn: FunctionNode, verdict: FrameworkVerdict): boolean => catchCallsUndeclared(sourceCode, fn) !== null ||
    (!isRejectionGuarded(fn) && (strict || asyncBodyRejection(sourceCode, fn) !== null ||
      (verdict.framework === 'express' && !validatedFirst(verdict) && unguardedRequestRead(sourceCode, fn) !== null)));

  const usageUnlessWrapped = (fn: FunctionNode): FrameworkVerdict | null => {
    const verdict = usageHandlerVerdict(sourceCode, context.filename, fn);
    return verdict && (strict || !packageWrapsHandlers(context.filename)) ? verdict : null;
  };

  const report = (fn: FunctionNode, verdict: FrameworkVerdict & { file?: string }): void => {
    const framework = verdict.framework === 'express' ? 'Express' : verdict.framework;
    recordEvidence(context, fn, 'frameworkIgnoresPromise', [evidenceAt(verdict.registration.node, `registered with ${framework} ${verdict.major} here`, verdict.file)]);
    const data = { framework, major: String(verdict.major), role: verdict.registration.role };
    context.report({ node: fn, messageId: 'frameworkIgnoresPromise', data });
  };

  return {
    checkCallbacks(call) {
      const settled = new Set<TSESTree.Node>();
      if (!handlersPossible) return settled;
      for (const arg of call.arguments) {
        if (!isFunctionNode(arg) || !arg.async) continue;
        const verdict = handlerPromiseVerdict(sourceCode, context.filename, arg);
        if (!verdict) continue;
        settled.add(arg);
        if (verdict.policy === 'handles' || !handlerRejects(arg, verdict) || failureIsSeen(arg)) continue;
        report(arg, verdict);
      }
      return settled;
    },
    checkNamed(fn) {
      if (!fn.async) return;
      const verdict = (handlersPossible ? namedHandlerVerdict(sourceCode, context.filename, fn) : null) ??
        importedHandlerVerdict(sourceCode, context.filename, fn) ??
        // A handler told only by usage has its router out of sight. Where the package writes its
        // own wrapper that hands rejections to `next`, the routes may wrap it: left to `strict`.
        usageUnlessWrapped(fn);
      if (!verdict || verdict.policy === 'handles' || !handlerRejects(fn, verdict) || failureIsSeen(fn)) return;
      report(fn, verdict);
    },
  };
}

/**
 * `router.post('/items', validate(schema), create)`: a registration that hands the route more than
 * one function runs middleware beside the handler, which may check the request before it. A read
 * into the body or query does not count as a rejection then; an `await` outside any `try` still does.
 */
function validatedFirst(verdict: FrameworkVerdict): boolean {
  const call = verdict.registration.node;
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  return call.arguments.filter((arg) => !isRoutePath(arg)).length > 1;
}

function isRoutePath(arg: TSESTree.Node): boolean {
  switch (arg.type) {
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.TemplateLiteral:
      return true;
    case AST_NODE_TYPES.ArrayExpression:
      // `['/a', '/b']` is a path; `[auth, validate]` is middleware.
      return arg.elements.every((element) => element !== null && isRoutePath(element));
    default:
      return false;
  }
}
