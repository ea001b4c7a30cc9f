import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// Blocking that only clients the process already let in can reach (an admin route, a socket
// listener registered after its handshake passed a check), or that only a setup server runs
// before it hands over to the real one: it stalls the few trusted clients who asked for it, so
// `recommended` leaves it to `strict`. What anyone can send (a login, a signup) is still reported.
const GATED = {
  // `403` for who the client is, before the read.
  forbidden: `import fs from 'node:fs';
import express from 'express';
const app = express();
app.post('/admin/reload', async (req, res) => {
  if (!isAdmin(res.locals.userId)) {
    res.status(403).send({ reason: 'forbidden' });
    return;
  }
  const settings = fs.readFileSync('settings.json', 'utf8');
  res.send(await apply(settings));
});
declare function isAdmin(id: string): boolean;
declare function apply(s: string): Promise<string>;`,
  // A guard that answers 401 itself and gives nothing back.
  sessionGuard: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
function validateSession(req: any, res: any) {
  const session = lookup(req.headers['x-token']);
  if (!session) { res.status(401).send({ reason: 'unauthorized' }); return null; }
  return session;
}
app.post('/change-password', async (req, res) => {
  const session = validateSession(req, res);
  if (!session) return;
  await store(session, bcrypt.hashSync(req.body.password, 12));
  res.send({ status: 'ok' });
});
declare function lookup(token: string): object | null;
declare function store(s: object, hash: string): Promise<void>;`,
  // A middleware on the route that answers 403.
  middleware: `import fs from 'node:fs';
import express from 'express';
const app = express();
function adminOnly(req: any, res: any, next: () => void) {
  if (!req.user?.admin) return res.sendStatus(403);
  next();
}
app.get('/admin/files', adminOnly, async (req, res) => {
  res.json(fs.readdirSync('media'));
});`,
  // Listeners registered after the connection's session was checked.
  socket: `import fs from 'node:fs';
import { Server } from 'socket.io';
const io = new Server();
io.of('/settings').on('connection', (socket) => {
  const { session: { user: { is_admin: isAdmin } = {} } = {} } = socket.conn.request as any;
  if (!isAdmin) return;
  socket.on('restart', async () => {
    const settings = fs.readFileSync('settings.json', 'utf8');
    await restart(settings);
  });
});
declare function restart(s: string): Promise<void>;`,
  // An async service only a forbidden-guarded route calls.
  serviceCaller: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
async function disableLogin(password: string, hash: string) {
  if (!bcrypt.compareSync(password, hash)) return { error: 'invalid-password' };
  return {};
}
app.post('/disable', async (req, res) => {
  if (!isAdmin(res.locals.userId)) { res.status(403).end(); return; }
  res.send(await disableLogin(req.body.password, await currentHash()));
});
declare function isAdmin(id: string): boolean;
declare function currentHash(): Promise<string>;`,
  // A server that closes itself once it has its answer: a first-run setup page.
  setupServer: `import fs from 'node:fs';
import express from 'express';
export function setup(port: number) {
  return new Promise<void>((resolve) => {
    const app = express();
    let tempServer: any;
    app.post('/setup-database', async (req, res) => {
      fs.writeFileSync('db-config.json', JSON.stringify(req.body));
      res.json({ ok: true });
      tempServer.close(() => resolve());
    });
    tempServer = app.listen(port);
  });
}`,
};

/** The suggestion's output: `fs.xSync(…)` awaited through `fs.promises`. */
function awaited(code: string, call: string): [{ messageId: 'useAsyncTwin'; output: string }] {
  return [{ messageId: 'useAsyncTwin', output: code.replace(call, `await ${call.replace(/^fs\.(\w+)Sync/, 'fs.promises.$1')}`) }];
}
const READ = "fs.readFileSync('settings.json', 'utf8')";
const WRITE = "fs.writeFileSync('db-config.json', JSON.stringify(req.body))";
const READ_FIRST = GATED.forbidden.replace(`  const settings = ${READ};\n`, '')
  .replace(`async (req, res) => {\n`, `async (req, res) => {\n  const settings = ${READ};\n`);
