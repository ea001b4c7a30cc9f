import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { dropped, report } from './fanOutErrors';

// The folder declares neither p-map nor p-limit, so no case carries suggestions.
const NONE = fixture('fan-out/none/batch.ts');

// --- collections whose size comes from data: reported under both presets ---
const fromData: InvalidTestCase<MessageId, Options>[] = [
  {
    // pg rows, destructured
    code: `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select * from users');
  await Promise.all(rows.map((r) => send(r.email)));
}`,
    errors: [report(6)],
  },
  {
    // a fetch response body, through a filter
    code: `import { notify } from './notify';
export async function run(url: string) {
  const users = await (await fetch(url)).json();
  await Promise.all(users.filter((u) => u.active).map((u) => notify(u)));
}`,
    errors: [report(4)],
  },
  {
    // axios \`.data\`
    code: `import axios from 'axios';
import { notify } from './notify';
export async function run(url: string) {
  const res = await axios.get(url);
  await Promise.all(res.data.items.map((item) => notify(item)));
}`,
    errors: [report(5)],
  },
  {
    // a directory listing
    code: `import { readdir } from 'node:fs/promises';
import { upload } from './s3';
export async function run(dir: string) {
  const files = await readdir(dir);
  await Promise.all(files.map((f) => upload(f)));
}`,
    errors: [report(5)],
  },
  {
    // a request body in an express route
    code: `import express from 'express';
import { send } from './mail';
const app = express();
app.post('/invite', async (req, res) => {
  await Promise.all(req.body.emails.map((e) => send(e)));
  res.end();
});`,
    errors: [report(5)],
  },
  {
    // prisma findMany without a page bound
    code: `import { PrismaClient } from '@prisma/client';
import { send } from './mail';
const prisma = new PrismaClient();
export async function run(teamId: string) {
  const users = await prisma.user.findMany({ where: { teamId } });
  await Promise.all(users.map((u) => send(u.email)));
}`,
    errors: [report(6)],
  },
  {
    // a helper whose only same-file caller passes rows
    code: `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
async function notifyAll(users: { email: string }[]) {
  await Promise.all(users.map((u) => send(u.email)));
}
export async function run() {
  const result = await pool.query('select * from users');
  await notifyAll(result.rows);
}`,
    errors: [report(5)],
  },
  {
    // ids pushed one per row
    code: `import { Pool } from 'pg';
import { purge } from './cdn';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select id from pages');
  const ids: string[] = [];
  for (const row of rows) ids.push(row.id);
  await Promise.all(ids.map((id) => purge(id)));
}`,
    errors: [report(8)],
  },
  {
    // a queue message
    code: `import { Worker } from 'bullmq';
import { send } from './mail';
export const worker = new Worker('digest', async (job) => {
  await Promise.all(job.data.recipients.map((r) => send(r)));
});`,
    errors: [report(4)],
  },
  {
    // a directory listing through \`util.promisify\`
    code: `import * as fs from 'fs';
import * as util from 'util';
import { scan } from './scan';
const readdir = util.promisify(fs.readdir);
export async function run(dir: string) {
  const entries = await readdir(dir);
  await Promise.all(entries.map((e) => scan(e)));
}`,
    errors: [report(7)],
  },
  {
    // \`forEach\` over rows, one query sent per row through the eager driver: the same burst, and nothing waits for it
    code: `import { Pool } from 'pg';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select * from users');
  rows.forEach((r) => { pool.query('update users set seen = true where id = $1', [r.id]); });
}`,
    errors: [dropped(5, 'forEach', 'rows')],
  },
  {
    // a dropped \`map\` over a response body; the inner fan-out over each item is not reported again
    code: `import axios from 'axios';
import { upload } from './s3';
export async function run(url: string) {
  const { data } = await axios.get(url);
  data.albums.map(async (album) => { await Promise.all(album.photos.map((p) => upload(p))); });
}`,
    errors: [dropped(5, 'map', 'data.albums')],
  },
  {
    // a block-bodied mapper that fires a mongodb update without returning it: the updates still all start
    code: `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://db');
export async function sync(url: string) {
  const invites = await (await fetch(url)).json();
  await Promise.all(invites.map((invite) => {
    client.db().collection('invites').updateOne({ code: invite.code }, { $set: { uses: invite.uses } });
  }));
}`,
    errors: [report(5)],
  },
  {
    // nested: only the outer level, over the rows, is reported
    code: `import { Pool } from 'pg';
import { upload } from './s3';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select * from albums');
  await Promise.all(rows.map((album) => Promise.all(album.photos.map((p) => upload(p)))));
}`,
    errors: [report(6)],
  },
];

