import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Acquire and release wrappers in the project's own modules (tests/fixtures/acquire-wrappers):
// connection.js hands back `conn ?? await pool.getConnection()` and releases in
// `releaseConnection`, legacy/ wraps mysql's callback `getConnection` in a promise behind two
// CommonJS re-exports, locks.ts returns a mutex's `acquire()`, and jobs.js returns a plain object
// with a `release` method that acquires nothing.
const ruleTester = createRecommendedRuleTester();
const model = fixture('acquire-wrappers/src/model.js');
const route = fixture('acquire-wrappers/src/route.js');
const service = fixture('acquire-wrappers/src/service.ts');

ruleTester.run<MessageId, Options>('release-in-finally (acquire wrappers)', rule as never, {
  valid: [
    // The release helper in `finally`.
    {
      filename: model,
      code: `const { getConnection, releaseConnection } = require('./connection');
module.exports = async function find(sql, conn) {
  const connection = await getConnection(conn);
  try {
    return await connection.execute(sql);
  } finally {
    releaseConnection(connection, conn);
  }
};`,
    },
    // A helper that only reads the connection gives nothing back: no pair, no acquisition.
    {
      filename: model,
      code: `const { getConnection, describeConnection } = require('./connection');
module.exports = async function show(conn) {
  const connection = await getConnection(conn);
  console.log(describeConnection(connection));
  await connection.execute('select 1');
};`,
    },
    // `release()` on what a function returns, where that function acquires nothing.
    {
      filename: model,
      code: `const { loadJob } = require('./jobs');
module.exports = async function runJob(id) {
  const job = await loadJob(id);
  await job.run();
  job.release();
};`,
    },
    // The continuation releases first, before its error check.
    {
      filename: route,
      code: `const dbpool = require('./legacy');
module.exports = async (req, res) => {
  const connection = await dbpool();
  connection.query('select * from t where id = ?', [req.params.id], (err, rows) => {
    connection.release();
    if (err) throw err;
    res.json(rows);
  });
};`,
    },
    // The mutex wrapper's release function called in \`finally\`.
    {
      filename: service,
      code: `import { lock } from './locks';
export async function flush(): Promise<void> {
  const release = await lock();
  try {
    await write();
  } finally {
    release();
  }
}
declare function write(): Promise<void>;`,
    },
  ],
  invalid: [
    // A failing execute skips the release helper.
    {
      filename: model,
      code: `const { getConnection, releaseConnection } = require('./connection');
module.exports = async function remove(id, conn) {
  const connection = await getConnection(conn);
  const [rows] = await connection.execute('delete from t where id = ?', [id]);
  releaseConnection(connection, conn);
  return rows.affectedRows > 0;
};`,
      errors: [{
        messageId: 'notInFinally',
        line: 3,
        column: 28,
        data: { What: '`connection`', acquire: 'getConnection()', line: '4', cost: 'the connection never goes back to the pool, which runs dry under load' },
      }],
      output: `const { getConnection, releaseConnection } = require('./connection');
module.exports = async function remove(id, conn) {
  const connection = await getConnection(conn);
  try {
    const [rows] = await connection.execute('delete from t where id = ?', [id]);
    return rows.affectedRows > 0;
  } finally {
    releaseConnection(connection, conn);
  }
};`,
    },
    // mysql callbacks: the error check throws before the nested callback releases.
    {
      filename: route,
      code: `const dbpool = require('./legacy');
module.exports = async (req, res) => {
  const connection = await dbpool();
  connection.query('delete from t where id = ?', [req.params.id], (err) => {
    if (err) throw err;
    connection.commit((err) => {
      if (err) throw err;
      connection.release();
      res.json({ ok: true });
    });
  });
};`,
      errors: [{ messageId: 'callbackExit', line: 3, column: 28, data: { What: '`connection`', acquire: 'dbpool()', exit: 'throw', line: '5', cost: 'the connection never goes back to the pool, which runs dry under load' } }],
    },
    // A callback path that ends without releasing.
    {
      filename: route,
      code: `const dbpool = require('./legacy');
module.exports = async (req, res) => {
  const connection = await dbpool();
  connection.query('select 1', (err, rows) => {
    if (!err) {
      connection.release();
      res.json(rows);
    }
  });
};`,
      errors: [{ messageId: 'unreleasedPath', line: 3, column: 28, data: { What: '`connection`', acquire: 'dbpool()', line: '5', cost: 'the connection never goes back to the pool, which runs dry under load' } }],
    },
    // The mutex wrapper's lock, released only when the work succeeds.
    {
      filename: service,
      code: `import { lock } from './locks';
export async function flush(): Promise<void> {
  const release = await lock();
  await write();
  release();
}
declare function write(): Promise<void>;`,
      errors: [{ messageId: 'notInFinally', line: 3, column: 25, data: { What: 'The lock', acquire: 'lock()', line: '4', cost: 'the lock stays held and every later caller waits for it forever' } }],
      output: `import { lock } from './locks';
export async function flush(): Promise<void> {
  const release = await lock();
  try {
    await write();
  } finally {
    release();
  }
}
declare function write(): Promise<void>;`,
    },
  ],
});
