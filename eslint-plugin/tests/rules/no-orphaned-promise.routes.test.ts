import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// A controller module exports async handlers; a routes module of the same package imports them
// and registers them on an `express.Router()` (fixtures/express-routes/v4 and v5, identical but
// for the declared Express major). Express 4 drops the promise a handler returns; Express 5
// passes its rejection to `next`.
const users4 = fixture('express-routes/v4/src/controllers/users.js');
const legacy4 = fixture('express-routes/v4/src/controllers/legacy.js');
const users5 = fixture('express-routes/v5/src/controllers/users.js');
const legacy5 = fixture('express-routes/v5/src/controllers/legacy.js');

// The same through a barrel (`export * from './users.js'`) that imports no framework itself: the
// registration is in the barrel's importer.
const barrelUsers = fixture('express-routes/v4-barrel/src/controllers/users.js');

const USERS = fs.readFileSync(users4, 'utf8');
const LEGACY = fs.readFileSync(legacy4, 'utf8');

const ignored = (line: number, column: number) => ({
  messageId: 'frameworkIgnoresPromise' as const,
  line,
  column,
  data: { framework: 'Express', major: '4', role: 'route handler' },
});

const cases = {
  valid: [
    // Express 5 handles the rejection of every handler the router runs.
    { code: USERS, filename: users5 },
    { code: LEGACY, filename: legacy5 },
    // Not registered anywhere: only called by a route that catches (`summarize`), or not exported.
    {
      code: `const db = require('../db');\n\nexports.summarize = async () => {\n  const rows = await db.query('select 1');\n  return rows[0];\n};`,
      filename: users4,
    },
    {
      code: `const db = require('../db');\n\nconst list = async (req, res) => {\n  res.json(await db.query('select * from users'));\n};`,
      filename: users4,
    },
    // Handed to an object that is named like a router but is not one from `express`.
    { code: fs.readFileSync(fixture('express-routes/v4/src/controllers/reports.js'), 'utf8'), filename: fixture('express-routes/v4/src/controllers/reports.js') },
    // Registered, but every error is caught and handed to the declared `next`.
    {
      code: `const db = require('../db');\n\nexports.list = async (req, res, next) => {\n  try {\n    res.json(await db.query('select * from users'));\n  } catch (error) {\n    return next(error);\n  }\n};`,
      filename: users4,
    },
  ],
  invalid: [
    // `list` by `router.get`, `show` by `router.route(…).get`; `guarded` catches into its `next`.
    { code: USERS, filename: users4, errors: [ignored(3, 16), ignored(8, 16)] },
    // The catch calls a `next` that is no parameter and no binding: it throws a ReferenceError and
    // the handler rejects. The router is an implicit global assigned once from `express.Router()`.
    { code: LEGACY, filename: legacy4, errors: [ignored(3, 18)] },
    { code: fs.readFileSync(barrelUsers, 'utf8'), filename: barrelUsers, errors: [ignored(3, 8)] },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (imported route handlers, recommended)', rule as never, cases);
createRuleTester().run<MessageId, Options>('no-orphaned-promise (imported route handlers, strict)', rule as never, cases);
