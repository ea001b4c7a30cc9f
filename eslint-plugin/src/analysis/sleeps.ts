import { isBuiltin } from 'node:module';
import type { ParserServices, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type * as TS from 'typescript';
import { readText } from '../project';
import type { ModuleExport } from '../util/settings';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { getCallGraph } from './callGraph';
import { getConstruction } from './construction';
import type { ModuleRef } from './imports';
import { importedModules, refMatches, resolveReference } from './imports';
import { ModuleAnswers, lintGeneration, localExport, localImportFiles, scannedLocalImports, sourceFileOf } from './localModules';
import { importedFunction } from './moduleFunctions';
import { isTimedPageWait } from './pageWaits';
import { isDelayedRxRetry } from './rxRetries';
import { askChecker } from './typeQueries';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * `sleep`: the call waits for a timer and does nothing else.
 * `retry`: a retry helper that sleeps between attempts (p-retry, async-retry, …).
 */
export type SleepKind = 'sleep' | 'retry';

export type SleepNode = TSESTree.CallExpression | TSESTree.NewExpression;

export type LoopNode =
  | TSESTree.ForStatement
  | TSESTree.ForOfStatement
  | TSESTree.ForInStatement
  | TSESTree.WhileStatement
  | TSESTree.DoWhileStatement;

export interface SleepSite {
  /** The sleeping expression, or the call to a function (same-file or imported) whose execution sleeps. */
  node: SleepNode;
  kind: SleepKind;
  /**
   * When `node` calls a function that sleeps somewhere inside: the sleep it reaches. For a helper
   * imported from one of the project's modules, that site (and its own `via`) is in the module.
   */
  via: SleepSite | null;
  /** When `via` is set: the function `node` calls, in `via.sourceCode`. */
  callee: FunctionNode | null;
  /** A hand-written retry loop around `node` in the same function: the sleep runs after a `catch`. */
  retryLoop: LoopNode | null;
  /** The file `node` is in: the analysed file's, or a project module's. */
  sourceCode: Services;
  /**
   * When `node` is a sleep because it calls a sleep helper imported from a project module
   * (`import { sleep } from './utils'`): the timer inside that helper, for evidence.
   */
  origin: SleepSite | null;
}

/** Retry helpers that back off between attempts; the first argument is the attempt. */
export const RETRY_HELPERS: readonly { module: string; export: string }[] = [
  { module: 'p-retry', export: 'default' },
  { module: 'p-retry', export: 'pRetry' },
  { module: 'async-retry', export: 'default' },
  { module: 'exponential-backoff', export: 'backOff' },
  { module: 'promise-retry', export: 'default' },
];

/** Promise-returning sleeps exported by modules: `setTimeout` from `timers/promises`, `delay`. */
const SLEEP_EXPORTS: readonly { module: string; path: readonly string[] }[] = [
  { module: 'timers', path: ['promises', 'setTimeout'] },
  { module: 'timers', path: ['promises', 'scheduler', 'wait'] },
  { module: 'delay', path: [] },
  { module: 'delay', path: ['default'] },
  { module: 'sleep-promise', path: [] },
];

/**
 * A cheap early exit: can this file contain a sleep at all? Without types, every recognised sleep
 * names `setTimeout`, `scheduler` or a page's `waitFor…`, or comes from a sleep or retry package, or is team-declared,
 * or is a helper from one of the project's modules that (within the hops summaries follow) do one
 * of those. With types, any imported helper might be one.
 */
export function mayContainSleeps(sourceCode: Services, extraSleeps: readonly ModuleExport[], typed: boolean): boolean {
  if (typed || extraSleeps.length > 0 || textMaySleep(sourceCode.text)) return true;
  if (importsSleepPackage(importedModules(sourceCode))) return true;
  return reachesLocalSleep(sourceCode);
}

function textMaySleep(text: string): boolean {
  // `waitFor`: a browser page's `waitForTimeout(ms)` / `waitFor(ms)` (see `isTimedPageWait`).
  return text.includes('setTimeout') || text.includes('scheduler') || text.includes('waitFor');
}

function importsSleepPackage(modules: ReadonlySet<string>): boolean {
  return modules.has('delay') || modules.has('sleep-promise') || modules.has('axios-retry') || modules.has('rxjs') ||
    modules.has('rxjs/operators') || RETRY_HELPERS.some((r) => modules.has(r.module));
}

/**
 * Imported helpers are followed this many modules deep (`./jobs` → `./http` → `./retry`): real
 * code keeps its sleep one or two files away from the limiter, and each hop parses a module.
 */
export const MAX_MODULE_HOPS = 3;

const localSleepCache = new WeakMap<TSESTree.Program, boolean>();

/**
 * Does a project module this file imports (at run time, up to `MAX_MODULE_HOPS` deep) mention a
 * timer or a sleep or retry package? A text test per module: it only decides whether the rule
 * runs at all, so it reads files and scans their import specifiers without parsing them (ESLint
 * parses the linted files anyway; a second parse of each for this question doubled the cost).
 * `reachableModules` alone would miss a hand-written `new Promise((r) => setTimeout(r, ms))` in
 * `utils/`, which imports nothing.
 */
function reachesLocalSleep(sourceCode: Services): boolean {
  const hit = localSleepCache.get(sourceCode.ast);
  if (hit !== undefined) return hit;
  const from = sourceFileOf(sourceCode);
  let found = false;
  if (from) {
    const seen = new Set<string>([from]);
    let frontier = unseen(localImportFiles(sourceCode), seen);
    for (let hop = 0; hop < MAX_MODULE_HOPS && frontier.length > 0 && !found; hop++) {
      const next: string[] = [];
      for (const file of frontier) {
        const scan = moduleScan(file);
        if (scan === null) continue;
        if (scan.sleeps) {
          found = true;
          break;
        }
        if (hop + 1 < MAX_MODULE_HOPS) next.push(...unseen(scan.imports(), seen));
      }
      frontier = next;
    }
  }
  localSleepCache.set(sourceCode.ast, found);
  return found;
}

interface ModuleScan {
  /** The text names a timer or a sleep or retry package. */
  sleeps: boolean;
  /** The project files it imports, resolved on first question. */
  imports: () => readonly string[];
}

/**
 * Each module's scan, for one lint generation: every route file of a feature reaches the same
 * `utils/` and `db` modules, and read, scanned and resolved again for each, they cost more than
 * the rule they gate.
 */
const moduleScans = new Map<string, ModuleScan | null>();
let scansGeneration = -1;

function moduleScan(file: string): ModuleScan | null {
  if (scansGeneration !== lintGeneration()) {
    moduleScans.clear();
    scansGeneration = lintGeneration();
  }
  let scan = moduleScans.get(file);
  if (scan !== undefined) return scan;
  const text = readText(file);
  if (text === null) scan = null;
  else {
    let imports: readonly string[] | null = null;
    scan = { sleeps: textMaySleep(text) || SLEEP_PACKAGE_TEXT.test(text), imports: () => (imports ??= scannedLocalImports(file, text)) };
  }
  moduleScans.set(file, scan);
  return scan;
}

const SLEEP_PACKAGE_TEXT = /['"](?:delay|sleep-promise|p-retry|async-retry|exponential-backoff|promise-retry|rxjs(?:\/operators)?)['"]/;
function unseen(files: readonly string[], seen: Set<string>): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    out.push(file);
  }
  return out;
}

