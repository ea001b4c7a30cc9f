import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Files loaded by convention, in the workspace fixtures/convention-loader: no import names a module
// folder's bootstrap.js; a loader builds its path from the folder and the fixed name
// (`path.resolve(folder, 'bootstrap.js')`, `` `${folder}/plugin.js` ``), imports it and calls its
// default. The default then runs when the loader does: at startup here, so the reads it makes (or
// a function only it calls makes) are startup work. Each case lints the file's text as it is on disk.
const file = (name: string): { code: string; filename: string } => {
  const filename = fixture(`convention-loader/src/${name}`);
  return { code: fs.readFileSync(filename, 'utf8'), filename };
};
/** The one read, with its suggestion: the promise form on the same `fs` namespace. */
const reported = (name: string, line: number) => {
  const { code, filename } = file(name);
  const output = code.replace("fs.readFileSync('a')", "await fs.promises.readFile('a')");
  return { code, filename, errors: [{ messageId: 'blockingCall' as const, line, suggestions: [{ messageId: 'useAsyncTwin' as const, output }] }] };
};

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: files loaded by convention)', rule as never, {
  valid: [
    // Two module folders' bootstrap.js, run by `runBootstraps()` before the server listens: the
    // default itself, and a function of another file only that default calls.
    file('modules/locale/bootstrap.js'),
    file('lib/catalog.js'),
    // Also called by an export that nothing in the package calls: that call runs nowhere.
    file('lib/locales.js'),
  ],
  invalid: [
    // Near misses: the same kind of loader, also called from a route, runs the plugin per request.
    reported('modules/catalog/plugin.js', 3),
    // A computed import with no fixed name (`path.join('src/tasks', name)`): who loads it is not known.
    reported('tasks/warm.js', 3),
    // Loaded by its fixed name at startup, but the module is kept in a list, not called there.
    reported('modules/locale/hooks.js', 3),
    // Called by the bootstrap and by an export a route calls: the route decides.
    reported('lib/settings.js', 4),
  ],
});
