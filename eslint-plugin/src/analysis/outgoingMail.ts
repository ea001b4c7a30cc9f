import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { skipTransparent, staticPropertyName, walk } from './ast';
import { runningFunction } from './callGraph';
import { importedModules } from './imports';
import { knownCallers } from './knownCallers';
import { lintGeneration, sourceFileOf } from './localModules';
import { entryReach } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** Modules whose transports send a message with `transport.sendMail(message)`. */
const MAIL_MODULES: readonly string[] = ['nodemailer'];

const sendsCache = new WeakMap<FunctionNode, boolean>();
const callersCache = new WeakMap<FunctionNode, { generation: number; only: boolean }>();

/**
 * Does `fn` run once per email the process sends: it sends one itself (`transport.sendMail(…)`
 * in a file that imports nodemailer), or every known call of it is made in a function that does
 * (`compileTemplate()` called by each `sendInviteEmail()`)? Emails go out at the pace of what
 * triggers them (an invitation, a password reset, a scheduled report), each after an SMTP round
 * trip, so a small read there (the message's template) is not per-request work.
 */
export function isPerEmailWork(sourceCode: Services, fn: FunctionNode): boolean {
  if (sendsMail(sourceCode, fn)) return true;
  const generation = lintGeneration();
  const hit = callersCache.get(fn);
  if (hit && hit.generation === generation) return hit.only;
  const sites = knownCallers(sourceCode, fn);
  let live = 0;
  const only = sites !== null && sites.every((site) => {
    const file = sourceFileOf(site.sourceCode);
    if (file !== null && entryReach(file).kind === 'one-shot') return true;
    const caller = runningFunction(site.call);
    live += 1;
    return caller !== null && caller !== fn && sendsMail(site.sourceCode, caller);
  }) && live > 0;
  callersCache.set(fn, { generation, only });
  return only;
}

/** `fn`'s body (callbacks included: `process.nextTick(() => transport.sendMail(m))`) sends a message through a mail module's transport. */
function sendsMail(sourceCode: Services, fn: FunctionNode): boolean {
  const hit = sendsCache.get(fn);
  if (hit !== undefined) return hit;
  const modules = importedModules(sourceCode);
  let sends = false;
  if (MAIL_MODULES.some((m) => modules.has(m))) {
    walk(fn.body, sourceCode.visitorKeys, (node) => {
      if (sends) return false;
      if (node.type === AST_NODE_TYPES.CallExpression) {
        const callee = skipTransparent(node.callee);
        if (callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'sendMail') sends = true;
      }
      return !sends;
    });
  }
  sendsCache.set(fn, sends);
  return sends;
}
