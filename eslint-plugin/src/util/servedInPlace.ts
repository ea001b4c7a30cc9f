import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { BlockingCall, BlockingOptions, ChainLink, RoleSubject, ServedBlocking } from '../analysis';
import { isCpuHeavy, matchBlockingCall, moduleSourceCode, servedBlocking, sourceFileOf } from '../analysis';
import type { RunContext } from './blockingReports';
import { servedByText } from './blockingReports';
import type { EvidenceLocation } from './evidence';
import { evidenceAt } from './evidence';

type Services = Readonly<TSESLint.SourceCode>;

/** What no-blocking-in-async's options and preset say about reporting a blocking call in its own helper. */
export interface InPlaceSettings {
  blocking: BlockingOptions;
  /** Helpers are followed only with the rule's `checkHelpers`; CPU-heavy work is reported in them either way. */
  checkHelpers: boolean;
  strict: boolean;
}

/** `servedBlocking` as a lint with these settings sees it: single metadata calls are quiet unless strict. */
export function servedInPlace(sourceCode: Services, found: BlockingCall, subject: RoleSubject, settings: InPlaceSettings): ServedBlocking | null {
  if (!settings.checkHelpers && !isCpuHeavy(found)) return null;
  return servedBlocking(sourceCode, found, subject, !settings.strict);
}

/**
 * Does the chain's last link, a blocking call in a helper, get its report where it is (a serving
 * caller in another file reaches it, or it is CPU-heavy work in a serving helper)? The chain's
 * report at the call site then defers: one report per blocking call, however many callers reach it.
 */
export function reportedInPlace(link: ChainLink, linted: Services, context: RoleSubject & { cwd: string }, settings: InPlaceSettings): boolean {
  if (link.node?.type !== AST_NODE_TYPES.CallExpression) return false;
  const sourceCode = link.path ? moduleSourceCode(link.path) : linted;
  if (!sourceCode) return false;
  const found = matchBlockingCall(sourceCode, link.node, settings.blocking);
  const subject: RoleSubject = link.path ? { filename: link.path, cwd: context.cwd, settings: context.settings, sourceCode } : context;
  return found !== null && servedInPlace(sourceCode, found, subject, settings) !== null;
}

/** The helper a blocking call is reported in, and its serving call site as evidence when one is known. */
export function servedRunContext(linted: Services, served: ServedBlocking): { ctx: RunContext; evidence: EvidenceLocation[] } {
  const site = served.site;
  const evidence = site ? [evidenceAt(site.call, 'runs it while serving from here', site.sourceCode === linted ? undefined : sourceFileOf(site.sourceCode) ?? undefined)] : [];
  return { ctx: { asyncFunction: served.fn, via: [], sync: true, ...(site ? { servedBy: servedByText(site, linted) } : {}) }, evidence };
}
