import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester } from '../ruleTester';

// A project's own chunking helper is told by what it does (it slices its first parameter with
// bounds that read its second), not by its name.

const USE = (helper: string, name: string): string => `${helper}
export async function notify(ids, send) {
  for (const group of ${name}(ids, 25)) {
    await Promise.all(group.map((id) => send(id)));
  }
}`;
const SLICING = `function inGroupsOf(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}`;
const SPLICING = `const batches = (items, n = 10) => {
  const copy = [...items];
  const out = [];
  while (copy.length) out.push(copy.splice(0, n));
  return out;
};`;

createRecommendedRuleTester().run<MessageId, Options>('no-unbounded-fan-out (chunking helpers)', rule as never, {
  valid: [
    // Named like a chunker, but it does not slice its list by the size: nothing says the groups are slices.
    USE('function chunkify(list, size) { return [list, [size]]; }', 'chunkify'),
    // It slices, but not by its second parameter.
    USE('function groups(list, size) { return [list.slice(0, 3), list.slice(3)]; }', 'groups'),
  ],
  invalid: [
    { code: USE(SLICING, 'inGroupsOf'), errors: [{ messageId: 'chunkedBatch', line: 8, column: 11 }] },
    { code: USE(SPLICING, 'batches'), errors: [{ messageId: 'chunkedBatch', line: 9, column: 11 }] },
    // The same through `Array.from`.
    { code: USE(SPLICING.replace('[...items]', 'Array.from(items)'), 'batches'), errors: [{ messageId: 'chunkedBatch', line: 9, column: 11 }] },
  ],
});
