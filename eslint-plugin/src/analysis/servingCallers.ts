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

const cache = new WeakMap<FunctionNode, { generation: number; found: ServingCall | null }>();

/**
 * A known call of the synchronous function `fn`, directly or through the synchronous helpers that
 * call it (`knownCallers`, across the package's files), made in another file than `fn`'s, in async
 * code or in a function a framework runs per request, while the process serves: not at startup
 * (`isStartupPhase`), not once per process (`isOncePerProcess`), not in code that runs only in
 * development, not from a file one-shot code runs. A service's `static getInfo()` that calls its
 * own `this.size()`, and that a route handler in routes/ calls. A serving call in `fn`'s own file
 * is left out: the lint of that file follows the chain from there and reports the call. Null when
 * no such call is known: the callers are not all known, or none of them serves.
 */
export function servingCall(sourceCode: Services, fn: FunctionNode): ServingCall | null {
  const generation = lintGeneration();
  const hit = cache.get(fn);
  if (hit && hit.generation === generation) return hit.found;
  const found = search(sourceCode, sourceCode, fn, 0, 0, new Set());
  cache.set(fn, { generation, found });
  return found;
}

function search(
  origin: Services,
  sourceCode: Services,
  fn: FunctionNode,
  fileHops: number,
  localHops: number,
  seen: Set<FunctionNode>,
): ServingCall | null {
  // A call cycle (`walk` calls `walk`) adds no caller.
  if (seen.has(fn)) return null;
  seen.add(fn);
  const sites = knownCallers(sourceCode, fn) ?? [];
  for (const site of sites) {
    const file = sourceFileOf(site.sourceCode);
    if (file !== null && entryReach(file).kind === 'one-shot') continue;
    if (isDevOnly(site.sourceCode, site.call) || isOncePerProcess(site.sourceCode, site.call)) continue;
    const served = servedAt(site.sourceCode, file, site.call);
    if (served) {
      if (site.sourceCode !== origin && !isStartupPhase(site.sourceCode, served.runner, site.call)) return served;
      continue;
    }
    const caller = runningFunction(site.call);
    if (caller === null || caller.async || caller.generator) continue;
    const crosses = site.sourceCode !== sourceCode;
    if (crosses ? fileHops + 1 > MAX_FILE_HOPS : localHops + 1 > MAX_SAME_FILE_HOPS) continue;
    const up = search(origin, site.sourceCode, caller, fileHops + (crosses ? 1 : 0), crosses ? 0 : localHops + 1, seen);
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
  /** The known call that runs `fn` while the process serves; null for CPU-heavy work, reported wherever it is called from. */
  site: ServingCall | null;
}

/**
 * Is the blocking call `found`, outside async code, reported where it is rather than at the
 * calls that reach it? CPU-heavy work in a serving helper always is (`servingSyncFunction`);
 * other blocking I/O when a known caller in another file runs the helper while the process
 * serves (`servingCall`), unless, with `quietMetadata`, it is one metadata syscall
 * (`isSingleMetadataCall`). Reported once in the helper's file, it names the line to change
 * however many modules call the helper, and covers callers that no chain from the call site
 * reaches (a service's static method an importer calls). The call sites' reports defer to it.
 */
export function servedBlocking(
  sourceCode: Services,
  found: BlockingCall,
  subject: RoleSubject,
  quietMetadata: boolean,
): ServedBlocking | null {
  const fn = servingSyncFunction(sourceCode, found.call, subject);
  if (!fn) return null;
  // Reported wherever it is called from, so only where something can call it.
  if (isCpuHeavy(found)) return isUnreachedExport(sourceCode, fn) ? null : { fn, site: null };
  if (quietMetadata && isSingleMetadataCall(found, fn)) return null;
  const site = servingCall(sourceCode, fn);
  return site ? { fn, site } : null;
}
