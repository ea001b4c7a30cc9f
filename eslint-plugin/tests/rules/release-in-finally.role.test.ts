import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// A one-shot script (here a package.json script of fixtures/roles) whose failure ends the run
// takes a connection it leaked on a throw with it: `recommended` leaves that to `strict`. A batch
// that catches per item and goes on acquires again and can run the pool dry, so it is reported
// everywhere. Long-lived code is reported as before.
const MIGRATE = fixture('roles/scripts/migrate.js');

// What a leaked pool client costs where the leak happens (written out, not imported from the rule).
const SERVING = 'the connection never goes back to the pool, which runs dry under load';
const STARTUP = 'the connection never goes back to the pool, and each leak at startup leaves one connection fewer for the requests the process serves, for as long as it runs';
const ONE_SHOT_GOES_ON = 'the connection never goes back to the pool, and each leak takes one more until the pool runs dry and the rest of the script waits for a connection';
const ONE_SHOT_ENDS = 'the connection stays checked out for the rest of the run, work of this script still in flight gets one connection fewer, and the open connection can keep the script from exiting';
const client = (line: number, cost: string) => ({ What: '`client`', acquire: 'pool.connect()', line: String(line), cost });
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

// The same hold in an exported function: no startup call is known, so it may run while serving.
const SERVED = ONCE.replace('async function main', 'export async function main').replace('\nmain(pool);', '');
const SERVED_FIXED = ONCE_FIXED.replace('async function main', 'export async function main').replace('\nmain(pool);', '');

createRecommendedRuleTester().run<MessageId, Options>('release-in-finally (recommended: one-shot code)', rule as never, {
  valid: [
    { code: ONCE, filename: MIGRATE },
    { code: CATCH_OUTSIDE_LOOP, filename: MIGRATE },
  ],
  invalid: [
    { code: PER_ITEM, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 4, column: 28, data: client(5, ONE_SHOT_GOES_ON) }], output: PER_ITEM_FIXED },
    { code: PER_ITEM_HELPER, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 2, column: 24, data: client(3, ONE_SHOT_GOES_ON) }], output: PER_ITEM_HELPER_FIXED },
    { code: SETTLED, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 3, column: 26, data: client(4, ONE_SHOT_GOES_ON) }], output: SETTLED_FIXED },
    // A serving process: every leak on a throw is reported. `main(pool)` at top level runs once, at
    // startup: each leak there costs one connection, not the pool.
    { code: ONCE, filename: SERVER, errors: [{ messageId: 'notInFinally', line: 2, column: 24, data: client(3, STARTUP) }], output: ONCE_FIXED },
    { code: SERVED, filename: SERVER, errors: [{ messageId: 'notInFinally', line: 2, column: 24, data: client(3, SERVING) }], output: SERVED_FIXED },
  ],
});

createRuleTester().run<MessageId, Options>('release-in-finally (strict: one-shot code)', rule as never, {
  valid: [],
  invalid: [
    { code: ONCE, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 2, column: 24, data: client(3, ONE_SHOT_ENDS) }], output: ONCE_FIXED },
    { code: CATCH_OUTSIDE_LOOP, filename: MIGRATE, errors: [{ messageId: 'notInFinally', line: 4, column: 28, data: client(5, ONE_SHOT_ENDS) }], output: CATCH_OUTSIDE_LOOP_FIXED },
  ],
});

// A lock: in one-shot code, a path that never releases leaves every later step that takes it
// waiting, and a throw that ends the run leaves only the script's work still in flight waiting.
const LOCK_EARLY_EXIT = `const { Mutex } = require('async-mutex');
const mutex = new Mutex();
async function step(item) {
  const release = await mutex.acquire();
  if (!item) return;
  await save(item);
  release();
}
async function save(item) { return item; }
async function main(items) { for (const item of items) await step(item); }
main([]);`;
const LOCK_WRAPPED = [{
  messageId: 'wrapInTryFinally' as const,
  output: LOCK_EARLY_EXIT.replace('  if (!item) return;\n  await save(item);\n  release();', '  try {\n    if (!item) return;\n    await save(item);\n  } finally {\n    release();\n  }'),
}];

createRuleTester().run<MessageId, Options>('release-in-finally (strict: what a leaked lock costs in one-shot code)', rule as never, {
  valid: [],
  invalid: [
    {
      code: LOCK_EARLY_EXIT,
      filename: MIGRATE,
      errors: [{
        messageId: 'earlyExit', line: 4, column: 25,
        data: { What: 'The lock', acquire: 'mutex.acquire()', exit: 'return', line: '5', cost: 'the lock stays held, every later step of this script that takes it waits forever, and the script can end without finishing that work' },
        suggestions: LOCK_WRAPPED,
      }],
    },
    // The server runs `main([])` as it starts: a lock kept from startup keeps every later caller waiting, serving ones too.
    {
      code: LOCK_EARLY_EXIT,
      filename: SERVER,
      errors: [{
        messageId: 'earlyExit', line: 4, column: 25,
        data: { What: 'The lock', acquire: 'mutex.acquire()', exit: 'return', line: '5', cost: 'the lock stays held and every later caller waits for it forever' },
        suggestions: LOCK_WRAPPED,
      }],
    },
  ],
});
