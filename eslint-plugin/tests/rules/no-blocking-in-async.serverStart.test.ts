import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester } from '../ruleTester';

// A function that puts its own server up (`server.listen(…)`, `promisify(server.listen)`, or a
// call of a function of its file that does): what runs before that serves nothing yet, whoever
// calls the function, unless a known caller has another server listening already. `recommended`
// leaves it alone; after the listen, in a handler it registers, or in a route that starts a
// server of its own, the blocking call is reported.
createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: before its own listen)', rule as never, {
  valid: [
    // Exported, with no caller in view (a cluster library runs it): the certificates are read
    // before the server exists.
    `import { readFileSync } from 'node:fs';
import https from 'node:https';
export async function start(app: () => void) {
  const ssl = { key: readFileSync('tls/key.pem'), cert: readFileSync('tls/cert.pem') };
  const server = https.createServer(ssl, app);
  server.listen(443);
}`,
    // A method that builds the app, reads the schema it mounts, then waits for `listen`.
    `import fs from 'node:fs';
import express from 'express';
export class Server {
  async startApp(options: { port: number; schema: string }) {
    const app = express();
    const schema = fs.readFileSync(options.schema, 'utf8');
    app.use(mount(schema));
    await new Promise<void>((resolve) => app.listen(options.port, resolve));
  }
}
declare function mount(schema: string): () => void;`,
    // CommonJS: the listen is promisified, and `create` reads before it calls `restart`, which listens.
    `const fs = require('node:fs');
const http = require('node:http');
const util = require('node:util');
exports.create = async () => {
  console.log(fs.readFileSync('.git/HEAD', 'utf8'));
  await exports.restart();
};
exports.restart = async () => {
  const server = http.createServer();
  const key = fs.readFileSync('key.pem');
  await util.promisify(server.listen).bind(server)(key.length);
};`,
    // The entry's call of `start` is where the server comes up; what `start` reads first comes before.
    `import { readFileSync } from 'node:fs';
import http from 'node:http';
async function start() {
  const key = readFileSync('key.pem');
  http.createServer().listen(key.length);
}
async function main() {
  await start();
}
void main();`,
  ],
  invalid: [
    // After the listen, requests are served while the rest runs.
    {
      code: `import { readFileSync } from 'node:fs';
import http from 'node:http';
export async function start() {
  const server = http.createServer();
  server.listen(80);
  readFileSync('warm.json');
}`,
      errors: [{ messageId: 'blockingCall', line: 6, column: 3, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
export async function start() {
  const server = http.createServer();
  server.listen(80);
  await readFile('warm.json');
}` }] }],
    },
    // A handler registered before the listen runs per request, after it.
    {
      code: `import { readFileSync } from 'node:fs';
import express from 'express';
export async function start() {
  const app = express();
  app.get('/', async (req, res) => { res.send(readFileSync('page.html')); });
  app.listen(3000);
}`,
      errors: [{ messageId: 'blockingCall', line: 5, column: 47, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import express from 'express';
import { readFile } from 'node:fs/promises';
export async function start() {
  const app = express();
  app.get('/', async (req, res) => { res.send(await readFile('page.html')); });
  app.listen(3000);
}` }] }],
    },
    // A route that starts a server of its own still runs per request.
    {
      code: `import { readFileSync } from 'node:fs';
import http from 'node:http';
import express from 'express';
const app = express();
app.post('/preview', async (req, res) => {
  const page = readFileSync('preview.html');
  http.createServer((q, s) => s.end(page)).listen(0);
  res.end();
});
app.listen(3000);`,
      errors: [{ messageId: 'blockingCall', line: 6, column: 16, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import http from 'node:http';
import express from 'express';
import { readFile } from 'node:fs/promises';
const app = express();
app.post('/preview', async (req, res) => {
  const page = await readFile('preview.html');
  http.createServer((q, s) => s.end(page)).listen(0);
  res.end();
});
app.listen(3000);` }] }],
    },
    // A route restarts the server: the old one serves while the new one reads its key.
    {
      code: `import { readFileSync } from 'node:fs';
import https from 'node:https';
import express from 'express';
const app = express();
let server = https.createServer(app);
async function restart() {
  const key = readFileSync('tls/key.pem');
  server.close();
  server = https.createServer({ key }, app);
  server.listen(443);
}
app.post('/admin/restart', async (req, res) => { await restart(); res.end(); });
server.listen(443);`,
      errors: [{ messageId: 'blockingCall', line: 7, column: 15, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import https from 'node:https';
import express from 'express';
import { readFile } from 'node:fs/promises';
const app = express();
let server = https.createServer(app);
async function restart() {
  const key = await readFile('tls/key.pem');
  server.close();
  server = https.createServer({ key }, app);
  server.listen(443);
}
app.post('/admin/restart', async (req, res) => { await restart(); res.end(); });
server.listen(443);` }] }],
    },
    // The admin server comes up once the API already serves.
    {
      code: `import { readFileSync } from 'node:fs';
import http from 'node:http';
async function startApi() { http.createServer().listen(80); }
async function startAdmin() {
  const key = readFileSync('admin.key');
  http.createServer().listen(key.length);
}
async function main() {
  await startApi();
  await startAdmin();
}
void main();`,
      errors: [{ messageId: 'blockingCall', line: 5, column: 15, suggestions: [{ messageId: 'useAsyncTwin', output: `import { readFileSync } from 'node:fs';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
async function startApi() { http.createServer().listen(80); }
async function startAdmin() {
  const key = await readFile('admin.key');
  http.createServer().listen(key.length);
}
async function main() {
  await startApi();
  await startAdmin();
}
void main();` }] }],
    },
  ],
});
