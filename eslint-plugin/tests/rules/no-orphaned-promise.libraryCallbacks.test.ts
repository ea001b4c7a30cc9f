import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Library APIs that keep a callback and drop the promise it returns: `listen(…, cb)` on a server
// (Node, Express, Koa, fastify), the methods of a @grpc/grpc-js service implementation, and the
// event handlers of an async (caolan) 3 queue. The receiver is told by what it is, never by its name.
const v3 = fixture('library-callbacks/v3/src/server.ts');
const v2 = fixture('library-callbacks/v2/src/server.ts');

const GRPC = `import { Server } from '@grpc/grpc-js';
const server = new Server();
server.addService(definition, {
  scan: async (call, callback) => {
    const page = await fetch(call.request.url);
    callback(null, { status: page.status });
  },
});`;
const GRPC_METHOD = `import * as grpc from '@grpc/grpc-js';
let server: grpc.Server;
export function start() {
  server = new grpc.Server();
  server.addService(definition, {
    async scan(call, callback) {
      const page = await fetch(call.request.url);
      callback(null, { status: page.status });
    },
  });
}`;
const GRPC_NAMED = `const grpc = require('@grpc/grpc-js');
const server = new grpc.Server();
async function scan(call, callback) {
  const page = await fetch(call.request.url);
  callback(null, { status: page.status });
}
const implementation = { scan };
server.addService(definition, implementation);`;
const FASTIFY = `import Fastify from 'fastify';
const server = Fastify();
server.listen({ port: 3000 }, async (err) => {
  await fetch('https://api.example.test/setWebhook');
});`;
const EXPRESS = `const express = require('express');
const app = express();
app.listen(3000, async () => {
  await fetch('https://api.example.test/register');
});`;
const HTTP = `import http from 'node:http';
http.createServer(handle).listen(8080, async () => {
  await fetch('https://api.example.test/register');
});`;
const DRAIN = `const async = require('async');
const q = async.queue(async (task) => fetch(task.url), 4);
q.drain(async () => {
  await fetch('https://api.example.test/done');
});`;
const DRAIN_NAMED = `const queue = require('async/queue');
export function run(urls) {
  const q = queue(test, 2);
  q.drain(complete);
  q.push(urls);
  async function complete() {
    await fetch('https://api.example.test/report');
  }
}`;

const ignored = (code: string, line: number, column: number, filename = v3) => ({ code, filename, errors: [{ messageId: 'asyncCallbackIgnored' as const, line, column }] });

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (library callbacks)', rule as never, {
  valid: [
    // A gRPC handler that catches and answers through `callback` cannot reject.
    { code: GRPC.replace('    const page = await fetch(call.request.url);\n    callback(null, { status: page.status });', '    try {\n      const page = await fetch(call.request.url);\n      callback(null, { status: page.status });\n    } catch (error) {\n      callback(error);\n    }'), filename: v3 },
    // A plain handler returns no promise.
    { code: GRPC.replace('async (call, callback) => {\n    const page = await fetch(call.request.url);', '(call, callback) => {\n    const page = { status: 200 };'), filename: v3 },
    // `addService` of an object of no known package.
    { code: GRPC.replace("import { Server } from '@grpc/grpc-js';", 'class Server { addService(_d: unknown, _i: unknown) {} }'), filename: v3 },
    // A fastify route handler: fastify awaits it and answers with an error.
    { code: FASTIFY.replace("server.listen({ port: 3000 }, async (err) => {", "server.get('/hook', async (request) => {"), filename: v3 },
    // `listen` without a callback returns the promise, which is awaited.
    { code: "import Fastify from 'fastify';\nconst server = Fastify();\nawait server.listen({ port: 3000 });", filename: v3 },
    // `listen` on a value of no known framework.
    { code: EXPRESS.replace("const express = require('express');\nconst app = express();", 'const app = makeServer();'), filename: v3 },
    // A listen callback whose whole body is guarded.
    { code: EXPRESS.replace("  await fetch('https://api.example.test/register');", "  try {\n    await fetch('https://api.example.test/register');\n  } catch (error) {\n    console.error(error);\n  }"), filename: v3 },
    // async 2 assigns its handlers as properties; `drain(fn)` is a 3 API.
    { code: DRAIN, filename: v2 },
    // The queue's worker is awaited by async itself.
    { code: "const async = require('async');\nconst q = async.queue(async (task) => { await fetch(task.url); }, 4);\nq.push([]);", filename: v3 },
    // `drain` of a queue of no known package (a Bull queue's `drain()` returns a promise instead).
    { code: DRAIN.replace('async.queue(async (task) => fetch(task.url), 4)', 'makeQueue()'), filename: v3 },
  ],
  invalid: [
    ignored(GRPC, 4, 9),
    ignored(GRPC_METHOD, 6, 15),
    ignored(GRPC_NAMED, 7, 26),
    ignored(FASTIFY, 3, 31),
    ignored(EXPRESS, 3, 18),
    ignored(HTTP, 2, 40),
    ignored(DRAIN, 3, 9),
    ignored(DRAIN_NAMED, 4, 11),
  ],
});
