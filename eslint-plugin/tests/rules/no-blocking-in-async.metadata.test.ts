import type { TestCaseError } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';
import { SERVING } from './blockingCosts';

// One metadata syscall per request (`existsSync`, `statSync`, a recursive `mkdirSync` of one
// directory) costs microseconds: `recommended` leaves it to `strict`. Repeated in a loop or over a
// listing, and every call that reads or writes content, removes a file (its data is freed in the
// call), removes recursively, runs a process or does CPU work, is reported by both.
const FS = `import fs from 'node:fs';\n`;
const route = (body: string): string => `${FS}import express from 'express';\nconst app = express();\napp.post('/upload', (req, res) => {\n${body}\n  res.end();\n});`;

const retire = `${FS}export async function retire(p: string) {\n  if (!fs.existsSync(p)) return;\n  if (fs.lstatSync(p).isDirectory()) throw new Error('dir');\n  fs.renameSync(p, p + '.old');\n}`;
const twin = (from: string, to: string): { messageId: 'useAsyncTwin'; output: string }[] => [{ messageId: 'useAsyncTwin', output: retire.replace(from, to) }];
const drop = `${FS}export async function drop(p: string) { fs.rmdirSync(p); }`;

// An upload route whose abort helper removes the partial file. Before the file is made, the
// name the probe loop picked does not exist, so the helper's removal cannot run from there.
const upload = (after: string): string => `${FS}import express from 'express';
const app = express();
app.post('/upload', (req, res) => {
  let dest: string | null = null;
  const abort = (err: Error) => {
    if (dest && fs.existsSync(dest)) fs.unlinkSync(dest);
    return res.status(400).json({ error: err.message });
  };
  if (!req.headers['content-type']) return abort(new Error('no type'));
  do { dest = '/srv/uploads/' + Math.random().toString(36).slice(2); } while (fs.existsSync(dest));
  if (!req.headers['content-length']) return abort(new Error('no length'));
  req.pipe(fs.createWriteStream(dest));
${after}});`;

/** Single metadata calls, with what `strict` reports for each. */
const singleCalls: { code: string; strict: TestCaseError<MessageId>[] }[] = [
  {
    code: retire,
    strict: [
      { messageId: 'blockingCall', line: 3, suggestions: twin('fs.existsSync(p)', 'await fs.promises.access(p).then(() => true, () => false)') },
      { messageId: 'blockingCall', line: 4, suggestions: twin('fs.lstatSync(p)', '(await fs.promises.lstat(p))') },
      { messageId: 'blockingCall', line: 5, suggestions: twin("fs.renameSync(p, p + '.old')", "await fs.promises.rename(p, p + '.old')") },
    ],
  },
  {
    code: route(`  const dir = '/srv/uploads/' + req.query.bucket;\n  fs.mkdirSync(dir, { recursive: true });\n  fs.accessSync(dir);`),
    strict: [{ messageId: 'blockingCall', line: 6, suggestions: [] }, { messageId: 'blockingCall', line: 7, suggestions: [] }],
  },
  // The loop only goes on while the name it just made up is taken.
  { code: route(`  let name;\n  do { name = String(Math.random()); } while (fs.existsSync(name));`), strict: [{ messageId: 'blockingCall', line: 6, suggestions: [] }] },
  {
    code: drop,
    strict: [{ messageId: 'blockingCall', suggestions: [{ messageId: 'useAsyncTwin', output: drop.replace('fs.rmdirSync', 'await fs.promises.rmdir') }] }],
  },
  // A synchronous helper with one metadata call, called once.
  {
    code: `${FS}function logoPath(p: string) { return fs.existsSync(p) ? p : null; }\nexport async function send(p: string) { return logoPath(p); }`,
    strict: [{ messageId: 'blockingCall', line: 2, column: 39 }],
  },
  // The Promise executor runs once.
  {
    code: `${FS}export async function size(p: string) { return new Promise((resolve) => resolve(fs.statSync(p).size)); }`,
    strict: [{ messageId: 'blockingCall', suggestions: [] }],
  },
];