// --- bounded, serialized or of unknown origin: recommended is quiet ---
const quietInRecommended: (ValidTestCase<Options> | string)[] = [
  // Unknown origin: a parameter nobody in this file passes (strict reports it).
  `import { upload } from './s3';
export async function run(files: string[]) {
  await Promise.all(files.map((f) => upload(f)));
}`,
  // A variable named like rows, from a synchronous helper of unknown origin: names decide nothing.
  `import { getRows } from './db';
import { send } from './mail';
export async function run() {
  const rows = getRows();
  await Promise.all(rows.map((r) => send(r)));
}`,
  // A local function called fetch is not the HTTP client.
  `import { load } from './cache';
const fetch = async (key: string) => [key];
export async function run() {
  const keys = await fetch('k');
  await Promise.all(keys.map((k) => load(k)));
}`,
  // A helper whose callers pass data and something else: the size is not known to come from data.
  `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
async function notifyAll(users: { email: string }[]) {
  await Promise.all(users.map((u) => send(u.email)));
}
export async function run(extra: { email: string }[]) {
  const { rows } = await pool.query('select * from users');
  await notifyAll(rows);
  await notifyAll(extra);
}`,
  // Promisified, but not a data source: what \`gzip\` gives back says nothing about a collection.
  `import { promisify } from 'util';
import { gzip } from 'zlib';
import { upload } from './s3';
const pack = promisify(gzip);
export async function run(body: string) {
  const parts = await pack(body);
  await Promise.all(parts.map((p) => upload(p)));
}`,
  // \`forEach\` over a parameter nobody in the file passes: unknown origin (strict reports it).
  `import { upload } from './s3';
export function run(files: string[]) {
  files.map(async (f) => { await upload(f); });
}`,
  // A helper whose callers pass hand-written lists.
  `import { warm } from './cache';
async function warmAll(keys: string[]) {
  await Promise.all(keys.map((k) => warm(k)));
}
export async function start() {
  await warmAll(['users', 'teams']);
}`,
];

// --- bounded by construction or serialized: quiet under both presets ---
const quietInBoth: (ValidTestCase<Options> | string)[] = [
  // A page capped by \`.limit(n)\`.
  `import knex from 'knex';
import { send } from './mail';
const db = knex({ client: 'pg' });
export async function run(teamId: string) {
  const users = await db('users').where({ teamId }).limit(50);
  await Promise.all(users.map((u) => send(u.email)));
}`,
  // \`take: n\`.
  `import { PrismaClient } from '@prisma/client';
import { send } from './mail';
const prisma = new PrismaClient();
export async function run() {
  const users = await prisma.user.findMany({ take: 25 });
  await Promise.all(users.map((u) => send(u.email)));
}`,
  // Pagination options spread into the query: the page size is in there.
  `import { Model } from 'sequelize';
import { present } from './presenters';
class Revision extends Model {}
export async function list(where: object, pagination: { limit: number; offset: number }) {
  const revisions = await Revision.findAll({ where, ...pagination });
  return Promise.all(revisions.map((r) => present(r)));
}`,
  // Every update runs in one sequelize transaction: the statements queue on its connection.
  `import { Pool } from 'pg';
import { User } from './models';
const pool = new Pool();
export async function run(sequelize: { transaction(fn: (t: unknown) => Promise<unknown>): Promise<unknown> }) {
  const { rows } = await pool.query('select id from users');
  await sequelize.transaction(async (transaction) => {
    await Promise.all(rows.map((r) => User.update({ seen: true }, { where: { id: r.id }, transaction })));
  });
}`,
  // One pg client checked out of the pool: its queries run one at a time.
  `import { Pool } from 'pg';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select id from jobs');
  const client = await pool.connect();
  await Promise.all(rows.map((r) => client.query('update jobs set done = true where id = $1', [r.id])));
  client.release();
}`,
  // \`forEach\` over a hand-written list, and one whose callback only pushes the promise (joined elsewhere).
  `import { warm } from './cache';
export function start(pending: Promise<void>[]) {
  ['users', 'teams', 'orgs'].forEach(async (k) => { await warm(k); });
  ['users', 'teams'].forEach((k) => pending.push(warm(k)));
}`,
  // \`forEach\` over rows, each call through one p-limit limiter: at most 4 at a time.
  `import { Pool } from 'pg';
import pLimit from 'p-limit';
import { send } from './mail';
const pool = new Pool();
const limit = pLimit(4);
export async function run() {
  const { rows } = await pool.query('select * from users');
  rows.forEach((r) => limit(() => send(r.email)));
}`,
  // A block-bodied mapper whose statements only compute: nothing starts per item.
  `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://db');
export async function sync(url: string) {
  const invites = await (await fetch(url)).json();
  const codes = await Promise.all(invites.map((invite) => {
    client.db().collection('invites');
    console.log(invite.code);
  }));
  return codes;
}`,
  // A plain \`forEach\` callback over a response: what it returns is thrown away and nothing here is async.
  `import axios from 'axios';
export async function names(url: string) {
  const { data } = await axios.get(url);
  const out: string[] = [];
  Object.keys(data.items).forEach((key) => { if (!key) return out.push('none'); out.push(key); });
  return out;
}`,
  // The program's own JSON configuration, required or imported: a configured list.
  `const { guildIds } = require('./configs.json');
const { deploy } = require('./deploy');
module.exports = function deployAll() {
  guildIds.forEach(async (id) => { await deploy(id); });
};`,
  `import settings from '../settings.json';
import { ping } from './ping';
export async function pingAll() {
  await Promise.all(settings.regions.map((r: string) => ping(r)));
}`,
  // A knex transaction callback.
  `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function copy() {
  const rows = await db('staging');
  await db.transaction(async (trx) => {
    await Promise.all(rows.map((r) => trx('live').insert(r)));
  });
}`,
];

