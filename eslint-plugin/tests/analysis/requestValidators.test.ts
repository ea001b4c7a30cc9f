import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { mayRegisterValidators, validatorRegistration } from '../../src/analysis';
import { parse } from './parse';

/** The registering call's text for the `nth` arrow function of `code`, or null. */
function registeredBy(code: string, nth = 0): string | null {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[nth] as FunctionNode;
  const found = validatorRegistration(parsed.sourceCode, fn);
  if (found) assert.equal(found.role, 'validator');
  return found ? parsed.sourceCode.getText(found.node).split('\n')[0] ?? null : null;
}

describe('validatorRegistration', () => {
  it('takes the callbacks of chains built from the package, whatever the methods before them', () => {
    assert.equal(registeredBy(`import { body } from 'express-validator';\nbody('a').trim().notEmpty().custom((v) => v);`), "body('a').trim().notEmpty().custom((v) => v)");
    assert.equal(registeredBy(`const ev = require('express-validator');\nev.query('q').customSanitizer((v) => v);`), "ev.query('q').customSanitizer((v) => v)");
    assert.equal(registeredBy(`import { check } from 'express-validator/check';\ncheck('a').if((v) => v).notEmpty();`), "check('a').if((v) => v)");
  });

  it('takes a named function handed to a chain', () => {
    const parsed = parse(`import { param } from 'express-validator';\nfunction known(v: string) { return v; }\nexport const r = param('id').custom(known);`);
    const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0] as FunctionNode;
    assert.equal(validatorRegistration(parsed.sourceCode, fn)?.framework, 'express');
  });

  it("takes a schema field's custom options, not its other options", () => {
    const schema = `import { checkSchema } from 'express-validator';\ncheckSchema({ a: { custom: { options: (v) => v } }, b: { isLength: { options: (v) => v } } });`;
    assert.equal(registeredBy(schema, 0), 'checkSchema({ a: { custom: { options: (v) => v } }, b: { isLength: { options: (v) => v } } })');
    assert.equal(registeredBy(schema, 1), null);
  });

  it('refuses chains from elsewhere, other arguments and functions only stored', () => {
    assert.equal(registeredBy(`import { body } from 'yup';\nbody('a').custom((v) => v);`), null);
    assert.equal(registeredBy(`import { body } from 'express-validator';\nconst chain = { custom: (f) => f };\nchain.custom((v) => v);`), null);
    assert.equal(registeredBy(`import { body } from 'express-validator';\nbody('a').withMessage((v) => v);`), null);
    assert.equal(registeredBy(`import { body } from 'express-validator';\nconst later = (v) => v;\nbody('a');`), null);
  });
});

describe('mayRegisterValidators', () => {
  it('asks for an import of the package', () => {
    assert.equal(mayRegisterValidators(parse(`import { body } from 'express-validator';`).sourceCode), true);
    assert.equal(mayRegisterValidators(parse(`import { body } from './validators';`).sourceCode), false);
  });
});
