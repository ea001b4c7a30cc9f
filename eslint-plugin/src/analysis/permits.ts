import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { ModuleExport } from '../util/settings';
import { constInit, findObjectProperty, findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import type { ConstructionKind } from './catalog';
import type { Construction } from './construction';
import { getConstruction } from './construction';
import { importedModules, refMatches, resolveReference } from './imports';
import { reachableModules } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * What takes the permit: a catalogued construction kind, the Web Locks API (`navigator.locks`),
 * or a team-declared `permitCallbacks` shape.
 */
export type PermitKind = ConstructionKind | 'webLock' | 'custom';

/** A call whose callback runs while a lock or concurrency permit is held. */
export interface PermitCall {
  /** `limit(cb)`, `mutex.runExclusive(cb)`, `queue.add(cb)`, `pool.use(cb)`, `navigator.locks.request(name, cb)` … */
  call: TSESTree.CallExpression;
  kind: PermitKind;
  /** The arguments that run holding the permit: inline functions or references to functions. */
  callbacks: TSESTree.Node[];
  /** Where the limiter or lock was constructed, when known. */
  construction: Construction | null;
  /**
   * How many holders at once: 1 for locks, N for `pLimit(N)`, `new Semaphore(N)`,
   * `new PQueue({ concurrency: N })`, generic-pool's `createPool(factory, { max: N })` when N is a literal or a `const`; `Infinity` for an unbounded
   * queue; null when unknown.
   */
  capacity: number | null;
}

/** Kinds whose calls bound concurrency by running a callback in a slot (the fan-out bounds). */
export const LIMITER_KINDS: ReadonlySet<PermitKind> = new Set<PermitKind>(['limiter', 'queue', 'bottleneck']);

/** Modules whose objects take permits around callbacks: a file importing none of them has no callback regions. */
export const PERMIT_MODULES: readonly string[] = ['async-mutex', 'p-limit', 'p-map', 'p-queue', 'bottleneck', 'async-lock', 'async-sema', 'await-lock', 'generic-pool'];

/** The methods that run a callback under a permit, on the objects the switch below knows. */
const PERMIT_METHODS: ReadonlySet<string> = new Set(['runExclusive', 'map', 'add', 'addAll', 'schedule', 'wrap', 'acquire', 'use']);

/** A cheap early exit: can any call in this file run a callback under a permit? */
export function mayContainPermitCalls(sourceCode: Services, custom: readonly ModuleExport[] = []): boolean {
  if (custom.length > 0 || sourceCode.text.includes('navigator')) return true;
  const own = importedModules(sourceCode);
  if (PERMIT_MODULES.some((m) => own.has(m))) return true;
  // A lock or limiter built in one of the project's modules and imported here.
  const reached = reachableModules(sourceCode);
  return reached.size > own.size && PERMIT_MODULES.some((m) => reached.has(m));
}

/**
 * Recognises a call that runs a callback under a permit. `custom` are team-declared shapes:
 * `{ module, export }` for a function (`withPermit(cb)`), `{ module?, method }` for a method on an
 * object constructed from `module` (any object when `module` is omitted).
 */
export function getPermitCall(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  custom: readonly ModuleExport[] = [],
): PermitCall | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) {
    const construction = getConstruction(sourceCode, callee);
    if (construction?.kind === 'limiter') return permit(sourceCode, call, 'limiter', firstArg(call, 0), construction);
    const ref = resolveReference(sourceCode, callee);
    if (refMatches(ref, 'p-map') || refMatches(ref, 'p-map', 'pMap')) return pMapCall(sourceCode, call);
    if (ref && custom.some((c) => c.export !== undefined && c.module !== undefined && refMatches(ref, c.module, c.export))) {
      return permit(sourceCode, call, 'custom', firstFunction(call, 0), null);
    }
    return null;
  }
  const method = staticPropertyName(callee);
  if (method === null) return null;
  // `this.limit(cb)`: a limiter kept on the instance (`private limit = pLimit(3)`) is called like
  // the function it is. Only `this.x`: its field is read in this class, with no module to parse.
  if (skipTransparent(callee.object).type === AST_NODE_TYPES.ThisExpression) {
    const construction = getConstruction(sourceCode, callee);
    if (construction?.kind === 'limiter') return permit(sourceCode, call, 'limiter', firstArg(call, 0), construction);
  }
  if (method === 'request' && isWebLocks(sourceCode, callee.object)) return webLock(call);
  // Whatever the object is, no other method takes a permit: `service.summary(id)` needs no look
  // into `./service` for what it built (a parse of the module, as routes lint before services).
  if (!PERMIT_METHODS.has(method) && !custom.some((c) => c.method === method)) return null;
  const construction = getConstruction(sourceCode, callee.object);
  const kind = construction?.kind ?? null;
  switch (kind) {
    case 'mutex':
    case 'semaphore':
      if (method === 'runExclusive') return permit(sourceCode, call, kind, firstArg(call, 0), construction);
      break;
    case 'limiter':
      if (method === 'map') return permit(sourceCode, call, kind, firstArg(call, 1), construction);
      break;
    case 'queue':
      if (method === 'add') return permit(sourceCode, call, kind, firstArg(call, 0), construction);
      if (method === 'addAll') return permit(sourceCode, call, kind, arrayFunctions(call), construction);
      break;
    case 'bottleneck':
      if (method === 'schedule') return permit(sourceCode, call, kind, firstFunction(call, 0), construction);
      if (method === 'wrap') return permit(sourceCode, call, kind, firstArg(call, 0), construction);
      break;
    case 'keyedLock':
      if (method === 'acquire') return permit(sourceCode, call, kind, firstArg(call, 1), construction);
      break;
    case 'genericPool':
      // `pool.use(fn)` acquires a resource, runs `fn(resource)` and releases it once fn's promise settles.
      if (method === 'use') return permit(sourceCode, call, kind, firstArg(call, 0), construction);
      break;
    case null:
      // An async-mutex lock handed in from elsewhere: `runExclusive` is that library's name.
      if (method === 'runExclusive' && !construction && importedModules(sourceCode).has('async-mutex')) {
        return permit(sourceCode, call, 'semaphore', firstArg(call, 0), null);
      }
      break;
    default:
      break;
  }
  const declared = custom.some((c) => {
    if (c.method !== method) return false;
    if (c.module === undefined) return true;
    const ref = construction?.ref ?? resolveReference(sourceCode, callee.object);
    return ref?.module === c.module;
  });
  return declared ? permit(sourceCode, call, 'custom', firstFunction(call, 0), construction) : null;
}

