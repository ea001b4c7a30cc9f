import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { RuleTester } from '@typescript-eslint/rule-tester';

// node:test names its hooks `after`, not `afterAll`; RuleTester needs all four wired explicitly.
RuleTester.afterAll = after;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const FIXTURES_DIR = path.join(__dirname, 'fixtures');

/**
 * Rule tests run under the `strict` preset: every shape a rule can find is reported there.
 * What `recommended` leaves out for context is tested with `createRecommendedRuleTester`, with
 * near misses on both sides. A case that sets its own `settings['async-hazards']` says
 * `preset: 'strict'` itself.
 */
export const STRICT = { 'async-hazards': { preset: 'strict' } };

/** Which factory made a tester: the parser sweep (parsers.test.ts) replays the untyped ones' cases. */
export const testerKinds = new WeakMap<RuleTester, 'strict' | 'recommended' | 'typed'>();

function made(tester: RuleTester, kind: 'strict' | 'recommended' | 'typed'): RuleTester {
  testerKinds.set(tester, kind);
  return tester;
}

/** Untyped tester: syntax and imports only, the way the rules run in a zero-setup folder. */
export function createRuleTester(): RuleTester {
  return made(new RuleTester({
    languageOptions: {
      parserOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    },
    settings: STRICT,
  }), 'strict');
}

/** Untyped tester under `recommended`, the preset with no setting. */
export function createRecommendedRuleTester(): RuleTester {
  return made(new RuleTester({
    languageOptions: {
      parserOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    },
  }), 'recommended');
}

/**
 * Typed tester: typescript-eslint's project service over `tests/fixtures`. Cases name their file
 * with `filename: 'file.ts'` (the default) or another file inside the fixtures folder.
 */
export function createTypedRuleTester(): RuleTester {
  return made(new RuleTester({
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts*', '*.js'] },
        tsconfigRootDir: FIXTURES_DIR,
      },
    },
    settings: STRICT,
  }), 'typed');
}

/** Path of a fixture file, for `filename` in typed cases. */
export function fixture(name: string): string {
  return path.join(FIXTURES_DIR, name);
}
