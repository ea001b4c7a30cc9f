import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Pools imported from the project's own modules (tests/fixtures/summaries): db.js and pool.ts
// build pg pools, so the rule knows what `pool.connect()` lends even where the file never shows
// a release; a module it cannot read is judged from what the file does with the acquire's result.
const ruleTester = createRecommendedRuleTester();
const routes = fixture('summaries/src/routes.js');
const service = fixture('summaries/src/service.ts');

ruleTester.run<MessageId, Options>('release-in-finally (imported pools)', rule as never, {
  valid: [
    // One-shot queries on an imported pool: nothing is acquired by hand.
    {
      filename: routes,
      code: `const pool = require('./db');
module.exports = async function count() { const { rows } = await pool.query('select 1'); return rows; };`,
    },
    // Released in `finally`, the pool reached through a factory in pool.ts.
    {
      filename: service,
      code: `import { getPool } from './pool';
export async function touch(): Promise<void> {
  const client = await getPool().connect();
  try {
    await client.query('update t set x = 1');
  } finally {
    client.release();
  }
}`,
    },
    // A pool from a module that cannot be read, whose uses show no acquire/release pair: the
    // result of \`connect()\` is never released anywhere, so nothing says it is lent.
    {
      filename: service,
      code: `import db from '../shared/db';
export async function other(): Promise<void> {
  const conn = await db.connect();
  await conn.query('select 1');
}`,
    },
  ],
  invalid: [
    // The measured miss: the pool is built in db.js, the release is not in `finally`.
    {
      filename: routes,
      code: `const pool = require('./db');
module.exports = async function count() {
  const client = await pool.connect();
  const { rows } = await client.query('select count(*) from users');
  client.release();
  return rows[0];
};`,
      // `client` from `pool.connect()` is not released if line 4 throws: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
      errors: [{ messageId: 'notInFinally', line: 3, column: 24 }],
      output: `const pool = require('./db');
module.exports = async function count() {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('select count(*) from users');
    return rows[0];
  } finally {
    client.release();
  }
};`,
    },
    // Never released in the file: known only because pool.ts builds a pg pool.
    {
      filename: service,
      code: `import { pool } from './pool';
export async function audit(): Promise<void> {
  const client = await pool.connect();
  await client.query('insert into audit default values');
}`,
      // `client` from `pool.connect()` is never released in this function: the connection never goes back to the pool, which runs dry under load. Release it in `finally`.
      errors: [{
        messageId: 'neverReleased',
        line: 3,
        column: 24,
        suggestions: [{
          messageId: 'wrapInTryFinally',
          output: `import { pool } from './pool';
export async function audit(): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('insert into audit default values');
  } finally {
    client.release();
  }
}`,
        }],
      }],
    },
    // A module that cannot be read: the pair shown in \`move\` makes \`db\` a pool, so the acquire
    // in \`other\` that never releases is reported too.
    {
      filename: service,
      code: `import db from '../shared/db';
export async function move(id: string): Promise<void> {
  const conn = await db.connect();
  await conn.query('update t set x = 1 where id = $1', [id]);
  conn.release();
}
export async function other(): Promise<void> {
  const conn = await db.connect();
  await conn.query('select 1');
}`,
      errors: [
        // `conn` from `db.connect()` is not released if line 4 throws: …
        { messageId: 'notInFinally', line: 3, column: 22 },
        // `conn` from `db.connect()` is never released in this function: …
        {
          messageId: 'neverReleased',
          line: 8,
          column: 22,
          suggestions: [{
            messageId: 'wrapInTryFinally',
            output: `import db from '../shared/db';
export async function move(id: string): Promise<void> {
  const conn = await db.connect();
  await conn.query('update t set x = 1 where id = $1', [id]);
  conn.release();
}
export async function other(): Promise<void> {
  const conn = await db.connect();
  try {
    await conn.query('select 1');
  } finally {
    conn.release();
  }
}`,
          }],
        },
      ],
      output: `import db from '../shared/db';
export async function move(id: string): Promise<void> {
  const conn = await db.connect();
  try {
    await conn.query('update t set x = 1 where id = $1', [id]);
  } finally {
    conn.release();
  }
}
export async function other(): Promise<void> {
  const conn = await db.connect();
  await conn.query('select 1');
}`,
    },
  ],
});
