import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// A method only the test suite calls (fixtures/test-only): `recommended` leaves what it drops to
// `strict`; the method nothing names at all (dead, or called in a way the text does not show) stays.
const filename = fixture('test-only/src/store.ts');
const code = fs.readFileSync(filename, 'utf8');
const rewrite = (line: string): string => code.replace('rows.forEach(async (row) => { await this.save(row); });', line);
const forEachAt = (line: number): { messageId: 'forEachAsync'; line: number; column: number; suggestions: { messageId: 'rewriteForOf'; output: string }[] } => ({
  messageId: 'forEachAsync', line, column: 18,
  suggestions: [{ messageId: 'rewriteForOf', output: line === 11 ? rewrite('for (const row of rows) { await this.save(row); }') : replaceLast(code) }],
});

function replaceLast(text: string): string {
  const call = 'rows.forEach(async (row) => { await this.save(row); });';
  const at = text.lastIndexOf(call);
  return `${text.slice(0, at)}for (const row of rows) { await this.save(row); }${text.slice(at + call.length)}`;
}

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: code only tests run)', rule as never, {
  valid: [],
  invalid: [{ code, filename, errors: [forEachAt(16)] }],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: code only tests run)', rule as never, {
  valid: [],
  invalid: [{ code, filename, errors: [forEachAt(11), forEachAt(16)] }],
});
