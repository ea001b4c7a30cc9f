import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester } from '../ruleTester';

// A generic-pool resource taken in a promise chain and given back from the chain's handlers: the
// fulfilled and rejected handlers stand for `try`/`catch`, so what can leave one of them before
// its release leaks the resource.
const ruleTester = createRecommendedRuleTester();

const POOL = `import { createPool } from 'generic-pool';
const pool = createPool({ create: async () => ({}), destroy: async () => {} }, { max: 2 });
`;

ruleTester.run<MessageId, Options>('release-in-finally (promise chains)', rule as never, {
  valid: [
    // The handlers release first and check afterwards: nothing can leave them before the release.
    {
      code: `${POOL}export function use(fn) {
  let resource;
  return pool
    .acquire()
    .then((r) => { resource = r; return r; })
    .then(fn)
    .then(
      async (result) => { pool.release(resource); await audit(); return result; },
      async (err) => { pool.release(resource); await audit(); throw err; },
    );
}`,
    },
    // The check before the release sits in a \`try\` whose \`finally\` releases.
    {
      code: `${POOL}export function use(fn) {
  return pool.acquire().then(async (r) => {
    try {
      return await fn(r);
    } finally {
      pool.release(r);
    }
  });
}`,
    },
  ],
  invalid: [
    // A health check awaited before the release in both handlers: when it rejects, neither releases.
    {
      code: `${POOL}export function use(fn) {
  let resource;
  return pool
    .acquire()
    .then((r) => { resource = r; return r; })
    .then(fn)
    .then(
      async (result) => { await check(resource); pool.release(resource); return result; },
      async (err) => { await check(resource); pool.release(resource); throw err; },
    );
}`,
      errors: [{
        messageId: 'notInFinally',
        line: 5,
        column: 10,
        data: { What: 'The pooled resource', acquire: 'pool.acquire()', line: '10', cost: 'the resource never goes back to the pool, which runs dry under load' },
      }],
    },
    // The work itself awaited in the one handler, with no rejected handler to release.
    {
      code: `${POOL}export function run(job) {
  return pool.acquire().then(async (r) => {
    const out = await job(r);
    pool.release(r);
    return out;
  });
}`,
      errors: [{
        messageId: 'notInFinally',
        line: 4,
        column: 10,
        data: { What: 'The pooled resource', acquire: 'pool.acquire()', line: '5', cost: 'the resource never goes back to the pool, which runs dry under load' },
      }],
    },
  ],
});