/** True when `call` takes a slot of a concurrency limiter (`limit(fn)`, `queue.add(fn)`, `limiter.schedule(fn)`). */
export function isLimiterCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const found = getPermitCall(sourceCode, call);
  return found !== null && LIMITER_KINDS.has(found.kind);
}

function permit(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  kind: PermitKind,
  callbacks: TSESTree.Node[],
  construction: Construction | null,
): PermitCall | null {
  if (callbacks.length === 0) return null;
  return { call, kind, callbacks, construction, capacity: capacityOf(sourceCode, kind, construction) };
}

/**
 * `pMap(items, mapper, { concurrency: N })`: each mapper call holds one of N slots until its
 * promise settles. Without `concurrency` p-map runs every item at once.
 */
function pMapCall(sourceCode: Services, call: TSESTree.CallExpression): PermitCall | null {
  const callbacks = firstArg(call, 1);
  if (callbacks.length === 0) return null;
  const options = call.arguments[2];
  let capacity: number | null = Infinity;
  if (options && options.type !== AST_NODE_TYPES.SpreadElement) {
    capacity = optionValue(sourceCode, options, 'concurrency') ?? (hasOption(options, 'concurrency') ? null : Infinity);
  } else if (options) {
    capacity = null;
  }
  return { call, kind: 'limiter', callbacks, construction: null, capacity };
}

function firstArg(call: TSESTree.CallExpression, index: number): TSESTree.Node[] {
  const arg = call.arguments[index];
  return arg && arg.type !== AST_NODE_TYPES.SpreadElement && isCallable(arg) ? [arg] : [];
}

function firstFunction(call: TSESTree.CallExpression, from: number): TSESTree.Node[] {
  const arg = call.arguments.slice(from).find((a) => isFunctionNode(skipTransparent(a)));
  return arg ? [arg] : firstArg(call, from);
}

function arrayFunctions(call: TSESTree.CallExpression): TSESTree.Node[] {
  const arg = call.arguments[0];
  if (arg?.type !== AST_NODE_TYPES.ArrayExpression) return [];
  return arg.elements.filter((e): e is TSESTree.Expression => e !== null && e.type !== AST_NODE_TYPES.SpreadElement && isCallable(e));
}

/** An inline function or a name that may denote one; literals and objects are not callbacks. */
function isCallable(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return isFunctionNode(expr) || expr.type === AST_NODE_TYPES.Identifier || expr.type === AST_NODE_TYPES.MemberExpression;
}

