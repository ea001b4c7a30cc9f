import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { usageHandler } from '../../src/analysis/handlerUsage';
import { fixture } from '../ruleTester';
import { parse } from './parse';

const EXPRESS4 = fixture('usage-handlers/express4/src/controller/User.js');
const PLAIN = fixture('usage-handlers/plain/src/controller/User.js');
const KOA = fixture('usage-handlers/koa/src/controller/user.js');
const FASTIFY = fixture('usage-handlers/fastify/src/controller/user.js');

/** The framework and role usage gives the first function of `code` that has parameters. */
function usage(code: string, filename = EXPRESS4): string | null {
  const parsed = parse(code, filename);
  const fns = [
    ...parsed.all(AST_NODE_TYPES.FunctionDeclaration), ...parsed.all(AST_NODE_TYPES.FunctionExpression),
    ...parsed.all(AST_NODE_TYPES.ArrowFunctionExpression),
  ].filter((f) => f.params.length > 0).sort((a, b) => a.range[0] - b.range[0]);
  const found = usageHandler(parsed.sourceCode, filename, fns[0] as FunctionNode);
  return found ? `${found.framework} ${found.role}` : null;
}

describe('usageHandler', () => {
  it('tells an exported Express controller by its request read and response answer', () => {
    assert.equal(usage(`exports.create = async (req, res, next) => { const u = await save(req.body); res.status(201).json(u); };`), 'express route handler');
    assert.equal(usage(`module.exports = { async show(req, res) { res.send(await find(req.params.id)); } };`), 'express route handler');
    assert.equal(usage(`export default async function show({ params }, res) { res.json(await find(params.id)); }`), 'express route handler');
    assert.equal(usage(`const show = async (req, res) => { res.set('x', 1).status(200).json(await find(req.query.id)); };\nmodule.exports = { show };`), 'express route handler');
  });
  it('calls it middleware when it calls its third parameter without arguments', () => {
    assert.equal(usage(`exports.auth = (req, res, next) => { if (!req.user) return res.sendStatus(401); next(); };`), 'express middleware');
    assert.equal(usage(`exports.load = async (req, res, next) => { try { req.thing = await find(req.params.id); res.json(1); } catch (e) { next(e); } };`), 'express route handler');
  });
  it('needs both a request read and an answer on the response', () => {
    // `.status()` on something that never answers, and no request read.
    assert.equal(usage(`exports.check = async (job, queue) => { const s = queue.status(job.id); return s; };`), null);
    // Answers, but reads nothing of a request.
    assert.equal(usage(`exports.list = async (req, res) => { res.json(await all()); };`), null);
    // Reads a request, but `.status(…)` is never followed by an answer.
    assert.equal(usage(`exports.peek = async (req, res) => { res.status(await count(req.query)); };`), null);
    // A setter chain broken by another method is not an answer.
    assert.equal(usage(`exports.pipe = async (req, res) => { res.status(200).pipeTo(req.body).send(); };`), null);
  });
  it('is null for a helper the file calls with its response', () => {
    assert.equal(usage(`function reply(req, res) { res.status(400).json({ error: req.body }); }\nexports.create = async (req, res) => { reply(req, res); };`), null);
  });
  it('is null for a function handed to something', () => {
    assert.equal(usage(`const h = async (req, res) => { res.json(await find(req.params.id)); };\nexports.h = wrap(h);`), null);
  });
  it('is null for a nested function', () => {
    assert.equal(usage(`exports.make = () => async (req, res) => { res.json(await find(req.params.id)); };`.replace('() =>', '(db) =>')), null);
  });
  it('is null in a package that does not depend on express', () => {
    assert.equal(usage(`exports.create = async (req, res) => { res.status(201).json(await save(req.body)); };`, PLAIN), null);
  });
  it('tells Koa middleware and fastify handlers in packages depending on them', () => {
    assert.equal(usage(`exports.create = async (ctx) => { ctx.body = await save(ctx.request.body); ctx.status = 201; };`, KOA), 'koa route handler');
    assert.equal(usage(`exports.time = async (ctx, next) => { await next(); ctx.status = 204; };`, KOA), 'koa middleware');
    assert.equal(usage(`exports.create = async (ctx) => { ctx.body = await save(ctx.request.body); };`, EXPRESS4), null);
    // Koa's answer alone, with nothing read and no `next`, is any object with a `body`.
    assert.equal(usage(`exports.fill = (msg) => { msg.body = 'x'; };`, KOA), null);
    assert.equal(usage(`exports.create = async (request, reply) => { reply.code(201).send(await save(request.body)); };`, FASTIFY), 'fastify route handler');
    assert.equal(usage(`exports.create = async (request, reply) => { reply.code(201).send(await save(request.body)); };`, KOA), null);
  });
});
