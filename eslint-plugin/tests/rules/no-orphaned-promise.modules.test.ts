import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Each case is linted as `src/app.ts` of the workspace in fixtures/modules: the imported modules
// are real files there, analysed by the same promise analysis as the linted file.
const filename = fixture('modules/src/app.ts');

const ruleTester = createRuleTester();

ruleTester.run<MessageId, Options>('no-orphaned-promise (imported functions)', rule as never, {
  valid: [
    // Awaited, returned, handled: as for a same-file async function.
    { code: "import { sendMail } from './mail';\nexport async function signUp(to: string) { await sendMail(to); }", filename },
    { code: "import { sendMail } from './mail';\nexport function signUp(to: string) { return sendMail(to); }", filename },
    { code: "import { sendMail } from './mail';\nsendMail('a').catch(console.error);", filename },
    // Not async and returns no promise: a plain helper.
    { code: "import { formatMail } from './mail';\nformatMail('a');", filename },
    // Async, but its whole body is guarded and the error goes to a logger: it cannot reject.
    { code: "import { recordAudit } from './audit';\nrecordAudit('login');", filename },
    // The same through a barrel that renames it.
    { code: "import { audit } from './index';\naudit('login');", filename },
    // A job loop that catches every error and emits it.
    { code: "import { JobLoop } from './worker';\nconst loop = new JobLoop();\nloop.run();", filename },
    // A module that does not parse, and one that is not there: known as little as before.
    { code: "import { start } from './broken';\nstart();", filename },
    { code: "import { start } from './missing';\nstart();", filename },
    // A chain whose promise cannot reject and whose callbacks cannot throw.
    { code: "import { sendMail } from './mail';\nPromise.allSettled([sendMail('a'), sendMail('b')]).finally(() => {});", filename },
    { code: "import { logResults } from './audit';\ndeclare const jobs: Promise<void>[];\nPromise.allSettled(jobs).then(logResults);", filename },
    { code: "declare const jobs: Promise<void>[];\nPromise.allSettled(jobs).then((results) => console.log(results));", filename },
    { code: "import { recordAudit } from './audit';\nrecordAudit('a').then(() => console.log('recorded'));", filename },
    // Listeners on an emitter whose `emit` awaits them: built in a project module, or a subclass from one.
    { code: "import { bus } from './events';\nbus.on('saved', async () => { await fetch('https://example.com'); });", filename },
    {
      code: "import { PromiseEventEmitter } from './events';\nconst events = new PromiseEventEmitter();\nevents.on('lint', async () => { await fetch('https://example.com'); });",
      filename,
    },
    // A timer callback with nothing in it that can throw.
    { code: "const seen = new Set<string>();\nsetTimeout(async () => { seen.clear(); }, 1000);", filename },
  ],
  invalid: [
    {
      code: "import { sendMail } from './mail';\nexport async function signUp(to: string) {\n  sendMail(to);\n}",
      filename,
      errors: [{
        messageId: 'orphanedPromise', line: 3, column: 3,
        data: { origin: '`sendMail` (async, in `./mail.ts`)', method: '' },
        suggestions: [
          { messageId: 'addAwait', output: "import { sendMail } from './mail';\nexport async function signUp(to: string) {\n  await sendMail(to);\n}" },
          { messageId: 'addVoid', output: "import { sendMail } from './mail';\nexport async function signUp(to: string) {\n  void sendMail(to);\n}" },
        ],
      }],
    },
    // Not async, but it returns a promise chain without a rejection handler.
    {
      code: "import { queueMail } from './mail';\nexport function signUp(to: string) {\n  queueMail(to);\n}",
      filename,
      errors: [{
        messageId: 'orphanedPromise', line: 3, column: 3,
        data: { origin: '`queueMail` (returns a promise, in `./mail.ts`)', method: '' },
        suggestions: [
          { messageId: 'addVoid', output: "import { queueMail } from './mail';\nexport function signUp(to: string) {\n  void queueMail(to);\n}" },
        ],
      }],
    },
    // Through a barrel's `export *`, a namespace import, a re-exported alias and a function that returns another module's promise.
    {
      code: "import { sendMail } from './index';\nsendMail('a');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { sendMail } from './index';\nvoid sendMail('a');" }] }],
    },
    {
      code: "import * as mail from './mail';\nmail.sendMail('a');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import * as mail from './mail';\nvoid mail.sendMail('a');" }] }],
    },
    {
      code: "import { relay, forward } from './relay';\nrelay('a');\nforward('b');",
      filename,
      errors: [
        { messageId: 'orphanedPromise', line: 2, column: 1, data: { origin: '`relay` (async, in `./mail.ts`)', method: '' }, suggestions: [{ messageId: 'addVoid', output: "import { relay, forward } from './relay';\nvoid relay('a');\nforward('b');" }] },
        { messageId: 'orphanedPromise', line: 3, column: 1, data: { origin: '`forward` (returns a promise, in `./relay.ts`)', method: '' }, suggestions: [{ messageId: 'addVoid', output: "import { relay, forward } from './relay';\nrelay('a');\nvoid forward('b');" }] },
      ],
    },
    // A tsconfig `paths` alias is one of the project's modules when the resolver says so, whatever it looks like.
    {
      code: "import { sendMail } from '@app/mail';\nsendMail('a');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { sendMail } from '@app/mail';\nvoid sendMail('a');" }] }],
    },
    // An anonymous default export is named as the importing file names it.
    {
      code: "import start from './startUp';\nexport function boot() {\n  start();\n}",
      filename,
      errors: [{
        messageId: 'orphanedPromise', line: 3, column: 3,
        data: { origin: '`start` (async, in `./startUp.ts`)', method: '' },
        suggestions: [{ messageId: 'addVoid', output: "import start from './startUp';\nexport function boot() {\n  void start();\n}" }],
      }],
    },
    // CommonJS: a destructured require of `module.exports = { notify }`.
    {
      code: "const { notify } = require('./legacy.cjs');\nnotify('u1');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "const { notify } = require('./legacy.cjs');\nvoid notify('u1');" }] }],
    },
    // Methods: of an exported object, of an exported instance, static, and of a local instance of an imported class.
    {
      code: "import { store, mailer, Mailer } from './store';\nstore.save('d');\nmailer.send('a');\nMailer.ping();\nconst own = new Mailer();\nown.send('b');",
      filename,
      errors: [
        { messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { store, mailer, Mailer } from './store';\nvoid store.save('d');\nmailer.send('a');\nMailer.ping();\nconst own = new Mailer();\nown.send('b');" }] },
        { messageId: 'orphanedPromise', line: 3, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { store, mailer, Mailer } from './store';\nstore.save('d');\nvoid mailer.send('a');\nMailer.ping();\nconst own = new Mailer();\nown.send('b');" }] },
        { messageId: 'orphanedPromise', line: 4, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { store, mailer, Mailer } from './store';\nstore.save('d');\nmailer.send('a');\nvoid Mailer.ping();\nconst own = new Mailer();\nown.send('b');" }] },
        { messageId: 'orphanedPromise', line: 6, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { store, mailer, Mailer } from './store';\nstore.save('d');\nmailer.send('a');\nMailer.ping();\nconst own = new Mailer();\nvoid own.send('b');" }] },
      ],
    },
    // Guarded, but the catch block rethrows: it still rejects.
    {
      code: "import { recordOrFail } from './audit';\nrecordOrFail('login');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { recordOrFail } from './audit';\nvoid recordOrFail('login');" }] }],
    },
    // Kept in a variable nobody reads.
    {
      code: "import { sendMail } from './mail';\nexport function signUp(to: string) {\n  const sent = sendMail(to);\n}",
      filename,
      errors: [{ messageId: 'unusedPromise', line: 3, column: 9, data: { name: 'sent', origin: '`sendMail` (async, in `./mail.ts`)', line: 3 } }],
    },
    // An array of them, from `map` over an imported async function.
    {
      code: "import { sendMail } from './mail';\nexport function signUp(to: string[]) {\n  to.map(sendMail);\n}",
      filename,
      errors: [{ messageId: 'orphanedPromiseArray', line: 3, column: 3, suggestions: [{ messageId: 'addVoidAll', output: "import { sendMail } from './mail';\nexport function signUp(to: string[]) {\n  void Promise.all(to.map(sendMail));\n}" }] }],
    },
    // Chains: a callback that may throw, a root that may reject.
    {
      code: "import { countResults } from './audit';\ndeclare const jobs: Promise<void>[];\nPromise.allSettled(jobs).then(countResults);",
      filename,
      errors: [{ messageId: 'unhandledChain', line: 3, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { countResults } from './audit';\ndeclare const jobs: Promise<void>[];\nvoid Promise.allSettled(jobs).then(countResults);" }] }],
    },
    {
      code: "import { sendMail } from './mail';\nsendMail('a').finally(() => {});",
      filename,
      errors: [{ messageId: 'unhandledChain', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { sendMail } from './mail';\nvoid sendMail('a').finally(() => {});" }] }],
    },
    // The name of a class says nothing: an unresolved `PromiseEventEmitter` and Node's EventEmitter ignore listener promises.
    {
      code: "import { PromiseEventEmitter } from './missing-events';\nconst events = new PromiseEventEmitter();\nevents.on('lint', async () => { await fetch('https://example.com'); });",
      filename,
      errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 19 }],
    },
    {
      code: "import { plainBus } from './events';\nplainBus.on('saved', async () => { await fetch('https://example.com'); });",
      filename,
      errors: [{ messageId: 'asyncCallbackIgnored', line: 2, column: 22 }],
    },
  ],
});

// An entry script's own top-level call is left to Node under `recommended`; an imported one is not
// the file's own entry and stays reported under both presets.
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (imported functions, recommended)', rule as never, {
  valid: [
    { code: 'async function main() { await fetch(\'https://example.com\'); }\nmain();', filename },
    { code: "import { recordAudit } from './audit';\nrecordAudit('boot');", filename },
  ],
  invalid: [
    {
      code: "import { sendMail } from './mail';\nsendMail('boot');",
      filename,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: "import { sendMail } from './mail';\nvoid sendMail('boot');" }] }],
    },
  ],
});
