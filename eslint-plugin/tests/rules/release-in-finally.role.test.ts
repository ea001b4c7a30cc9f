import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// A one-shot script (here a package.json script of fixtures/roles) whose failure ends the run
// takes a connection it leaked on a throw with it: `recommended` leaves that to `strict`. A batch
// that catches per item and goes on acquires again and can run the pool dry, so it is reported
// everywhere. Long-lived code is reported as before.
const MIGRATE = fixture('roles/scripts/migrate.js');
const SERVER = fixture('roles/src/server.js');

// Released on success only; nothing catches, so a throw ends the script.
const ONCE = `async function main(pool) {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('COMMIT');
  client.release();
}
main(pool);`;

// Each item's failure is caught and the loop goes on: every failed item keeps a client.
const PER_ITEM = `async function main(pool, items) {
  for (const item of items) {
    try {
      const client = await pool.connect();
      await client.query('UPDATE t SET x = $1', [item]);
      client.release();
    } catch (err) {
      console.error(err);
    }
  }
}
main(pool, []);`;

// The same, with the acquire in a helper that the loop calls and catches around.
const PER_ITEM_HELPER = `async function importOne(pool, item) {
  const client = await pool.connect();
  await client.query('INSERT INTO t VALUES ($1)', [item]);
  client.release();
}
async function main(pool, items) {
  for (const item of items) {
    await importOne(pool, item).catch((err) => console.error(err));
  }
}
main(pool, []);`;

const SETTLED = `async function main(pool, items) {
  await Promise.allSettled(items.map(async (item) => {
    const client = await pool.connect();
    await client.query('INSERT INTO t VALUES ($1)', [item]);
    client.release();
  }));
}
main(pool, []);`;

// A loop with the catch outside it: the first failure ends the loop and the script.
const CATCH_OUTSIDE_LOOP = `async function main(pool, items) {
  try {
    for (const item of items) {
      const client = await pool.connect();
      await client.query('INSERT INTO t VALUES ($1)', [item]);
      client.release();
    }
  } catch (err) {
    process.exit(1);
  }
}
main(pool, []);`;


// What the autofix writes: the hold wrapped in `try`, the release in `finally`.
const PER_ITEM_FIXED = `async function main(pool, items) {
  for (const item of items) {
    try {
      const client = await pool.connect();
      try {
        await client.query('UPDATE t SET x = $1', [item]);
      } finally {
        client.release();
      }
    } catch (err) {
      console.error(err);
    }
  }
}
main(pool, []);`;
const PER_ITEM_HELPER_FIXED = `async function importOne(pool, item) {
  const client = await pool.connect();
  try {
    await client.query('INSERT INTO t VALUES ($1)', [item]);
  } finally {
    client.release();
  }
}
async function main(pool, items) {
  for (const item of items) {
    await importOne(pool, item).catch((err) => console.error(err));
  }
}
main(pool, []);`;
const SETTLED_FIXED = `async function main(pool, items) {
  await Promise.allSettled(items.map(async (item) => {
    const client = await pool.connect();
    try {
      await client.query('INSERT INTO t VALUES ($1)', [item]);
    } finally {
      client.release();
    }
  }));
}
main(pool, []);`;
const ONCE_FIXED = `async function main(pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
main(pool);`;
const CATCH_OUTSIDE_LOOP_FIXED = `async function main(pool, items) {
  try {
    for (const item of items) {
      const client = await pool.connect();
      try {
        await client.query('INSERT INTO t VALUES ($1)', [item]);
      } finally {
        client.release();
      }
    }
  } catch (err) {
    process.exit(1);
  }
}
main(pool, []);`;

createRecommendedRuleTester().run<MessageId, Options>('release-in-finally (recommended: one-shot code)', rule as never, {
  valid: [
    { code: ONCE, filename: MIGRATE },
    { code: CATCH_OUTSIDE_LOOP, filename: MIGRATE },
  ],
  invalid: [
    { code: PER_ITEM, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 4, column: 28 }], output: PER_ITEM_FIXED },
    { code: PER_ITEM_HELPER, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 2, column: 24 }], output: PER_ITEM_HELPER_FIXED },
    { code: SETTLED, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 3, column: 26 }], output: SETTLED_FIXED },
    // A serving process: every leak on a throw is reported.
    { code: ONCE, filename: SERVER, errors: [{ messageId: 'notInFinally', line: 2, column: 24 }], output: ONCE_FIXED },
  ],
});

createRuleTester().run<MessageId, Options>('release-in-finally (strict: one-shot code)', rule as never, {
  valid: [],
  invalid: [
    { code: ONCE, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 2, column: 24 }], output: ONCE_FIXED },
    { code: CATCH_OUTSIDE_LOOP, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 4, column: 28 }], output: CATCH_OUTSIDE_LOOP_FIXED },
  ],
});