export interface SleepAnalysis {
  /** What a call or `new` expression is by itself, without looking into same-file callees. */
  classify(node: SleepNode): SleepKind | null;
  /** True when the body of `fn` is a sleep: its only await/return of a promise is a sleep. */
  isSleepFunction(fn: FunctionNode): boolean;
  /** Sleeps whose promise `fn` waits for while it runs: directly, in a retry loop, or in same-file callees. */
  sitesIn(fn: FunctionNode): readonly SleepSite[];
  /** Sleeps reached by `node` and waited for, like `sitesIn` but for any node inside a function. */
  sitesUnder(root: TSESTree.Node): readonly SleepSite[];
  /**
   * The function a callee expression denotes, same-file or imported from a project module
   * (`limit(fetchWithRetry)`), with the sleeps its execution waits for; null when unknown.
   */
  calleeSites(callee: TSESTree.Node): { fn: FunctionNode; sourceCode: Services; sites: readonly SleepSite[] } | null;
}

const MAX_DEPTH = 4;

/**
 * The sleep analysis for one file. `extraSleeps` are team-declared sleeps
 * (`{ module, export }` or `{ module?, method }`) from settings and options. With typed parser
 * `services`, a call to a helper declared in another file of the program is a sleep when that
 * helper's body is one.
 */
export function createSleepAnalysis(
  sourceCode: Services,
  extraSleeps: readonly ModuleExport[] = [],
  services: Partial<ParserServices> | null = null,
): SleepAnalysis {
  return buildSleepAnalysis(sourceCode, extraSleeps, services, 0);
}

