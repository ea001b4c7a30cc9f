import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

// Blocking helpers exported by the project's own modules (tests/fixtures/summaries): the chain is
// followed into `store.js` and the modules it imports, and reported at the call.
const ruleTester = createRuleTester();
const recommended = createRecommendedRuleTester();
const routes = fixture('summaries/src/routes.js');
const service = fixture('summaries/src/service.ts');

const cases = {
  valid: [
    // A helper that does not block: its module imports `fs`, but `formatName` never calls it.
    {
      filename: routes,
      code: `const express = require('express');
const { formatName } = require('./store');
const app = express();
app.get('/name', (req, res) => res.send(formatName(req.query)));`,
    },
    // A handler that only reads a cached value: the helper reads its file once per process.
    {
      filename: service,
      code: `import express from 'express';
import { getConfig } from './config';
const app = express();
app.get('/config', (_req, res) => { res.json(getConfig()); });`,
    },
    // The call site itself runs once: the helper's result is kept in a module slot.
    {
      filename: routes,
      code: `const { register } = require('./store');
let admin;
module.exports = async function seed() {
  admin ??= register({ password: 'x' });
  return admin;
};`,
    },
    // A module that cannot be read (it does not parse) or does not exist: nothing is known, nothing is reported.
    {
      filename: routes,
      code: `const { saveAll } = require('./broken');
const { saveDb } = require('./missing');
module.exports = async function handler(data) { saveAll(data); saveDb(data); };`,
    },
    // An imported async helper: its blocking call is reported in its own module, not at every caller.
    {
      filename: service,
      code: `import { listOrders } from './orders';
export async function orders(c: string) { return listOrders(c); }`,
    },
    // Outside async code and request handlers the imported helper stalls nothing else.
    {
      filename: routes,
      code: `const { saveDb } = require('./store');
saveDb({});`,
    },
  ],
  invalid: [
    // A synchronous express handler: the helper writes its JSON "database" on every request.
    {
      filename: routes,
      code: `const express = require('express');
const { saveDb } = require('./store');
const app = express();
app.post('/items', (req, res) => {
  saveDb(req.body);
  res.end();
});`,
      errors: [{
        messageId: 'blockingHelper' as const,
        line: 5,
        column: 3,
        data: {
          cost: SERVING,
          callee: 'saveDb',
          chain: 'calls `fs.writeFileSync` (store.js line 6)',
          where: 'an express route handler (line 4)',
        },
      }],
    },
    // Through the module's own helper into the module it imports: every step names its file. The
    // key derivation that `register()` reaches is CPU-heavy work reported once where it is, in
    // lib/hash.js; its call here defers to that report.
    {
      filename: service,
      code: `import * as store from './store';
export async function signUp(user: { password: string }) {
  store.writeAll(user);
  return store.register(user);
}`,
      errors: [
        {
          messageId: 'blockingHelper' as const,
          line: 3,
          column: 3,
          data: {
            cost: SERVING,
            callee: 'writeAll',
            chain: 'calls `saveDb()` (store.js line 10), which calls `fs.writeFileSync` (store.js line 6)',
            where: 'async function `signUp` (line 2)',
          },
        },
      ],
    },
  ],
};

ruleTester.run<MessageId, Options>('no-blocking-in-async (imported helpers)', rule as never, cases);
// The same under recommended: a request path is where blocking counts there too.
recommended.run<MessageId, Options>('no-blocking-in-async (imported helpers, recommended)', rule as never, cases);
