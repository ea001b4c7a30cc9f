import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester } from '../ruleTester';
import { SERVING } from './blockingCosts';

// express-validator's chains are route middleware: a custom validator or sanitizer
// (`body('password').custom(fn)`, `checkSchema({ f: { custom: { options: fn } } })`) runs once
// per request that reaches the route, on the same path as the handler, even when it is
// synchronous. What makes it one is the chain, built from the package's own exports.
createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (request validators)', rule as never, {
  valid: [
    // A `.custom` on an object that is not an express-validator chain.
    `import fs from 'node:fs';
const body = (field: string) => ({ custom: (fn: (v: string) => boolean) => fn(field) });
export const rules = [body('token').custom((v) => fs.readFileSync('/etc/tokens', 'utf8').includes(v))];`,
    // A chain from another validation package.
    `import fs from 'node:fs';
import { body } from 'some-validator';
export const rules = [body('token').custom((v: string) => fs.readFileSync('/etc/tokens', 'utf8').includes(v))];`,
    // Building the chain runs once, when the module loads; only its callbacks run per request.
    `import fs from 'node:fs';
import { body } from 'express-validator';
export const rules = [body('code').isIn(fs.readFileSync('codes.txt', 'utf8').split('\\n'))];`,
    // The asynchronous compare does not hold the event loop.
    `import { body } from 'express-validator';
import bcrypt from 'bcryptjs';
import { findUser } from './users';
export const login = [
  body('password').custom(async (value, { req }) => {
    const user = await findUser(req.body.email);
    if (!user || !(await bcrypt.compare(value, user.password))) throw new Error('bad credentials');
  }),
];`,
    // A function the chain's error message is built from is not a validator.
    `import fs from 'node:fs';
import { check } from 'express-validator';
const message = () => fs.readFileSync('messages/required.txt', 'utf8');
export const rules = [check('name').notEmpty().withMessage(message())];`,
  ],
  invalid: [
    // A validator returning a query's promise; the compare runs in its callback.
    {
      code: `const { check, body } = require('express-validator');
const { compareSync } = require('bcryptjs');
const db = require('./db');
module.exports = [
  check('email').notEmpty().isEmail(),
  body('password').custom((value, { req }) => {
    return db.User.findOne({ where: { email: req.body.email } })
      .then((user) => {
        if (!user || !compareSync(value, user.password)) return Promise.reject();
      });
  }),
];`,
      errors: [{
        messageId: 'blockingCall', line: 9, column: 23, suggestions: [],
        data: { cost: SERVING, name: 'bcryptjs.compareSync', where: 'a promise callback in an express validator (line 6)' },
      }],
    },
    // A synchronous validator, after other chain methods.
    {
      code: `import fs from 'node:fs';
import { header } from 'express-validator';
export const auth = header('x-api-key').notEmpty().withMessage('required').bail()
  .custom((key: string) => fs.readFileSync('/etc/app/keys', 'utf8').split('\\n').includes(key));`,
      errors: [{
        messageId: 'blockingCall', line: 4, column: 28,
        data: { cost: SERVING, name: 'fs.readFileSync', where: 'an express validator (line 4)' },
        suggestions: [],
      }],
    },
    // A named function handed to the chain, and a sanitizer.
    {
      code: `import zlib from 'node:zlib';
import bcrypt from 'bcryptjs';
import * as validator from 'express-validator';
function matchesPin(value: string) {
  return bcrypt.compareSync(value, process.env.PIN_HASH ?? '');
}
export const rules = [
  validator.param('pin').custom(matchesPin),
  validator.body('doc').customSanitizer((doc: string) => zlib.inflateSync(Buffer.from(doc, 'base64')).toString()),
];`,
      errors: [
        {
          messageId: 'blockingCall', line: 5, column: 10, suggestions: [],
          data: { cost: SERVING, name: 'bcryptjs.compareSync', where: 'express validator `matchesPin` (line 4)' },
        },
        {
          messageId: 'blockingCall', line: 9, column: 58, suggestions: [],
          data: { cost: SERVING, name: 'zlib.inflateSync', where: 'an express validator (line 9)' },
        },
      ],
    },
    // A schema's custom validator.
    {
      code: `import { checkSchema } from 'express-validator';
import { scryptSync } from 'node:crypto';
export const rules = checkSchema({
  token: {
    in: ['headers'],
    custom: { options: (value: string) => scryptSync(value, 'salt', 64).toString('hex') === process.env.TOKEN_HASH },
  },
});`,
      errors: [{
        messageId: 'blockingCall', line: 6, column: 43,
        data: { cost: SERVING, name: 'crypto.scryptSync', where: 'express validator `options` (line 6)' },
        suggestions: [],
      }],
    },
  ],
});
