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

createRecommendedRuleTester().run('no-unbounded-fan-out (handlers told by usage)', fanOut as never, {
  valid: [{ code: FAN_OUT, filename: file('plain') }],
  invalid: [{ code: FAN_OUT, filename: file('express4'), errors: [{ messageId: 'unboundedFanOut', line: 4, column: 22 }] }],
});

createRecommendedRuleTester().run('no-blocking-in-async (handlers told by usage)', blocking as never, {
  valid: [{ code: BLOCKING, filename: file('plain') }],
  invalid: [{ code: BLOCKING, filename: file('express4'), errors: [{ messageId: 'blockingCall', line: 4, column: 12 }] }],
});
