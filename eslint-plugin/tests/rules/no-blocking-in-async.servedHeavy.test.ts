import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING, STARTUP } from './blockingCosts';

// One report per root cause (fixtures/served-heavy): lib/passwords.js's `hashPassword` derives a
// key with `scryptSync`. Three async functions in services/users.js call it, and through
// `checkPassword` so do services/audit.js's async `confirmDelete` and the login route in
// routes/sessions.js. It is reported once, at the key derivation, naming the route (a request
// handler is preferred to other async callers); none of the five calls repeats it. lib/secrets.js's
// helpers run only once per process: at a module's top level (config.js) or behind lazy
// initialisation (services/tokens.js), so recommended says nothing about them.
const file = (name: string): { filename: string; code: string } => {
  const filename = fixture(`served-heavy/src/${name}`);
  return { filename, code: fs.readFileSync(filename, 'utf8') };
};
const passwords = {
  ...file('lib/passwords.js'),
  errors: [{
    messageId: 'blockingCall' as const,
    line: 4,
    column: 10,
    data: {
      cost: SERVING,
      name: 'crypto.scryptSync',
      where: '`hashPassword` (line 3), which an express route handler calls (sessions.js line 8) while the process serves',
    },
  }],
};
const callers = [file('services/users.js'), file('services/audit.js'), file('routes/sessions.js')];

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: one report per blocking helper)', rule as never, {
  valid: [...callers, file('lib/secrets.js'), file('services/tokens.js'), file('config.js'), file('server.js')],
  invalid: [passwords],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: one report per blocking helper)', rule as never, {
  valid: callers,
  invalid: [
    passwords,
    // Strict keeps the key derivation no serving code runs, and the startup call, judged as startup.
    {
      ...file('lib/secrets.js'),
      errors: [{
        messageId: 'blockingCall', line: 8, column: 10,
        data: { cost: SERVING, name: 'crypto.pbkdf2Sync', where: '`signingKey` (line 7), which this long-lived process may run while it serves' },
      }],
    },
    {
      ...file('server.js'),
      errors: [{
        messageId: 'blockingHelper', line: 10, column: 15,
        data: { cost: STARTUP, callee: 'adminKey', chain: 'calls `crypto.pbkdf2Sync` (passwords.js line 12)', where: 'async function `start` (line 9)' },
      }],
    },
  ],
});
