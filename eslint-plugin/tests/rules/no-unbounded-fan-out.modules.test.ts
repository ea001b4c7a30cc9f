import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// Fan-out through helpers exported by the project's own modules (tests/fixtures/summaries): a
// limiter inside the callee is the bound, and a collection's origin and size are read in the
// module that produces it.
const strict = createRuleTester();
const recommended = createRecommendedRuleTester();
const service = fixture('summaries/src/service.ts');
const routes = fixture('summaries/src/routes.js');

strict.run<MessageId, Options>('no-unbounded-fan-out (imported helpers, strict)', rule as never, {
  valid: [
    // `fetchOne` runs its request inside `limit(() => …)` in limits.ts: at most 4 at a time.
    {
      filename: service,
      code: `import { fetchOne } from './limits';
export async function all(urls: string[]) { return Promise.all(urls.map((u) => fetchOne(u))); }`,
    },
    {
      filename: service,
      code: `import { fetchOne } from './limits';
export async function all(urls: string[]) { return Promise.all(urls.map(fetchOne)); }`,
    },
    // The same with the limiter in a same-file async helper.
    {
      filename: service,
      code: `import pLimit from 'p-limit';
const limit = pLimit(4);
async function fetchOne(u: string) { return limit(() => fetch(u)); }
export async function all(urls: string[]) { return Promise.all(urls.map((u) => fetchOne(u))); }`,
    },
    // A helper returning a constant list, and an exported constant list: bounded by construction.
    {
      filename: routes,
      code: `const { regions } = require('./store');
module.exports = async function ping() { return Promise.all(regions().map((r) => fetch(r))); };`,
    },
    {
      filename: service,
      code: `import { REGIONS } from './config';
export async function ping() { return Promise.all(REGIONS.map((r) => fetch(r))); }`,
    },
  ],
  invalid: [
    // Near miss: the helper in limits.ts that does not use the limiter.
    {
      filename: service,
      code: `import { fetchRaw } from './limits';
export async function all(urls: string[]) { return Promise.all(urls.map((u) => fetchRaw(u))); }`,
      errors: [{
        messageId: 'unboundedFanOut' as const,
        line: 2,
        column: 52,
        suggestions: [{
          messageId: 'useLimiter' as const,
          data: { concurrency: '8' },
          output: `import { fetchRaw } from './limits';
import pLimit from 'p-limit';
export async function all(urls: string[]) { const limit = pLimit(8); return Promise.all(urls.map((u) => limit(() => fetchRaw(u)))); }`,
        }],
      }],
    },
  ],
});

recommended.run<MessageId, Options>('no-unbounded-fan-out (imported helpers, recommended)', rule as never, {
  valid: [
    // Where the list comes from is unknown (a parameter nobody in the file passes): quiet under recommended.
    {
      filename: service,
      code: `import { fetchRaw } from './limits';
export async function all(urls: string[]) { return Promise.all(urls.map((u) => fetchRaw(u))); }`,
    },
    // A module that cannot be read says nothing about what its helper returns.
    {
      filename: routes,
      code: `const { saveAll } = require('./broken');
module.exports = async function run() { const xs = await saveAll(); return Promise.all(xs.map((x) => fetch(x))); };`,
    },
    // Rows of a query, but every request goes through the limiter in limits.ts.
    {
      filename: routes,
      code: `const { listUsers } = require('./store');
const { fetchOne } = require('./limits');
module.exports = async function sync() {
  const users = await listUsers();
  return Promise.all(users.map((u) => fetchOne(u.url)));
};`,
    },
  ],
  invalid: [
    // `listUsers` in store.js returns the rows of a query on the pg pool built in db.js.
    {
      filename: routes,
      code: `const { listUsers } = require('./store');
module.exports = async function notify() {
  const users = await listUsers();
  await Promise.all(users.map((u) => fetch(u.url)));
};`,
      errors: [{ messageId: 'unboundedFanOut' as const, line: 4, column: 9 }],
    },
    // Rows of a query on a client the imported pool lent: the client is a data source too.
    {
      filename: routes,
      code: `const pool = require('./db');
module.exports = async function notify() {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('select url from users');
    await Promise.all(rows.map((u) => fetch(u.url)));
  } finally {
    client.release();
  }
};`,
      errors: [{ messageId: 'unboundedFanOut' as const, line: 6, column: 11 }],
    },
    // The same through an ES module whose pool comes from pool.ts.
    {
      filename: service,
      code: `import { listOrders } from './orders';
import { fetchRaw } from './limits';
export async function ship(customer: string) {
  const orders = (await listOrders(customer)) as { url: string }[];
  return Promise.all(orders.map((o) => fetchRaw(o.url)));
}`,
      errors: [{
        messageId: 'unboundedFanOut' as const,
        line: 5,
        column: 10,
        suggestions: [{
          messageId: 'useLimiter' as const,
          data: { concurrency: '8' },
          output: `import { listOrders } from './orders';
import { fetchRaw } from './limits';
import pLimit from 'p-limit';
export async function ship(customer: string) {
  const orders = (await listOrders(customer)) as { url: string }[];
  const limit = pLimit(8);
  return Promise.all(orders.map((o) => limit(() => fetchRaw(o.url))));
}`,
        }],
      }],
    },
  ],
});

// Cross-file origins and handles (tests/fixtures/fan-out-origins): a connection lent by a helper
// of the project serializes what runs on it; the pool the same helper module hands out does not.
const orders = fixture('fan-out-origins/src/orders.js');
const insertEach = (handle: string): string => `const db = require('./db');
module.exports = async function place(orderId) {
  const { rows } = await db.query('select * from cart_item where order_id = $1', [orderId]);
  const client = await ${handle};
  await Promise.all(rows.map((item) => client.query('insert into order_items values ($1, $2)', [orderId, item.id])));
};`;
recommended.run<MessageId, Options>('no-unbounded-fan-out (handles from project modules)', rule as never, {
  valid: [{ filename: orders, code: insertEach('db.getClient()') }],
  invalid: [{ filename: orders, code: insertEach('db.getPool()'), errors: [{ messageId: 'unboundedFanOut' as const, line: 5 }] }],
});
