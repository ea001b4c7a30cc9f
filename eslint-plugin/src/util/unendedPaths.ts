import type { ReleaseProblem } from '../analysis';
import { exitKeyword } from './releaseFixes';

/**
 * How a transaction or a connection of its own is left open, for the problems whose advice would
 * be a plain `finally`; null for the others, which keep their own wording. A transaction is
 * committed or rolled back, which a `finally` cannot choose between; a connection is closed.
 */
export function unendedPath(kind: 'transaction' | 'connection', problem: ReleaseProblem, line: string): string | null {
  const ended = kind === 'transaction' ? 'committed or rolled back' : 'closed';
  switch (problem.kind) {
    case 'notInFinally':
      return kind === 'transaction' ? `is neither committed nor rolled back if line ${line} throws` : `is not closed if line ${line} throws`;
    case 'earlyExit':
      return `is ${kind === 'transaction' ? 'neither committed nor rolled back' : 'never closed'} on the \`${exitKeyword(problem.exit)}\` at line ${line}`;
    case 'neverReleased':
      return `is never ${ended} in this function`;
    case 'releasedOnlyInCatch':
      return `is ${kind === 'transaction' ? 'ended' : 'closed'} only in the \`catch\` at line ${line}, so a run that succeeds leaves it open`;
    case 'unreleasedPath':
      return `is not ${kind === 'transaction' ? 'ended' : 'closed'} on every path through line ${line}`;
    default:
      return null;
  }
}
