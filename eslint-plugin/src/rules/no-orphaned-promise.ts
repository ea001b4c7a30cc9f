import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { CallPattern, FunctionNode, PromiseArrayOrigin, PromiseOrigin } from '../analysis';
import {
  asyncBodyRejection, asyncPromiseExecutor, callbackRegistration, callPatternListSchema, DEFAULT_ALLOWED_CALLBACKS, DEFAULT_ALLOWED_CALLS, droppedExpressions, forEachDropsRejections, forOfRewrite,
  functionCannotThrow, ignoringLoader, registeredCallbacks, isAwaitedArrayCombined, importedFunction, isDevOnlyModule, isFunctionNode, isPromiseHandled,
  isExecutorGuarded, isVariableRead, matchesAllowList, onlyTestsRun, promiseExecutor,
  namedHandlerVerdict, promiseArrayOrigin, promiseCanReject, promiseOrigin, resolveCalleeFunction, resurfacesRejection, skipTransparent, startsEntryChain, staticPropertyName, unhandledPolicy,
} from '../analysis';
import { createRule } from '../util/createRule';
import { evidenceAt, recordEvidence } from '../util/evidence';
import { frameworkHandlerChecks } from '../util/frameworkHandlerReports';
import { arrayEvidence, awaitedArraySuggestions, describeArray, describeOrigin, detachSuggestions, droppedArraySuggestions, executorCost, originEvidence, typeOracle } from '../util/promiseReports';
import { isStrict } from '../util/settings';

export type Options = [{
  allowVoid?: boolean;
  allowedCalls?: CallPattern[];
  allowedCallbacks?: CallPattern[];
}];
export { DEFAULT_ALLOWED_CALLBACKS, DEFAULT_ALLOWED_CALLS };
export type MessageId =
  | 'orphanedPromise' | 'unhandledChain' | 'unusedPromise' | 'forEachAsync' | 'asyncCallbackIgnored'
  | 'frameworkIgnoresPromise' | 'loadedListenerIgnored' | 'asyncExecutor' | 'orphanedPromiseArray' | 'voidedPromiseArray' | 'awaitedPromiseArray'
  | 'unusedPromiseArray' | 'addAwait' | 'addVoid' | 'rewriteForOf' | 'addAwaitAll' | 'addVoidAll' | 'wrapInPromiseAll';

const COLLECTORS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice']);

