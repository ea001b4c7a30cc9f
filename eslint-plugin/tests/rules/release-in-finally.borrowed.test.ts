import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Acquires through a helper that lends back the caller's connection (tests/fixtures/borrowed-connections):
// connection.js hands back `conn` when given and takes from the pool otherwise, so whether a model's
// `getConnection(conn)` takes anything rests on who calls the model: its own file, and
// controllers/orders.js, which hands in connections it took itself. Each case's code is its file's.
const ruleTester = createRecommendedRuleTester();
const model = (name: string): string => fixture(`borrowed-connections/src/models/${name}`);
const COST = 'the connection never goes back to the pool, which runs dry under load';

/** The one finding of each invalid case: `getConnection(conn)` on `line`, the `execute` after it can throw. */
function leak(line: number): { messageId: MessageId; line: number; column: number; data: Record<string, string> } {
  return { messageId: 'notInFinally', line, column: 28, data: { What: '`connection`', acquire: 'getConnection()', line: String(line + 1), cost: COST } };
}

ruleTester.run<MessageId, Options>('release-in-finally (borrowed connections)', rule as never, {
  valid: [
    // An early-return lender; the only caller sets its `let conn` in its `try` before the call.
    {
      filename: model('refunds.js'),
      code: `const { borrowOrTake, releaseConnection } = require('../connection');

// Every caller hands in a transaction's connection, one of them from a \`let\` set in the \`try\`.
const refund = async (orderId, conn) => {
  const connection = await borrowOrTake(conn);
  await connection.execute('update orders set refunded = 1 where id = ?', [orderId]);
  releaseConnection(connection, conn);
};

module.exports = { refund };`,
    },
  ],
  invalid: [
    // `createDelivery` is called with a spread and no `conn`: the helper takes a pool connection,
    // lost if `execute` throws. `createOrder` and `addLine` are not reported: every call (the
    // controller's, and `recordOrder`'s, whose own caller passes one) hands in a connection.
    {
      filename: model('orders.js'),
      code: `const { getConnection, releaseConnection } = require('../connection');

// Called below without \`conn\`: the helper takes a pool connection.
const createDelivery = async ({ address, conn }) => {
  const connection = await getConnection(conn);
  const [rows] = await connection.execute('insert into delivery (address) values (?)', [address]);
  releaseConnection(connection, conn);
  return rows.insertId;
};

const findOrCreateDelivery = async (delivery, conn) => {
  const id = await createDelivery({ ...delivery });
  return id;
};

// Its only caller, the controller, hands in the transaction's connection.
const createOrder = async ({ total, conn }) => {
  const connection = await getConnection(conn);
  const [rows] = await connection.execute('insert into orders (total) values (?)', [total]);
  releaseConnection(connection, conn);
  return rows.insertId;
};

// Positional: the controller passes its \`conn\` on, and so does \`recordOrder\` below.
const addLine = async (orderId, conn) => {
  const connection = await getConnection(conn);
  await connection.execute('insert into lines (order_id) values (?)', [orderId]);
  releaseConnection(connection, conn);
};

const recordOrder = async (total, conn) => {
  const id = await createOrder({ total, conn });
  await addLine(id, conn);
  return id;
};

module.exports = { createDelivery, findOrCreateDelivery, createOrder, addLine, recordOrder };`,
      errors: [leak(5)],
      output: `const { getConnection, releaseConnection } = require('../connection');

// Called below without \`conn\`: the helper takes a pool connection.
const createDelivery = async ({ address, conn }) => {
  const connection = await getConnection(conn);
  try {
    const [rows] = await connection.execute('insert into delivery (address) values (?)', [address]);
    return rows.insertId;
  } finally {
    releaseConnection(connection, conn);
  }
};

const findOrCreateDelivery = async (delivery, conn) => {
  const id = await createDelivery({ ...delivery });
  return id;
};

// Its only caller, the controller, hands in the transaction's connection.
const createOrder = async ({ total, conn }) => {
  const connection = await getConnection(conn);
  const [rows] = await connection.execute('insert into orders (total) values (?)', [total]);
  releaseConnection(connection, conn);
  return rows.insertId;
};

// Positional: the controller passes its \`conn\` on, and so does \`recordOrder\` below.
const addLine = async (orderId, conn) => {
  const connection = await getConnection(conn);
  await connection.execute('insert into lines (order_id) values (?)', [orderId]);
  releaseConnection(connection, conn);
};

const recordOrder = async (total, conn) => {
  const id = await createOrder({ total, conn });
  await addLine(id, conn);
  return id;
};

module.exports = { createDelivery, findOrCreateDelivery, createOrder, addLine, recordOrder };`,
    },
    // The controller passes `conn`, but the module exports a function nobody in the package uses:
    // its importers are not all listed, so the calls seen are not all there are.
    {
      filename: model('carts.js'),
      code: `const pool = require('../db');
const { getConnection, releaseConnection } = require('../connection');

// Nothing in the package uses this export: the package's files are not all its users.
const findCart = async (userId) => {
  const [rows] = await pool.execute('select * from carts where user_id = ?', [userId]);
  return rows;
};

const clearCart = async ({ userId, conn }) => {
  const connection = await getConnection(conn);
  await connection.execute('delete from carts where user_id = ?', [userId]);
  releaseConnection(connection, conn);
};

module.exports = { findCart, clearCart };`,
      errors: [leak(11)],
      output: `const pool = require('../db');
const { getConnection, releaseConnection } = require('../connection');

// Nothing in the package uses this export: the package's files are not all its users.
const findCart = async (userId) => {
  const [rows] = await pool.execute('select * from carts where user_id = ?', [userId]);
  return rows;
};

const clearCart = async ({ userId, conn }) => {
  const connection = await getConnection(conn);
  try {
    await connection.execute('delete from carts where user_id = ?', [userId]);
  } finally {
    releaseConnection(connection, conn);
  }
};

module.exports = { findCart, clearCart };`,
    },
    // Exported, and nothing in the package imports it: its callers are unknown.
    {
      filename: model('orphan.js'),
      code: `const { getConnection, releaseConnection } = require('../connection');

// Exported, and no file of the package imports it: its callers are unknown.
const archiveOrder = async (id, conn) => {
  const connection = await getConnection(conn);
  await connection.execute('update orders set archived = 1 where id = ?', [id]);
  releaseConnection(connection, conn);
};

module.exports = { archiveOrder };`,
      errors: [leak(5)],
      output: `const { getConnection, releaseConnection } = require('../connection');

// Exported, and no file of the package imports it: its callers are unknown.
const archiveOrder = async (id, conn) => {
  const connection = await getConnection(conn);
  try {
    await connection.execute('update orders set archived = 1 where id = ?', [id]);
  } finally {
    releaseConnection(connection, conn);
  }
};

module.exports = { archiveOrder };`,
    },
    // Its one caller passes `options.conn`, which may be missing.
    {
      filename: model('lines.js'),
      code: `const { getConnection, releaseConnection } = require('../connection');

// Not exported: its one caller passes \`options.conn\`, which may be missing.
async function removeLine(id, conn) {
  const connection = await getConnection(conn);
  await connection.execute('delete from lines where id = ?', [id]);
  releaseConnection(connection, conn);
}

async function purge(ids, options) {
  for (const id of ids) await removeLine(id, options.conn);
}

module.exports = { purge };`,
      errors: [leak(5)],
      output: `const { getConnection, releaseConnection } = require('../connection');

// Not exported: its one caller passes \`options.conn\`, which may be missing.
async function removeLine(id, conn) {
  const connection = await getConnection(conn);
  try {
    await connection.execute('delete from lines where id = ?', [id]);
  } finally {
    releaseConnection(connection, conn);
  }
}

async function purge(ids, options) {
  for (const id of ids) await removeLine(id, options.conn);
}

module.exports = { purge };`,
    },
  ],
});
