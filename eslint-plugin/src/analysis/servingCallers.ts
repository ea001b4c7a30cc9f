import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode } from './ast';
import type { BlockingCall } from './blockingApis';
import type { HandlerRegistration } from './handlers';
import type { RoleSubject } from './role';
import { getAsyncContext } from './asyncContext';
import { runningFunction } from './callGraph';
import { isDevOnly } from './devOnly';
import { enclosingHandler } from './handlers';
import { isCpuHeavy, servingSyncFunction } from './heavySyncWork';
import { isUnreachedExport, knownCallers } from './knownCallers';
import { lintGeneration, sourceFileOf } from './localModules';
import { isOncePerProcess } from './onceOnly';
import { isStartupPhase } from './phase';
import { isSingleMetadataCall } from './singleMetadata';
import { entryReach } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** A known call that runs a synchronous helper while the process serves. */
export interface ServingCall {
  /** The file the call is made in. */
  sourceCode: Services;
  call: TSESTree.CallExpression | TSESTree.NewExpression;
  /** The async function or request handler the call runs in. */
  runner: FunctionNode;
  /** How a framework runs `runner` per request, when it is a handler rather than async code. */
  registration: HandlerRegistration | null;
}

/**
 * Files a walk up the callers may cross: a handler in routes/ calls a service that calls its own
 * private helper; deeper than that and the answer costs parses nobody asked for.
 */
const MAX_FILE_HOPS = 3;
/** Synchronous helpers in one file followed up: `getInfo()` calls `this.size()` calls `this.walk()`. */
const MAX_SAME_FILE_HOPS = 6;

const cache = new WeakMap<FunctionNode, { generation: number; found: ServingCallers; ownFile: boolean }[]>();

/** What a walk up the callers of a synchronous helper found. */
export interface ServingCallers {
  /** The caller a report names: a framework's request handler when one is known, else serving async code. */
  best: ServingCall | null;
  /**
   * Every caller was seen (`knownCallers` answered at each step, within the hops): with no `best`,
   * nothing runs the helper while the process serves.
   */
  complete: boolean;
}

/**
 * A known call of the synchronous function `fn`, directly or through the synchronous helpers that
 * call it (`knownCallers`, across the package's files), made in another file than `fn`'s, in async
 * code or in a function a framework runs per request, while the process serves: not at startup
 * (`isStartupPhase`), not once per process (`isOncePerProcess`), not in code that runs only in
 * development, not from a file one-shot code runs. A service's `static getInfo()` that calls its
 * own `this.size()`, and that a route handler in routes/ calls. A request handler is preferred to
 * other async code: it names the traffic that waits. A serving call in `fn`'s own file is left
 * out: the lint of that file follows the chain from there and reports the call. Null when no such
 * call is known: the callers are not all known, or none of them serves.
 */
export function servingCall(sourceCode: Services, fn: FunctionNode): ServingCall | null {
  return servingCallers(sourceCode, fn, false).best;
}

/**
 * As `servingCall`, and with `ownFile` also the serving calls in `fn`'s own file: who runs a
 * helper reported where it is whoever calls it (CPU-heavy work), and whether every caller was seen.
 */
export function servingCallers(sourceCode: Services, fn: FunctionNode, ownFile: boolean): ServingCallers {
  const generation = lintGeneration();
  const hits = (cache.get(fn) ?? []).filter((h) => h.generation === generation);
  const hit = hits.find((h) => h.ownFile === ownFile);
  if (hit) return hit.found;
  const walk: Walk = { origin: ownFile ? null : sourceCode, fallback: null, complete: true, seen: new Set() };
  const handler = search(walk, sourceCode, fn, 0, 0);
  const found: ServingCallers = { best: handler ?? walk.fallback, complete: handler !== null || walk.complete };
  cache.set(fn, [...hits, { generation, found, ownFile }]);
  return found;
}

interface Walk {
  /** The file whose serving calls are left out, or null to count every file's. */
  origin: Services | null;
  /** The first serving call in async code, named when no request handler is found. */
  fallback: ServingCall | null;
  complete: boolean;
  seen: Set<FunctionNode>;
}

