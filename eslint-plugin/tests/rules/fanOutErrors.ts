import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';

// Expected errors shared by the fan-out test files whose folder declares neither p-map nor p-limit.
type FanOutError = InvalidTestCase<MessageId, Options>['errors'][number];

export const report = (line: number, column = 9): FanOutError => ({ messageId: 'unboundedFanOut', line, column, suggestions: [] });

export const dropped = (line: number, method: string, source: string): FanOutError =>
  ({ messageId: 'unawaitedFanOut', line, column: 3, data: { method, source, remedy: 'Add `p-map` (or `p-limit`) to package.json and bound it to 8 at a time.' }, suggestions: [] });

/** A chunked batch: slices of `size` from `source`, walked by the loop at line `loop`. */
export const chunked = (line: number, column: number, size: string, source: string, loop: number) => ({
  messageId: 'chunkedBatch' as const,
  line,
  column,
  data: { method: 'all', size, source, line: loop, remedy: `Add \`p-map\` (or \`p-limit\`) to package.json and bound it to ${size.replace(/`/g, '')} at a time.` },
  suggestions: [],
});
