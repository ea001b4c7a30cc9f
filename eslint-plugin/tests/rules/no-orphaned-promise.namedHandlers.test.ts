import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRuleTester, fixture } from '../ruleTester';

const ruleTester = createRuleTester();
const express4 = fixture('frameworks/express4/src/app.ts');
const express5 = fixture('frameworks/express5/src/app.ts');

const DECLARATION = `import express from 'express';
const app = express();
async function show(req, res) {
  const user = await db.query(req.params.id);
  res.json(user);
}
app.get('/users/:id', show);
declare const db: { query(id: string): Promise<unknown> };`;

const CONST_ARROW = `import express from 'express';
const app = express();
const show = async (req, res) => {
  const user = await db.query(req.params.id);
  res.json(user);
};
app.get('/users/:id', show);
declare const db: { query(id: string): Promise<unknown> };`;

const EXPRESS_4 = { framework: 'Express', major: '4', role: 'route handler' };

// A handler written elsewhere in the file and registered by name gets the same verdict as one
// written inline at its registration: Express 4 drops its promise, Express 5 handles it.
ruleTester.run<MessageId, Options>('no-orphaned-promise (handlers registered by name)', rule as never, {
  valid: [
    { code: DECLARATION, filename: express5 },
    { code: CONST_ARROW, filename: express5 },
    // The whole body is guarded: nothing can reject.
    {
      code: `import express from 'express';
const app = express();
async function show(req, res) {
  try {
    res.json(await db.query(req.params.id));
  } catch (error) {
    res.status(500).end();
  }
}
app.get('/users/:id', show);
declare const db: { query(id: string): Promise<unknown> };`,
      filename: express4,
    },
    // Never registered: only called and awaited.
    {
      code: `import express from 'express';
const app = express();
async function show(req, res) {
  res.json(await db.query(req.params.id));
}
app.get('/users/:id', async (req, res, next) => { try { await show(req, res); } catch (error) { next(error); } });
declare const db: { query(id: string): Promise<unknown> };`,
      filename: express4,
    },
    // Reassigned before registration: the name no longer tells which function runs.
    {
      code: `import express from 'express';
const app = express();
let show = async (req, res) => {
  res.json(await db.query(req.params.id));
};
show = (req, res) => { res.end(); };
app.get('/users/:id', show);
declare const db: { query(id: string): Promise<unknown> };`,
      filename: express4,
    },
  ],
  invalid: [
    {
      code: DECLARATION,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 1, data: EXPRESS_4 }],
    },
    {
      code: CONST_ARROW,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 14, data: EXPRESS_4 }],
    },
    // Also awaited where it is called directly: the registration still drops its promise.
    {
      code: `import express from 'express';
const app = express();
async function show(req, res) {
  res.json(await db.query(req.params.id));
}
app.get('/users/:id', show);
export async function warm(req, res) {
  await show(req, res);
}
declare const db: { query(id: string): Promise<unknown> };`,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 1, data: EXPRESS_4 }],
    },
  ],
});
