// The application-shaped benchmark workspace: an Express service whose route handlers import the
// project's own db, pool, lock, limiter, sleep and store modules, so the rules follow imports into
// files that are linted too. The bench corpus proper is published packages under node_modules,
// where imports are package-internal and the project layer follows none of them; this workspace is
// where its cost shows. Generated (deterministically) into bench/.corpus/app/, ignored by git.
// `BENCH_CORPUS=app node bench/run.mjs` lints it; `node bench/app-workspace.mjs` writes and counts it.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '.corpus', 'app');
const FEATURES = 120;
const VERSION = '1';

const SHARED = {
  'package.json': JSON.stringify(
    {
      name: 'bench-app',
      private: true,
      type: 'commonjs',
      main: 'src/server.js',
      dependencies: { express: '^4.21.0', pg: '^8.16.0', 'async-mutex': '^0.5.0', 'p-limit': '^3.1.0', ioredis: '^5.6.0' },
    },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true, checkJs: false, noEmit: true, module: 'commonjs', target: 'es2022' }, include: ['src'] }, null, 2),
  'src/db.js': `const { Pool } = require('pg');

const pool = new Pool({ max: 10, connectionString: process.env.DATABASE_URL });

async function query(text, params) {
  const result = await pool.query(text, params);
  return result.rows;
}

function getPool() {
  return pool;
}

module.exports = { pool, query, getPool };
`,
  'src/lock.js': `const { Mutex } = require('async-mutex');
const pLimit = require('p-limit');

exports.cacheLock = new Mutex();
exports.limit = pLimit(4);
`,
  'src/utils/sleep.js': `function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withRetry(task, attempts = 3) {
  for (let i = 0; ; i++) {
    try {
      return await task();
    } catch (error) {
      if (i + 1 >= attempts) throw error;
      await sleep(100 * 2 ** i);
    }
  }
}

module.exports = { sleep, withRetry };
`,
  'src/utils/store.js': `const fs = require('fs');
const path = require('path');

const FILE = path.join(__dirname, '..', '..', 'data.json');

function load() {
  return JSON.parse(fs.readFileSync(FILE, 'utf8'));
}

function save(data) {
  fs.writeFileSync(FILE, JSON.stringify(data));
}

module.exports = { load, save };
`,
  'src/utils/index.js': `module.exports = { ...require('./sleep'), ...require('./store') };
`,
  'src/cache.js': `const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL);

async function remember(key, ttl, compute) {
  const hit = await redis.get(key);
  if (hit) return JSON.parse(hit);
  const value = await compute();
  await redis.set(key, JSON.stringify(value), 'EX', ttl);
  return value;
}

module.exports = { redis, remember };
`,
};

function repo(i) {
  return `const { pool, query } = require('../../db');

async function list${i}(ownerId) {
  return query('select * from items_${i} where owner_id = $1', [ownerId]);
}

async function find${i}(id) {
  const rows = await query('select * from items_${i} where id = $1', [id]);
  return rows[0] ?? null;
}

async function move${i}(id, target) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('update items_${i} set parent = $1 where id = $2', [target, id]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

async function archive${i}(id) {
  const client = await pool.connect();
  await client.query('update items_${i} set archived = true where id = $1', [id]);
  client.release();
}

module.exports = { list${i}, find${i}, move${i}, archive${i} };
`;
}

function service(i) {
  return `const { list${i}, find${i}, move${i}, archive${i} } = require('./repo');
const { cacheLock, limit } = require('../../lock');
const { sleep, withRetry, load, save } = require('../../utils');
const { remember } = require('../../cache');

async function summary${i}(ownerId) {
  return remember('summary:${i}:' + ownerId, 60, async () => {
    const items = await list${i}(ownerId);
    return { count: items.length, first: items[0] ?? null };
  });
}

async function refresh${i}(ownerId) {
  const items = await list${i}(ownerId);
  return Promise.all(items.map((item) => limit(() => withRetry(() => find${i}(item.id)))));
}

async function reorder${i}(ids, target) {
  await cacheLock.runExclusive(async () => {
    for (const id of ids) {
      await move${i}(id, target);
      await sleep(50);
    }
  });
}

async function note${i}(id, text) {
  const data = load();
  data[id] = text;
  save(data);
  return data[id];
}

function retire${i}(id) {
  archive${i}(id);
}

module.exports = { summary${i}, refresh${i}, reorder${i}, note${i}, retire${i} };
`;
}

function routes(i) {
  return `const express = require('express');
const service = require('./service');

const router = express.Router();

router.get('/items/${i}/:owner', async (req, res) => {
  const summary = await service.summary${i}(req.params.owner);
  res.json(summary);
});

router.post('/items/${i}/refresh', async (req, res, next) => {
  try {
    res.json(await service.refresh${i}(req.body.owner));
  } catch (error) {
    next(error);
  }
});

router.post('/items/${i}/reorder', async (req, res, next) => {
  try {
    await service.reorder${i}(req.body.ids, req.body.target);
    res.sendStatus(204);
  } catch (error) {
    next(error);
  }
});

router.put('/items/${i}/:id/note', (req, res) => {
  res.json(service.note${i}(req.params.id, req.body.text));
});

router.delete('/items/${i}/:id', (req, res) => {
  service.retire${i}(req.params.id);
  res.sendStatus(202);
});

module.exports = router;
`;
}

function server() {
  const requires = Array.from({ length: FEATURES }, (_, i) => `app.use(require('./features/f${i}/routes'));`).join('\n');
  return `const express = require('express');

const app = express();
app.use(express.json());
${requires}

app.listen(Number(process.env.PORT ?? 3000));
`;
}

function files() {
  const out = { ...SHARED, 'src/server.js': server() };
  for (let i = 0; i < FEATURES; i++) {
    out[`src/features/f${i}/repo.js`] = repo(i);
    out[`src/features/f${i}/service.js`] = service(i);
    out[`src/features/f${i}/routes.js`] = routes(i);
  }
  return out;
}

/** Writes the workspace unless this version of it is there already. */
export async function ensureAppWorkspace() {
  const stamp = path.join(APP_DIR, '.generated');
  if ((await readFile(stamp, 'utf8').catch(() => '')) === VERSION) return;
  await rm(APP_DIR, { recursive: true, force: true });
  for (const [relative, text] of Object.entries(files())) {
    const file = path.join(APP_DIR, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await writeFile(stamp, VERSION);
}

/** Every source file of the workspace, in the shape `corpusFiles()` returns. */
export function appFiles() {
  return Object.entries(files())
    .filter(([relative]) => relative.endsWith('.js'))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([relative, text]) => ({ pkg: 'app', file: path.join(APP_DIR, relative), lines: text.split('\n').length, bytes: text.length }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureAppWorkspace();
  const all = appFiles();
  console.log(`${APP_DIR}: ${all.length} files, ${all.reduce((n, f) => n + f.lines, 0)} lines`);
}
