import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// A connection a function opens for itself (pg `new Client()` + `connect()`, mysql2's
// `createConnection()`, mongodb's `MongoClient.connect()`) is not a pool's loan: only `end()` /
// `close()` closes it, so a failure that skips the close leaves it open on the database server.
// Only a client made in the function and closed there counts: one connected once at startup and
// kept, or handed back to the caller, is meant to stay open.

const SERVING = 'it stays open on the database server, and each leak leaves one more open until the server refuses new connections';

// The shape of a job's result writer: closed on success only, and the `catch` swallows the error.
const SUCCESS_ONLY = `import { Client } from 'pg';
export default async function updateRun(result, id) {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  try {
    await client.connect();
    await client.query('UPDATE runs SET result = $1 WHERE id = $2', [result, id]);
    await client.end();
    log('updated');
  } catch (e) {
    log(e);
  }
}`;

const SUCCESS_ONLY_WRAPPED = `import { Client } from 'pg';
export default async function updateRun(result, id) {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  try {
    await client.connect();
    try {
      await client.query('UPDATE runs SET result = $1 WHERE id = $2', [result, id]);
    } finally {
      await client.end();
    }
    log('updated');
  } catch (e) {
    log(e);
  }
}`;

const MYSQL = `import mysql from 'mysql2/promise';
export async function count(config, table) {
  const conn = await mysql.createConnection(config);
  const [rows] = await conn.execute('SELECT COUNT(*) AS n FROM ' + table);
  await conn.end();
  return rows;
}`;

const MONGO_STATIC = `const { MongoClient } = require('mongodb');
async function runCommand(url, command) {
  const client = await MongoClient.connect(url);
  const result = await client.db().command(command);
  await client.close();
  return result;
}`;

const MONGO_EARLY = `import { MongoClient } from 'mongodb';
export async function ping(url) {
  const client = new MongoClient(url);
  await client.connect();
  try {
    const reply = await client.db().command({ ping: 1 });
    if (!reply.ok) {
      return false;
    }
  } catch (error) {
    await client.close();
    throw error;
  }
  await client.close();
  return true;
}`;