/** The first request handler that runs `fn` while serving; other serving calls and unseen callers are noted in `walk`. */
function search(walk: Walk, sourceCode: Services, fn: FunctionNode, fileHops: number, localHops: number): ServingCall | null {
  // A call cycle (`walk` calls `walk`) adds no caller.
  if (walk.seen.has(fn)) return null;
  walk.seen.add(fn);
  const sites = knownCallers(sourceCode, fn);
  if (sites === null) walk.complete = false;
  for (const site of sites ?? []) {
    const file = sourceFileOf(site.sourceCode);
    if (file !== null && entryReach(file).kind === 'one-shot') continue;
    if (isDevOnly(site.sourceCode, site.call) || isOncePerProcess(site.sourceCode, site.call)) continue;
    const served = servedAt(site.sourceCode, file, site.call);
    if (served) {
      if (site.sourceCode === walk.origin || isStartupPhase(site.sourceCode, served.runner, site.call)) continue;
      if (served.registration) return served;
      walk.fallback ??= served;
      continue;
    }
    const caller = runningFunction(site.call);
    // Module top level runs once, as the process starts.
    if (caller === null) continue;
    const crosses = site.sourceCode !== sourceCode;
    if (caller.async || caller.generator || (crosses ? fileHops + 1 > MAX_FILE_HOPS : localHops + 1 > MAX_SAME_FILE_HOPS)) {
      walk.complete = false;
      continue;
    }
    const up = search(walk, site.sourceCode, caller, fileHops + (crosses ? 1 : 0), crosses ? 0 : localHops + 1);
    if (up) return up;
  }
  return null;
}

function servedAt(sourceCode: Services, file: string | null, call: TSESTree.CallExpression | TSESTree.NewExpression): ServingCall | null {
  // A framework's handler first, async or not: the report then says what runs it per request.
  const handler = file === null ? null : enclosingHandler(sourceCode, file, call);
  if (handler) return { sourceCode, call, runner: handler.handler, registration: handler.registration };
  const ctx = getAsyncContext(call);
  return ctx ? { sourceCode, call, runner: ctx.asyncFunction, registration: null } : null;
}

/** Where a blocking call outside async code is reported: in its own synchronous helper, and why. */
export interface ServedBlocking {
  /** The synchronous helper the call runs in. */
  fn: FunctionNode;
  /**
   * The known call that runs `fn` while the process serves, the one the report names. Null only
   * for CPU-heavy work whose callers are not all known: it is reported all the same.
   */
  site: ServingCall | null;
}

/**
 * Is the blocking call `found`, outside async code, reported where it is rather than at the
 * calls that reach it? Reported once in the helper's file, it names the line to change however
 * many modules call the helper, and covers callers that no chain from the call site reaches (a
 * service's static method an importer calls); the chains from the callers defer to it. CPU-heavy
 * work in a serving helper (`servingSyncFunction`) is, naming its best serving caller in any file
 * (`servingCallers`); when every caller is known and none of them serves (startup, one-shot code),
 * only without `quiet` (strict). Other blocking I/O is when a known caller in another file runs
 * the helper while the process serves (`servingCall`), unless, with `quiet`, it is one metadata
 * syscall (`isSingleMetadataCall`).
 */
export function servedBlocking(
  sourceCode: Services,
  found: BlockingCall,
  subject: RoleSubject,
  quiet: boolean,
): ServedBlocking | null {
  const fn = servingSyncFunction(sourceCode, found.call, subject);
  if (!fn) return null;
  if (isCpuHeavy(found)) {
    // Reported wherever it is called from, so only where something can call it.
    if (isUnreachedExport(sourceCode, fn)) return null;
    const callers = servingCallers(sourceCode, fn, true);
    if (callers.best) return { fn, site: callers.best };
    return quiet && callers.complete ? null : { fn, site: null };
  }
  if (quiet && isSingleMetadataCall(found, fn)) return null;
  const site = servingCall(sourceCode, fn);
  return site ? { fn, site } : null;
}
