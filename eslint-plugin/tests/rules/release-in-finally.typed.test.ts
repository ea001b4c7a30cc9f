import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRuleTester, createTypedRuleTester, fixture } from '../ruleTester';

// With type information the rule also knows owners created elsewhere, by their declared types.
// The libraries are not installed in the fixtures; `release-in-finally/libraries.d.ts` declares
// the slice of their types the cases use, as ambient modules pulled in by a reference directive.
const MUTEX_TYPES = `/// <reference path="./release-in-finally/libraries.d.ts" />
declare function sharedLock(): import('async-mutex').MutexInterface;
declare function work(job: string): Promise<void>;
`;

const PG_TYPES = `/// <reference path="./release-in-finally/libraries.d.ts" />
`;

const typedCode = {
  mutexAfterWork: `${MUTEX_TYPES}
async function handle(job: string): Promise<void> {
  const release = await sharedLock().acquire();
  await work(job);
  release();
}
`,
  poolParameter: `${PG_TYPES}
async function count(pool: import('pg').Pool): Promise<unknown> {
  const client = await pool.connect();
  const res = await client.query('SELECT count(*) FROM t');
  client.release();
  return res.rows[0];
}
`,
  returnThenable: `${PG_TYPES}
declare function load(): Promise<number>;
const loader = { load };
async function count(pool: import('pg').Pool): Promise<number> {
  const client = await pool.connect();
  try {
    return loader.load();
  } finally {
    client.release();
  }
}
`,
};

const typed = createTypedRuleTester();
// A file name that does not exist: the project service opens it in its default project.
const filename = fixture('release-in-finally.ts');

typed.run<MessageId, Options>('release-in-finally (typed)', rule as never, {
  valid: [
    {
      // The typed owner released in finally.
      code: `${MUTEX_TYPES}
async function handle(job: string): Promise<void> {
  const release = await sharedLock().acquire();
  try {
    await work(job);
  } finally {
    release();
  }
}
`,
      filename,
    },
    {
      // A type that merely shares a method name, whose uses show no acquire/release pair, is not a pool.
      code: `
interface Pool { connect(): Promise<{ end(): void; query(sql: string): Promise<void> }> }
async function count(pool: Pool): Promise<void> {
  const client = await pool.connect();
  await client.query('SELECT 1');
  client.end();
}
`,
      filename,
    },
  ],
  invalid: [
    {
      code: typedCode.mutexAfterWork,
      filename,
      output: `${MUTEX_TYPES}
async function handle(job: string): Promise<void> {
  const release = await sharedLock().acquire();
  try {
    await work(job);
  } finally {
    release();
  }
}
`,
      errors: [
        {
          messageId: 'notInFinally',
          line: 6,
          column: 25,
          suggestions: [
            {
              messageId: 'useRunExclusive',
              output: `${MUTEX_TYPES}
async function handle(job: string): Promise<void> {
  await sharedLock().runExclusive(async () => {
    await work(job);
  });
}
`,
            },
          ],
        },
      ],
    },
    {
      code: typedCode.poolParameter,
      filename,
      output: `${PG_TYPES}
async function count(pool: import('pg').Pool): Promise<unknown> {
  const client = await pool.connect();
  try {
    const res = await client.query('SELECT count(*) FROM t');
    return res.rows[0];
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'notInFinally', line: 4, column: 24, suggestions: [] }],
    },
    {
      // Whatever the declared type, a connection from `connect()` released with `release()` shows
      // a pool checkout: types add owners, they never take usage evidence away.
      code: `
interface Pool { connect(): Promise<{ release(): void; query(sql: string): Promise<void> }> }
async function count(pool: Pool): Promise<void> {
  const client = await pool.connect();
  await client.query('SELECT 1');
  client.release();
}
`,
      filename,
      output: `
interface Pool { connect(): Promise<{ release(): void; query(sql: string): Promise<void> }> }
async function count(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'notInFinally', line: 4, column: 24, suggestions: [] }],
    },
    {
      // Only the checker knows `loader.load()` returns a promise.
      code: typedCode.returnThenable,
      filename,
      output: null,
      errors: [
        {
          messageId: 'returnWithoutAwait',
          line: 6,
          column: 24,
          suggestions: [
            {
              messageId: 'addAwait',
              output: typedCode.returnThenable.replace('return loader.load();', 'return await loader.load();'),
            },
          ],
        },
      ],
    },
  ],
});

// The same code without type information: the owners are unknown, but what the code does with
// each acquire's result (`release()`, `client.release()`) still shows the pair, so both leaks are
// found (without the async-mutex-only `runExclusive` suggestion). Only the checker knows that
// `loader.load()` returns a promise.
const untyped = createRuleTester();
untyped.run<MessageId, Options>('release-in-finally (same code, no types)', rule as never, {
  valid: [typedCode.returnThenable],
  invalid: [
    {
      code: typedCode.mutexAfterWork,
      output: `${MUTEX_TYPES}
async function handle(job: string): Promise<void> {
  const release = await sharedLock().acquire();
  try {
    await work(job);
  } finally {
    release();
  }
}
`,
      errors: [{ messageId: 'notInFinally', line: 6, column: 25, suggestions: [] }],
    },
    {
      code: typedCode.poolParameter,
      output: `${PG_TYPES}
async function count(pool: import('pg').Pool): Promise<unknown> {
  const client = await pool.connect();
  try {
    const res = await client.query('SELECT count(*) FROM t');
    return res.rows[0];
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'notInFinally', line: 4, column: 24, suggestions: [] }],
    },
  ],
});
