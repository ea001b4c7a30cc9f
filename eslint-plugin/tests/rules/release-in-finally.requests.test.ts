import { readFileSync } from 'node:fs';
import type { MessageId, Options } from '../../src/rules/release-in-finally';
import rule from '../../src/rules/release-in-finally';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// A pool client an Express middleware stores on the request for a later middleware to release
// (tests/fixtures/request-holds): routes.js mounts `connection.open` before the routes and
// `connection.close` after them, so a route that answers without `next()` keeps the client.
const ruleTester = createRecommendedRuleTester();
const connection = fixture('request-holds/src/middlewares/connection.js');
const scoped = fixture('request-holds/src/middlewares/scoped.js');
const session = fixture('request-holds/src/session.js');
const read = (file: string): string => readFileSync(file, 'utf8');

ruleTester.run<MessageId, Options>('release-in-finally (held on the request)', rule as never, {
  valid: [
    // Released when the response ends, however the request ends: the store only hands it over.
    { filename: scoped, code: read(scoped) },
    // Stored on the instance, released by its own `stop()`: not a request, no later middleware.
    { filename: session, code: read(session) },
    // The same middleware in a file nothing registers with Express: no framework runs it per request.
    {
      filename: fixture('request-holds/src/unregistered.js'),
      code: `const pool = require('./db');
const hooks = {
  open: async (req, res, next) => {
    req.db = await pool.connect();
    next();
  },
};
module.exports = hooks;`,
    },
  ],
  invalid: [
    {
      filename: connection,
      code: read(connection),
      errors: [{
        messageId: 'leftToLaterMiddleware',
        line: 5,
        column: 20,
        data: {
          What: 'The connection',
          acquire: 'pool.connect()',
          target: 'req.db',
          response: 'res',
          cost: 'the connection never goes back to the pool, which runs dry under load',
        },
      }],
    },
    // The same file with the release moved off the response's end: still left to `close`.
    {
      filename: connection,
      code: read(connection).replace('req.db = await pool.connect();', "req.db = await pool.connect();\n    res.on('data', () => {});"),
      errors: [{ messageId: 'leftToLaterMiddleware', line: 5, column: 20 }],
    },
    // scoped.js without its release on the response's end.
    {
      filename: scoped,
      code: read(scoped).replace("res.on('close', () => req.db.release());", "res.on('close', () => {});"),
      errors: [{ messageId: 'leftToLaterMiddleware', line: 5, column: 20 }],
    },
  ],
});
