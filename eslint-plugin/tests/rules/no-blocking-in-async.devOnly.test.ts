import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Routes and helpers registered only outside production (a test of NODE_ENV, or a constant
// bound to one, here or in a project module: fixtures/dev-only) serve no production traffic:
// recommended leaves them to strict. What the constant is called plays no part.
const file = (name: string): { code: string; filename: string } => {
  const filename = fixture(`dev-only/src/${name}`);
  return { code: fs.readFileSync(filename, 'utf8'), filename };
};
const express = "import fs from 'node:fs';\nimport express from 'express';\nconst app = express();\n";

// A bundler's dev server in a module that fixtures/dev-modules/src/server.js loads only under
// `if (options.dev)`: its route reads the page per request, for one developer.
const DEV_SERVER = fixture('dev-modules/src/devServer.js');
// Required unconditionally by the same server: production runs it.
const VIEWS = fixture('dev-modules/src/views.js');
const VITE_ROUTE = `const fs = require('node:fs');
const { createServer } = require('vite');
module.exports = async (app) => {
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
  app.get('/', async (req, res) => {
    res.send(await vite.transformIndexHtml(req.url, fs.readFileSync('index.html', 'utf8')));
  });
};`;
const VITE_ROUTE_FIXED = VITE_ROUTE.replace("fs.readFileSync('index.html', 'utf8')", "await fs.promises.readFile('index.html', 'utf8')");

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: dev-only code)', rule as never, {
  valid: [
    `${express}if (process.env.NODE_ENV !== 'production') {
  app.get('/_debug/dump', (req, res) => res.send(fs.readFileSync('dump.json')));
}`,
    `${express}const exposeDebug = process.env.NODE_ENV === 'development';
export async function seed() { if (exposeDebug) fs.writeFileSync('seed.json', '{}'); }`,
    `${express}if (process.env.NODE_ENV === 'production') app.use(express.static('dist'));
else app.get('/hot', (req, res) => res.send(fs.readFileSync('hot.js')));`,
    { code: VITE_ROUTE, filename: DEV_SERVER },
  ],
  invalid: [
    // The isDev route is dev-only; the route under `!== 'development'` may serve production.
    { ...file('server.js'), errors: [{ messageId: 'blockingCall', line: 9 }] },
    // A static method only a dev-only route calls is quiet; one a route under `!== 'development'` calls is not.
    (() => {
      const { code, filename } = file('store.js');
      const output = code.replace("seed() { fs.copyFileSync('seed.db', 'app.db')", "seed() { await fs.promises.copyFile('seed.db', 'app.db')");
      return { code, filename, errors: [{ messageId: 'blockingCall' as const, line: 4, suggestions: [{ messageId: 'useAsyncTwin' as const, output }] }] };
    })(),
    // The same route in a module production loads.
    { code: VITE_ROUTE, filename: VIEWS, errors: [{ messageId: 'blockingCall', line: 6, column: 53, suggestions: [{ messageId: 'useAsyncTwin', output: VITE_ROUTE_FIXED }] }] },
    // A `let` export may be changed before the route is registered.
    { ...file('routes.ts'), errors: [{ messageId: 'blockingCall', line: 6 }] },
    // Near misses: a test that admits production, and code after the guarded block.
    {
      code: `${express}if (process.env.NODE_ENV !== 'test') {
  app.get('/a', (req, res) => res.send(fs.readFileSync('a')));
}
const isDev = process.env.NODE_ENV === 'development';
if (!isDev) app.get('/b', (req, res) => res.send(fs.readFileSync('b')));
if (isDev || process.env.FORCE) app.get('/c', (req, res) => res.send(fs.readFileSync('c')));`,
      errors: [
        { messageId: 'blockingCall', line: 5, column: 40 },
        { messageId: 'blockingCall', line: 8, column: 50 },
        { messageId: 'blockingCall', line: 9, column: 70 },
      ],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: dev-only code)', rule as never, {
  valid: [],
  invalid: [
    // Strict reports development aids too: they block the developer's own server.
    { ...file('server.js'), errors: [{ messageId: 'blockingCall', line: 6 }, { messageId: 'blockingCall', line: 9 }] },
    { code: VITE_ROUTE, filename: DEV_SERVER, errors: [{ messageId: 'blockingCall', line: 6, column: 53, suggestions: [{ messageId: 'useAsyncTwin', output: VITE_ROUTE_FIXED }] }] },
  ],
});
