import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

// CPU-heavy work in an exported helper that nothing in the package runs (fixtures/unreached-exports):
// routes/users.js, the one importer of each tool, calls `passwords.hashPassword()` and
// `passwords.checkPassword()` but never `randomPassword`, and destructures only `verify` from
// tokens.js. Its `keys` module object is handed on (exported again), own.js calls `this.hash()`
// itself, and nothing imports loaded.js (a folder a loader `require`s by computed path would look
// the same): their helpers may be run by code the lint does not see, and are reported. A helper the route runs names it.
const file = (name: string): { filename: string; code: string } => {
  const filename = fixture(`unreached-exports/src/tools/${name}`);
  return { filename, code: fs.readFileSync(filename, 'utf8') };
};
const passwords = file('passwords.js');
// The async hash's own suggestion: its first `scryptSync` awaits `crypto.scrypt` instead.
const hashedAsync = passwords.code
  .replace("require('crypto');\n", "require('crypto');\nconst { promisify } = require('util');\n")
  .replace('crypto.scryptSync(password, salt, 16)', '(await promisify(crypto.scrypt)(password, salt, 16))');
const serving = (name: string, line: number): string => `\`${name}\` (line ${line}), which this long-lived process may run while it serves`;
// A helper the login route runs is said to be run by it.
const login = (name: string, line: number, at: number): string =>
  `\`${name}\` (line ${line}), which an express route handler calls (users.js line ${at}) while the process serves`;

for (const [preset, tester] of [['recommended', createRecommendedRuleTester()], ['strict', createRuleTester()]] as const) {
  tester.run<MessageId, Options>(`no-blocking-in-async (${preset}: exported helpers no importer runs)`, rule as never, {
    valid: [],
    invalid: [
      // The async hash and the check the login route runs; not `randomPassword`, which no importer names.
      {
        ...passwords,
        errors: [
          {
            messageId: 'blockingCall', line: 5, column: 11, data: { cost: SERVING, name: 'crypto.scryptSync', where: 'async function `hashPassword` (line 3)' },
            suggestions: [{ messageId: 'useAsyncTwin', output: hashedAsync }],
          },
          { messageId: 'blockingCall', line: 7, column: 49, data: { cost: SERVING, name: 'crypto.scryptSync', where: login('checkPassword', 7, 15) } },
        ],
      },
      // `verify` is destructured by the route file; `mint` by nobody.
      {
        ...file('tokens.js'),
        errors: [{ messageId: 'blockingCall', line: 4, column: 10, data: { cost: SERVING, name: 'crypto.pbkdf2Sync', where: login('verify', 3, 16) } }],
      },
      // Near misses: the module object escapes its importer, a sibling method calls the helper by
      // member name, and a file with no importer at all.
      {
        ...file('keys.js'),
        errors: [{ messageId: 'blockingCall', line: 4, column: 10, data: { cost: SERVING, name: 'crypto.scryptSync', where: serving('derive', 3) } }],
      },
      {
        ...file('own.js'),
        errors: [{ messageId: 'blockingCall', line: 5, column: 12, data: { cost: SERVING, name: 'crypto.scryptSync', where: serving('hash', 4) } }],
      },
      {
        ...file('loaded.js'),
        errors: [{ messageId: 'blockingCall', line: 4, column: 10, data: { cost: SERVING, name: 'crypto.scryptSync', where: serving('seal', 3) } }],
      },
    ],
  });
}
