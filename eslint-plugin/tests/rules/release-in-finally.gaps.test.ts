import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// What runs between an acquire and the `try` whose `finally` releases, and exits that hold
// nothing, under `recommended` (the preset with no setting) and, where it differs, `strict`.
const recommended = createRecommendedRuleTester();
const strict = createRuleTester();
const service = fixture('summaries/src/service.ts');

recommended.run<MessageId, Options>('release-in-finally (gaps, recommended)', rule as never, {
  valid: [
    // A helper of a project module whose body cannot throw (it returns `setTimeout(() => …)`).
    {
      filename: service,
      code: `import type { Pool } from 'generic-pool';
import { timeoutGuard } from './guards';
export async function get(pool: Pool<any>, key: string) {
  const client = await pool.acquire();
  const timeout = timeoutGuard('slow get', { key });
  try {
    return await client.get(key);
  } finally {
    clearTimeout(timeout);
    await pool.release(client);
  }
}`,
    },
    // The same helper declared in this file.
    `
import { Pool } from 'pg';
const pool = new Pool();
function guard(message) {
  return setTimeout(() => console.warn(message), 1000);
}
export async function run(sql) {
  const client = await pool.connect();
  const timer = guard('slow query');
  try {
    return await client.query(sql);
  } finally {
    clearTimeout(timer);
    client.release();
  }
}
`,
    // Synchronous calls into code out of sight (a listener on a signal, on the client itself) and
    // no await before the try: left to strict. The release sits in a finally nested in the finally.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function* listen(signal, onAbort, onNote) {
  const client = await pool.connect();
  signal?.addEventListener('abort', onAbort, { once: true });
  client.on('notification', onNote);
  try {
    await client.query('LISTEN x');
    yield* stream();
  } finally {
    client.off('notification', onNote);
    try {
      await client.query('UNLISTEN x');
    } finally {
      client.release();
    }
  }
}
`,
    // A return taken only when nothing was acquired.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function all(connect) {
  const client = await pool.connect();
  if (!client) {
    return null;
  }
  try {
    return await client.query('select 1');
  } finally {
    client.release();
  }
}
`,
    // The same guard, then a try/catch that keeps every error and a release after it.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function list() {
  const client = await pool.connect();
  if (client == null) return null;
  let res = {};
  try {
    res = await client.query('select * from clients');
  } catch (error) {
    console.error(error);
  }
  client.release();
  return res.rows;
}
`,
    // An exit taken only once close() has set the flag, and close() gives the permits back itself.
    `
import { Sema } from 'async-sema';
export class Poller {
  constructor() {
    this.sema = new Sema(1);
    this.stopped = false;
  }
  async poll() {
    await this.sema.acquire();
    if (this.stopped) return null;
    try {
      return await this.fetch();
    } finally {
      this.sema.release();
    }
  }
  close() {
    this.stopped = true;
    this.sema.release();
  }
}
`,
    // lockfile's lockSync released in finally.
    `
const lockfile = require('lockfile');
module.exports = async function run(job, file) {
  lockfile.lockSync(file);
  try {
    await job();
  } finally {
    lockfile.unlockSync(file);
  }
};
`,
    // \`await client.connect()\` on a single pg Client, not a pool: connecting it checks nothing out.
    `
import { Client } from 'pg';
export async function ping() {
  const client = new Client();
  await client.connect();
  await client.end();
}
`,
  ],
  invalid: [
    // A project helper that throws on bad input is in sight: it can leak the client.
    {
      filename: service,
      code: `import { Pool } from 'pg';
import { requireKey } from './guards';
const pool = new Pool();
export async function get(key: string | undefined) {
  const client = await pool.connect();
  const k = requireKey(key);
  try {
    return await client.query('select $1', [k]);
  } finally {
    client.release();
  }
}`,
      // `client` from `pool.connect()` is not released if line 6 throws, before the `try` at line 7 begins: …
      errors: [{ messageId: 'throwBeforeTry', line: 5, column: 24, suggestions: [{ messageId: 'moveIntoTry', output: `import { Pool } from 'pg';
import { requireKey } from './guards';
const pool = new Pool();
export async function get(key: string | undefined) {
  const client = await pool.connect();
  try {
    const k = requireKey(key);
    return await client.query('select $1', [k]);
  } finally {
    client.release();
  }
}` }] }],
    },
    // JSON.parse of request data between the acquire and the try: a real throw, recommended too.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(body) {
  const client = await pool.connect();
  const data = JSON.parse(body);
  try {
    await client.query('insert into t values ($1)', [data]);
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'throwBeforeTry', line: 5, column: 24, suggestions: [{ messageId: 'moveIntoTry', output: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(body) {
  const client = await pool.connect();
  try {
    const data = JSON.parse(body);
    await client.query('insert into t values ($1)', [data]);
  } finally {
    client.release();
  }
}
` }] }],
    },
    // An out-of-sight call, but an await in the gap too: recommended names the first thrower.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(log, id) {
  const client = await pool.connect();
  log.info('start');
  await client.query('BEGIN');
  try {
    await client.query('update t set n = 1 where id = $1', [id]);
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'throwBeforeTry', line: 5, column: 24, suggestions: [{ messageId: 'moveIntoTry', output: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(log, id) {
  const client = await pool.connect();
  try {
    log.info('start');
    await client.query('BEGIN');
    await client.query('update t set n = 1 where id = $1', [id]);
  } finally {
    client.release();
  }
}
` }] }],
    },
    // A callback handed to an out-of-sight call may run right now, and this one throws.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(items) {
  const client = await pool.connect();
  items.forEach((item) => {
    if (!item.id) throw new Error('id required');
  });
  try {
    await client.query('insert into t select * from unnest($1)', [items]);
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'throwBeforeTry', line: 5, column: 24, suggestions: [{ messageId: 'moveIntoTry', output: `
import { Pool } from 'pg';
const pool = new Pool();
export async function save(items) {
  const client = await pool.connect();
  try {
    items.forEach((item) => {
      if (!item.id) throw new Error('id required');
    });
    await client.query('insert into t select * from unnest($1)', [items]);
  } finally {
    client.release();
  }
}
` }] }],
    },
    // Guarded on the client being there: the branch that has it still leaks on the early return.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function all(ready) {
  const client = await pool.connect();
  if (client && !ready) {
    return null;
  }
  try {
    return await client.query('select 1');
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'earlyExit', line: 5, column: 24 }],
    },
    // The flag is also set by a method that does not release: the exit may leave a live waiter behind.
    {
      code: `
import { Sema } from 'async-sema';
export class Poller {
  constructor() {
    this.sema = new Sema(1);
    this.stopped = false;
  }
  async poll() {
    await this.sema.acquire();
    if (this.stopped) return null;
    try {
      return await this.fetch();
    } finally {
      this.sema.release();
    }
  }
  pause() {
    this.stopped = true;
  }
}
`,
      errors: [{ messageId: 'earlyExit', line: 9, column: 11 }],
    },
    // A pool client checked out and thrown away: nothing can ever release it.
    {
      code: `
const { Pool } = require('pg');
const pool = new Pool();
module.exports.connect = async () => {
  try {
    await pool.connect();
    return pool.connect();
  } catch (error) {
    return null;
  }
};
`,
      errors: [{ messageId: 'neverReleased', line: 6, column: 11 }],
    },
    // lockfile's lockSync removed only on success; the catch swallows the error and keeps the lock.
    {
      code: `
const LockFile = require('lockfile');
module.exports = async (service, lockFile) => {
  try {
    LockFile.lockSync(lockFile);
    await service.execute();
    LockFile.unlockSync(lockFile);
  } catch (err) {
    console.error(err);
  }
};
`,
      // The file lock from `LockFile.lockSync()` is not released if line 6 throws: …
      errors: [{ messageId: 'notInFinally', line: 5, column: 5 }],
      output: `
const LockFile = require('lockfile');
module.exports = async (service, lockFile) => {
  try {
    LockFile.lockSync(lockFile);
    try {
      await service.execute();
    } finally {
      LockFile.unlockSync(lockFile);
    }
  } catch (err) {
    console.error(err);
  }
};
`,
    },
  ],
});

strict.run<MessageId, Options>('release-in-finally (gaps, strict)', rule as never, {
  valid: [],
  invalid: [
    // strict reports the gap of calls out of sight that recommended leaves out.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function run(signal, onAbort) {
  const client = await pool.connect();
  signal.addEventListener('abort', onAbort);
  try {
    await client.query('select 1');
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'throwBeforeTry', line: 5, column: 24, suggestions: [{ messageId: 'moveIntoTry', output: `
import { Pool } from 'pg';
const pool = new Pool();
export async function run(signal, onAbort) {
  const client = await pool.connect();
  try {
    signal.addEventListener('abort', onAbort);
    await client.query('select 1');
  } finally {
    client.release();
  }
}
` }] }],
    },
  ],
});
