import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { enclosingFunction, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { ownExportFunction } from './callGraph';
import { isDevOnly } from './devOnly';
import { handlerRegistration } from './handlers';
import { importedModules } from './imports';
import { isSingletonInitializer } from './initializers';
import type { ExportCallSite } from './knownCallers';
import { isUnreachedExport, knownCallers } from './knownCallers';
import { CallerAnswers } from './callerAnswers';
import { sourceFileOf } from './localModules';
import { constructedWithCallback } from './constructorCallbacks';
import { beforeFirstAwait, firstListen, isBeforeOwnListen, isOwnFirstListen, listenCallbackCall } from './serverStart';
import { entryReach, hasMainGuard } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** NestJS runs these once, while the application starts, before it serves anything. */
const NEST_STARTUP_HOOKS: ReadonlySet<string> = new Set(['onModuleInit', 'onApplicationBootstrap']);
const PROMISE_CALLBACKS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

const entryCache = new WeakMap<FunctionNode, boolean>();

/**
 * Is `fn` run once, by the module itself, as the process starts: every use of it is a call made
 * at module top level (`main()`, `main().catch(…)`, `void bootstrap()`, an async IIFE)?
 */
export function isTopLevelEntry(sourceCode: Services, fn: FunctionNode): boolean {
  const hit = entryCache.get(fn);
  if (hit !== undefined) return hit;
  const result = computeEntry(sourceCode, fn);
  entryCache.set(fn, result);
  return result;
}

function computeEntry(sourceCode: Services, fn: FunctionNode): boolean {
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && skipTransparent(parent.callee) === fn) return atTopLevel(parent);
  // `migrate().then(() => import('./app').then((app) => app.default()))`: a promise settles once,
  // so a callback of a chain the module starts (or an entry starts) runs once, as it starts.
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(fn as TSESTree.CallExpressionArgument) &&
    parent.callee.type === AST_NODE_TYPES.MemberExpression && PROMISE_CALLBACKS.has(staticPropertyName(parent.callee) ?? '')) {
    if (atTopLevel(parent)) return true;
    const outer = runningFunction(parent);
    return outer !== null && isTopLevelEntry(sourceCode, outer);
  }
  let id: TSESTree.Identifier | null = null;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) id = fn.id;
  else if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier &&
    parent.parent.kind === 'const') {
    id = parent.id;
  }
  if (!id) return false;
  const variable = findVariable(sourceCode, id);
  if (!variable || variable.defs.length !== 1) return false;
  // Exported functions may be called by anything that imports them.
  if (isExported(variable, fn)) return false;
  const reads = variable.references.filter((r) => r.isRead());
  return reads.length > 0 && reads.every((r) => {
    const call = r.identifier.parent;
    return call?.type === AST_NODE_TYPES.CallExpression && call.callee === r.identifier && atTopLevel(call);
  });
}

function isExported(variable: TSESLint.Scope.Variable, fn: FunctionNode): boolean {
  const decl = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn : fn.parent?.parent;
  const wrapper = decl?.parent?.type;
  if (wrapper === AST_NODE_TYPES.ExportNamedDeclaration || wrapper === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  // `export { main }`, `module.exports = main`, `exports.main = main`, `module.exports = { main }`
  return variable.references.some((r) => {
    const parent = r.identifier.parent;
    return parent?.type === AST_NODE_TYPES.ExportSpecifier ||
      (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === r.identifier) ||
      (parent?.type === AST_NODE_TYPES.Property && parent.value === r.identifier);
  });
}

/** A call evaluated when the module itself runs, outside every function. */
function atTopLevel(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return false;
    if (current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) return false;
  }
  return true;
}

/**
 * Is `node`, running in `fn`, part of the process starting up rather than serving?
 * - NestJS's `onModuleInit` / `onApplicationBootstrap` in a file that imports NestJS;
 * - a top-level entry (`main()`, `bootstrap()`) before its first `.listen(…)`: after that, the
 *   server takes requests while the rest of the function runs;
 * - any function before it puts its own server up (`start()` that reads its certificates, then
 *   listens), unless a known caller runs it once another server already listens.
 */
