import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { callbackRegistration, libraryCallbackRegistration, registerSourceFile, registeredCallbacks } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

const v3 = fixture('library-callbacks/v3/src/server.ts');
const v2 = fixture('library-callbacks/v2/src/server.ts');

/** For the call whose callee reads `callee`: the registration's name and callback index, or null. */
const registration = (code: string, callee: string, filename = v3): string | null => {
  const parsed = parse(code, filename);
  registerSourceFile(parsed.sourceCode, filename);
  const call = parsed.all(AST_NODE_TYPES.CallExpression).find((c) => parsed.sourceCode.getText(c.callee) === callee);
  assert.ok(call);
  const found = libraryCallbackRegistration(parsed.sourceCode, call);
  return found ? `${found.name}@${found.callbackIndex}${found.implementation ? ' implementation' : ''}` : null;
};

beforeEach(() => resetProject());

describe('libraryCallbackRegistration', () => {
  it('takes the last argument of `listen` on a server object, whatever framework made it', () => {
    assert.equal(registration("import express from 'express';\nconst app = express();\napp.listen(3000, () => {});", 'app.listen'), 'app.listen@1');
    assert.equal(registration("import Fastify from 'fastify';\nconst f = Fastify();\nf.listen({ port: 1 }, onUp);", 'f.listen'), 'f.listen@1');
    assert.equal(registration("import Koa from 'koa';\nnew Koa().listen(3000, '0.0.0.0', () => {});", 'new Koa().listen'), 'new Koa().listen@2');
    // No callback (the promise form), an object of unknown origin.
    assert.equal(registration("import Fastify from 'fastify';\nconst f = Fastify();\nf.listen({ port: 1 });", 'f.listen'), null);
    assert.equal(registration('const s = make();\ns.listen(1, () => {});', 's.listen'), null);
  });

  it('takes a gRPC service implementation as an object of callbacks, in place or held by a const', () => {
    const code = `import { Server } from '@grpc/grpc-js';
const server = new Server();
const impl = { check(call, cb) { cb(null, {}); }, scan };
server.addService(def, impl);
server.addService(def, makeImpl());`;
    assert.equal(registration(code, 'server.addService'), 'server.addService@1 implementation');
    const parsed = parse(code, v3);
    const [first, second] = parsed.all(AST_NODE_TYPES.CallExpression).filter((c) => parsed.sourceCode.getText(c.callee) === 'server.addService');
    assert.ok(first && second);
    const found = callbackRegistration(parsed.sourceCode, first);
    assert.ok(found);
    assert.deepEqual(registeredCallbacks(parsed.sourceCode, first, found).map((n) => n.type), [AST_NODE_TYPES.FunctionExpression, AST_NODE_TYPES.Identifier]);
    // An implementation the file does not spell out is not read.
    assert.equal(callbackRegistration(parsed.sourceCode, second), null);
    assert.equal(registration(code.replace("import { Server } from '@grpc/grpc-js';", 'class Server { addService() {} }'), 'server.addService'), null);
  });

  it('takes the event handlers of an async 3 queue, not of async 2', () => {
    const code = "const queue = require('async/queue');\nconst q = queue(work, 2);\nq.drain(done);\nq.error((e) => {});";
    assert.equal(registration(code, 'q.drain'), 'q.drain@0');
    assert.equal(registration(code, 'q.error'), 'q.error@0');
    assert.equal(registration(code, 'q.drain', v2), null);
    assert.equal(registration("const async = require('async');\nconst q = async.cargo(work);\nq.empty(() => {});", 'q.empty'), 'q.empty@0');
  });
});
