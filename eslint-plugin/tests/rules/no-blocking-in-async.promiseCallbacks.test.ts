import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester } from '../ruleTester';
import { SERVING } from './blockingCosts';

// A promise callback (`.then`, `.catch`, `.finally`) runs later, but on the same path as the code
// that registers it: in a request handler or an async function of a server, its blocking call
// stalls every other request just the same. At module top level it runs once, at startup.
createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (promise callbacks)', rule as never, {
  valid: [
    // Registered at module top level: runs once, while the process starts.
    `import fs from 'node:fs';
import { loadConfig } from './config';
loadConfig().then((config) => fs.readFileSync(config.keyPath));`,
    // Registered by a synchronous function nothing runs per request.
    `import fs from 'node:fs';
import { loadConfig } from './config';
export function warm() {
  loadConfig().then((config) => fs.readFileSync(config.keyPath));
}`,
    // A timer started in the callback runs outside it, as anywhere else.
    `import fs from 'node:fs';
export async function later(p: Promise<string>) {
  await p.then((file) => { setTimeout(() => fs.readFileSync(file), 10); });
}`,
  ],
  invalid: [
    {
      code: `import fs from 'node:fs';
import express from 'express';
import { db } from './db';
const app = express();
app.delete('/products/:id', (req, res) => {
  db.find(req.params.id)
    .then((product) => fs.readFileSync(product.manifest))
    .then(() => res.redirect('/products'), () => res.sendStatus(500));
});`,
      errors: [{
        messageId: 'blockingCall', line: 7, column: 24, suggestions: [],
        data: { cost: SERVING, name: 'fs.readFileSync', where: 'a promise callback in an express route handler (line 5)' },
      }],
    },
    {
      code: `import fs from 'node:fs';
export async function exportRows(p: Promise<string[]>) {
  return p.then((files) => files.map((f) => fs.readFileSync(f, 'utf8')));
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 45, suggestions: [],
        data: { cost: SERVING, name: 'fs.readFileSync', where: 'a promise callback in async function `exportRows` (line 2)' },
      }],
    },
    {
      code: `import { execSync } from 'node:child_process';
export async function cleanup(job: Promise<void>) {
  await job.catch(() => undefined).finally(() => execSync('rm -rf /tmp/job'));
}`,
      errors: [{
        messageId: 'blockingCall', line: 3, column: 50, suggestions: [],
        data: { cost: SERVING, name: 'child_process.execSync', where: 'a promise callback in async function `cleanup` (line 2)' },
      }],
    },
  ],
});
