import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// A transaction opened by hand (`const trx = await db.transaction()`, knex or sequelize without a
// callback) is told by how its result is used: `trx.commit()` or `trx.rollback()`. It holds a
// pooled connection and its row locks until one of them runs, so a path that skips both leaks it.
// Neither the receiver's name nor its module decides.

const EARLY_RETURN = `export async function activate(db, user, code) {
  const trx = await db.transaction();
  try {
    if (!verify(user.secret, code)) {
      return { status: 400 };
    }
    await trx('users').where({ id: user.id }).update({ twoFactor: true });
    await trx.commit();
    return { status: 200 };
  } catch (error) {
    await trx.rollback();
    throw error;
  }
}`;
// Committed with no `try`: a failing update skips the commit and nothing rolls back.
const NO_TRY = `export async function rename(sequelize, Item, id, name) {
  const t = await sequelize.transaction();
  await Item.update({ name }, { where: { id }, transaction: t });
  await t.commit();
}`;

const EARLY_DATA = {
  What: '`trx`',
  acquire: 'db.transaction()',
  path: 'is neither committed nor rolled back on the `return` at line 5',
  cost: 'the transaction stays open on its pooled connection, holding its row locks, and the pool runs dry under load',
};

for (const [name, tester] of [['default', createRuleTester()], ['recommended', createRecommendedRuleTester()]] as const) {
  tester.run<MessageId, Options>(`release-in-finally (transactions, ${name})`, rule as never, {
    valid: [
      // Committed at the end of the `try`, rolled back in a `catch` that rethrows: every path ends it.
      `export async function rename(sequelize, Item, id, name) {
  const t = await sequelize.transaction();
  try {
    await Item.update({ name }, { where: { id }, transaction: t });
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
}`,
      // Rolled back in `finally`, as a test helper does on purpose.
      `export async function inRollback(db, fn) {
  const trx = await db.transaction();
  try {
    return await fn(trx);
  } finally {
    await trx.rollback();
  }
}`,
      // A managed transaction: the library commits or rolls back when the callback settles.
      `export async function rename(sequelize, Item, id, name) {
  await sequelize.transaction(async (t) => {
    await Item.update({ name }, { where: { id }, transaction: t });
  });
}`,
      // Nothing shows how the result ends: no evidence it is a transaction to end.
      `export async function load(db) {
  const tx = await db.transaction();
  return tx;
}`,
      // The early return comes after the commit.
      EARLY_RETURN.replace(`    if (!verify(user.secret, code)) {
      return { status: 400 };
    }
    await trx('users').where({ id: user.id }).update({ twoFactor: true });
    await trx.commit();`, `    await trx('users').where({ id: user.id }).update({ twoFactor: true });
    await trx.commit();
    if (!verify(user.secret, code)) {
      return { status: 400 };
    }`),
    ],
    invalid: [
      { code: EARLY_RETURN, errors: [{ messageId: 'transactionNotEnded', data: EARLY_DATA, line: 2, column: 21 }] },
      // No fix and no suggestion: a `finally` cannot choose between commit and rollback.
      { code: NO_TRY, output: null, errors: [{ messageId: 'transactionNotEnded', line: 2, column: 19, suggestions: [] }] },
    ],
  });
}
