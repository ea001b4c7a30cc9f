import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// The code is linted as src/services/modReview.ts of fixtures/awaited-imports, whose db/ folder is
// not there. A function of that folder is a promise when the program awaits or chains a call of
// it: here, or in src/services/addReview.ts, which awaits `insertLog` and `reviews.insert` and
// chains `reviews.count(…).then(…)`.
const filename = fixture('awaited-imports/src/services/modReview.ts');

/** The report on `call` in `code`, with its `await` (in an async function) and `void` suggestions. */
const dropped = (code: string, call: string, line: number, column: number, origin: string, inAsync = true) => ({
  messageId: 'orphanedPromise' as const, line, column, data: { origin, method: '' },
  suggestions: [
    ...(inAsync ? [{ messageId: 'addAwait' as const, output: code.replace(call, `await ${call}`) }] : []),
    { messageId: 'addVoid' as const, output: code.replace(call, `void ${call}`) },
  ],
});

const RAISED = "import insertLog from './db/insertLog';\nexport async function f(ctx: object, up: boolean) {\n  if (up) insertLog(ctx, 'raised');\n}";
const EDITED = "import * as store from './db/reviews';\nexport async function f(id: string) {\n  store.insert(id, 'edited');\n}";
const COUNTED = "import { count } from './db/reviews';\nexport function f(id: string) {\n  count(id);\n}";
const RECOUNTED = "const { recount } = require('./db/reviews');\nasync function f(id) {\n  await recount(id);\n  recount(id);\n}\nmodule.exports = f;";

const cases = {
  valid: [
    // Never awaited anywhere: nothing says it returns a promise.
    "import { recount } from './db/reviews';\nexport async function f() {\n  recount('a');\n}",
    // Another export of the same module is awaited, not this one.
    "import * as reviews from './db/reviews';\nexport async function f() {\n  await reviews.insert('a', 'b');\n  reviews.recount('a');\n}",
    // The same name from another module that is not there either.
    "import insertLog from './db/otherLog';\nexport async function f(ctx: object) {\n  insertLog(ctx, 'x');\n}",
    // The callback form answers through its callback.
    "import * as pool from './db/pool';\nexport async function f() {\n  const c = await pool.getConnection();\n  pool.getConnection((err: Error, conn: unknown) => console.log(err, conn));\n  return c;\n}",
    // Handled where it is dropped, or detached on purpose.
    "import insertLog from './db/insertLog';\nexport async function f(ctx: object) {\n  insertLog(ctx, 'x').catch(console.error);\n}",
    "import insertLog from './db/insertLog';\nexport async function f(ctx: object) {\n  void insertLog(ctx, 'x');\n}",
    // A module that is there is read instead (`./addReview` exports a real async function, awaited).
    "import { addReview } from './addReview';\nexport async function f() {\n  await addReview({ id: 'a' }, 'b');\n}",
  ],
  invalid: [
    // Awaited in another file of the package.
    { code: RAISED, errors: [dropped(RAISED, "insertLog(ctx, 'raised')", 3, 11, '`insertLog` (awaited in `./addReview.ts`)')] },
    // A member of a namespace import, awaited there; the evidence does not depend on the local name.
    { code: EDITED, errors: [dropped(EDITED, "store.insert(id, 'edited')", 3, 3, '`store.insert` (awaited in `./addReview.ts`)')] },
    // Chained with `.then` there.
    { code: COUNTED, errors: [dropped(COUNTED, 'count(id)', 3, 3, '`count` (awaited in `./addReview.ts`)', false)] },
    // Awaited in this same file: the nearer evidence is named.
    { code: RECOUNTED, errors: [dropped(RECOUNTED, 'recount(id);\n}', 4, 3, '`recount` (awaited at line 3)')] },
  ],
};

createRuleTester().run<MessageId, Options>('no-orphaned-promise (unreadable modules, told by usage)', rule as never, {
  valid: cases.valid.map((code) => ({ code, filename })),
  invalid: cases.invalid.map((c) => ({ ...c, filename })),
});

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (unreadable modules, told by usage, recommended)', rule as never, {
  valid: cases.valid.map((code) => ({ code, filename })),
  invalid: cases.invalid.map((c) => ({ ...c, filename })),
});
