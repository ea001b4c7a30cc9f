// Every untyped rule-test case, replayed under the parsers users put in front of the plugin:
// ESLint's default (espree) and hermes-eslint (Flow code bases). Their trees differ from
// typescript-eslint's in small ways (no `decorators: []` on classes, no `optional: false` on calls),
// and a rule that leans on one of those fields crashes ESLint for the whole file. Each case that
// the parser can read must lint without an exception and give the findings it gives under
// typescript-eslint's parser.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RuleTester } from '@typescript-eslint/rule-tester';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { readdirSync } from 'node:fs';
import plugin from '../src/index';
import { STRICT, testerKinds } from './ruleTester';

interface Case {
  code: string;
  filename?: string;
  options?: unknown[];
  settings?: Record<string, unknown>;
  languageOptions?: { parserOptions?: Record<string, unknown>; globals?: Record<string, unknown> };
}

interface Collected {
  suite: string;
  rule: unknown;
  kind: 'strict' | 'recommended';
  item: Case;
}

// Collect instead of run: requiring a rule test file calls `run` once per suite.
const collected: Collected[] = [];
const originalRun = RuleTester.prototype.run;
RuleTester.prototype.run = function collect(this: RuleTester, suite: string, rule: unknown, tests: { valid: readonly (string | Case)[]; invalid: readonly Case[] }) {
  const kind = testerKinds.get(this);
  if (kind === undefined || kind === 'typed') return;
  for (const item of [...tests.valid, ...tests.invalid]) collected.push({ suite, rule, kind, item: typeof item === 'string' ? { code: item } : item });
} as typeof RuleTester.prototype.run;
const rulesDir = path.join(__dirname, 'rules');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the patch above, in order
for (const file of readdirSync(rulesDir).filter((f) => f.endsWith('.test.ts')).sort()) require(path.join(rulesDir, file));
RuleTester.prototype.run = originalRun;

type Parser = Linter.Parser | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package ships no types
const hermes = require('hermes-eslint') as Linter.Parser;
const PARSERS: { name: string; parser: Parser }[] = [
  { name: 'espree', parser: undefined },
  { name: 'hermes-eslint', parser: hermes },
];

const linters = new Map<string, Linter>();
function linterFor(filename: string): Linter {
  // As RuleTester does: the file's root is the base path, so any absolute fixture path is inside it.
  const root = path.parse(filename).root;
  let linter = linters.get(root);
  if (!linter) linters.set(root, (linter = new Linter({ configType: 'flat', cwd: root })));
  return linter;
}

function verify(entry: Collected, parser: Parser | typeof tsParser): { messages: Linter.LintMessage[]; parsed: boolean } {
  const { item, kind } = entry;
  const filename = path.resolve(process.cwd(), item.filename ?? 'file.ts');
  const settings = item.settings ?? (kind === 'strict' ? STRICT : {});
  const config: Linter.Config = {
    files: ['**/*'],
    plugins: { 'async-hazards': { rules: { rule: entry.rule as never } } },
    languageOptions: {
      ...(parser ? { parser: parser as Linter.Parser } : {}),
      ecmaVersion: 'latest',
      sourceType: 'module',
      ...(item.languageOptions?.globals ? { globals: item.languageOptions.globals as never } : {}),
      ...(parser === tsParser && item.languageOptions?.parserOptions ? { parserOptions: item.languageOptions.parserOptions } : {}),
    },
    settings,
    rules: { 'async-hazards/rule': ['error', ...(item.options ?? [])] as Linter.RuleEntry },
  };
  const messages = linterFor(filename).verify(item.code, [config], filename);
  return { messages, parsed: !messages.some((m) => m.fatal) };
}

const shape = (messages: Linter.LintMessage[]) => messages.map((m) => `${m.line}:${m.column} ${m.messageId ?? m.message}`).sort();

describe('the rules under other parsers', () => {
  it('collected the untyped cases of every rule', () => {
    const suites = new Set(collected.map((c) => c.suite));
    assert.ok(collected.length > 1000, `${collected.length} cases`);
    for (const rule of ['release-in-finally', 'no-sleep-holding-permit', 'no-blocking-in-async', 'no-orphaned-promise', 'no-unbounded-fan-out']) {
      assert.ok([...suites].some((s) => s.startsWith(rule)), rule);
    }
  });

  for (const { name, parser } of PARSERS) {
    it(`${name}: no case crashes, and each case it parses gives typescript-eslint's findings`, (t) => {
      const differences: string[] = [];
      let parsed = 0;
      for (const entry of collected) {
        let result: ReturnType<typeof verify>;
        try {
          result = verify(entry, parser);
        } catch (error) {
          assert.fail(`${entry.suite}: ${(error as Error).message}\n--- code ---\n${entry.item.code}`);
        }
        if (!result.parsed) continue;
        parsed++;
        const expected = shape(verify(entry, tsParser).messages);
        const actual = shape(result.messages);
        if (JSON.stringify(expected) !== JSON.stringify(actual)) {
          differences.push(`${entry.suite} (${entry.item.filename ?? 'file.ts'}): typescript-eslint ${JSON.stringify(expected)}, ${name} ${JSON.stringify(actual)}\n${entry.item.code}`);
        }
      }
      t.diagnostic(`${name} parsed ${parsed} of ${collected.length} cases`);
      assert.ok(parsed > collected.length / 2, `${name} parsed ${parsed} of ${collected.length} cases`);
      assert.deepEqual(differences, [], `${differences.length} of ${parsed} cases differ`);
    });
  }

  it('hermes-eslint: a Flow `Promise<…>` return annotation tells a promise, as TypeScript\'s does', () => {
    const rule = plugin.rules['no-orphaned-promise'];
    const code = (returns: string) => `// @flow
class Worker {
  run(job: { id: string }): ${returns} { return this.send(job); }
  send(job: { id: string }): ${returns} { return globalThis.queue.push(job); }
  start(): void { this.run({ id: 'a' }); }
}
export default Worker;
`;
    const lint = (text: string) => verify({ suite: 'flow', rule, kind: 'strict', item: { code: text, filename: 'worker.js' } }, hermes);
    assert.deepEqual(lint(code('Promise<void>')).messages.map((m) => m.line), [5]);
    assert.deepEqual(lint(code('number')).messages, []);
  });
});
