import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import path from 'node:path';
import type { AsyncContext, HandlerRegistration, InFlight, ServingCall } from '../analysis';
import { functionName, runningFunction, skipTransparent, sourceFileOf } from '../analysis';
import type { EvidenceLocation } from './evidence';
import { evidenceAt } from './evidence';

/** How no-blocking-in-async words where a blocking call runs and what it calls. */

/**
 * Async code, or a function a server framework runs per request (then `registration` says how),
 * or, with `sync`, a synchronous function of a long-lived process that is not only run at startup
 * (under strict also a same-file helper only startup or one-shot code calls: `judged` says which).
 */
export type RunContext = AsyncContext & {
  registration?: HandlerRegistration;
  inFlight?: InFlight;
  sync?: true;
  servedBy?: string;
  /** A same-file helper placed by its callers: the context they were judged in. */
  judged?: JudgedContext;
  /** The node runs in a promise callback (`.then(row => …)`) that the function registers. */
  later?: true;
};

export function describeWhere(ctx: RunContext): string {
  const fn = ctx.asyncFunction;
  const name = functionName(fn);
  const line = fn.loc.start.line;
  if (ctx.sync && ctx.servedBy) return `${name ? `\`${name}\`` : 'a function'} (line ${line}), which ${ctx.servedBy}`;
  if (ctx.sync) return `${name ? `\`${name}\`` : 'a function'} (line ${line}), which this long-lived process may run while it serves`;
  const kind = ctx.registration ? `${frameworkName(ctx.registration)} ${ctx.registration.role}` : 'async function';
  const article = /^(?:[aeiou]|HTTP)/.test(kind) ? 'an' : 'a';
  const own = name ? `${kind} \`${name}\` (line ${line})` : `${article} ${kind} (line ${line})`;
  if (ctx.later) return `a promise callback in ${own}`;
  return ctx.via.length > 0 ? `a callback that runs synchronously inside ${own}` : own;
}

/**
 * The process role and phase a blocking call was judged in: `serving` (long-lived code that may
 * run while it serves), `startup` (long-lived code before it serves), `one-shot` (a script, a CLI
 * command, a migration, a test), or `unknown` (text linted without a file).
 */
export type JudgedContext = 'serving' | 'startup' | 'one-shot' | 'unknown';

/**
 * What blocking costs in the context it was judged in, with the work beside it that strict names
 * in one-shot and startup code: the clause after "so" or ":" in the report.
 */
export function blockingCost(judged: JudgedContext, inFlight: InFlight | undefined): string {
  const line = inFlight ? inFlight.at.loc.start.line : 0;
  switch (judged) {
    case 'serving':
      return 'every other request, timer and health check in this process waits until it returns';
    case 'startup':
      if (!inFlight) return 'the process starts serving that much later; nothing else waits on it yet, unless startup has already started other work';
      return inFlight.kind === 'fan-out'
        ? `the process starts serving that much later, and the other runs of the fan-out at line ${line} wait until it returns`
        : `the process starts serving that much later, and the work started beside it at line ${line} waits until it returns`;
    case 'one-shot':
      if (!inFlight) return 'the script waits until it returns, and so does any other work the script has in flight; nothing outside the script waits';
      return inFlight.kind === 'fan-out'
        ? `the script waits until it returns, and so do the other runs of its fan-out at line ${line}`
        : `the script waits until it returns, and so does the work it started beside it at line ${line}`;
    case 'unknown':
      return 'whatever else this process has in flight waits until it returns (in a server, every other request, timer and health check)';
  }
}

/** `an express route handler calls (routes.ts line 12)`, `async function \`execute\` calls (line 40)` in `linted` itself. */
export function servedByText(site: ServingCall, linted?: ServingCall['sourceCode']): string {
  const name = functionName(site.runner);
  const kind = site.registration ? `${frameworkName(site.registration)} ${site.registration.role}` : 'async function';
  const article = /^(?:[aeiou]|HTTP)/.test(kind) ? 'an' : 'a';
  const who = name ? `${kind} \`${name}\`` : `${article} ${kind}`;
  const file = site.sourceCode === linted ? null : sourceFileOf(site.sourceCode);
  const at = file ? `${path.basename(file)} line ${site.call.loc.start.line}` : `line ${site.call.loc.start.line}`;
  return `${who} calls (${at}) while the process serves`;
}

export function calleeText(call: TSESTree.CallExpression): string {
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier) {
    return callee.property.name;
  }
  return 'function';
}

function frameworkName(registration: HandlerRegistration): string {
  return registration.framework === 'node:http' ? 'HTTP server' : registration.framework;
}

/**
 * `async function \`execute\` calls (lines 39, 44) while the process serves`: who runs a
 * same-file helper that only serving code calls. `ctx` is the serving code a call is made in;
 * without one the call is in another such helper, named by itself.
 */
export function calledByText(calls: readonly { call: TSESTree.CallExpression; ctx: RunContext | null }[], serving = true): string {
  const lines = new Map<string, number[]>();
  for (const { call, ctx } of calls) {
    const fn = ctx ? ctx.asyncFunction : runningFunction(call);
    const name = fn ? functionName(fn) : null;
    const kind = ctx?.registration ? `${frameworkName(ctx.registration)} ${ctx.registration.role}` : ctx && !ctx.sync ? 'async function' : 'function';
    const article = /^(?:[aeiou]|HTTP)/.test(kind) ? 'an' : 'a';
    const who = name ? `${kind} \`${name}\`` : `${article} ${kind}`;
    lines.set(who, [...(lines.get(who) ?? []), call.loc.start.line]);
  }
  const parts = [...lines].map(([who, at]) => `${who} calls (${at.length === 1 ? 'line' : 'lines'} ${at.join(', ')})`);
  return serving ? `${parts.join(' and ')} while the process serves` : parts.join(' and ');
}

/** What a synchronous helper reported where it is was judged to be, for its evidence. */
const SYNC_START: Readonly<Record<JudgedContext, string>> = {
  serving: 'a function the process may run while it serves, not only at startup',
  startup: 'a function only startup code runs',
  'one-shot': 'a function this script runs',
  unknown: 'a function this code runs',
};

/** How often a framework runs a function of each role, for evidence: a listener runs per event it listens to. */
const PER_RUN: Readonly<Partial<Record<HandlerRegistration['role'], string>>> = {
  'connection listener': 'per connection',
  'message listener': 'per message',
};

/** Where the serving code starts (the framework's registration or the function), and the work beside it. */
export function runEvidence(ctx: RunContext): EvidenceLocation[] {
  const start = ctx.registration
    ? evidenceAt(ctx.registration.node, `${ctx.registration.framework} runs it ${PER_RUN[ctx.registration.role] ?? 'per request'} from here`)
    : evidenceAt(ctx.asyncFunction, !ctx.sync ? 'async code starts here' : SYNC_START[ctx.judged ?? 'serving']);
  const beside = ctx.inFlight ? [evidenceAt(ctx.inFlight.at, ctx.inFlight.kind === 'fan-out' ? 'many of these run at once from here' : 'other work runs beside it from here')] : [];
  return [start, ...beside];
}