/** `hop`: how many imports away from the linted file `sourceCode` is (0 for the linted file). */
function buildSleepAnalysis(
  sourceCode: Services,
  extraSleeps: readonly ModuleExport[],
  services: Partial<ParserServices> | null,
  hop: number,
): SleepAnalysis {
  const graph = getCallGraph(sourceCode);
  const typed = services?.program && services.esTreeNodeToTSNodeMap ? typedSleeps(services.program) : null;
  const classifyCache = new WeakMap<TSESTree.Node, SleepKind | null>();
  const sleepFnCache = new WeakMap<FunctionNode, boolean>();
  const sitesCache = new WeakMap<FunctionNode, readonly SleepSite[]>();
  const inProgress = new WeakSet<FunctionNode>();
  const origins = new WeakMap<SleepNode, SleepSite>();
  const site = (node: SleepNode, kind: SleepKind, retryLoop: LoopNode | null, via: SleepSite | null = null, callee: FunctionNode | null = null): SleepSite =>
    ({ node, kind, via, callee, retryLoop, sourceCode, origin: origins.get(node) ?? null });

  const classify = (node: SleepNode): SleepKind | null => {
    const hit = classifyCache.get(node);
    if (hit !== undefined) return hit;
    classifyCache.set(node, null);
    const result = classifyUncached(node, 0);
    classifyCache.set(node, result);
    return result;
  };

  const classifyUncached = (node: SleepNode, depth: number): SleepKind | null => {
    if (node.type === AST_NODE_TYPES.NewExpression) return isTimerPromise(sourceCode, node) ? 'sleep' : null;
    const ref = resolveReference(sourceCode, node.callee);
    if (ref) {
      if (isSleepRef(ref) || extraSleeps.some((s) => s.export !== undefined && s.module !== undefined && refMatches(ref, s.module, s.export))) {
        return 'sleep';
      }
      if (RETRY_HELPERS.some((r) => refMatches(ref, r.module, r.export))) return 'retry';
    }
    if (isPromisifiedTimerCall(sourceCode, node) || isTimedPageWait(sourceCode, node)) return 'sleep';
    if (isRetriedRequest(sourceCode, node) || isDelayedRxRetry(sourceCode, node)) return 'retry';
    if (matchesSleepMethod(sourceCode, node, extraSleeps)) return 'sleep';
    if (depth >= MAX_DEPTH) return null;
    const target = graph.resolveCall(node);
    if (target) return isSleepFunctionAt(target.node, depth + 1) ? 'sleep' : null;
    // `import { sleep } from './utils'`: the helper's body is read in its own module.
    const helper = importedHelperAt(sourceCode, node.callee, ref, extraSleeps, hop);
    if (helper?.analysis.isSleepFunction(helper.fn)) {
      const inner = helper.analysis.sitesIn(helper.fn)[0];
      if (inner) origins.set(node, inner);
      return 'sleep';
    }
    if (!typed || !ref) return null;
    // Imported from elsewhere: only the type checker can see the helper's body.
    const tsNode = services?.esTreeNodeToTSNodeMap?.get(node);
    if (!tsNode || !ts.isCallExpression(tsNode)) return null;
    return askChecker(() => typed.isSleepCall(tsNode, depth), false) ? 'sleep' : null;
  };

  const isSleepFunctionAt = (fn: FunctionNode, depth: number): boolean => {
    const hit = sleepFnCache.get(fn);
    if (hit !== undefined) return hit;
    sleepFnCache.set(fn, false);
    const result = sleepBody(fn, (n) => classifyUncached(n, depth) === 'sleep');
    sleepFnCache.set(fn, result);
    return result;
  };

  const sitesUnder = (root: TSESTree.Node): SleepSite[] => {
    const sites: SleepSite[] = [];
    walk(root, sourceCode.visitorKeys, (node) => {
      if (node !== root && isFunctionNode(node) && !isSynchronouslyInvoked(node)) return false;
      if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return true;
      const waited = isWaitedFor(node);
      const raced = !waited && isRacedWork(node);
      if (!waited && !raced && !isPassedToWaiter(node)) return true;
      const kind = classify(node);
      // A timer raced against the work is its deadline, not a delay anyone waits out.
      if (kind && raced) return false;
      if (kind) {
        sites.push(site(node, kind, kind === 'sleep' ? enclosingRetryLoop(node) : null));
        return false;
      }
      if (node.type === AST_NODE_TYPES.CallExpression) {
        const callee = calleeSites(node.callee);
        // A call of the function it is in (recursion) reaches nothing new.
        const recursive = callee?.sourceCode === sourceCode && contains(callee.fn, node);
        const inner = callee && !recursive ? callee.sites[0] : undefined;
        if (inner && callee) sites.push(site(node, inner.kind, null, inner, callee.fn));
      }
      return true;
    });
    return sites;
  };

  /**
   * `await promiseTimeout(openInPage(page), ms)`: a promise handed to a same-file function that
   * waits for that parameter (awaits, returns or races it) is waited for by the caller too.
   */
  const isPassedToWaiter = (node: SleepNode): boolean => {
    const call = node.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee === node) return false;
    const index = call.arguments.indexOf(node as TSESTree.CallExpressionArgument);
    if (index < 0 || (!isWaitedFor(call) && !isRacedWork(call))) return false;
    const param = graph.resolveCall(call)?.node.params[index];
    if (param?.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(sourceCode, param);
    return variable !== null && variable.references.some((r) => r.identifier !== param && (isWaitedFor(r.identifier) || isRacedWork(r.identifier)));
  };

  const calleeSites = (callee: TSESTree.Node): { fn: FunctionNode; sourceCode: Services; sites: readonly SleepSite[] } | null => {
    const target = graph.resolveCallee(callee);
    if (target) return { fn: target.node, sourceCode, sites: sitesIn(target.node) };
    const helper = importedHelperAt(sourceCode, callee, resolveReference(sourceCode, callee), extraSleeps, hop);
    return helper ? { fn: helper.fn, sourceCode: helper.sourceCode, sites: helper.analysis.sitesIn(helper.fn) } : null;
  };

  const sitesIn = (fn: FunctionNode): readonly SleepSite[] => {
    const hit = sitesCache.get(fn);
    if (hit) return hit;
    if (inProgress.has(fn)) return [];
    inProgress.add(fn);
    const result = sitesUnder(fn);
    inProgress.delete(fn);
    sitesCache.set(fn, result);
    return result;
  };

  return {
    classify,
    isSleepFunction: (fn) => isSleepFunctionAt(fn, 0),
    sitesIn,
    sitesUnder,
    calleeSites,
  };
}

