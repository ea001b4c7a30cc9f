import type { MessageId as BlockingId, Options as BlockingOptions } from '../../src/rules/no-blocking-in-async';
import blocking from '../../src/rules/no-blocking-in-async';
import type { MessageId as OrphanedId, Options as OrphanedOptions } from '../../src/rules/no-orphaned-promise';
import orphaned from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

// A route registered on a receiver the file cannot resolve: the app handed to a routes module
// (`module.exports = (app) => { app.get(…) }`), a router imported from one of the project's
// modules, an implicit global. In a package that depends on express, an HTTP verb with a route
// path and a callback that uses its parameters as Express's request and response is a route.
const express4 = fixture('usage-handlers/express4/src/routes/api.js');
const express5 = fixture('usage-handlers/express5/src/routes/api.js');
const plain = fixture('usage-handlers/plain/src/routes/api.js');

const READ = `const fs = require('fs');
module.exports = function routes(app) {
  app.get('/api/data', (req, res) => {
    res.json(JSON.parse(fs.readFileSync('./data.json', 'utf8'))[req.query.key]);
  });
};`;
const IMPORTED = `const fs = require('fs');
const router = require('./router');
router.post('/upload', (req, res) => {
  fs.writeFileSync('./uploads/' + req.params.name, req.body);
  res.status(201).end();
});`;
const GLOBAL = `const fs = require('fs');
app.get('/report', (req, res) => res.send(fs.readFileSync('./reports/' + req.params.id)));`;
const blockingAt = (line: number, column: number, name: string, where: string) => ({ messageId: 'blockingCall' as const, line, column, data: { cost: SERVING, name, where } });

const blockingCases = {
  valid: [
    // No express in the package: `req`/`res` are anyone's.
    { code: READ, filename: plain },
    // A receiver from a package is that package's to say (here an unknown router package).
    { code: READ.replace("module.exports = function routes(app) {", "const app = require('some-router')();\n{"), filename: express4 },
    // Not a route path, and parameters not used as a request and response.
    { code: "const fs = require('fs');\nmodule.exports = (store) => {\n  store.get('config', (err, value) => console.log(fs.readFileSync(value)));\n};", filename: express4 },
    // A parameter declared with a type says what it is: a typed object of no known framework.
    { code: "import fs from 'fs';\nexport function routes(app: { get(p: string, f: (req: any, res: any) => void): void }) {\n  app.get('/x', (req, res) => res.json(fs.readFileSync(req.query.f)));\n}", filename: fixture('usage-handlers/express4/src/routes/typed.ts') },
    // The response is never answered: only read, as a helper would.
    { code: "const fs = require('fs');\nmodule.exports = (app) => {\n  app.get('/x', (req, res) => { console.log(req.query, res.locals, fs.readFileSync('x')); });\n};", filename: express4 },
  ],
  invalid: [
    { code: READ, filename: express4, errors: [blockingAt(4, 25, 'fs.readFileSync', 'an express route handler (line 3)')] },
    { code: IMPORTED, filename: express4, errors: [blockingAt(4, 3, 'fs.writeFileSync', 'an express route handler (line 3)')] },
    { code: GLOBAL, filename: express5, errors: [blockingAt(2, 43, 'fs.readFileSync', 'an express route handler (line 2)')] },
  ],
};

createRuleTester().run<BlockingId, BlockingOptions>('no-blocking-in-async (routes told by usage)', blocking as never, blockingCases);
createRecommendedRuleTester().run<BlockingId, BlockingOptions>('no-blocking-in-async (routes told by usage, recommended)', blocking as never, blockingCases);

const ASYNC_ROUTE = `const db = require('../db');
module.exports = (app) => {
  app.get('/users/:id', async (req, res) => {
    const user = await db.find(req.params.id);
    res.json(user);
  });
};`;
const orphanedCases = {
  valid: [
    // Express 5 passes a rejection to `next`.
    { code: ASYNC_ROUTE, filename: express5 },
    // The whole body is guarded.
    { code: ASYNC_ROUTE.replace("const user = await db.find(req.params.id);\n    res.json(user);", "try {\n      res.json(await db.find(req.params.id));\n    } catch (e) {\n      res.status(500).end();\n    }"), filename: express4 },
  ],
  invalid: [
    {
      code: ASYNC_ROUTE,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise' as const, line: 3, column: 25, data: { framework: 'Express', major: '4', role: 'route handler' } }],
    },
  ],
};

createRuleTester().run<OrphanedId, OrphanedOptions>('no-orphaned-promise (routes told by usage)', orphaned as never, orphanedCases);
createRecommendedRuleTester().run<OrphanedId, OrphanedOptions>('no-orphaned-promise (routes told by usage, recommended)', orphaned as never, orphanedCases);
