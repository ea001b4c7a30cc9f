import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { processEntriesOf } from '../project';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { resolveCalleeFunction } from './callGraph';
import { moduleSourceCode } from './localModules';
import { importedFunction } from './moduleFunctions';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * What happens to an unhandled rejection in the processes that run a file, read from the
 * handlers the package's process entries install (`process.on('unhandledRejection', …)`, or an
 * `uncaughtException` handler, which Node 15 and later hand unhandled rejections to when there is
 * no rejection handler):
 * - `logs`: every such process installs a handler that reads the error and does not end the
 *   process, so a dropped rejection is written somewhere and the process keeps serving;
 * - `exits`: at least one of them installs a handler that ends the process (`throw`, `process.exit`,
 *   a function of the project that does), which is Node's default made explicit;
 * - `default`: Node's own behaviour, as far as can be told (no handler, a handler that swallows the
 *   error without reading it, a library whose host decides, a package that cannot be read whole).
 */
export type UnhandledPolicy =
  | { kind: 'logs'; handler: HandlerSite }
  | { kind: 'exits'; handler: HandlerSite }
  | { kind: 'default' };

export interface HandlerSite {
  file: string;
  node: TSESTree.Node;
  event: ProcessEvent;
}

type ProcessEvent = 'unhandledRejection' | 'uncaughtException';
const EVENTS: ReadonlySet<string> = new Set<ProcessEvent>(['unhandledRejection', 'uncaughtException']);
const REGISTER: ReadonlySet<string> = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
const ENDS_PROCESS: ReadonlySet<string> = new Set(['exit', 'abort', 'kill', 'reallyExit']);
/** Same-file and project functions followed from a handler at most this deep. */
const MAX_DEPTH = 4;

/** The policy for the processes that run `filename` (see `UnhandledPolicy`). */
export function unhandledPolicy(filename: string): UnhandledPolicy {
  const entries = processEntriesOf(filename);
  if (!entries) return { kind: 'default' };
  let logs: HandlerSite | null = null;
  for (const entry of entries) {
    const verdict = entryVerdict(entry.handlerFiles);
    if (verdict.kind !== 'logs') return verdict;
    logs ??= verdict.handler;
  }
  return logs ? { kind: 'logs', handler: logs } : { kind: 'default' };
}

/**
 * One process: its rejection handlers decide; without one, its exception handlers do. A rejection
 * handler that throws hands the error on to the exception handlers, and with none, Node exits.
 */
function entryVerdict(handlerFiles: readonly string[]): UnhandledPolicy {
  const sites = handlerFiles.flatMap((file) => handlersIn(file));
  const exception = sites.filter((s) => s.site.event === 'uncaughtException');
  const rejection = sites.filter((s) => s.site.event === 'unhandledRejection');
  const onException = exception.length > 0 ? combine(exception, { kind: 'exits', handler: (exception[0] as ClassifiedHandler).site }) : null;
  if (rejection.length === 0) return onException ?? { kind: 'default' };
  return combine(rejection, onException ?? { kind: 'exits', handler: (rejection[0] as ClassifiedHandler).site });
}

/** Every handler runs: one that ends the process decides, else one that logs; `onThrow` is what a throw leads to. */
function combine(handlers: readonly ClassifiedHandler[], onThrow: UnhandledPolicy): UnhandledPolicy {
  let logs: HandlerSite | null = null;
  for (const { site, effect } of handlers) {
    const verdict: UnhandledPolicy = effect === 'exits'
      ? { kind: 'exits', handler: site }
      : effect === 'throws' ? onThrow : effect === 'logs' ? { kind: 'logs', handler: site } : { kind: 'default' };
    if (verdict.kind === 'exits') return verdict;
    if (verdict.kind === 'logs') logs ??= verdict.handler;
  }
  return logs ? { kind: 'logs', handler: logs } : { kind: 'default' };
}

type HandlerEffect = 'logs' | 'exits' | 'throws' | 'swallows';
interface ClassifiedHandler {
  site: HandlerSite;
  effect: HandlerEffect;
}

const fileHandlers = new WeakMap<object, readonly ClassifiedHandler[]>();

/** Every `process.on('unhandledRejection' | 'uncaughtException', handler)` in a module, classified. */
function handlersIn(file: string): readonly ClassifiedHandler[] {
  const sourceCode = moduleSourceCode(file);
  if (!sourceCode) return [];
  const hit = fileHandlers.get(sourceCode);
  if (hit) return hit;
  const out: ClassifiedHandler[] = [];
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const event = registeredEvent(sourceCode, node);
    const handler = node.arguments[1];
    if (event && handler && handler.type !== AST_NODE_TYPES.SpreadElement) {
      const fn = handlerFunction(sourceCode, handler);
      out.push({ site: { file, node, event }, effect: fn ? handlerEffect(sourceCode, fn) : 'swallows' });
    }
    return true;
  });
  fileHandlers.set(sourceCode, out);
  return out;
}

