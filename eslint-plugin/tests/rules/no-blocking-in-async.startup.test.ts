import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Startup reached from another module, in the workspace fixtures/startup: an exported function is
// startup when every call of it that the package shows is made at startup (a top-level `await`, a
// top-level promise chain, `require(…)()`, a dynamic import's `.then`) or from one-shot code. A
// route, a call after `listen`, a function handed on as a value, or no caller at all: reported
// as before. Each case lints the file's text as it is on disk.
const file = (name: string): { code: string; filename: string } => {
  const filename = fixture(`startup/src/${name}`);
  return { code: fs.readFileSync(filename, 'utf8'), filename };
};
/** The one read (on line 2 unless said), with its suggestion: the promise form on the same `fs` namespace. */
const reported = (name: string, line = 2) => {
  const { code, filename } = file(name);
  const output = code.replace("fs.readFileSync('a')", "await fs.promises.readFile('a')");
  return { code, filename, errors: [{ messageId: 'blockingCall' as const, line, suggestions: [{ messageId: 'useAsyncTwin' as const, output }] }] };
};

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: startup across files)', rule as never, {
  valid: [
    // `await start()` at the top level of the start script.
    file('server.js'),
    // A synchronous top-level call, and an export default called the same way.
    file('warm.js'),
    file('run.js'),
    // `import('./late.js').then((late) => late.default())` at top level.
    file('late.js'),
    // `require('./legacy.js')()` and `.then(() => loadKeys())` on the chain it starts.
    file('legacy.js'),
    file('keys.js'),
    // A class's static methods that only startup calls (`await Db.connect()` at top level), one
    // through `this.migrate()` and its own recursion.
    file('db.js'),
    // Called only through a barrel (`export * from`, `export { a as b } from`) by a function the
    // start script awaits at its top level.
    file('pages/load.js'),
    // A function the file does not export, called only by its entry.
    file('local.js'),
    // An instance method only its constructor calls (`this.init()`), of a class built at the top
    // level of the start script.
    file('bot.js'),
    // The method that sets up the module's one instance (`export default new Database()`), whose
    // other methods throw until it has run; the start script that calls it is not seen.
    file('database.js'),
    // An instance method called only through a field that holds `new Push()` in another class's
    // method, itself called only on an instance the start script builds (`hub = new Hub()`).
    file('push.js'),
    // A server's listen callback, up to its first `await`: run once, as the server starts listening.
    file('listen.js'),
    // An instance method called from a callback that `new Ident(cb)` (ident.js) runs from its
    // constructor, from its own server's listen callback or from that server's `error` listener,
    // the `new` itself in a listen callback.
    file('keeper.js'),
    // Built and initialised at startup, then handed to a function; no file
    // handedMain.js imports names `.prime` (widget.js does, outside them).
    file('handed.js'),
  ],
  invalid: [
    // Near misses of the listen callback: after its first `await`, in a timer it starts, in a
    // handler it registers, and from a callback a constructor hands to a timer (watcher.js).
    reported('listenLate.js', 7),
    reported('listenTimer.js', 8),
    reported('listenHandler.js', 7),
    reported('tail.js', 5),
    // The same, handed to a function that calls `settle()` again.
    reported('rehanded.js', 5),
    // The same barrel, to a function a route calls.
    reported('pages/serve.js'),
    // Near misses: a route runs it per request.
    reported('handle.js'),
    // Called at startup and from a route: the route decides.
    reported('shared.js'),
    // Called after the server listens.
    reported('later.js'),
    // Handed to `process.on` as a value: who calls it is not known.
    reported('passed.js'),
    // Exported, and nothing in the package imports it.
    reported('orphanExport.js'),
    // A static method a route calls, and one whose class is handed on as a value.
    reported('store.js', 3),
    reported('registry.js', 3),
    // An unexported function a route of its own file calls.
    reported('localRoute.js'),
    // The constructor's method, on an object a route builds per request.
    reported('session.js', 9),
    // Built at startup, but an importer also calls the method on the instance (per request).
    reported('cache.js', 9),
    // Set up once like database.js, but a route calls `initialize()` again per request.
    reported('resetStore.js', 6),
    // Built anew by every call; the class itself exported; no other method needs the field.
    reported('loader.js', 5),
    reported('mailer.js', 5),
    reported('settings.js', 5),
    // Refreshed at startup through one class's field, and per request through another's.
    reported('feed.js', 5),
    // Warmed at startup, but the instance is exported and a route runs it again.
    reported('pool.js', 5),
  ],
});
