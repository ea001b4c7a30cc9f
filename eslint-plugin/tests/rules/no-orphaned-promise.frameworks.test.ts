import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRuleTester, fixture } from '../ruleTester';

const ruleTester = createRuleTester();
const express4 = fixture('frameworks/express4/src/app.ts');
const express5 = fixture('frameworks/express5/src/app.ts');
const hono = fixture('frameworks/hono/src/app.ts');
const unknownVersion = fixture('src/app.ts');

const ROUTE = `import express from 'express';
const app = express();
app.get('/users/:id', async (req, res) => {
  const user = await load(req.params.id);
  res.json(user);
});
declare function load(id: string): Promise<unknown>;`;

// What a framework does with an async callback's promise depends on the framework and its major
// version (the installed one, else the lowest the declared range allows). Express 4 drops it;
// Express 5, fastify, koa, hono and NestJS handle it. With no version known, nothing changes.
ruleTester.run<MessageId, Options>('no-orphaned-promise (framework callbacks)', rule as never, {
  valid: [
    { code: ROUTE, filename: express5 },
    // The catch's `next` is the handler's parameter: the error goes to Express's error handling.
    {
      code: `const express = require('express');
const app = express();
app.get('/users/:id', async (req, res, next) => {
  try {
    res.json(await load(req.params.id));
  } catch (error) {
    return next({ status: 404, error });
  }
});
function load(id) { return Promise.reject(new Error(id)); }`,
      filename: fixture('frameworks/express4/src/app.js'),
    },
    { code: ROUTE, filename: unknownVersion },
    // Express 4, but the handler catches everything itself.
    {
      code: `import express from 'express';
const app = express();
app.get('/users/:id', async (req, res, next) => {
  try {
    res.json(await load(req.params.id));
  } catch (error) {
    next(error);
  }
});
declare function load(id: string): Promise<unknown>;`,
      filename: express4,
    },
    // hono's `app.on(method, path, handler)` is a route: hono handles its promise.
    {
      code: `import { Hono } from 'hono';
const app = new Hono();
app.on('GET', '/x', async (c) => c.json(await load()));
declare function load(): Promise<unknown>;`,
      filename: hono,
    },
  ],
  invalid: [
    {
      code: ROUTE,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 23, data: { framework: 'Express', major: '4', role: 'route handler' } }],
    },
    // The catch calls a `next` declared nowhere (the handler takes no third parameter): it throws
    // a ReferenceError, so the handler rejects anyway. With `next` declared it is valid (above).
    {
      code: `const express = require('express');
const app = express();
app.get('/users/:id', async (req, res) => {
  try {
    res.json(await load(req.params.id));
  } catch (error) {
    return next({ status: 404, error });
  }
});
function load(id) { return Promise.reject(new Error(id)); }`,
      filename: fixture('frameworks/express4/src/app.js'),
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 23, data: { framework: 'Express', major: '4', role: 'route handler' } }],
    },
    // Middleware through a router, on Express 4.
    {
      code: `import { Router } from 'express';
const router = Router();
router.use(async (req, res, next) => {
  await audit(req.path);
  next();
});
declare function audit(p: string): Promise<void>;`,
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 12, data: { framework: 'Express', major: '4', role: 'middleware' } }],
    },
    // An EventEmitter-style listener stays reported whatever the version: nothing awaits it.
    {
      code: `import { Server } from 'socket.io';
const io = new Server();
io.on('connection', (socket) => {
  socket.on('save', async (doc: string) => { await store(doc); });
});
declare function store(d: string): Promise<void>;`,
      filename: unknownVersion,
      errors: [{ messageId: 'asyncCallbackIgnored', line: 4, column: 21 }],
    },
  ],
});
