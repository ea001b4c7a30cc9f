import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode, InFlight, RoleSubject } from '../analysis';
import { inFlightWork, isDevOnly, isDevOnlyModule, isStartupPhase, processRole } from '../analysis';

/** Whether no-blocking-in-async stays quiet about blocking at a place, and what else runs beside it there. */
export interface Quietness {
  quiet: boolean;
  /** Under strict, concurrent work that startup code starts itself, named in the report. */
  inFlight: InFlight | null;
}

/**
 * One-shot code (a CLI, a migration, a test) serves nobody while it blocks: even its own
 * concurrent work only finishes later. Startup (`main()` before it listens, NestJS's
 * onModuleInit) is the same: nothing is served yet, and when it starts concurrent work itself (a
 * fan-out over its plugins' folders), blocking there delays only its own start. Code that runs
 * only outside production serves no production traffic. Strict reports all of it, naming the
 * concurrent work a startup function starts.
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
    if (strict) return { quiet: false, inFlight: isStartupPhase(sourceCode, fn, node) ? inFlightWork(sourceCode, node, fn) : null };
    // A module only a development process loads (a bundler's dev server behind `if (options.dev)`).
    if (isDevOnly(sourceCode, node) || (devModule ??= isDevOnlyModule(sourceCode, subject.filename))) return { quiet: true, inFlight: null };
    oneShot ??= processRole(subject).role === 'one-shot';
    if (oneShot) return { quiet: true, inFlight: null };
    return { quiet: isStartupPhase(sourceCode, fn, node), inFlight: null };
  };
}