/**
 * Module analyses, one per module parse, sleep settings and hop: every file that imports
 * `./utils` asks the same one. Untyped: the checker, when there is one, answers for the linted
 * file only. The hop is part of the key so that where a long chain is cut does not depend on which
 * file asked first.
 */
const moduleAnalyses = new ModuleAnswers<Services, Map<string, SleepAnalysis>>();

function moduleAnalysis(sourceCode: Services, extraSleeps: readonly ModuleExport[], hop: number): SleepAnalysis {
  let byKey = moduleAnalyses.get(sourceCode, sourceCode);
  if (!byKey) moduleAnalyses.set(sourceCode, (byKey = new Map()));
  const key = `${hop} ${JSON.stringify(extraSleeps)}`;
  let analysis = byKey.get(key);
  if (!analysis) byKey.set(key, (analysis = buildSleepAnalysis(sourceCode, extraSleeps, null, hop)));
  return analysis;
}

interface ImportedHelper {
  analysis: SleepAnalysis;
  fn: FunctionNode;
  sourceCode: Services;
}

/**
 * A function exported by one of the project's own modules, and the sleep analysis of that
 * module. Past `MAX_MODULE_HOPS` an imported helper is unknown, which also ends import cycles.
 */
function importedHelper(sourceCode: Services, ref: ModuleRef, extraSleeps: readonly ModuleExport[], hop: number): ImportedHelper | null {
  if (hop >= MAX_MODULE_HOPS || isBuiltin(ref.module)) return null;
  const found = localExport(sourceCode, ref);
  if (!found || found.rest.length > 0) return null;
  const fn = functionOf(found.value.sourceCode, found.value.node);
  return fn ? { analysis: moduleAnalysis(found.value.sourceCode, extraSleeps, hop + 1), fn, sourceCode: found.value.sourceCode } : null;
}

/**
 * The imported helper a callee names: an exported function (`import { sleep } from './utils'`), or
 * else a method that `importedFunction` finds in a project module: a static method of an exported
 * class (`Browser.pause(ms)`), a method of a local `new Client()` whose class is imported.
 */
function importedHelperAt(
  sourceCode: Services,
  callee: TSESTree.Node,
  ref: ModuleRef | null,
  extraSleeps: readonly ModuleExport[],
  hop: number,
): ImportedHelper | null {
  const helper = ref ? importedHelper(sourceCode, ref, extraSleeps, hop) : null;
  if (helper || hop >= MAX_MODULE_HOPS) return helper;
  const method = importedFunction(sourceCode, callee);
  return method ? { analysis: moduleAnalysis(method.sourceCode, extraSleeps, hop + 1), fn: method.fn, sourceCode: method.sourceCode } : null;
}

/** `function f`, `const f = async () => …`, `exports.f = function …`: the function an export names. */
function functionOf(sourceCode: Services, node: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(node);
  if (isFunctionNode(expr)) return expr;
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'FunctionName') return def.node as FunctionNode;
  if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init || def.node.parent.kind !== 'const') return null;
  const init = skipTransparent(def.node.init);
  return isFunctionNode(init) ? init : null;
}

