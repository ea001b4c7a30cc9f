import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode, InFlight, RoleSubject } from '../analysis';
import { inFlightWork, isDevOnly, isDevOnlyModule, isGatedRun, isPerEmailWork, isStartupPhase, processRole } from '../analysis';
import type { JudgedContext } from './blockingReports';
import { isFileless } from './fileless';

/** Whether no-blocking-in-async stays quiet about blocking at a place, and what else runs beside it there. */
export interface Quietness {
  quiet: boolean;
  /** Under strict, concurrent work that one-shot or startup code starts itself, named in the report. */
  inFlight: InFlight | null;
  /** The process role and phase the place was judged in, for what the report says it costs. */
  judged: JudgedContext;
}

/**
 * One-shot code (a CLI, a migration, a test) serves nobody while it blocks: even its own
 * concurrent work only finishes later. Startup (`main()` before it listens, NestJS's
 * onModuleInit) is the same: nothing is served yet, and when it starts concurrent work itself (a
 * fan-out over its plugins' folders), blocking there delays only its own start. Code that runs
 * only outside production serves no production traffic, and code only clients past an access
 * check reach (`isGatedRun`: an admin route, a first-run setup server) stalls only them; work
 * done once per email sent (`isPerEmailWork`: its template's read) is not per request. Strict
 * reports all of it, naming the concurrent work one-shot or startup code starts.
 * The file's role and dev-only-ness are asked once per lint, the first time they are needed.
 */
export function createQuietness(
  sourceCode: Readonly<TSESLint.SourceCode>,
  subject: RoleSubject,
  strict: boolean,
): (node: TSESTree.Node, fn: FunctionNode) => Quietness {
  let oneShot: boolean | null = null;
  let devModule: boolean | null = null;
  const fileless = isFileless(subject.filename);
  /** One-shot, else the phase; text without a file may be a script or a server, so its cost is unknown (`quiet` still follows the phase). */
  const judgedAt = (node: TSESTree.Node, fn: FunctionNode): { judged: JudgedContext; quiet: boolean } => {
    oneShot ??= processRole(subject).role === 'one-shot';
    if (oneShot) return { judged: 'one-shot', quiet: true };
    const startup = isStartupPhase(sourceCode, fn, node);
    return { judged: fileless ? 'unknown' : startup ? 'startup' : 'serving', quiet: startup };
  };
  return (node, fn) => {
    if (strict) {
      const { judged, quiet: alone } = judgedAt(node, fn);
      return { quiet: false, inFlight: alone ? inFlightWork(sourceCode, node, fn) : null, judged };
    }
    // A module only a development process loads (a bundler's dev server behind `if (options.dev)`).
    if (isDevOnly(sourceCode, node) || (devModule ??= isDevOnlyModule(sourceCode, subject.filename))) return { quiet: true, inFlight: null, judged: 'serving' };
    const judged = judgedAt(node, fn);
    // Only clients the process already let in reach it (an admin route), or only a setup server's;
    // or it runs once per email sent, at the pace of what triggers the emails.
    if (!judged.quiet && (isGatedRun(sourceCode, fn, node) || isPerEmailWork(sourceCode, fn))) return { quiet: true, inFlight: null, judged: judged.judged };
    return { ...judged, inFlight: null };
  };
}
