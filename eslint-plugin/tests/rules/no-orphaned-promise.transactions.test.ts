import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';
import { dropped } from './orphanedCases';

// A transaction method told a promise by how the same connection is used: its sibling
// (`beginTransaction`, `commit`, `rollback`; typeorm's `…Transaction` names) is awaited on the
// same variable, so the driver is a promise API, whatever the connection is called or where it
// comes from (a middleware's `ctx.conn`, a module out of sight).

const ROLLBACK = `export async function addReview(ctx, review) {
  const conn = ctx.conn;
  try {
    await conn.beginTransaction();
    await conn.query('INSERT INTO reviews SET ?', review);
    await conn.commit();
  } catch (error) {
    conn.rollback();
    throw error;
  }
}`;
// typeorm's query runner: the same family under its own names.
const RUNNER = `export async function move(dataSource, from, to) {
  const runner = dataSource.createQueryRunner();
  await runner.startTransaction();
  try {
    await runner.manager.update('accounts', from, { moved: true });
    await runner.commitTransaction();
  } catch (error) {
    runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}`;
// Committed without waiting: the caller answers before the data is written.
const COMMIT = `export async function save(trx, row) {
  try {
    await trx.insert(row);
    trx.commit();
  } catch (error) {
    await trx.rollback();
    throw error;
  }
}`;

for (const [name, tester] of [['default', createRuleTester()], ['recommended', createRecommendedRuleTester()]] as const) {
  tester.run<MessageId, Options>(`no-orphaned-promise (transaction calls, ${name})`, rule as never, {
    valid: [
      // Awaited, handled, voided.
      ROLLBACK.replace('conn.rollback();', 'await conn.rollback();'),
      ROLLBACK.replace('conn.rollback();', 'conn.rollback().catch(() => {});'),
      ROLLBACK.replace('conn.rollback();', 'void conn.rollback();'),
      // The callback API: `rollback(cb)` returns nothing, and nothing here is awaited.
      `export function addReview(conn, review, done) {
  conn.beginTransaction((error) => {
    if (error) return done(error);
    conn.query('INSERT INTO reviews SET ?', review, (err) => {
      if (err) { conn.rollback(() => done(err)); return; }
      conn.commit(done);
    });
  });
}`,
      // No sibling is awaited on this variable: nothing says its methods return promises.
      ROLLBACK.replace('await conn.beginTransaction();', 'conn.beginTransaction();').replace('await conn.commit();', 'conn.commit();'),
      // The awaited sibling belongs to another connection.
      `export async function copy(source, target) {
  await source.beginTransaction();
  target.rollback();
  await source.commit();
}`,
      // Other method names on the same connection are not the family.
      ROLLBACK.replace('conn.rollback();', 'conn.release();'),
    ],
    invalid: [
      dropped(ROLLBACK, 8, 5, 'conn.rollback();', true),
      dropped(RUNNER, 8, 5, 'runner.rollbackTransaction();', true),
      dropped(COMMIT, 4, 5, 'trx.commit();', true),
    ],
  });
}