for (const [name, tester] of [['default', createRuleTester()], ['recommended', createRecommendedRuleTester()]] as const) {
  tester.run<MessageId, Options>(`release-in-finally (connections, ${name})`, rule as never, {
    valid: [
      // Closed in `finally`: every path closes it.
      `import { Client } from 'pg';
export async function touch(id) {
  const client = new Client();
  await client.connect();
  try {
    await client.query('UPDATE runs SET seen = now() WHERE id = $1', [id]);
  } finally {
    await client.end();
  }
}`,
      // A long-lived client, connected once at startup and kept for the process: never ended on purpose.
      `import pg from 'pg';
const client = new pg.Client();
export async function start() {
  await client.connect();
  await client.query('LISTEN events');
  client.on('notification', handle);
}`,
      // Made in the function, but handed to the caller, who keeps it: not this function's to close.
      `import { Client } from 'pg';
export async function open(url) {
  const client = new Client(url);
  await client.connect();
  await client.query('SET search_path TO app');
  return client;
}`,
      // Kept on the instance and closed by another method.
      `import { MongoClient } from 'mongodb';
export class Store {
  async open(url) {
    this.client = new MongoClient(url);
    await this.client.connect();
    this.db = this.client.db();
  }
  async shutdown() {
    await this.client.close();
  }
}`,
      // Closed on the failure path and on the success path: every path closes it.
      `import mysql from 'mysql2/promise';
export async function count(config) {
  const conn = await mysql.createConnection(config);
  let rows;
  try {
    [rows] = await conn.execute('SELECT 1');
  } catch (error) {
    await conn.end();
    throw error;
  }
  await conn.end();
  return rows;
}`,
      // Only code that cannot throw runs between the connect and the close.
      `import { Client } from 'pg';
export async function check(url) {
  const client = new Client(url);
  await client.connect();
  const connected = true;
  await client.end();
  return connected;
}`,
      // mysql2's callback API: query errors go to the callback, and \`end()\` runs after the queued queries.
      `const mysql = require('mysql2');
function count(config, done) {
  const conn = mysql.createConnection(config);
  conn.query('SELECT 1', done);
  conn.end();
}`,
      // Closed only when its setup fails, and kept once it succeeds: a client set up to stay open.
      `import { Client } from 'pg';
export async function listen(state, url) {
  const client = new Client(url);
  try {
    await client.connect();
    await client.query('LISTEN events');
  } catch (error) {
    await client.end();
    throw error;
  }
  state.client = client;
}`,
      // A client the module keeps, connected and ended here: not one this call made for itself.
      `import { Client } from 'pg';
const client = new Client();
export async function migrate() {
  await client.connect();
  await client.query('CREATE TABLE t (id int)');
  await client.end();
}`,
      // A pool's client is released, not ended: closing it by hand is not what the pool asks.
      `import { Pool } from 'pg';
const pool = new Pool();
export async function touch(id) {
  const client = await pool.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    client.release();
  }
}`,
      // A client of a module the catalogue does not know: \`connect()\` and \`end()\` say nothing.
      `import { Client } from './myClient';
export async function touch(id) {
  const client = new Client();
  await client.connect();
  await client.query('SELECT 1');
  await client.end();
}`,
    ],
    invalid: [
      {
        // The connection from `client.connect()` is not closed if line 6 throws: it stays open on the database server, … Close it in `finally`.
        code: SUCCESS_ONLY,
        // Suggested, not applied: closing a connection that failed can itself reject and hide the first error.
        output: null,
        errors: [{
          messageId: 'connectionNotClosed',
          data: { What: 'The connection', acquire: 'client.connect()', path: 'is not closed if line 6 throws', cost: SERVING },
          line: 5,
          column: 11,
          suggestions: [{ messageId: 'wrapInTryFinally', output: SUCCESS_ONLY_WRAPPED }],
        }],
      },
      {
        // `conn` from `mysql.createConnection()` is not closed if line 4 throws: …
        code: MYSQL,
        output: null,
        errors: [{
          messageId: 'connectionNotClosed',
          data: { What: '`conn`', acquire: 'mysql.createConnection()', path: 'is not closed if line 4 throws', cost: SERVING },
          line: 3,
          column: 22,
          suggestions: [{
            messageId: 'wrapInTryFinally',
            output: `import mysql from 'mysql2/promise';
export async function count(config, table) {
  const conn = await mysql.createConnection(config);
  try {
    const [rows] = await conn.execute('SELECT COUNT(*) AS n FROM ' + table);
    return rows;
  } finally {
    await conn.end();
  }
}`,
          }],
        }],
      },
      {
        // `client` from `MongoClient.connect()` is not closed if line 4 throws: …
        code: MONGO_STATIC,
        output: null,
        errors: [{
          messageId: 'connectionNotClosed',
          data: { What: '`client`', acquire: 'MongoClient.connect()', path: 'is not closed if line 4 throws', cost: SERVING },
          line: 3,
          column: 24,
          suggestions: [{
            messageId: 'wrapInTryFinally',
            output: `const { MongoClient } = require('mongodb');
async function runCommand(url, command) {
  const client = await MongoClient.connect(url);
  try {
    const result = await client.db().command(command);
    return result;
  } finally {
    await client.close();
  }
}`,
          }],
        }],
      },
      {
        // The connection from `client.connect()` is never closed on the `return` at line 8: …
        code: MONGO_EARLY,
        output: null,
        errors: [{
          messageId: 'connectionNotClosed',
          data: { What: 'The connection', acquire: 'client.connect()', path: 'is never closed on the `return` at line 8', cost: SERVING },
          line: 4,
          column: 9,
          suggestions: [{
            messageId: 'wrapInTryFinally',
            output: `import { MongoClient } from 'mongodb';
export async function ping(url) {
  const client = new MongoClient(url);
  await client.connect();
  try {
    try {
      const reply = await client.db().command({ ping: 1 });
      if (!reply.ok) {
        return false;
      }
    } catch (error) {
      throw error;
    }
  } finally {
    await client.close();
  }
  return true;
}`,
          }],
        }],
      },
    ],
  });
}