export function isStartupPhase(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  return startupAt(sourceCode, fn, node, 0);
}

/** Callers followed across files at most this deep: `start()` in server.ts calls `createApp()` calls `loadConfig()`. */
const MAX_CALLER_DEPTH = 3;

function startupAt(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node, depth: number): boolean {
  const member = fn.parent;
  if (member?.type === AST_NODE_TYPES.MethodDefinition && !member.computed && member.key.type === AST_NODE_TYPES.Identifier &&
    NEST_STARTUP_HOOKS.has(member.key.name) && [...importedModules(sourceCode)].some((m) => m.startsWith('@nestjs/'))) {
    return true;
  }
  // `await Promise.all(modules.map(async (m) => load(m)))`: the callback starts while its caller
  // runs, so it runs in the caller's phase, at the point where the caller hands it over.
  const outer = isSynchronouslyInvoked(fn) ? enclosingFunction(fn) : null;
  if (outer) return startupAt(sourceCode, outer, fn, depth);
  if (inEndlessLoop(fn, node)) return false;
  // `server.listen(port, () => { … })`: the callback runs once, as the server it starts listens
  // (see `listenCallbackCall`), up to its first `await`; handlers and timers it registers are
  // functions of their own, and serve.
  const listen = listenCallbackCall(fn);
  if (listen) return beforeFirstAwait(sourceCode, fn, node) && listenAtStartup(sourceCode, listen, depth);
  // `new Identification((ident) => manager.init(ident))`: run by the constructor, or by a step it
  // starts once, so in the phase of the construction.
  const built = constructedWithCallback(sourceCode, fn);
  if (built) {
    const caller = runningFunction(built);
    return caller === null ? atTopLevel(built) : startupAt(sourceCode, caller, built, depth);
  }
  if (isBeforeOwnListen(sourceCode, fn, node) && noServerListensAtCalls(sourceCode, fn)) return true;
  if (mountsRoutesAfter(sourceCode, fn, node) && knownCallers(sourceCode, fn) === null &&
    handlerRegistration(sourceCode, sourceFileOf(sourceCode) ?? '', fn) === null) {
    return true;
  }
  if (!isTopLevelEntry(sourceCode, fn) && !calledOnlyAtStartup(sourceCode, fn, depth) && !setsUpSingleton(sourceCode, fn)) return false;
  return beforeListen(sourceCode, fn, node);
}

/**
 * The method that sets up its module's one instance (`isSingletonInitializer`), when its calls are
 * not all known (`db.initialize()` in the start script names the method on the instance): the
 * object serves nothing until it has run. Known calls decide for themselves.
 */
function setsUpSingleton(sourceCode: Services, fn: FunctionNode): boolean {
  return knownCallers(sourceCode, fn) === null && isSingletonInitializer(sourceCode, fn);
}

const ROUTE_METHODS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'delete', 'del', 'patch', 'options', 'head', 'all', 'use']);

/**
 * Does `fn` mount a route after `node`: a call in its own body that registers a function under a
 * path (`app.get('/locales/:locale', (req, res) => …)`, the handler written in place), whatever the
 * receiver is (a framework hook's `{ app }` is untyped)? Work before it prepares what the route
 * will serve and runs as the routes are mounted, once per start of the server, not per request.
 * Asked only of a function no known caller runs (a hook the framework calls by name): known
 * callers decide for themselves.
 */
function mountsRoutesAfter(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  let mounts = false;
  walk(fn.body, sourceCode.visitorKeys, (current) => {
    if (mounts || isFunctionNode(current)) return false;
    if (current.type === AST_NODE_TYPES.CallExpression && current.range[0] >= node.range[1] && isRouteMount(current)) mounts = true;
    return !mounts;
  });
  return mounts;
}

