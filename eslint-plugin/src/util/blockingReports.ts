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
 * or, with `sync`, a synchronous function of a long-lived process that is not only run at startup.
 */
export type RunContext = AsyncContext & { registration?: HandlerRegistration; inFlight?: InFlight; sync?: true; servedBy?: string };

export function describeWhere(ctx: RunContext): string {
  const fn = ctx.asyncFunction;
  const name = functionName(fn);
  const line = fn.loc.start.line;
  if (ctx.sync && ctx.servedBy) return `${name ? `\`${name}\`` : 'a function'} (line ${line}), which ${ctx.servedBy}`;
  if (ctx.sync) return `${name ? `\`${name}\`` : 'a function'} (line ${line}), which this long-lived process may run while it serves`;
  const kind = ctx.registration ? `${frameworkName(ctx.registration)} ${ctx.registration.role}` : 'async function';
  const article = /^(?:[aeiou]|HTTP)/.test(kind) ? 'an' : 'a';
  const own = name ? `${kind} \`${name}\` (line ${line})` : `${article} ${kind} (line ${line})`;
  return ctx.via.length > 0 ? `a callback that runs synchronously inside ${own}` : own;
}

/** `an express route handler calls (routes.ts line 12)`, `async function \`execute\` calls (line 40)`. */
export function servedByText(site: ServingCall): string {
  const name = functionName(site.runner);
  const kind = site.registration ? `${frameworkName(site.registration)} ${site.registration.role}` : 'async function';
  const article = /^(?:[aeiou]|HTTP)/.test(kind) ? 'an' : 'a';
  const who = name ? `${kind} \`${name}\`` : `${article} ${kind}`;
  const file = sourceFileOf(site.sourceCode);
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
export function calledByText(calls: readonly { call: TSESTree.CallExpression; ctx: RunContext | null }[]): string {
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
  return `${parts.join(' and ')} while the process serves`;
}

/** Where the serving code starts (the framework's registration or the function), and the work beside it. */
export function runEvidence(ctx: RunContext): EvidenceLocation[] {
  const start = ctx.registration
    ? evidenceAt(ctx.registration.node, `${ctx.registration.framework} runs it per request from here`)
    : evidenceAt(ctx.asyncFunction, ctx.sync ? 'a function the process may run while it serves, not only at startup' : 'async code starts here');
  const beside = ctx.inFlight ? [evidenceAt(ctx.inFlight.at, ctx.inFlight.kind === 'fan-out' ? 'many of these run at once from here' : 'other work runs beside it from here')] : [];
  return [start, ...beside];
}
