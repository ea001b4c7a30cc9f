import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { namedRegistration } from '../../src/analysis';
import { parse } from './parse';

/** The role and registering call of the first async function in `code`, registered by name. */
function registration(code: string): string | null {
  const parsed = parse(code);
  const fn = [...parsed.all(AST_NODE_TYPES.FunctionDeclaration), ...parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)]
    .find((f) => f.async) as FunctionNode;
  const found = namedRegistration(parsed.sourceCode, fn);
  return found ? `${found.framework} ${found.role}: ${parsed.sourceCode.getText(found.node)}` : null;
}

const EXPRESS = `import express from 'express';\nconst app = express();\n`;

describe('namedRegistration', () => {
  it('finds a declaration registered by name', () => {
    assert.equal(registration(`${EXPRESS}async function h(req, res) { res.json(await q()); }\napp.get('/', h);`), "express route handler: app.get('/', h)");
  });
  it('finds a const arrow registered by name', () => {
    assert.equal(registration(`${EXPRESS}const h = async (req, res) => { res.json(await q()); };\napp.use(h);`), 'express middleware: app.use(h)');
  });
  it('is null for a function only called by name', () => {
    assert.equal(registration(`${EXPRESS}async function h(req, res) { res.json(await q()); }\napp.get('/', async (req, res) => { await h(req, res); });`), null);
  });
  it('is null for an inline handler: its call judges it', () => {
    assert.equal(registration(`${EXPRESS}app.get('/', async (req, res) => { res.json(await q()); });`), null);
  });
  it('is null for a reassigned name', () => {
    assert.equal(registration(`${EXPRESS}let h = async (req, res) => { res.json(await q()); };\nh = () => {};\napp.get('/', h);`), null);
  });
});
