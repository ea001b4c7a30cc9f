import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING, STARTUP } from './blockingCosts';

// A plugin hook the framework calls by name (fixtures/route-setup: plugins/index.js loads each hook
// file by computed path, so no caller is known) that reads its locale files and then mounts the
// route serving them: the reads run as the routes are mounted, once per start, not per request.
// Near misses: the same mount run from a reload route, and a hook that registers an event
// listener rather than a route.
const file = (name: string): { code: string; filename: string } => {
  const filename = fixture(`route-setup/src/plugins/${name}`);
  return { code: fs.readFileSync(filename, 'utf8'), filename };
};
/** Under strict, the startup reads are worded for startup: nothing says the process serves yet. */
const readsIn = (caller: string, cost = SERVING) => {
  const where = `\`readLocales\` (line 4), which async function \`${caller}\` calls (line 11)${cost === SERVING ? ' while the process serves' : ''}`;
  return [
    { messageId: 'blockingCall' as const, line: 6, column: 22, data: { cost, name: 'fs.readdirSync', where } },
    { messageId: 'blockingCall' as const, line: 6, column: 83, data: { cost, name: 'fs.readFileSync', where } },
  ];
};

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: work before a hook mounts its route)', rule as never, {
  valid: [file('i18n.js')],
  invalid: [
    { ...file('reload.js'), errors: readsIn('serveLocales') },
    { ...file('events.js'), errors: readsIn('mount') },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: work before a hook mounts its route)', rule as never, {
  valid: [],
  invalid: [{ ...file('i18n.js'), errors: readsIn('mount', STARTUP) }],
});