// A salt drawn once (bcrypt's `genSaltSync` reads a few random bytes) or a key derived with
// `hkdfSync` costs microseconds, like one metadata syscall: recommended leaves it to strict. The
// password hash beside it is the stall, and stays reported.
const HASH = `import bcrypt from 'bcryptjs';
export async function hashPassword(pw: string) {
  const salt = bcrypt.genSaltSync(10);
  return bcrypt.hashSync(pw, salt);
}`;
const HASH_AWAITED = { messageId: 'useAsyncTwin' as const, output: HASH.replace('bcrypt.hashSync(pw, salt)', 'await bcrypt.hash(pw, salt)') };
const SALT_AWAITED = { messageId: 'useAsyncTwin' as const, output: HASH.replace('bcrypt.genSaltSync(10)', 'await bcrypt.genSalt(10)') };

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: cheap CPU work)', rule as never, {
  valid: [
    { code: `import crypto from 'node:crypto';
export async function key(secret: string) { return crypto.hkdfSync('sha256', secret, 'salt', 'info', 32); }`, filename: 'src/keys.ts' },
  ],
  invalid: [
    { code: HASH, filename: 'src/users.ts', errors: [{ messageId: 'blockingCall', line: 4, column: 10, suggestions: [HASH_AWAITED] }] },
    {
      // One salt per user of the request: repeated, it adds up like any other call.
      code: `import bcrypt from 'bcryptjs';
export async function salts(req: { body: { users: string[] } }) {
  return req.body.users.map(() => bcrypt.genSaltSync(10));
}`,
      filename: 'src/users.ts',
      errors: [{ messageId: 'blockingCall', line: 3, column: 35, suggestions: [] }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: cheap CPU work)', rule as never, {
  valid: [],
  invalid: [
    {
      code: HASH,
      filename: 'src/users.ts',
      errors: [{ messageId: 'blockingCall', line: 3, column: 16, suggestions: [SALT_AWAITED] }, { messageId: 'blockingCall', line: 4, column: 10, suggestions: [HASH_AWAITED] }],
    },
  ],
});

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: metadata calls)', rule as never, {
  valid: [...singleCalls.map(({ code }) => ({ code, filename: 'src/files.ts' })), { code: upload(''), filename: 'src/files.ts' }],
  invalid: [
    {
      // Once the file is made, aborting removes what was written of it.
      code: upload(`  if (req.headers['content-length'] === '0') return abort(new Error('empty'));\n`),
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingHelper', line: 14, column: 53, data: { cost: SERVING, callee: 'abort', chain: 'calls `fs.unlinkSync` (line 7)', where: 'an express route handler (line 4)' } }],
    },
    {
      // The same call, once per path the request sends.
      code: route(`  for (const p of req.body.paths) fs.statSync(p);`),
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', line: 5 }],
    },
    {
      code: `${FS}export async function sizes(dir: string) {\n  return fs.readdirSync(dir).map((f) => fs.statSync(f).size);\n}`,
      filename: 'src/files.ts',
      errors: [
        { messageId: 'blockingCall', line: 3, column: 10, suggestions: [{ messageId: 'useAsyncTwin', output: `${FS}export async function sizes(dir: string) {\n  return (await fs.promises.readdir(dir)).map((f) => fs.statSync(f).size);\n}` }] },
        { messageId: 'blockingCall', line: 3, column: 41, suggestions: [] },
      ],
    },
    {
      code: `${FS}export async function read(p: string) { if (fs.existsSync(p)) return fs.readFileSync(p, 'utf8'); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', column: 70, suggestions: [{ messageId: 'useAsyncTwin', output: `${FS}export async function read(p: string) { if (fs.existsSync(p)) return await fs.promises.readFile(p, 'utf8'); }` }] }],
    },
    {
      code: `${FS}export async function wipe(p: string) { fs.rmSync(p, { recursive: true, force: true }); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', suggestions: [{ messageId: 'useAsyncTwin', output: `${FS}export async function wipe(p: string) { await fs.promises.rm(p, { recursive: true, force: true }); }` }] }],
    },
    {
      // Options in a variable may say `recursive`.
      code: `${FS}const opts = { recursive: true };\nexport async function wipe(p: string) { fs.rmdirSync(p, opts); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', suggestions: [{ messageId: 'useAsyncTwin', output: `${FS}const opts = { recursive: true };\nexport async function wipe(p: string) { await fs.promises.rmdir(p, opts); }` }] }],
    },
    {
      code: `import bcrypt from 'bcryptjs';\nimport fs from 'node:fs';\nexport async function login(p: string, hash: string) { fs.existsSync(hash); return bcrypt.compareSync(p, hash); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', column: 84, suggestions: [{ messageId: 'useAsyncTwin', output: `import bcrypt from 'bcryptjs';\nimport fs from 'node:fs';\nexport async function login(p: string, hash: string) { fs.existsSync(hash); return await bcrypt.compare(p, hash); }` }] }],
    },
    {
      // A helper with a single metadata call, called in a loop over request data.
      code: `${FS}function isFile(p: string) { return fs.statSync(p).isFile(); }\nexport async function check(paths: string[]) { return paths.filter((p) => isFile(p)); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', line: 2, column: 37 }],
    },
    {
      // A helper whose metadata call is fine but which also reads content.
      code: `${FS}function load(p: string) { return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : ''; }\nexport async function send(p: string) { return load(p); }`,
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', line: 2, column: 54, data: { cost: SERVING, name: 'fs.readFileSync', where: '`load` (line 2), which async function `send` calls (line 3) while the process serves' } }],
    },
    {
      // Removing a file frees its data before the call returns: an uploaded image deleted in the
      // request's promise chain. The probe before it is one metadata call, and stays quiet.
      code: `${FS}import express from 'express';
import { db } from './db';
const app = express();
app.post('/products/:id/delete', (req, res) => {
  db.find(req.params.id)
    .then((product) => {
      const image = '/srv/images/' + product.image;
      if (fs.existsSync(image)) fs.unlinkSync(image);
    })
    .then(() => res.redirect('/products'), () => res.sendStatus(500));
});`,
      filename: 'src/files.ts',
      errors: [{
        messageId: 'blockingCall', line: 9, column: 33, suggestions: [],
        data: { cost: SERVING, name: 'fs.unlinkSync', where: 'a promise callback in an express route handler (line 5)' },
      }],
    },
    {
      // A plain `rmSync` removes a file the same way.
      code: `${FS}export async function discard(upload: { path: string }) { fs.rmSync(upload.path, { force: true }); }`,
      filename: 'src/files.ts',
      errors: [{
        messageId: 'blockingCall', column: 59,
        suggestions: [{ messageId: 'useAsyncTwin', output: `${FS}export async function discard(upload: { path: string }) { await fs.promises.rm(upload.path, { force: true }); }` }],
      }],
    },
    {
      // A `while` loop whose test does more than probe the path iterates over data.
      code: route(`  let i = 0;\n  while (i < req.body.paths.length && fs.existsSync(req.body.paths[i])) i++;`),
      filename: 'src/files.ts',
      errors: [{ messageId: 'blockingCall', line: 6 }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: metadata calls)', rule as never, {
  valid: [],
  invalid: singleCalls.map(({ code, strict }) => ({ code, filename: 'src/files.ts', errors: strict })),
});