function isSleepRef(ref: ModuleRef): boolean {
  return SLEEP_EXPORTS.some((s) => refMatches(ref, s.module, ...s.path));
}

/** `setTimeout` the global, or the callback `setTimeout` of `timers`. */
function isCallbackTimer(sourceCode: Services, callee: TSESTree.Node): boolean {
  const expr = skipTransparent(callee);
  if (expr.type === AST_NODE_TYPES.Identifier && expr.name === 'setTimeout') {
    const variable = findVariable(sourceCode, expr);
    if (!variable || variable.defs.length === 0) return true;
  }
  if (
    expr.type === AST_NODE_TYPES.MemberExpression &&
    expr.object.type === AST_NODE_TYPES.Identifier &&
    (expr.object.name === 'globalThis' || expr.object.name === 'window') &&
    staticPropertyName(expr) === 'setTimeout'
  ) {
    return true;
  }
  return refMatches(resolveReference(sourceCode, expr), 'timers', 'setTimeout');
}

/**
 * `new Promise(r => setTimeout(r, ms))`, `new Promise((resolve) => { setTimeout(resolve, ms); })`
 * and `setTimeout(() => resolve(), ms)`: a promise whose executor does nothing but start a timer
 * that resolves it.
 */
function isTimerPromise(sourceCode: Services, node: TSESTree.NewExpression): boolean {
  const callee = skipTransparent(node.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || callee.name !== 'Promise') return false;
  const executor = node.arguments[0];
  if (!executor || !isFunctionNode(executor)) return false;
  const resolve = executor.params[0];
  if (resolve?.type !== AST_NODE_TYPES.Identifier) return false;
  let timer: TSESTree.Node | null = null;
  if (executor.body.type === AST_NODE_TYPES.BlockStatement) {
    const statements = executor.body.body;
    if (statements.length !== 1) return false;
    const only = statements[0] as TSESTree.Statement;
    if (only.type === AST_NODE_TYPES.ExpressionStatement) timer = only.expression;
    else if (only.type === AST_NODE_TYPES.ReturnStatement) timer = only.argument;
  } else {
    timer = executor.body;
  }
  if (!timer) return false;
  timer = skipTransparent(timer);
  if (timer.type !== AST_NODE_TYPES.CallExpression || !isCallbackTimer(sourceCode, timer.callee)) return false;
  const first = timer.arguments[0];
  return first !== undefined && callsOnly(first, resolve.name);
}

/** `resolve` itself, or a function whose body only calls `resolve(...)`. */
function callsOnly(node: TSESTree.Node, name: string): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) return expr.name === name;
  if (!isFunctionNode(expr)) return false;
  let body: TSESTree.Node | null | undefined = expr.body;
  if (body.type === AST_NODE_TYPES.BlockStatement) {
    const only = body.body.length === 1 ? body.body[0] : undefined;
    body = only?.type === AST_NODE_TYPES.ExpressionStatement ? only.expression : null;
  }
  if (!body) return false;
  const call = skipTransparent(body);
  return call.type === AST_NODE_TYPES.CallExpression && skipTransparent(call.callee).type === AST_NODE_TYPES.Identifier &&
    (skipTransparent(call.callee) as TSESTree.Identifier).name === name;
}

/** `util.promisify(setTimeout)` called directly or through a `const`. */
function isPromisifiedTimerCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  let callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, callee);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init || def.node.parent.kind !== 'const') return false;
    callee = skipTransparent(def.node.init);
  }
  if (callee.type !== AST_NODE_TYPES.CallExpression) return false;
  const arg = callee.arguments[0];
  return (
    refMatches(resolveReference(sourceCode, callee.callee), 'util', 'promisify') &&
    arg !== undefined &&
    isCallbackTimer(sourceCode, arg)
  );
}

const AXIOS_METHODS: ReadonlySet<string> = new Set(['request', 'get', 'delete', 'head', 'options', 'post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);

const retriedClients = new WeakMap<TSESTree.Program, ReadonlySet<TSESLint.Scope.Variable>>();

/**
 * `axiosRetry(client, { retryDelay: … })` in this file: the variables whose requests retry with a
 * delay between attempts. axios-retry's default delay is none, so only a stated `retryDelay`
 * (or options that may hold one) makes each request a backoff.
 */
function retriedAxiosClients(sourceCode: Services): ReadonlySet<TSESLint.Scope.Variable> {
  const hit = retriedClients.get(sourceCode.ast);
  if (hit) return hit;
  const found = new Set<TSESLint.Scope.Variable>();
  if (importedModules(sourceCode).has('axios-retry')) {
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return true;
      const ref = resolveReference(sourceCode, node.callee);
      if (!refMatches(ref, 'axios-retry') && !refMatches(ref, 'axios-retry', 'axiosRetry')) return true;
      const [client, options] = node.arguments;
      if (client?.type !== AST_NODE_TYPES.Identifier || !options || !delaysRetries(options)) return true;
      const variable = findVariable(sourceCode, client);
      if (variable) found.add(variable);
      return true;
    });
  }
  retriedClients.set(sourceCode.ast, found);
  return found;
}

