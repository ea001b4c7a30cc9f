import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

const ruleTester = createRuleTester();
const nextRoute = fixture('next-app/app/api/users/route.ts');
const notNext = fixture('app/api/users/route.ts');

// A function a server framework runs per request is concurrent context even when it is
// synchronous: while it blocks, every other request waits. What makes it a handler is what the
// receiver is (built by the framework, handed over by it, or declared with its type), never a name.
ruleTester.run<MessageId, Options>('no-blocking-in-async (request handlers)', rule as never, {
  valid: [
    // An object that only looks like a router.
    `import fs from 'node:fs';
const app = { get(path: string, fn: () => void) { fn(); } };
app.get('/x', () => fs.readFileSync('x'));`,
    // A parameter named `app` with no type: nothing says what it is.
    `import fs from 'node:fs';
export function routes(app: any) { app.get('/x', (req: unknown, res: { send(b: Buffer): void }) => res.send(fs.readFileSync('x'))); }`,
    // `listen` runs its callback once, at startup.
    `import fs from 'node:fs';
import express from 'express';
const app = express();
app.listen(3000, () => console.log(fs.readFileSync('banner.txt', 'utf8')));`,
    // Module top level and `app.set` run once.
    `import fs from 'node:fs';
import express from 'express';
const app = express();
app.set('views', fs.readdirSync('views'));`,
    // Blocking work in a timer started by the handler runs outside it (and is another matter).
    `import fs from 'node:fs';
import express from 'express';
const app = express();
app.get('/x', (req, res) => { setTimeout(() => fs.readFileSync('x'), 10); res.end(); });`,
    // A socket.io socket's `connect`/`connection` are not message events of a socket.
    `import fs from 'node:fs';
import { Server } from 'socket.io';
const io = new Server();
io.on('connection', (socket) => { socket.on('chat', (msg: string) => socket.emit('ok', msg)); });`,
    // A reassigned variable may hold anything.
    `import fs from 'node:fs';
import express from 'express';
let app = express();
app = makeOther();
app.get('/x', () => fs.readFileSync('x'));
declare function makeOther(): any;`,
    // `route.ts` outside a package that depends on Next.js is no route handler.
    { code: `import fs from 'node:fs';\nexport function GET() { return new Response(fs.readFileSync('x')); }`, filename: notNext },
    // A helper that does not block, called from a handler.
    `import express from 'express';
const app = express();
function shape(x: number) { return { x }; }
app.get('/x', (req, res) => res.json(shape(1)));`,
    // A request handler reading a value computed once at startup.
    `import fs from 'node:fs';
import express from 'express';
const app = express();
const page = fs.readFileSync('index.html', 'utf8');
app.get('/', (req, res) => res.send(page));`,
      // The abort helper touches the file only when \`dest\` holds a path; both calls come before
    // it is first assigned, so neither \`fs\` call runs from them.
    `import fs from 'node:fs';
import express from 'express';
const app = express();
app.post('/upload', (req, res) => {
  let dest: string | null;
  const abort = (message: string) => {
    if (dest && fs.existsSync(dest)) { fs.unlinkSync(dest); dest = null; }
    return res.status(400).json({ error: message });
  };
  if (!req.headers['content-type']) return abort('no type');
  if (!req.body) return abort('no body');
  dest = '/tmp/' + String(Date.now());
  res.end();
});`,
  ],
  invalid: [
    {
      code: `const express = require('express');
const fs = require('fs');
const app = express();
app.get('/users', (req, res) => {
  res.json(JSON.parse(fs.readFileSync('db.json', 'utf8')));
});`,
      errors: [{
        messageId: 'blockingCall', line: 5, column: 23,
        data: { cost: SERVING, name: 'fs.readFileSync', where: 'an express route handler (line 4)' },
        suggestions: [],
      }],
    },
    // A router, a named handler, and a same-file helper that blocks.
    {
      code: `import { Router } from 'express';
import { execSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
const router = Router();
function hash(pw: string) { return scryptSync(pw, 'salt', 64).toString('hex'); }
function signup(req: { body: { pw: string } }, res: { json(x: unknown): void }) {
  res.json({ hash: hash(req.body.pw) });
}
router.post('/signup', signup);
router.route('/deploy').post((req, res) => res.send(execSync('git pull').toString()));`,
      errors: [
        // The key derivation is reported where it runs; the route's call of `hash` is not said again.
        {
          messageId: 'blockingCall', line: 5, column: 36,
          data: { cost: SERVING, name: 'crypto.scryptSync', where: '`hash` (line 5), which express route handler `signup` calls (line 7) while the process serves' },
        },
        { messageId: 'blockingCall', line: 10, column: 53, suggestions: [] },
      ],
    },
    // Handlers in a routes module that receives the app, declared with express's type.
    {
      code: `import type { Express } from 'express';
import zlib from 'node:zlib';
export default function routes(app: Express) {
  app.get('/gz', (req, res) => res.end(zlib.gzipSync(Buffer.from('x'))));
}`,
      errors: [{ messageId: 'blockingCall', line: 4, column: 40, data: { cost: SERVING, name: 'zlib.gzipSync', where: 'an express route handler (line 4)' } }],
    },
    // A controller declared with express's request type, registered in another file.
    {
      code: `import type { Request, Response } from 'express';
import { writeFileSync } from 'node:fs';
export function save(req: Request, res: Response) {
  writeFileSync('db.json', JSON.stringify(req.body));
  res.end();
}`,
      errors: [{ messageId: 'blockingCall', line: 4, column: 3, data: { cost: SERVING, name: 'fs.writeFileSync', where: 'express route handler `save` (line 3)' } }],
    },
    // fastify: a route's options handler, a hook, and a plugin's instance.
    {
      code: `import Fastify from 'fastify';
import fs from 'node:fs';
const app = Fastify();
app.route({ method: 'GET', url: '/a', handler: () => fs.readFileSync('a') });
app.addHook('onRequest', (req, reply, done) => { fs.statSync('b'); done(); });
app.register((instance, opts, done) => { instance.get('/c', () => fs.readFileSync('c')); done(); });`,
      errors: [
        { messageId: 'blockingCall', line: 4, column: 54, data: { cost: SERVING, name: 'fs.readFileSync', where: 'fastify route handler `handler` (line 4)' } },
        { messageId: 'blockingCall', line: 5, column: 50, data: { cost: SERVING, name: 'fs.statSync', where: 'a fastify hook (line 5)' } },
        { messageId: 'blockingCall', line: 6, column: 67, data: { cost: SERVING, name: 'fs.readFileSync', where: 'a fastify route handler (line 6)' } },
      ],
    },
    // koa middleware and a @koa/router route.
    {
      code: `import Koa from 'koa';
import Router from '@koa/router';
import fs from 'node:fs';
const app = new Koa();
const router = new Router();
app.use((ctx, next) => { ctx.body = fs.readFileSync('a'); return next(); });
router.get('/b', (ctx) => { ctx.body = fs.readFileSync('b'); });`,
      errors: [
        { messageId: 'blockingCall', line: 6, column: 37, data: { cost: SERVING, name: 'fs.readFileSync', where: 'a koa middleware (line 6)' } },
        { messageId: 'blockingCall', line: 7, column: 40, data: { cost: SERVING, name: 'fs.readFileSync', where: 'a koa route handler (line 7)' } },
      ],
    },
    // hono and node's own HTTP server.
    {
      code: `import { Hono } from 'hono';
import http from 'node:http';
import fs from 'node:fs';
const app = new Hono();
app.get('/a', (c) => c.text(fs.readFileSync('a', 'utf8')));
http.createServer((req, res) => res.end(fs.readFileSync('b'))).listen(8080);`,
      errors: [
        { messageId: 'blockingCall', line: 5, column: 29, data: { cost: SERVING, name: 'fs.readFileSync', where: 'a hono route handler (line 5)' } },
        { messageId: 'blockingCall', line: 6, column: 41, data: { cost: SERVING, name: 'fs.readFileSync', where: 'an HTTP server request listener (line 6)' } },
      ],
    },
    // socket.io and ws: listeners on the socket each connection hands over.
    {
      code: `import { Server } from 'socket.io';
import { WebSocketServer } from 'ws';
import fs from 'node:fs';
const io = new Server();
io.on('connection', (socket) => {
  socket.on('history', () => socket.emit('history', fs.readFileSync('log.txt', 'utf8')));
});
const wss = new WebSocketServer({ port: 8080 });
wss.on('connection', (ws) => ws.on('message', (data) => fs.appendFileSync('log.txt', String(data))));`,
      errors: [
        { messageId: 'blockingCall', line: 6, column: 53, data: { cost: SERVING, name: 'fs.readFileSync', where: 'a socket.io message listener (line 6)' } },
        { messageId: 'blockingCall', line: 9, column: 57, data: { cost: SERVING, name: 'fs.appendFileSync', where: 'a ws message listener (line 9)' } },
      ],
    },
    // Near misses of the unset guard: a call after the assignment, and one inside the loop that
    // assigns it. The first `abort` has a call the guard quiets, so its other call keeps the
    // report; the second runs only from its handler, so the report is at its blocking call.
    {
      code: `import fs from 'node:fs';
import express from 'express';
const app = express();
app.post('/upload', (req, res) => {
  let dest: string | undefined;
  const abort = () => { if (dest && fs.existsSync(dest)) fs.unlinkSync(dest); res.end(); };
  if (!req.body) return abort();
  dest = '/tmp/x';
  abort();
});
app.post('/batch', (req, res) => {
  let dest: string | undefined;
  const abort = () => { if (dest) fs.unlinkSync(dest); };
  for (const part of req.body.parts) { if (!part) abort(); dest = part; }
  res.end();
});`,
      errors: [
        { messageId: 'blockingHelper', line: 9, column: 3, data: { cost: SERVING, callee: 'abort', chain: 'calls `fs.existsSync` (line 6)', where: 'an express route handler (line 4)' } },
        { messageId: 'blockingCall', line: 13, column: 35, data: { cost: SERVING, name: 'fs.unlinkSync', where: '`abort` (line 13), which an express route handler calls (line 14) while the process serves' } },
      ],
    },
    // NestJS: a route method of a controller.
    {
      code: `import { Controller, Get } from '@nestjs/common';
import { readFileSync } from 'node:fs';
@Controller('files')
export class FilesController {
  @Get()
  list() { return readFileSync('index.json', 'utf8'); }
}`,
      errors: [{ messageId: 'blockingCall', line: 6, column: 19, data: { cost: SERVING, name: 'fs.readFileSync', where: 'nestjs route handler `list` (line 6)' } }],
    },
    // Next.js: a route handler exported from app/…/route.ts in a package that depends on next.
    {
      code: `import fs from 'node:fs';
export function GET() {
  return new Response(fs.readFileSync('data.json'));
}`,
      filename: nextRoute,
      errors: [{ messageId: 'blockingCall', line: 3, column: 23, data: { cost: SERVING, name: 'fs.readFileSync', where: 'next route handler `GET` (line 2)' } }],
    },
  ],
});
