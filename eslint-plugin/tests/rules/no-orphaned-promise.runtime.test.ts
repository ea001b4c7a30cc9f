import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// `recommended` asks whether an async function can reject the way such bodies fail at run time:
// an `await` or `throw` outside any `try` whose `catch` keeps the error. A synchronous call before
// the `try` (a guard clause's check, an assertion, a header set on a response, destructuring the
// request) could throw all the same; `strict` counts that too.
const modules = fixture('modules/src/app.ts');
const express4 = fixture('frameworks/express4/src/app.ts');

const GUARDED = `async function handleConnect(ws, request) {
  if (!validKeys(request)) {
    ws.close(4001);
    return;
  }
  const client = createClient(ws, request);
  try {
    await authorize(client);
  } catch (error) {
    logger.error(error);
  }
}
export function onConnect(ws, request) { handleConnect(ws, request); }`;
const AWAIT_BEFORE_TRY = GUARDED.replace('const client = createClient(ws, request);', 'const client = await createClient(ws, request);');

const TIMER = `async function poll() {
  try {
    await fetch('https://example.com/poll');
  } catch (error) {
    console.error(error);
  }
}
setTimeout(async () => { await poll(); }, 1000);`;
const TIMER_RETHROWS = TIMER.replace('console.error(error);', 'console.error(error);\n    throw error;');

const REGISTERS = `import { EventEmitter } from 'node:events';
const agent = new EventEmitter();
agent.once('keylog', async (line, socket) => {
  socket.once('secureConnect', async () => {
    try { await fetch('https://example.com/' + line); } catch (error) { console.error(error); }
  });
});`;

const ROUTE = `import express from 'express';
const router = express.Router();
router.get('/badge/:id', async (request, response) => {
  allowAllOrigin(response);
  const { label, color = defaults.color } = request.query;
  try {
    const monitor = await loadMonitor(request.params.id);
    response.send(render(monitor, label, color));
  } catch (error) {
    sendError(response, error);
  }
});
// A catch that calls a name declared nowhere throws there itself: this one is declared.
function sendError(response, error) {
  response.status(500).send(String(error));
}`;
const ROUTE_AWAITS_OUTSIDE = ROUTE.replace('  const { label', '  const page = await loadPage(request.params.id);\n  const { label');