function delaysRetries(options: TSESTree.Node): boolean {
  const expr = skipTransparent(options);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return true;
  if (expr.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return true;
  const retries = expr.properties.find((p): p is TSESTree.Property => p.type === AST_NODE_TYPES.Property && !p.computed &&
    p.key.type === AST_NODE_TYPES.Identifier && p.key.name === 'retries');
  if (retries?.value.type === AST_NODE_TYPES.Literal && retries.value.value === 0) return false;
  return expr.properties.some((p) => p.type === AST_NODE_TYPES.Property && !p.computed &&
    p.key.type === AST_NODE_TYPES.Identifier && p.key.name === 'retryDelay');
}

/** `client.get(url)` or `client(config)` on an axios client this file installs axios-retry on. */
function isRetriedRequest(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  let client: TSESTree.Node = callee;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    if (!AXIOS_METHODS.has(staticPropertyName(callee) ?? '')) return false;
    client = skipTransparent(callee.object);
  }
  if (client.type !== AST_NODE_TYPES.Identifier) return false;
  const clients = retriedAxiosClients(sourceCode);
  if (clients.size === 0) return false;
  const variable = findVariable(sourceCode, client);
  return variable !== null && clients.has(variable);
}

/** A team-declared sleep method: `{ module?, method }` on an object constructed from `module`. */
function matchesSleepMethod(sourceCode: Services, call: TSESTree.CallExpression, extra: readonly ModuleExport[]): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = staticPropertyName(callee);
  if (name === null) return false;
  return extra.some((s) => {
    if (s.method !== name) return false;
    if (s.module === undefined) return true;
    const ref = getConstruction(sourceCode, callee.object)?.ref ?? resolveReference(sourceCode, callee.object);
    return ref !== null && ref !== undefined && ref.module === s.module;
  });
}

/**
 * A body is a sleep when it returns or awaits a sleep and awaits nothing else: `(ms) => sleep(ms)`,
 * `async function backoff(n) { await setTimeout(2 ** n * 100); }`. A poller that awaits an API
 * call between sleeps is real work, not a sleep.
 */
function sleepBody(fn: FunctionNode, isSleep: (n: SleepNode) => boolean): boolean {
  if (fn.generator) return false;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) {
    return isSleepExpression(fn.body, isSleep);
  }
  let sleeps = 0;
  let other = false;
  for (const statement of fn.body.body) {
    let expr: TSESTree.Node | null | undefined = null;
    if (statement.type === AST_NODE_TYPES.ReturnStatement) expr = statement.argument;
    else if (statement.type === AST_NODE_TYPES.ExpressionStatement) expr = statement.expression;
    if (expr && isSleepExpression(expr, isSleep)) {
      sleeps++;
      continue;
    }
    if (statement.type === AST_NODE_TYPES.ReturnStatement || containsAwait(statement)) other = true;
  }
  return sleeps > 0 && !other;
}

function isSleepExpression(node: TSESTree.Node, isSleep: (n: SleepNode) => boolean): boolean {
  let expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.AwaitExpression) expr = skipTransparent(expr.argument);
  return (expr.type === AST_NODE_TYPES.CallExpression || expr.type === AST_NODE_TYPES.NewExpression) && isSleep(expr);
}

function containsAwait(node: TSESTree.Node): boolean {
  let found = false;
  const visit = (n: TSESTree.Node): void => {
    if (found) return;
    if (n.type === AST_NODE_TYPES.AwaitExpression || n.type === AST_NODE_TYPES.YieldExpression) {
      found = true;
      return;
    }
    if (isFunctionNode(n)) return;
    for (const key of Object.keys(n)) {
      if (key === 'parent') continue;
      const child = (n as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof (c as TSESTree.Node).type === 'string') visit(c as TSESTree.Node);
      } else if (child && typeof (child as TSESTree.Node).type === 'string') {
        visit(child as TSESTree.Node);
      }
    }
  };
  visit(node);
  return found;
}

const PROMISE_COMBINATORS: ReadonlySet<string> = new Set(['all', 'allSettled']);