// Where a leak can happen only rarely: at startup (`main()` run once as the module starts, before
// it listens), or behind an access check (a `403` for who the client is). Each leak costs the
// database server one connection, once per start or per trusted retry: `recommended` leaves it to
// `strict`. The same code on a public route stays reported (the invalid cases above).
const AT_STARTUP = `import mysql from 'mysql2/promise';
import express from 'express';
async function main(config) {
  const conn = await mysql.createConnection(config);
  await conn.execute('CREATE DATABASE IF NOT EXISTS app');
  conn.end();
  express().listen(3000);
}
main({});`;

const BEHIND_GATE = `import mysql from 'mysql2/promise';
import express from 'express';
const app = express();
app.post('/admin/test-database', async (req, res) => {
  if (!isAdmin(res.locals.userId)) {
    res.status(403).send({ reason: 'forbidden' });
    return;
  }
  const conn = await mysql.createConnection(req.body);
  await conn.execute('SELECT 1');
  conn.end();
  res.send({ ok: true });
});
declare function isAdmin(id: string): boolean;`;

// The near miss: the same test of a connection on a route anyone can call.
const PUBLIC_ROUTE = BEHIND_GATE.replace(`  if (!isAdmin(res.locals.userId)) {
    res.status(403).send({ reason: 'forbidden' });
    return;
  }
`, '');

createRecommendedRuleTester().run<MessageId, Options>('release-in-finally (connections, recommended: rare leaks)', rule as never, {
  valid: [AT_STARTUP, BEHIND_GATE],
  invalid: [
    {
      code: PUBLIC_ROUTE,
      errors: [{
        messageId: 'connectionNotClosed',
        data: { What: '`conn`', acquire: 'mysql.createConnection()', path: 'is not closed if line 6 throws', cost: SERVING },
        line: 5,
        column: 22,
        suggestions: [{
          messageId: 'wrapInTryFinally',
          output: PUBLIC_ROUTE.replace(`  await conn.execute('SELECT 1');
  conn.end();`, `  try {
    await conn.execute('SELECT 1');
  } finally {
    conn.end();
  }`),
        }],
      }],
    },
  ],
});

createRuleTester().run<MessageId, Options>('release-in-finally (connections, strict: rare leaks)', rule as never, {
  valid: [],
  invalid: [
    {
      code: AT_STARTUP,
      errors: [{
        messageId: 'connectionNotClosed',
        data: { What: '`conn`', acquire: 'mysql.createConnection()', path: 'is not closed if line 5 throws', cost: 'it stays open on the database server for as long as the process runs' },
        line: 4,
        column: 22,
        suggestions: [{
          messageId: 'wrapInTryFinally',
          output: AT_STARTUP.replace(`  await conn.execute('CREATE DATABASE IF NOT EXISTS app');
  conn.end();`, `  try {
    await conn.execute('CREATE DATABASE IF NOT EXISTS app');
  } finally {
    conn.end();
  }`),
        }],
      }],
    },
    {
      code: BEHIND_GATE,
      errors: [{ messageId: 'connectionNotClosed', line: 9, column: 22, suggestions: [{ messageId: 'wrapInTryFinally', output: BEHIND_GATE.replace(`  await conn.execute('SELECT 1');
  conn.end();`, `  try {
    await conn.execute('SELECT 1');
  } finally {
    conn.end();
  }`) }] }],
    },
  ],
});
