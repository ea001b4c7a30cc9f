import * as fs from 'node:fs';
import type { TestCaseError } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Code only a development process runs: a failure there stops or is printed in a developer's
// terminal, so `recommended` leaves it to `strict`. The fixtures' own text is linted.
const read = (relative: string): { code: string; filename: string } => {
  const filename = fixture(relative);
  return { code: fs.readFileSync(filename, 'utf8'), filename };
};
const WATCHER = read('dev-command/src/dev/watcher.js');
const SERVE = read('dev-command/src/lib/serve.js');
const DEV_SERVER = read('dev-modules/src/devServer.js');
const DEVTOOLS = read('dev-modules/src/devtools.js');
const EAGER = read('dev-modules/src/eagerTools.js');

/** The report on the dropped `call` (its text) at `line`:`column`, with its `void` suggestion. */
function dropped(file: { code: string }, line: number, column: number, call: string): TestCaseError<MessageId> {
  return { messageId: 'orphanedPromise', line, column, suggestions: [{ messageId: 'addVoid' as const, output: file.code.replace(call, `void ${call}`) }] };
}

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: development-only code)', rule as never, {
  valid: [WATCHER, DEV_SERVER, DEVTOOLS],
  invalid: [
    // Near misses: production runs these.
    { ...SERVE, errors: [dropped(SERVE, 1, 73, "fetch('http://audit.local/hit')")] },
    { ...EAGER, errors: [dropped(EAGER, 2, 37, "fetch('http://localhost:9229/json')")] },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: development-only code)', rule as never, {
  valid: [],
  invalid: [
    { ...WATCHER, errors: [dropped(WATCHER, 2, 65, 'compile()')] },
    { ...DEV_SERVER, errors: [dropped(DEV_SERVER, 6, 41, 'fetch(`http://localhost:3000/reload?file=${file}`)')] },
    { ...DEVTOOLS, errors: [dropped(DEVTOOLS, 2, 37, "fetch('http://localhost:9229/json')")] },
  ],
});