/** `navigator.locks`, `globalThis.navigator.locks`, `window.navigator.locks` with the global `navigator`. */
function isWebLocks(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(expr) !== 'locks') return false;
  const nav = skipTransparent(expr.object);
  if (nav.type === AST_NODE_TYPES.Identifier) {
    if (nav.name !== 'navigator') return false;
    const variable = findVariable(sourceCode, nav);
    return !variable || variable.defs.length === 0;
  }
  return (
    nav.type === AST_NODE_TYPES.MemberExpression &&
    staticPropertyName(nav) === 'navigator' &&
    nav.object.type === AST_NODE_TYPES.Identifier &&
    (nav.object.name === 'globalThis' || nav.object.name === 'window' || nav.object.name === 'self')
  );
}

/** `request(name, cb)` or `request(name, options, cb)`; a shared-mode lock does not exclude readers. */
function webLock(call: TSESTree.CallExpression): PermitCall | null {
  const callback = call.arguments.length === 2 ? call.arguments[1] : call.arguments[2];
  if (!callback || callback.type === AST_NODE_TYPES.SpreadElement || !isCallable(callback)) return null;
  const options = call.arguments.length === 3 ? skipTransparent(call.arguments[1] as TSESTree.Node) : null;
  const shared = options?.type === AST_NODE_TYPES.ObjectExpression && options.properties.some(
    (p) => p.type === AST_NODE_TYPES.Property && !p.computed && p.key.type === AST_NODE_TYPES.Identifier &&
      p.key.name === 'mode' && p.value.type === AST_NODE_TYPES.Literal && p.value.value === 'shared',
  );
  return { call, kind: 'webLock', callbacks: [callback], construction: null, capacity: shared ? null : 1 };
}

/** The number of holders a construction admits, when the code states it. */
export function capacityOf(sourceCode: Services, kind: PermitKind, construction: Construction | null): number | null {
  if (kind === 'mutex' || kind === 'keyedLock') return 1;
  const node = construction && !construction.fromType ? construction.node : null;
  if (node?.type !== AST_NODE_TYPES.CallExpression && node?.type !== AST_NODE_TYPES.NewExpression) return null;
  // An imported limiter's options are read in the module that built it.
  sourceCode = construction?.sourceCode ?? sourceCode;
  const arg = node.arguments[0];
  switch (kind) {
    case 'semaphore':
      return arg ? numberValue(sourceCode, arg) : null;
    case 'limiter':
      return arg ? (numberValue(sourceCode, arg) ?? optionValue(sourceCode, arg, 'concurrency')) : null;
    case 'queue':
      // p-queue runs everything at once unless told otherwise.
      return arg ? (optionValue(sourceCode, arg, 'concurrency') ?? (hasOption(arg, 'concurrency') ? null : Infinity)) : Infinity;
    case 'bottleneck':
      // Bottleneck's `maxConcurrent` defaults to unlimited; `minTime` alone only spaces calls out.
      return arg ? (optionValue(sourceCode, arg, 'maxConcurrent') ?? (hasOption(arg, 'maxConcurrent') ? null : Infinity)) : Infinity;
    case 'dbPool':
      // pg `max`, mysql2 `connectionLimit`; both default to 10 when the options say nothing.
      if (!arg) return 10;
      return optionValue(sourceCode, arg, 'max') ?? optionValue(sourceCode, arg, 'connectionLimit') ??
        (hasOption(arg, 'max') || hasOption(arg, 'connectionLimit') ? null : 10);
    case 'genericPool': {
      const opts = node.arguments[1];
      return opts ? optionValue(sourceCode, opts, 'max') : null;
    }
    default:
      return null;
  }
}

function numberValue(sourceCode: Services, node: TSESTree.Node, depth = 0): number | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Literal && typeof expr.value === 'number') return expr.value;
  if (expr.type === AST_NODE_TYPES.Identifier) {
    if (expr.name === 'Infinity') return Infinity;
    if (depth > 3) return null;
    // A const with a literal initializer; anything computed is unknown.
    const init = constInit(sourceCode, expr);
    return init ? numberValue(sourceCode, init, depth + 1) : null;
  }
  if (
    expr.type === AST_NODE_TYPES.MemberExpression &&
    expr.object.type === AST_NODE_TYPES.Identifier &&
    expr.object.name === 'Number' &&
    staticPropertyName(expr) === 'POSITIVE_INFINITY'
  ) {
    return Infinity;
  }
  return null;
}

function optionValue(sourceCode: Services, node: TSESTree.Node, name: string): number | null {
  const prop = findObjectProperty(node, name);
  return prop ? numberValue(sourceCode, prop.value) : null;
}

/** True when the option is present, or may be (a spread, or not an object literal at all). */
function hasOption(node: TSESTree.Node, name: string): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return true;
  return findObjectProperty(expr, name) !== null || expr.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement);
}