function isRouteMount(call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !ROUTE_METHODS.has(staticPropertyName(callee) ?? '')) return false;
  const [path, ...rest] = call.arguments;
  const text = path?.type === AST_NODE_TYPES.Literal ? path.value
    : path?.type === AST_NODE_TYPES.TemplateLiteral ? path.quasis[0]?.value.cooked : null;
  // A handler written in place: `api.get('/users', params)` is a client's request, not a route.
  return typeof text === 'string' && text.startsWith('/') && rest.some((arg) => isFunctionNode(arg));
}

/**
 * The `listen` call runs at startup: at module top level, as the first server of a function that
 * puts its own up (`export default async function () { … server.listen(port, cb) }`) and that no
 * server-running code calls, or where its function is at startup anyway.
 */
function listenAtStartup(sourceCode: Services, listen: TSESTree.CallExpression, depth: number): boolean {
  const caller = runningFunction(listen);
  if (caller === null) return atTopLevel(listen);
  if (isOwnFirstListen(sourceCode, caller, listen) && noServerListensAtCalls(sourceCode, caller)) return true;
  return startupAt(sourceCode, caller, listen.callee, depth);
}

/** `node` runs before `fn` puts a server up, or is the call that does (`await start()`: what `start` runs before its own listen comes first). */
function beforeListen(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  const listen = firstListen(sourceCode, fn);
  return listen === null || listen === node || node.range[1] <= listen.range[0];
}

/**
 * `main() { await startApi(); await startAdmin(); }`: the admin server comes up while the API
 * serves; `app.post('/reload', () => restart())` restarts it while the old one serves. Every known
 * call of `fn` is made outside a request handler and before its caller puts a server up; with no
 * caller known (`throng(start)` in another file), only `fn` itself is seen.
 */
function noServerListensAtCalls(sourceCode: Services, fn: FunctionNode): boolean {
  const sites = knownCallers(sourceCode, fn);
  return sites === null || sites.every((site) => {
    const caller = runningFunction(site.call);
    if (caller === null || caller === fn) return true;
    return beforeListen(site.sourceCode, caller, site.call) &&
      handlerRegistration(site.sourceCode, sourceFileOf(site.sourceCode) ?? '', caller) === null;
  });
}

const startupCallers = new CallerAnswers();

/**
 * A function whose every known call, in its file and in the files that import it, is made at
 * startup, from one-shot code or from code that runs only outside production: `export async
 * function start()` that server.ts calls at top level, `createConfig()` that only `start()`
 * calls, a class's `static connect()` that only such code calls. With no caller known, it is not
 * startup. The answer at a depth is the same whichever function was asked first: `fourth()`'s
 * walk reaches `second()` where the depth runs out, and that cut-off is kept apart from the
 * answer `second()` gets when its own file is linted.
 */
function calledOnlyAtStartup(sourceCode: Services, fn: FunctionNode, depth: number): boolean {
  if (depth >= MAX_CALLER_DEPTH) return false;
  return startupCallers.answer(fn, depth, () => everyCallerAtStartup(sourceCode, fn, depth));
}

function everyCallerAtStartup(sourceCode: Services, fn: FunctionNode, depth: number): boolean {
  const sites = knownCallers(sourceCode, fn);
  // Recursion runs when the outside call does; a call in the same file costs no file read, so
  // only the hops into other files count against the depth.
  const live = sites?.filter((site) => !runsNowhere(site)) ?? [];
  return sites !== null && (sites.length === 0 || live.length > 0) && live.every((site) => runningFunction(site.call) === fn ||
    siteAtStartup(site, site.sourceCode === sourceCode ? depth : depth + 1));
}

/**
 * A call made in an export nothing in its package runs (`reloadAllLocales()` kept for later, no
 * file calling it): it runs in no phase, so the other calls decide. A function called only from
 * such exports is not startup: nothing shows it running at all.
 */
function runsNowhere(site: ExportCallSite): boolean {
  const caller = runningFunction(site.call);
  return caller !== null && isUnreachedExport(site.sourceCode, caller);
}