// A dropped \`forEach(async …)\` whose callback can reject is also no-orphaned-promise's \`forEachAsync\`:
// both report it, and this one offers no limiter, which would leave each rejection unhandled.
const OWNED_BY_ORPHANED = `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
export async function run() {
  const { rows } = await pool.query('select * from users');
  rows.forEach(async (r) => { await send(r.email); });
}`;
// Slices of a list of unknown origin: cutting it into slices says it is long, so both presets report it.
const CHUNKED_PARAMETER = `import { summarise } from './llm';
export async function run(tickets: string[]) {
  for (let i = 0; i < tickets.length; i += 20) {
    await Promise.all(tickets.slice(i, i + 20).map((t) => summarise(t)));
  }
}`;
const chunked = { messageId: 'chunkedBatch' as const, line: 4, column: 11, suggestions: [] };
// Near miss: slices of the program's own hand-written list are bounded by construction.
const CHUNKED_LITERAL = CHUNKED_PARAMETER.replace('export async function run(tickets: string[]) {', "const tickets = ['a', 'b', 'c'];\nexport async function run() {");

const rejecting = {
  messageId: 'unawaitedFanOut' as const, line: 6, column: 3, suggestions: [],
  data: { method: 'forEach', source: 'rows', remedy: "Await the calls one at a time (no-orphaned-promise's `for…of` rewrite) or under a bound, in a `try` that handles their errors." },
};
// Near miss: the same forEach over one page of rows (no-orphaned-promise still reports it).
const REJECTING_PAGE = `import knex from 'knex';
import { send } from './mail';
const db = knex({ client: 'pg' });
export async function run() {
  const rows = await db('users').where({ active: true }).limit(20);
  rows.forEach(async (r) => { await send(r.email); });
}`;

// Near miss: the callback catches its own errors, so only the burst is left to report.
const GUARDED_FOR_EACH = OWNED_BY_ORPHANED.replace('{ await send(r.email); }', '{ try { await send(r.email); } catch (error) { console.error(error); } }');

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, by origin)', rule, {
  valid: [...quietInRecommended, ...quietInBoth, REJECTING_PAGE, CHUNKED_LITERAL].map((c) => (typeof c === 'string' ? { code: c, filename: NONE } : { filename: NONE, ...c })),
  invalid: [
    ...fromData.map((c) => ({ filename: NONE, ...c })),
    { code: GUARDED_FOR_EACH, filename: NONE, errors: [dropped(6, 'forEach', 'rows')] },
    { code: OWNED_BY_ORPHANED, filename: NONE, errors: [rejecting] },
    { code: CHUNKED_PARAMETER, filename: NONE, errors: [chunked] },
  ],
});

createRuleTester().run('no-unbounded-fan-out (strict, by origin)', rule, {
  valid: [...quietInBoth, REJECTING_PAGE].map((c) => (typeof c === 'string' ? { code: c, filename: NONE } : { filename: NONE, ...c })),
  invalid: [
    { code: GUARDED_FOR_EACH, filename: NONE, errors: [dropped(6, 'forEach', 'rows')] },
    { code: OWNED_BY_ORPHANED, filename: NONE, errors: [rejecting] },
    ...fromData.map((c) => ({ filename: NONE, ...c })),
    // Strict also reports what recommended leaves out for an unknown origin.
    { code: quietInRecommended[0] as string, filename: NONE, errors: [report(3)] },
    { code: quietInRecommended[1] as string, filename: NONE, errors: [report(5)] },
    { code: quietInRecommended[3] as string, filename: NONE, errors: [report(5)] },
    // The near miss of the JSON configuration: a file named at run time is not the program's own.
    {
      code: `const { guildIds } = require(process.env.GUILDS_FILE);
const { deploy } = require('./deploy');
module.exports = function deployAll() {
  guildIds.map(async (id) => { await deploy(id); });
};`,
      filename: NONE,
      errors: [dropped(4, 'map', 'guildIds')],
    },
    { code: quietInRecommended.find((c) => typeof c === 'string' && c.includes('  files.map(async')) as string, filename: NONE, errors: [dropped(3, 'map', 'files')] },
  ],
});
