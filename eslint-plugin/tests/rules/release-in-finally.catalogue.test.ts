import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRuleTester } from '../ruleTester';

// Library functions the catalogue knows to release the client they are passed: a query
// builder's `commit(connection)` and `rollback(connection)`.
const TRANSACTION = `
import { Pool } from 'pg';
import { commit, rollback, startTransaction } from '@evershop/postgres-query-builder';
const pool = new Pool();
export async function recompute() {
  const connection = await pool.connect();
  try {
    await startTransaction(connection);
    const result = await connection.query('DELETE FROM stats');
    await commit(connection);
    return result.rowCount;
  } catch (e) {
    try {
      await rollback(connection);
    } catch (rollbackError) {
      connection.release(rollbackError);
    }
    throw e;
  }
}
`;

createRuleTester().run<MessageId, Options>('release-in-finally (catalogued library releases)', rule as never, {
  valid: [
    TRANSACTION,
    // Required the CommonJS way, renamed.
    TRANSACTION.replace("import { commit, rollback, startTransaction } from '@evershop/postgres-query-builder';",
      "const qb = require('@evershop/postgres-query-builder');\nconst { startTransaction } = qb;\nconst commit = qb.commit, rollback = qb.rollback;"),
  ],
  invalid: [
    // Near miss: a project's own `commit` that does not release leaves the `return` path holding the client.
    {
      code: TRANSACTION.replace("import { commit, rollback, startTransaction } from '@evershop/postgres-query-builder';",
        "import { rollback, startTransaction } from '@evershop/postgres-query-builder';\nasync function commit(c) { await c.query('COMMIT'); }"),
      errors: [{ messageId: 'earlyExit', line: 7 }],
    },
    // Near miss: `startTransaction` is not a release, so a `return` before `commit` keeps the client.
    {
      code: TRANSACTION.replace("await commit(connection);\n    return result.rowCount;", "if (!result.rowCount) return 0;\n    await commit(connection);\n    return result.rowCount;"),
      errors: [{ messageId: 'earlyExit', line: 6 }],
    },
  ],
});
