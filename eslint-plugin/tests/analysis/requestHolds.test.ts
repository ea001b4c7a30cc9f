import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { exportedNames, findManualAcquisitions, moduleSourceCode, requestHold } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

beforeEach(() => resetProject());

describe('exportedNames: members of an exported object', () => {
  it('names a member of a `const` object the file exports whole by its key', () => {
    const parsed = parse(`const hooks = { open: async (req, res, next) => { next(); } };
module.exports = hooks;`, 'hooks.cjs');
    const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(fn);
    assert.deepEqual([...(exportedNames(parsed.sourceCode, fn) ?? [])], ['open']);
  });
  it('leaves one whose object the file also hands on: that use may run the member', () => {
    const parsed = parse(`const hooks = { open: async (req, res, next) => { next(); } };
register(hooks);
module.exports = hooks;`, 'hooks.cjs');
    const fn = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression)[0];
    assert.ok(fn);
    assert.equal(exportedNames(parsed.sourceCode, fn), null);
  });
});

describe('requestHold', () => {
  const holds = (name: string): string[] => {
    const file = fixture(`request-holds/src/${name}`);
    const sourceCode = moduleSourceCode(file);
    assert.ok(sourceCode);
    return findManualAcquisitions(sourceCode).flatMap((a) => {
      const hold = requestHold(sourceCode, file, a);
      return hold ? [`${hold.store.loc.start.line} ${sourceCode.getText(hold.target)} released at ${hold.laterRelease?.loc.start.line ?? '-'}`] : [];
    });
  };
  it('finds a client stored on the request by a middleware a router mounts before the one that releases it', () => {
    assert.deepEqual(holds('middlewares/connection.js'), ['5 req.db released at 9']);
  });
  it('leaves one released when the response closes', () => {
    assert.deepEqual(holds('middlewares/scoped.js'), []);
  });
  it('leaves one stored on an instance', () => {
    assert.deepEqual(holds('session.js'), []);
  });
});
