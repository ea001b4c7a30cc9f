import fanOut from '../../src/rules/no-unbounded-fan-out';
import blocking from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// A controller told an Express handler by how it uses its parameters (router out of sight) is
// served per request for the other rules too: its `req.body` is request data, and a synchronous
// one serves. Without express in the package, the same code is nobody's handler.
const file = (pkg: string): string => fixture(`usage-handlers/${pkg}/src/controller/User.js`);

const FAN_OUT = `const db = require('../db');

exports.importAll = async (req, res) => {
  const rows = await Promise.all(req.body.items.map((item) => db.insert(item)));
  res.json(rows);
};`;

const BLOCKING = `const fs = require('fs');

exports.download = (req, res) => {
  res.send(fs.readFileSync(req.query.path));
};`;

// The package's server is in sight (src/app.js imports express), but nothing in sight imports the
// controller: it is served per request all the same, so a synchronous one blocks the loop. What
// hands it its arguments is not in sight (a router, a loader that validates the body first), so
// its `req.body` is of unknown size. A controller some file imports is told by that file instead.
const unseen = (pkg: string): string => fixture(`usage-handlers/${pkg}/src/controller/Product.js`);

createRecommendedRuleTester().run('no-unbounded-fan-out (handlers told by usage)', fanOut as never, {
  valid: [{ code: FAN_OUT, filename: file('plain') }, { code: FAN_OUT, filename: unseen('module-unseen') }],
  invalid: [{ code: FAN_OUT, filename: file('express4'), errors: [{ messageId: 'unboundedFanOut', line: 4, column: 22 }] }],
});

createRecommendedRuleTester().run('no-blocking-in-async (handlers told by usage)', blocking as never, {
  valid: [{ code: BLOCKING, filename: file('plain') }, { code: BLOCKING, filename: unseen('module-imported') }],
  invalid: [
    { code: BLOCKING, filename: file('express4'), errors: [{ messageId: 'blockingCall', line: 4, column: 12 }] },
    { code: BLOCKING, filename: unseen('module-unseen'), errors: [{ messageId: 'blockingCall', line: 4, column: 12 }] },
  ],
});