// The constructor calls `connect()` only when the subscriber has no `connect` of its own: the one
// branch that awaits cannot run for that call, and what is left runs synchronously.
const LIVE_SERVER = `class LiveServer {
  constructor(subscriber) {
    this.subscriber = subscriber;
    if (!this.subscriber.connect) {
      this.connect();
    }
  }
  async connect() {
    if (this.subscriber.isOpen) return;
    if (typeof this.subscriber.connect === 'function') {
      await this.subscriber.connect();
    } else {
      this.subscriber.isOpen = true;
    }
    this.listen();
  }
  listen() {}
}`;
const LIVE_SERVER_CONNECTS = LIVE_SERVER.replace('if (!this.subscriber.connect) {', 'if (this.subscriber.connect) {');

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: rejects at run time)', rule as never, {
  valid: [
    // A guard clause, then a try/catch that logs: only the synchronous checks could throw.
    GUARDED,
    // A timer callback awaiting a same-file function that catches and logs everything.
    TIMER,
    // A listener that awaits nothing and only registers another, guarded, listener.
    REGISTERS,
    // Imported: a guard clause and an assertion, then a try/catch that emits the error.
    { code: "import { syncAccount } from './accounts';\nexport function tick(id: string) { syncAccount(id, true); }", filename: modules },
    // …and a timer awaiting a function that only awaits that one.
    { code: "import { pollAccounts } from './accounts';\nsetInterval(async () => { await pollAccounts(['a']); }, 1000);", filename: modules },
    // Express 4: destructuring the request and setting a header before the try; every await inside it.
    { code: ROUTE, filename: express4 },
    // The same retry with the variable set before the try: the read cannot fail.
    `async function resend(id) {
  let reply = { status: 0 };
  try {
    reply = await fetch('https://example.com/' + id);
  } catch (error) {}
  if (reply.status !== 201) resend(id);
}`,
    // forEach over a callback that cannot reject at run time: only the order is lost.
    "export function refreshAll(ids) { ids.forEach(async (id) => { try { await fetch(id); } catch (error) { console.error(error); } }); }",
    LIVE_SERVER,
  ],
  invalid: [
    // Near miss: the subscriber has its own `connect`, so the call awaits it.
    {
      code: LIVE_SERVER_CONNECTS,
      errors: [{ messageId: 'orphanedPromise', line: 5, column: 7, suggestions: [{ messageId: 'addVoid', output: LIVE_SERVER_CONNECTS.replace('      this.connect();', '      void this.connect();') }] }],
    },
    {
      code: AWAIT_BEFORE_TRY,
      errors: [{ messageId: 'orphanedPromise', line: 13, column: 42, suggestions: [{ messageId: 'addVoid', output: AWAIT_BEFORE_TRY.replace('{ handleConnect(ws, request); }', '{ void handleConnect(ws, request); }') }] }],
    },
    { code: TIMER_RETHROWS, errors: [{ messageId: 'asyncCallbackIgnored', line: 9, column: 12 }] },
    {
      code: REGISTERS.replace("agent.once('keylog', async (line, socket) => {", "agent.once('keylog', async (line, socket) => {\n  await fetch('https://example.com/log');"),
      errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 22 }],
    },
    // A guard clause that throws rejects the promise: a bad id is an unhandled rejection.
    {
      code: "import { loadAccount } from './accounts';\nexport function open(id: string) { loadAccount(id); }",
      filename: modules,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 36, suggestions: [{ messageId: 'addVoid', output: "import { loadAccount } from './accounts';\nexport function open(id: string) { void loadAccount(id); }" }] }],
    },
    // The catch leaves `reply` unset, and the read after it throws a TypeError: the retry rejects.
    {
      code: `async function resend(id) {
  let reply;
  try {
    reply = await fetch('https://example.com/' + id);
  } catch (error) {}
  if (reply.status !== 201) resend(id);
}`,
      errors: [{ messageId: 'orphanedPromise', line: 6, column: 29, suggestions: [{ messageId: 'addAwait', output: `async function resend(id) {
  let reply;
  try {
    reply = await fetch('https://example.com/' + id);
  } catch (error) {}
  if (reply.status !== 201) await resend(id);
}` }, { messageId: 'addVoid', output: `async function resend(id) {
  let reply;
  try {
    reply = await fetch('https://example.com/' + id);
  } catch (error) {}
  if (reply.status !== 201) void resend(id);
}` }] }],
    },
    // Express 4 with an I/O await outside the try: the request never gets an answer.
    { code: ROUTE_AWAITS_OUTSIDE, filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 26 }] },
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: any throw counts)', rule as never, {
  valid: [],
  invalid: [
    // `strict` counts the synchronous body too: the listener registration could throw.
    {
      code: LIVE_SERVER,
      errors: [{ messageId: 'orphanedPromise', line: 5, column: 7, suggestions: [{ messageId: 'addVoid', output: LIVE_SERVER.replace('      this.connect();', '      void this.connect();') }] }],
    },
    {
      code: GUARDED,
      errors: [{ messageId: 'orphanedPromise', line: 13, column: 42, suggestions: [{ messageId: 'addVoid', output: GUARDED.replace('{ handleConnect(ws, request); }', '{ void handleConnect(ws, request); }') }] }],
    },
    { code: TIMER, errors: [{ messageId: 'asyncCallbackIgnored', line: 8, column: 12 }] },
    { code: REGISTERS, errors: [{ messageId: 'asyncCallbackIgnored', line: 3, column: 22 }] },
    {
      code: "import { syncAccount } from './accounts';\nexport function tick(id: string) { syncAccount(id, true); }",
      filename: modules,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 36, suggestions: [{ messageId: 'addVoid', output: "import { syncAccount } from './accounts';\nexport function tick(id: string) { void syncAccount(id, true); }" }] }],
    },
    { code: ROUTE, filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 26 }] },
    {
      code: "export function refreshAll(ids) { ids.forEach(async (id) => { try { await fetch(id); } catch (error) { console.error(error); } }); }",
      errors: [{ messageId: 'forEachAsync', line: 1, column: 47, suggestions: [] }],
    },
  ],
});
