import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode, InFlight, RoleSubject } from '../analysis';
import { inFlightWork, isDevOnly, isDevOnlyModule, isStartupPhase, processRole } from '../analysis';

/** Whether no-blocking-in-async stays quiet about blocking at a place, and what else runs beside it there. */
export interface Quietness {
  quiet: boolean;
  /** Concurrent work a startup function starts itself: then its blocking is reported after all, naming it. */
  inFlight: InFlight | null;
}

/**
 * One-shot code (a CLI, a migration, a test) serves nobody while it blocks: even its own
 * concurrent work only finishes later. Startup (`main()` before it listens, NestJS's
 * onModuleInit) shares the loop with nothing, unless it starts concurrent work itself; code
 * that runs only outside production serves no production traffic. Strict reports all of it.
 * The file's role and dev-only-ness are asked once per lint, the first time they are needed.
 */
export function createQuietness(
  sourceCode: Readonly<TSESLint.SourceCode>,
  subject: RoleSubject,
  strict: boolean,
): (node: TSESTree.Node, fn: FunctionNode) => Quietness {
  let oneShot: boolean | null = null;
  let devModule: boolean | null = null;
  return (node, fn) => {
    if (strict) return { quiet: false, inFlight: null };
    // A module only a development process loads (a bundler's dev server behind `if (options.dev)`).
    if (isDevOnly(sourceCode, node) || (devModule ??= isDevOnlyModule(sourceCode, subject.filename))) return { quiet: true, inFlight: null };
    oneShot ??= processRole(subject).role === 'one-shot';
    if (oneShot) return { quiet: true, inFlight: null };
    if (!isStartupPhase(sourceCode, fn, node)) return { quiet: false, inFlight: null };
    const inFlight = inFlightWork(sourceCode, node, fn);
    return { quiet: inFlight === null, inFlight };
  };
}