function siteAtStartup(site: ExportCallSite, depth: number): boolean {
  const file = sourceFileOf(site.sourceCode);
  if (file !== null && entryReach(file).kind === 'one-shot') return true;
  // A development aid (`if (isDev) app.get('/_e2e/…')`) is no production caller.
  if (isDevOnly(site.sourceCode, site.call)) return true;
  const caller = runningFunction(site.call);
  if (caller === null) return atTopLevel(site.call);
  return startupAt(site.sourceCode, caller, site.call, depth);
}

/** The function whose run `node` is part of: synchronous callbacks (`.map`, an executor) run in their caller. */
function runningFunction(node: TSESTree.Node): FunctionNode | null {
  let fn = enclosingFunction(node);
  while (fn && !fn.async && isSynchronouslyInvoked(fn)) fn = enclosingFunction(fn);
  return fn;
}

/** `while (true)` / `for (;;)` in an entry is a worker's serving loop, not startup. */
function inEndlessLoop(fn: FunctionNode, node: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ForStatement && current.test === null) return true;
    if ((current.type === AST_NODE_TYPES.WhileStatement || current.type === AST_NODE_TYPES.DoWhileStatement) &&
      current.test.type === AST_NODE_TYPES.Literal && current.test.value === true) {
      return true;
    }
  }
  return false;
}

const swallowCache = new WeakMap<object, boolean>();

/**
 * Does this file install an `unhandledRejection` listener that keeps the process running (it
 * neither rethrows nor exits)? Then a dropped rejection no longer stops the process: it goes on
 * without having done its job.
 */
export function swallowsUnhandledRejections(sourceCode: Services): boolean {
  const hit = swallowCache.get(sourceCode);
  if (hit !== undefined) return hit;
  let swallows = false;
  if (sourceCode.text.includes('unhandledRejection')) {
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      if (swallows) return false;
      if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return true;
      const object = skipTransparent(node.callee.object);
      const method = staticPropertyName(node.callee);
      const [event, listener] = node.arguments;
      if (object.type !== AST_NODE_TYPES.Identifier || object.name !== 'process' || (method !== 'on' && method !== 'once')) return true;
      if (event?.type !== AST_NODE_TYPES.Literal || event.value !== 'unhandledRejection') return true;
      swallows = !isFunctionNode(listener) || !endsProcess(sourceCode, listener);
      return true;
    });
  }
  swallowCache.set(sourceCode, swallows);
  return swallows;
}

/** The listener rethrows or calls `process.exit` somewhere in its own body. */
function endsProcess(sourceCode: Services, fn: FunctionNode): boolean {
  let ends = false;
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (ends) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement) ends = true;
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression) {
      const object = skipTransparent(node.callee.object);
      const method = staticPropertyName(node.callee) ?? '';
      if (object.type === AST_NODE_TYPES.Identifier && object.name === 'process' && ['exit', 'abort', 'kill'].includes(method)) ends = true;
    }
    return !ends;
  });
  return ends;
}

/**
 * `main();`, `bootstrap().then(…)`, `void main()`, an async IIFE: a statement at module top level
 * that starts the module's own entry function. Unhandled, its rejection makes Node print the error
 * and exit non-zero, which is what an entry script wants — unless the process swallows rejections.
 */
export function isEntryStart(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  if (!atTopLevel(call) || swallowsUnhandledRejections(sourceCode)) return false;
  const callee = skipTransparent(call.callee);
  if (isFunctionNode(callee)) return callee.async;
  // `if (require.main === module) exports.start();`: a script that starts its own export when run.
  if (callee.type === AST_NODE_TYPES.MemberExpression) return hasMainGuard(sourceCode.text) && ownExportFunction(sourceCode, callee) !== null;
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, callee);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  let fn: TSESTree.Node | null | undefined = def?.type === 'FunctionName' ? def.node : undefined;
  if (def?.type === 'Variable' && def.node.init) fn = skipTransparent(def.node.init);
  // Exported or called elsewhere too, but started here only when the file runs as the entry script.
  return isFunctionNode(fn) && (isTopLevelEntry(sourceCode, fn) || hasMainGuard(sourceCode.text));
}
