import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Controllers whose router is not in the linted folder: each is told a handler by how it uses its
// parameters (reads `req.body`, answers with `res.status(…).json(…)`), in a package that depends
// on express. fixtures/usage-handlers/<package>/src/controller/User.js is the same file in each.
const file = (pkg: string): string => fixture(`usage-handlers/${pkg}/src/controller/User.js`);
const USER = fs.readFileSync(file('express4'), 'utf8');
const APP = fs.readFileSync(fixture('usage-handlers/async-errors/src/app.js'), 'utf8');

const ignored = (line: number, column: number, role = 'route handler') => ({
  messageId: 'frameworkIgnoresPromise' as const,
  line,
  column,
  data: { framework: 'Express', major: '4', role },
});

// `recommended` reports a handler told only by usage unless the package writes its own wrapper
// that hands a rejection to `next`: its routes, out of sight, may wrap the handler in it.
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (handlers told by usage, recommended)', rule as never, {
  valid: [
    // `(...args) => Promise.resolve(fn(...args)).catch(args[args.length - 1])`, the result held in a const first.
    { code: USER, filename: file('own-wrapper') },
    // `(handler) => async (req, res, next) => { try { await handler(…) } catch (e) { next(e) } }`.
    { code: USER, filename: file('own-wrapper-try') },
    { code: USER, filename: file('async-handler') },
    { code: USER, filename: file('express5') },
  ],
  invalid: [
    { code: USER, filename: file('express4'), errors: [ignored(3, 18)] },
    // A function that calls the handler but hands no rejection on is no wrapper.
    { code: USER, filename: file('not-a-wrapper'), errors: [ignored(3, 18)] },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (handlers told by usage)', rule as never, {
  valid: [
    // Express 5 passes the rejection to `next`.
    { code: USER, filename: file('express5') },
    // No express in the package: `req`/`res` are anyone's.
    { code: USER, filename: file('plain') },
    // The whole body is in a try whose catch hands the error on.
    {
      code: `const db = require('../db');\n\nexports.create = async (req, res, next) => {\n  try {\n    res.status(201).json(await db.insert(req.body));\n  } catch (error) {\n    next(error);\n  }\n};`,
      filename: file('express4'),
    },
    // `.status()` on a queue, not a response: nothing answers a request.
    {
      code: `const db = require('../db');\n\nexports.poll = async (job, queue) => {\n  await db.insert(job.body);\n  return queue.status(job.id);\n};`,
      filename: file('express4'),
    },
    // A helper the controller calls with its `res`: it is not registered, its caller's try keeps its rejection.
    {
      code: `const db = require('../db');\n\nasync function save(req, res) {\n  res.status(201).json(await db.insert(req.body));\n}\n\nexports.create = async (req, res) => {\n  try {\n    await save(req, res);\n  } catch (error) {\n    res.status(500).end();\n  }\n};`,
      filename: file('express4'),
    },
    // express-async-errors, required by the process entry (src/server.js), patches Express 4's router.
    { code: APP, filename: fixture('usage-handlers/async-errors/src/app.js') },
    // A package that wraps its handlers in express-async-handler: this controller's router is out of sight.
    { code: USER, filename: file('async-handler') },
    // The package sets up its server in sight (src/routes.js imports express) and registers no `create`:
    // whatever runs this function is not told by its parameters.
    { code: USER, filename: file('registered') },
    // Nor where nothing in sight imports the controller: a loader of the package's own may await it.
    { code: USER, filename: fixture('usage-handlers/module-unseen/src/controller/Product.js') },
  ],
  invalid: [
    // Express 4 drops the promise: a rejected insert leaves the request hanging.
    { code: USER, filename: file('express4'), errors: [ignored(3, 18)] },
    // `strict` reports it even where the package writes a wrapper its routes may use.
    { code: USER, filename: file('own-wrapper'), errors: [ignored(3, 18)] },
    // A middleware (calls `next()`) with an await outside any try.
    {
      code: `const db = require('../db');\n\nexports.load = async (req, res, next) => {\n  if (!req.params.id) return res.sendStatus(400);\n  req.row = await db.insert(req.params);\n  next();\n};`,
      filename: file('express4'),
      errors: [ignored(3, 16, 'middleware')],
    },
    // Declared express-async-errors, but nothing requires it: the router is not patched.
    { code: APP, filename: fixture('usage-handlers/async-errors-unused/src/app.js'), errors: [ignored(6, 20)] },
    // Depending on express-async-handler does not wrap a handler registered in sight on `express.Router()`.
    {
      code: fs.readFileSync(fixture('usage-handlers/registered/src/routes.js'), 'utf8'),
      filename: fixture('usage-handlers/registered/src/routes.js'),
      errors: [ignored(6, 23)],
    },
  ],
});
