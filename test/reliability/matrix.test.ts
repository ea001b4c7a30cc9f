// The TypeScript syntax matrix (matrix.ts) through plain ESLint with every rule: untyped, and typed
// with a program over a temporary folder with a tsconfig.json. No rule may throw, every fix and
// suggestion must re-parse, and each file must get the reports it was written to trigger, so a
// rule that silently skips a construct shows up as well as one that throws on it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as ts from 'typescript';
import type { Linter } from 'eslint';
import { emptyStats, formatStats, lintOne, packageProgram, parseProblem } from './corpus';
import { MATRIX, writeMatrix } from './matrix';

let dir = '';
let files: string[] = [];
let program: ts.Program | undefined;

before(() => {
  ({ dir, files } = writeMatrix());
  program = packageProgram(dir, files);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function reportedRules(messages: Linter.LintMessage[]): string[] {
  return [...new Set(messages.flatMap((m) => (m.ruleId?.startsWith('async-hazards/') ? [m.ruleId.slice('async-hazards/'.length)] : [])))].sort();
}

describe('TypeScript syntax matrix', () => {
  it('covers every TypeScript file kind', () => {
    const kinds = new Set(MATRIX.map((entry) => (entry.file.endsWith('.d.ts') ? '.d.ts' : path.extname(entry.file))));
    assert.deepEqual([...kinds].sort(), ['.cts', '.d.ts', '.mts', '.ts', '.tsx']);
  });

  MATRIX.forEach((entry, index) => {
    const file = (): string => files[index]!;
    describe(entry.file, () => {
      it('parses', () => {
        assert.equal(parseProblem(file(), entry.code), undefined);
      });

      for (const mode of ['untyped', 'typed'] as const) {
        const expected = mode === 'typed' ? [...entry.reports, ...(entry.typedReports ?? [])] : entry.reports;
        it(`${mode}: no rule throws, every fix re-parses, reports ${expected.join(', ') || 'nothing required'}`, () => {
          const typedProgram = mode === 'typed' ? program : undefined;
          if (typedProgram) assert.ok(typedProgram.getSourceFile(file()), `${entry.file} is not in the program`);
          const stats = emptyStats();
          const messages = lintOne(stats, file(), entry.code, typedProgram);
          const report = formatStats(stats, 0);
          assert.deepEqual(stats.crashes, [], report);
          assert.deepEqual(stats.fixFailures, [], report);
          assert.deepEqual(messages?.filter((m) => m.fatal) ?? [], [], report);
          const reported = reportedRules(messages ?? []);
          const missing = expected.filter((rule) => !reported.includes(rule));
          assert.deepEqual(missing, [], `${entry.file} (${mode}) reported only ${reported.join(', ') || 'nothing'}`);
        });
      }
    });
  });
});
