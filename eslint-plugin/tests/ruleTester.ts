import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { RuleTester } from '@typescript-eslint/rule-tester';

// node:test names its hooks `after`, not `afterAll`; RuleTester needs all four wired explicitly.
RuleTester.afterAll = after;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const FIXTURES_DIR = path.join(__dirname, 'fixtures');

/** Untyped tester: syntax and imports only, the way the rules run in a zero-setup folder. */
export function createRuleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    },
  });
}

/**
 * Typed tester: typescript-eslint's project service over `tests/fixtures`. Cases name their file
 * with `filename: 'file.ts'` (the default) or another file inside the fixtures folder.
 */
export function createTypedRuleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts*', '*.js'] },
        tsconfigRootDir: FIXTURES_DIR,
      },
    },
  });
}

/** Path of a fixture file, for `filename` in typed cases. */
export function fixture(name: string): string {
  return path.join(FIXTURES_DIR, name);
}