const BAD_REQUEST = GATED.forbidden.replace('403', '400');
const LISTENER_FIRST = `import fs from 'node:fs';
import { Server } from 'socket.io';
const io = new Server();
io.on('connection', (socket) => {
  socket.on('load', async () => socket.emit('settings', ${READ}));
  if (!socket.handshake.auth.token) return;
});`;
const NOT_HANDSHAKE = GATED.socket.replace('if (!isAdmin) return;', 'if (!ready()) return;') + '\ndeclare function ready(): boolean;';
const ALSO_OPEN = GATED.serviceCaller + `\napp.post('/login', async (req, res) => { res.send(await disableLogin(req.body.password, await currentHash())); });`;
const OTHER_SERVER = GATED.setupServer.replace('tempServer.close(() => resolve());', 'other.close(() => resolve());') + '\ndeclare const other: { close(cb: () => void): void };';

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: access gates)', rule as never, {
  valid: Object.values(GATED),
  invalid: [
    // A login's own 401 for an unknown account is its answer to what was sent: anyone can make
    // the compare run.
    {
      code: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
app.post('/login', async (req, res) => {
  const user = await findUser(req.body.email);
  if (!user) { res.status(401).send({ reason: 'unknown' }); return; }
  if (!bcrypt.compareSync(req.body.password, user.hash)) { res.status(401).end(); return; }
  res.send({ token: await issue(user) });
});
declare function findUser(email: string): Promise<{ hash: string } | null>;
declare function issue(u: object): Promise<string>;`,
      errors: [{ messageId: 'blockingCall', line: 7, column: 8, suggestions: [{ messageId: 'useAsyncTwin', output: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
app.post('/login', async (req, res) => {
  const user = await findUser(req.body.email);
  if (!user) { res.status(401).send({ reason: 'unknown' }); return; }
  if (!await bcrypt.compare(req.body.password, user.hash)) { res.status(401).end(); return; }
  res.send({ token: await issue(user) });
});
declare function findUser(email: string): Promise<{ hash: string } | null>;
declare function issue(u: object): Promise<string>;` }] }],
    },
    // A 403 on the account the form names (locked) is no gate on who the client is.
    {
      code: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
app.post('/login', async (req, res) => {
  const user = await findUser(req.body.email);
  if (user.locked) { res.status(403).end(); return; }
  res.send({ ok: bcrypt.compareSync(req.body.password, user.hash) });
});
declare function findUser(email: string): Promise<{ hash: string; locked: boolean }>;`,
      errors: [{ messageId: 'blockingCall', line: 7, column: 18, suggestions: [{ messageId: 'useAsyncTwin', output: `import bcrypt from 'bcrypt';
import express from 'express';
const app = express();
app.post('/login', async (req, res) => {
  const user = await findUser(req.body.email);
  if (user.locked) { res.status(403).end(); return; }
  res.send({ ok: await bcrypt.compare(req.body.password, user.hash) });
});
declare function findUser(email: string): Promise<{ hash: string; locked: boolean }>;` }] }],
    },
    // The read comes before the check.
    { code: READ_FIRST, errors: [{ messageId: 'blockingCall', line: 5, suggestions: awaited(READ_FIRST, READ) }] },
    // A 400 for a malformed request turns nobody away for who they are.
    { code: BAD_REQUEST, errors: [{ messageId: 'blockingCall', line: 9, suggestions: awaited(BAD_REQUEST, READ) }] },
    // A listener registered before the check serves every connection.
    { code: LISTENER_FIRST, errors: [{ messageId: 'blockingCall', line: 5, suggestions: awaited(LISTENER_FIRST, READ) }] },
    // An early return on something other than the client's handshake.
    { code: NOT_HANDSHAKE, errors: [{ messageId: 'blockingCall', line: 8, suggestions: awaited(NOT_HANDSHAKE, READ) }] },
    // The service is also called by an open route.
    {
      code: ALSO_OPEN,
      errors: [{ messageId: 'blockingCall', line: 5, suggestions: [{ messageId: 'useAsyncTwin', output: ALSO_OPEN.replace('!bcrypt.compareSync(password, hash)', '!await bcrypt.compare(password, hash)') }] }],
    },
    // Closing some other server says nothing of this one.
    { code: OTHER_SERVER, errors: [{ messageId: 'blockingCall', line: 8, suggestions: awaited(OTHER_SERVER, WRITE) }] },
  ],
});

// Strict reports every one of them.
createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: access gates)', rule as never, {
  valid: [],
  invalid: [
    { code: GATED.forbidden, errors: [{ messageId: 'blockingCall', line: 9, suggestions: awaited(GATED.forbidden, READ) }] },
    { code: GATED.socket, errors: [{ messageId: 'blockingCall', line: 8, suggestions: awaited(GATED.socket, READ) }] },
    { code: GATED.setupServer, errors: [{ messageId: 'blockingCall', line: 8, suggestions: awaited(GATED.setupServer, WRITE) }] },
  ],
});

// A template read once per email sent: emails go out at the pace of what triggers them, each
// after an SMTP round trip.
const MAIL = `import fs from 'node:fs';
import { createTransport } from 'nodemailer';
const transport = createTransport({ host: 'smtp.example.com' });
async function render(name: string, context: Record<string, string>) {
  const template = fs.readFileSync(\`templates/\${name}.html\`, 'utf8');
  return template.replace(/{{(\\w+)}}/g, (_, key: string) => context[key] ?? '');
}
export async function sendInvite(to: string, link: string) {
  const html = await render('invite', { link });
  await transport.sendMail({ to, subject: 'Invitation', html });
}`;
const TEMPLATE_READ = "fs.readFileSync(`templates/${name}.html`, 'utf8')";
const ALSO_SERVED = MAIL + `\nexport async function preview(name: string) { return render(name, {}); }`;

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: per email)', rule as never, {
  valid: [MAIL],
  invalid: [
    // The same read also runs for whoever asks for a preview.
    { code: ALSO_SERVED, errors: [{ messageId: 'blockingCall', line: 5, suggestions: awaited(ALSO_SERVED, TEMPLATE_READ) }] },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: per email)', rule as never, {
  valid: [],
  invalid: [{ code: MAIL, errors: [{ messageId: 'blockingCall', line: 5, suggestions: awaited(MAIL, TEMPLATE_READ) }] }],
});