/**
 * Does the enclosing function wait for this promise? True when it is awaited, returned (so the
 * caller waits), the body of an arrow, or an element of an awaited `Promise.all([...])`. A timer
 * that is only started (`void sleep(1)`, `sleep(1).then(...)`) or raced against work
 * (`Promise.race`, a timeout) is not waited for.
 */
export function isWaitedFor(node: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return false;
    switch (parent.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = parent;
        continue;
      case AST_NODE_TYPES.AwaitExpression:
        return true;
      case AST_NODE_TYPES.ReturnStatement:
        return !resultIgnored(parent);
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === current && !resultIgnored(parent);
      case AST_NODE_TYPES.ArrayExpression: {
        const call = parent.parent;
        if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== parent) return false;
        const callee = skipTransparent(call.callee);
        if (
          callee.type !== AST_NODE_TYPES.MemberExpression ||
          callee.object.type !== AST_NODE_TYPES.Identifier ||
          callee.object.name !== 'Promise' ||
          !PROMISE_COMBINATORS.has(staticPropertyName(callee) ?? '')
        ) {
          return false;
        }
        current = call;
        continue;
      }
      default:
        return false;
    }
  }
}

/**
 * An element of a waited-for `Promise.race([...])` or `Promise.any([...])`: the caller waits for
 * it until another element settles first. Whether it is the work or a deadline is the caller's
 * question: a timer raced against work is a deadline, not a sleep.
 */
export function isRacedWork(node: TSESTree.Node): boolean {
  const array = node.parent;
  if (array?.type !== AST_NODE_TYPES.ArrayExpression) return false;
  const call = array.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== array) return false;
  const callee = skipTransparent(call.callee);
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'Promise' &&
    RACE_COMBINATORS.has(staticPropertyName(callee) ?? '') &&
    isWaitedFor(call)
  );
}

const RACE_COMBINATORS: ReadonlySet<string> = new Set(['race', 'any']);

/** `items.forEach(() => sleep(1))`: the callback's result is thrown away. */
function resultIgnored(node: TSESTree.Node): boolean {
  const fn = isFunctionNode(node) ? node : enclosingFn(node);
  const call = fn?.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'forEach';
}

function enclosingFn(node: TSESTree.Node): FunctionNode | null {
  let current = node.parent;
  while (current && !isFunctionNode(current)) current = current.parent;
  return current ?? null;
}

const LOOP_TYPES: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.WhileStatement,
  AST_NODE_TYPES.DoWhileStatement,
]);

/**
 * The loop that makes a sleep a retry backoff: the sleep sits in a `catch` clause inside the loop,
 * or after a `try … catch` statement in the loop's body. Stops at the function boundary.
 */
export function enclosingRetryLoop(node: TSESTree.Node): LoopNode | null {
  let inCatch = false;
  let child: TSESTree.Node = node;
  let current = node.parent;
  while (current && !isFunctionNode(current)) {
    if (current.type === AST_NODE_TYPES.CatchClause) inCatch = true;
    if (current.type === AST_NODE_TYPES.BlockStatement && !inCatch) {
      const index = current.body.indexOf(child as TSESTree.Statement);
      if (index > 0 && current.body.slice(0, index).some((s) => s.type === AST_NODE_TYPES.TryStatement && s.handler)) {
        inCatch = LOOP_TYPES.has(current.parent?.type ?? '');
      }
    }
    if (LOOP_TYPES.has(current.type) && (current as LoopNode).body !== undefined && contains((current as LoopNode).body, node)) {
      return inCatch ? (current as LoopNode) : null;
    }
    child = current;
    current = current.parent;
  }
  return null;
}

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

// ---------------------------------------------------------------------------------------------
// Typed mode: the same body test asked of TypeScript's AST, for helpers imported from other files.

interface TypedSleeps {
  isSleepCall(call: TS.CallExpression, depth: number): boolean;
}

const typedCache = new WeakMap<TS.Program, TypedSleeps>();

/**
 * TypeScript, loaded on first typed use only: untyped runs must not need it, and whenever a
 * program exists, the package that built it is installed.
 */
let ts: typeof TS;