export default createRule<Options, MessageId>({
  name: 'no-orphaned-promise',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require every promise to be awaited, returned, handled or explicitly detached',
      recommended: true,
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      orphanedPromise:
        'The promise from {{origin}} is dropped: the caller moves on while it still runs, nobody sees its result, and a rejection becomes an unhandled rejection that stops the Node.js process by default.',
      unhandledChain:
        '`.{{method}}()` ends this chain without a rejection handler: if {{origin}} or a callback fails, the rejection is unhandled and stops the Node.js process by default.',
      unusedPromise:
        'The promise from {{origin}} is kept in `{{name}}` on line {{line}}, but nothing awaits, returns or passes it on: the work runs unsupervised and a rejection is unhandled, stopping the Node.js process by default.',
      forEachAsync:
        '`forEach` throws away the promises its async callback returns: every iteration starts at once, the code after it runs before any finishes, and a rejection is unhandled.',
      asyncCallbackIgnored:
        '`{{name}}` ignores the promise this async callback returns: a rejection inside it is unhandled and stops the Node.js process by default. Guard the whole body with `try/catch`.',
      frameworkIgnoresPromise:
        '{{framework}} {{major}} ignores the promise this async {{role}} returns: a rejection never reaches its error handling, the request gets no response, and the rejection is unhandled. Catch errors inside and pass them on (`next(error)` in Express), or guard the whole body with `try/catch`.',
      loadedListenerIgnored:
        '`{{loader}}` loads this module from its folder and registers this async function with `{{name}}`, which ignores the promise it returns: a rejection inside it is unhandled and stops the Node.js process by default. Guard the whole body with `try/catch`.',
      asyncExecutor:
        'Async `Promise` executor: an error after its first `await` rejects a promise nobody holds, and the outer promise never settles, so {{cost}}.',
      orphanedPromiseArray:
        'The promises in {{array}} are dropped with the array: the code after it runs before any of them settles, nobody sees their results, and each rejection is unhandled and stops the Node.js process by default.',
      voidedPromiseArray:
        '`void` discards the array {{array}}, not the promises in it: nobody waits for them, and each rejection is still unhandled and stops the Node.js process by default.',
      awaitedPromiseArray:
        '`await` on an array does not wait for the promises in it: {{array}} resolves at once to the array itself, the code after it runs before any of them settles, and their rejections are unhandled.',
      unusedPromiseArray:
        'The promises in {{array}} are kept in `{{name}}` on line {{line}}, but nothing awaits, returns or passes it on: the work runs unsupervised and each rejection is unhandled, stopping the Node.js process by default.',
      addAwait: 'Add `await`: the caller waits for the result and sees its errors.',
      addVoid: 'Mark as detached with `void`: only when the callee handles its own errors.',
      rewriteForOf: 'Rewrite as `for…of` with `await`: the iterations then run one after another.',
      addAwaitAll: 'Wrap in `await Promise.all(…)`: the caller waits for every promise and sees the first error.',
      addVoidAll: 'Wrap in `void Promise.all(…)`: one detached promise; only when the work handles its own errors.',
      wrapInPromiseAll: 'Wrap the array in `Promise.all(…)`: `await` then waits for every promise and sees the first error.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          allowVoid: { type: 'boolean', description: 'Accept `void promise` as an explicit, deliberate detach.' },
          allowedCalls: {
            ...callPatternListSchema,
            description: 'Calls whose promise may be dropped, added to the default list (node:test `describe`/`it`/`test`/`suite`).',
          },
          allowedCallbacks: {
            ...callPatternListSchema,
            description: 'Registrations whose async callbacks the library awaits and handles, added to the default list.',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ allowVoid: true, allowedCalls: [], allowedCallbacks: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    const allowVoid = options.allowVoid !== false;
    const allowedCalls = [...DEFAULT_ALLOWED_CALLS, ...(options.allowedCalls ?? [])];
    const allowedCallbacks = [...DEFAULT_ALLOWED_CALLBACKS, ...(options.allowedCallbacks ?? [])];
    const types = typeOracle(context);
    const strict = isStrict(context);
    let offProduction: boolean | undefined;
    /** An async callback that can reject: at run time (`recommended`), or at all (`strict`). */
    const callbackRejects = (fn: FunctionNode): boolean => strict ? !functionCannotThrow(fn, sourceCode) : asyncBodyRejection(sourceCode, fn) !== null;
    /**
     * Every process that runs this file logs unhandled rejections and keeps serving, only a dev
     * process runs it, or only the tests run `node`: its failure is then seen, and `recommended`
     * leaves it to `strict` (a route that never answers too). Not a promise that never settles.
     */
    const failureIsSeen = (node: TSESTree.Node): boolean => !strict &&
      ((offProduction ??= unhandledPolicy(context.filename).kind === 'logs' || isDevOnlyModule(sourceCode, context.filename)) ||
        onlyTestsRun(sourceCode, context.filename, node));
    const frameworkHandlers = frameworkHandlerChecks(context, strict, failureIsSeen);

    /** The origin of a promise that needs looking after, or null (not a promise, handled chain, allowed call). */
    const needsHandling = (node: TSESTree.Node): PromiseOrigin | null => {
      const origin = promiseOrigin(sourceCode, node, types);
      // A handled chain, an async function (here or imported) whose body is guarded by `try/catch`,
      // `Promise.allSettled(…).finally(…)`: nothing can reject. The same guard clears a listener.
      // `recommended` asks whether it rejects at run time: an `await` or `throw` outside any try,
      // and leaves `Promise.resolve(v).then(() => {})`, written to let a rejection surface.
      if (!origin || !promiseCanReject(sourceCode, node, origin, !strict) || (!strict && resurfacesRejection(sourceCode, node))) return null;
      const expr = skipTransparent(node);
      if (expr.type === AST_NODE_TYPES.CallExpression && matchesAllowList(sourceCode, expr, allowedCalls)) return null;
      return origin;
    };

    const reportDropped = (node: TSESTree.Node, origin: PromiseOrigin): void => {
      if (failureIsSeen(node)) return;
      const messageId = origin.kind === 'chain' ? 'unhandledChain' : 'orphanedPromise';
      const data = { origin: describeOrigin(sourceCode, context.filename, node, origin), method: origin.kind === 'chain' ? origin.method : '' };
      recordEvidence(context, node, messageId, originEvidence(origin));
      context.report({ node, messageId, data, suggest: detachSuggestions(sourceCode, node, allowVoid) });
    };

    const arrayOrigin = (node: TSESTree.Node): PromiseArrayOrigin | null =>
      promiseArrayOrigin(sourceCode, node, (element) => needsHandling(element) !== null, types);

    /** `items.map(async …);`, `[a(), b()];`, `void items.map(…)`: `node` is what the statement drops, `array` the array in it. */
    const reportDroppedArray = (node: TSESTree.Node, array: TSESTree.Node, messageId: 'orphanedPromiseArray' | 'voidedPromiseArray'): boolean => {
      const origin = arrayOrigin(array);
      if (!origin) return false;
      if (failureIsSeen(node)) return true;
      recordEvidence(context, node, messageId, arrayEvidence(origin));
      context.report({ node, messageId, data: { array: describeArray(sourceCode, array, origin) }, suggest: droppedArraySuggestions(sourceCode, node, array, origin, allowVoid) });
      return true;
    };

    const checkAwait = (node: TSESTree.AwaitExpression): void => {
      const origin = arrayOrigin(node.argument);
      if (!origin || isAwaitedArrayCombined(sourceCode, node)) return;
      recordEvidence(context, node, 'awaitedPromiseArray', arrayEvidence(origin));
      const data = { array: describeArray(sourceCode, node.argument, origin) };
      context.report({ node, messageId: 'awaitedPromiseArray', data, suggest: awaitedArraySuggestions(sourceCode, node, origin) });
    };

    const reportUnusedArray = (id: TSESTree.Identifier, init: TSESTree.Node): void => {
      const origin = arrayOrigin(init);
      if (!origin || isVariableRead(sourceCode, id) || failureIsSeen(id)) return;
      recordEvidence(context, id, 'unusedPromiseArray', [evidenceAt(init, 'promises created here'), ...arrayEvidence(origin)]);
      const data = { name: id.name, array: describeArray(sourceCode, init, origin), line: init.loc.start.line };
      context.report({ node: id, messageId: 'unusedPromiseArray', data });
    };

    const reportUnused = (id: TSESTree.Identifier, init: TSESTree.Node): void => {
      // Most variables are read: that settles it before any question about the promise.
      if (isVariableRead(sourceCode, id)) return;
      const origin = needsHandling(init);
      if (!origin) {
        reportUnusedArray(id, init);
        return;
      }
      if (failureIsSeen(id)) return;
      recordEvidence(context, id, 'unusedPromise', [evidenceAt(init, 'promise created here'), ...originEvidence(origin)]);
      const data = { name: id.name, origin: describeOrigin(sourceCode, context.filename, init, origin), line: init.loc.start.line };
      context.report({ node: id, messageId: 'unusedPromise', data });
    };

    const checkStatement = (statement: TSESTree.ExpressionStatement): void => {
      if (typeof statement.directive === 'string') return; // oxlint sets `directive: null` on plain statements
      // `void` detaches one promise; on an array it only discards the array.
      const top = skipTransparent(statement.expression);
      if (top.type === AST_NODE_TYPES.UnaryExpression && top.operator === 'void' &&
        reportDroppedArray(top, top.argument, 'voidedPromiseArray')) return;
      for (const node of droppedExpressions(statement.expression, allowVoid)) {
        const expr = skipTransparent(node);
        // An entry script's `main()` at top level: Node prints the rejection and exits non-zero.
        if (!strict && startsEntryChain(sourceCode, expr)) continue;
        const origin = needsHandling(node);
        // `new Promise(async …)` gets the more specific executor report instead.
        if (origin && !(origin.kind === 'constructor' && asyncPromiseExecutor(sourceCode, expr))) {
          reportDropped(node, origin);
        } else if (!origin && !reportDroppedArray(node, node, 'orphanedPromiseArray') && expr.type === AST_NODE_TYPES.CallExpression) {
          checkCollected(expr);
        }
      }
    };

    /** `pending.push(work())` into a local array that nothing ever reads. */
    const checkCollected = (call: TSESTree.CallExpression): void => {
      const callee = skipTransparent(call.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier) return;
      if (!COLLECTORS.has(staticPropertyName(callee) ?? '')) return;
      for (const arg of call.arguments) {
        if (arg.type === AST_NODE_TYPES.SpreadElement || isPromiseHandled(sourceCode, arg, allowVoid)) continue;
        const origin = needsHandling(arg);
        if (!origin || failureIsSeen(arg)) continue;
        recordEvidence(context, arg, 'unusedPromise', originEvidence(origin));
        const data = { name: callee.object.name, origin: describeOrigin(sourceCode, context.filename, arg, origin), line: arg.loc.start.line };
        context.report({ node: arg, messageId: 'unusedPromise', data });
      }
    };

    const checkCallback = (call: TSESTree.CallExpression | TSESTree.NewExpression): void => {
      const callee = skipTransparent(call.callee);
      if (call.type === AST_NODE_TYPES.NewExpression) {
        const plain = promiseExecutor(sourceCode, call);
        // `new Promise((resolve) => page.exposeFunction(…))`: the constructor ignores what the executor returns.
        if (plain && !plain.async) checkReturnedToRegistration(null, plain);
        const executor = asyncPromiseExecutor(sourceCode, call);
        // `recommended`: only an executor with an `await` or `throw` whose error would be lost.
        if (isFunctionNode(executor) && !isExecutorGuarded(executor) && callbackRejects(executor)) {
          context.report({ node: executor, messageId: 'asyncExecutor', data: { cost: executorCost(context, executor) } });
        }
        return;
      }
      const name = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
      const settled = frameworkHandlers.checkCallbacks(call);
      if (name === 'forEach') {
        checkForEach(call);
        return;
      }
      const registration = callbackRegistration(sourceCode, call);
      if (!registration) return;
      for (const arg of registeredCallbacks(sourceCode, call, registration)) {
        if (isFunctionNode(arg) && !arg.async && !settled.has(arg)) {
          checkReturnedToRegistration(call, arg);
          continue;
        }
        if (arg.type === AST_NODE_TYPES.Identifier) {
          checkRegisteredByName(call, arg, registration.name, registration.followsImports === true);
          continue;
        }
        if (!isFunctionNode(arg) || !arg.async || settled.has(arg) || !callbackRejects(arg)) continue;
        if (matchesAllowList(sourceCode, call, allowedCallbacks) || failureIsSeen(arg)) return;
        recordEvidence(context, arg, 'asyncCallbackIgnored', [evidenceAt(call, `registered with ${registration.name}`)]);
        context.report({ node: arg, messageId: 'asyncCallbackIgnored', data: { name: registration.name } });
      }
    };

    /**
     * `setTimeout(() => this.sync(), ms)`: a plain callback whose body is a promise hands it to a
     * registration that throws it away, as an async callback's would be (`call` null: a `Promise` executor).
     */
    const checkReturnedToRegistration = (call: TSESTree.CallExpression | null, fn: FunctionNode): void => {
      if (fn.body.type === AST_NODE_TYPES.BlockStatement) return;
      const origin = needsHandling(fn.body);
      if (!origin || (call && matchesAllowList(sourceCode, call, allowedCallbacks))) return;
      reportDropped(fn.body, origin);
    };

    /**
     * `queueEvents.on('failed', onFailed)`: an async function of this file handed over by name.
     * Reported at the registration, where its promise is dropped; one a server framework runs is
     * judged by that framework's policy instead (`frameworkIgnoresPromise`).
     */
    const checkRegisteredByName = (call: TSESTree.CallExpression, arg: TSESTree.Identifier, name: string, followsImports: boolean): void => {
      const fn = resolveCalleeFunction(sourceCode, arg);
      if (!fn && followsImports) return checkRegisteredImport(call, arg, name);
      if (!fn?.async || namedHandlerVerdict(sourceCode, context.filename, fn) || !callbackRejects(fn)) return;
      if (matchesAllowList(sourceCode, call, allowedCallbacks) || failureIsSeen(arg)) return;
      recordEvidence(context, arg, 'asyncCallbackIgnored', [evidenceAt(fn, 'async function declared here')]);
      context.report({ node: arg, messageId: 'asyncCallbackIgnored', data: { name } });
    };

    /** `flowQueue.process(launchFlow)` with `launchFlow` an async function of a project module. */
    const checkRegisteredImport = (call: TSESTree.CallExpression, arg: TSESTree.Identifier, name: string): void => {
      const target = importedFunction(sourceCode, arg);
      if (!target?.fn.async) return;
      const rejects = strict ? !functionCannotThrow(target.fn, target.sourceCode) : asyncBodyRejection(target.sourceCode, target.fn) !== null;
      if (!rejects || matchesAllowList(sourceCode, call, allowedCallbacks) || failureIsSeen(arg)) return;
      recordEvidence(context, arg, 'asyncCallbackIgnored', [evidenceAt(target.fn, 'async function declared here', target.file)]);
      context.report({ node: arg, messageId: 'asyncCallbackIgnored', data: { name } });
    };

    /** An exported async function that a loader of its folder registers with an API that drops its promise. */
    const checkLoaded = (fn: FunctionNode): void => {
      const listener = fn.async ? ignoringLoader(sourceCode, fn, allowedCallbacks) : null;
      if (!listener || !callbackRejects(fn) || failureIsSeen(fn)) return;
      recordEvidence(context, fn, 'loadedListenerIgnored', [evidenceAt(listener.call, `registered with ${listener.registration.name}`, listener.file)]);
      const loader = path.relative(path.dirname(context.filename), listener.file).split(path.sep).join('/');
      context.report({ node: fn, messageId: 'loadedListenerIgnored', data: { loader, name: listener.registration.name } });
    };

    const checkForEach = (call: TSESTree.CallExpression): void => {
      const callback = call.arguments[0];
      if (!isFunctionNode(callback)) return;
      // `recommended` leaves a callback that cannot reject at run time: only the order is lost.
      const returnsPromise = (strict && callback.async) || forEachDropsRejections(sourceCode, call) ||
        (callback.body.type !== AST_NODE_TYPES.BlockStatement && needsHandling(callback.body) !== null);
      if (!returnsPromise || (!strict && onlyTestsRun(sourceCode, context.filename, call))) return;
      const rewrite = forOfRewrite(sourceCode, call);
      recordEvidence(context, callback, 'forEachAsync', [evidenceAt(call, 'forEach ignores the returned promises')]);
      const suggest = rewrite ? [{ messageId: 'rewriteForOf' as const, fix: (fixer: TSESLint.RuleFixer): TSESLint.RuleFix => fixer.replaceText(rewrite.statement, rewrite.text) }] : [];
      context.report({ node: callback, messageId: 'forEachAsync', suggest });
    };

    return {
      ExpressionStatement: checkStatement,
      VariableDeclarator(node): void {
        if (node.id.type === AST_NODE_TYPES.Identifier && node.init && !node.parent.declare) reportUnused(node.id, node.init);
      },
      AssignmentExpression(node): void {
        if (node.operator === '=' && node.left.type === AST_NODE_TYPES.Identifier) reportUnused(node.left, node.right);
      },
      CallExpression: checkCallback,
      NewExpression: checkCallback,
      AwaitExpression: checkAwait,
      'ArrowFunctionExpression, FunctionExpression, FunctionDeclaration'(fn: FunctionNode): void {
        checkLoaded(fn);
        frameworkHandlers.checkNamed(fn);
      },
    };
  },
});