/** `process.on('unhandledRejection', …)` on the global `process`: the event it registers for. */
export function registeredEvent(sourceCode: Services, call: TSESTree.CallExpression): ProcessEvent | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !REGISTER.has(staticPropertyName(callee) ?? '')) return null;
  if (!isGlobalProcess(sourceCode, callee.object)) return null;
  const first = call.arguments[0];
  const event = first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' ? first.value : null;
  return event !== null && EVENTS.has(event) ? (event as ProcessEvent) : null;
}

function handlerFunction(sourceCode: Services, handler: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(handler);
  if (isFunctionNode(expr)) return expr;
  return resolveCalleeFunction(sourceCode, expr) ?? importedFunction(sourceCode, expr)?.fn ?? null;
}

/**
 * What a handler does with the error: ends the process (`process.exit`, or a function it calls
 * that does), throws it on, or neither. A handler that never reads its error swallows it: the
 * failure then vanishes, which is no reason to be quieter about it.
 */
function handlerEffect(sourceCode: Services, fn: FunctionNode): HandlerEffect {
  const ends = endsProcess(sourceCode, fn, 0, new Set());
  if (ends !== null) return ends;
  const error = fn.params[0];
  return error?.type === AST_NODE_TYPES.Identifier && isRead(sourceCode, error) ? 'logs' : 'swallows';
}

function endsProcess(sourceCode: Services, fn: FunctionNode, depth: number, seen: Set<FunctionNode>): 'exits' | 'throws' | null {
  if (depth > MAX_DEPTH || seen.has(fn)) return null;
  seen.add(fn);
  let found: 'exits' | 'throws' | null = null;
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (found === 'exits') return false;
    // Callbacks run later, in a frame of their own: a throw there is another failure, not this one.
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement && depth === 0) found ??= 'throws';
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    if (callsProcessEnd(sourceCode, node)) {
      found = 'exits';
      return false;
    }
    const callee = calledFunction(sourceCode, node.callee);
    if (callee && endsProcess(callee.sourceCode, callee.fn, depth + 1, seen) === 'exits') found = 'exits';
    return true;
  });
  return found;
}

function callsProcessEnd(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && ENDS_PROCESS.has(staticPropertyName(callee) ?? '') &&
    isGlobalProcess(sourceCode, callee.object);
}

/** A same-file function (also `exports.stop = …` in a CommonJS module) or one of the project's modules. */
function calledFunction(sourceCode: Services, callee: TSESTree.Node): { fn: FunctionNode; sourceCode: Services } | null {
  const local = resolveCalleeFunction(sourceCode, callee) ?? exportsAssignment(sourceCode, callee);
  if (local) return { fn: local, sourceCode };
  const imported = importedFunction(sourceCode, callee);
  return imported ? { fn: imported.fn, sourceCode: imported.sourceCode } : null;
}

/** `exports.stop(…)` where the module assigns `exports.stop = function …` once. */
function exportsAssignment(sourceCode: Services, callee: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(callee);
  if (expr.type !== AST_NODE_TYPES.MemberExpression || !isExportsObject(sourceCode, expr.object)) return null;
  const name = staticPropertyName(expr);
  if (name === null) return null;
  const found: FunctionNode[] = [];
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const assign = statement.expression;
    if (assign.type !== AST_NODE_TYPES.AssignmentExpression || assign.left.type !== AST_NODE_TYPES.MemberExpression) continue;
    if (staticPropertyName(assign.left) !== name || !isExportsObject(sourceCode, assign.left.object)) continue;
    const value = skipTransparent(assign.right);
    if (!isFunctionNode(value)) return null;
    found.push(value);
  }
  return found.length === 1 ? (found[0] as FunctionNode) : null;
}

function isExportsObject(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) return expr.name === 'exports' && !findVariable(sourceCode, expr)?.defs.length;
  return expr.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(expr) === 'exports' &&
    expr.object.type === AST_NODE_TYPES.Identifier && expr.object.name === 'module' && !findVariable(sourceCode, expr.object)?.defs.length;
}

function isGlobalProcess(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return expr.type === AST_NODE_TYPES.Identifier && expr.name === 'process' && !findVariable(sourceCode, expr)?.defs.length;
}

function isRead(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return variable?.references.some((ref) => ref.isRead()) ?? false;
}