function typedSleeps(program: TS.Program): TypedSleeps {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional at run time, see above
  ts ??= require('typescript') as typeof TS;
  const hit = typedCache.get(program);
  if (hit) return hit;
  const checker = program.getTypeChecker();
  const memo = new WeakMap<TS.Node, boolean>();

  const isSleepCall = (call: TS.CallExpression, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
    let symbol = checker.getSymbolAtLocation(callee);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const decl = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (!symbol || !decl) return false;
    const file = decl.getSourceFile();
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) {
      return isLibrarySleep(symbol.name, decl);
    }
    let fn: TS.Node | undefined = decl;
    if (ts.isVariableDeclaration(decl) && decl.initializer) fn = skipTsParens(decl.initializer);
    if (!fn || !(ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !fn.body) return false;
    if (memo.has(fn)) return memo.get(fn) ?? false;
    memo.set(fn, false);
    const result = isTsSleepBody(fn.body, (expr) => isTsSleepExpression(expr, depth + 1));
    memo.set(fn, result);
    return result;
  };

  const isTsSleepExpression = (node: TS.Expression, depth: number): boolean => {
    let expr = skipTsParens(node);
    if (ts.isAwaitExpression(expr)) expr = skipTsParens(expr.expression);
    if (ts.isNewExpression(expr)) return isTsTimerPromise(expr);
    return ts.isCallExpression(expr) && isSleepCall(expr, depth);
  };

  const result: TypedSleeps = { isSleepCall };
  typedCache.set(program, result);
  return result;
}

/** `setTimeout` / `scheduler.wait` declared by Node's `timers/promises`, or the `delay` package. */
function isLibrarySleep(name: string, decl: TS.Declaration): boolean {
  const fileName = decl.getSourceFile().fileName.replace(/\\/g, '/');
  if (/\/node_modules\/(?:delay|sleep-promise)\//.test(fileName)) return true;
  if (name !== 'setTimeout' && name !== 'wait') return false;
  for (let current: TS.Node | undefined = decl.parent; current; current = current.parent) {
    if (ts.isModuleDeclaration(current) && ts.isStringLiteral(current.name)) {
      return current.name.text === 'timers/promises' || current.name.text === 'node:timers/promises';
    }
  }
  return false;
}

function skipTsParens(node: TS.Expression): TS.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current)) {
    current = current.expression;
  }
  return current;
}

/** The TypeScript-AST twin of `sleepBody`. */
function isTsSleepBody(body: TS.ConciseBody, isSleep: (expr: TS.Expression) => boolean): boolean {
  if (!ts.isBlock(body)) return isSleep(body);
  let sleeps = 0;
  let other = false;
  for (const statement of body.statements) {
    const expr = ts.isReturnStatement(statement) ? statement.expression : ts.isExpressionStatement(statement) ? statement.expression : undefined;
    if (expr && isSleep(expr)) {
      sleeps++;
      continue;
    }
    if (ts.isReturnStatement(statement) || tsContainsAwait(statement)) other = true;
  }
  return sleeps > 0 && !other;
}

function tsContainsAwait(node: TS.Node): boolean {
  let found = false;
  const visit = (n: TS.Node): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (ts.isAwaitExpression(n) || ts.isYieldExpression(n)) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** `new Promise((r) => setTimeout(r, ms))` and its block and wrapped-resolve forms, in TypeScript's AST. */
function isTsTimerPromise(expr: TS.NewExpression): boolean {
  if (!ts.isIdentifier(expr.expression) || expr.expression.text !== 'Promise') return false;
  const executor = expr.arguments?.[0];
  if (!executor || !(ts.isArrowFunction(executor) || ts.isFunctionExpression(executor))) return false;
  const resolve = executor.parameters[0]?.name;
  if (!resolve || !ts.isIdentifier(resolve)) return false;
  let timer: TS.Expression | undefined;
  if (ts.isBlock(executor.body)) {
    const only = executor.body.statements.length === 1 ? executor.body.statements[0] : undefined;
    if (only && ts.isExpressionStatement(only)) timer = only.expression;
    else if (only && ts.isReturnStatement(only)) timer = only.expression;
  } else {
    timer = executor.body;
  }
  if (!timer) return false;
  timer = skipTsParens(timer);
  if (!ts.isCallExpression(timer)) return false;
  const callee = timer.expression;
  const isTimer = (ts.isIdentifier(callee) && callee.text === 'setTimeout') ||
    (ts.isPropertyAccessExpression(callee) && callee.name.text === 'setTimeout' && ts.isIdentifier(callee.expression) &&
      (callee.expression.text === 'globalThis' || callee.expression.text === 'window'));
  const first = timer.arguments[0];
  return isTimer && first !== undefined && tsCallsOnly(first, resolve.text);
}

function tsCallsOnly(node: TS.Expression, name: string): boolean {
  const expr = skipTsParens(node);
  if (ts.isIdentifier(expr)) return expr.text === name;
  if (!ts.isArrowFunction(expr) && !ts.isFunctionExpression(expr)) return false;
  let body: TS.Node | undefined = expr.body;
  if (ts.isBlock(body)) {
    const only = body.statements.length === 1 ? body.statements[0] : undefined;
    body = only && ts.isExpressionStatement(only) ? only.expression : undefined;
  }
  return body !== undefined && ts.isCallExpression(body) && ts.isIdentifier(body.expression) && body.expression.text === name;
}
