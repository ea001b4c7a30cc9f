import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { enclosingFunction, isGatedRun } from '../../src/analysis';
import { parse } from './parse';

/** Is the call with text `target` gated in the function it runs in? */
function gated(code: string, target = 'work()'): boolean {
  const parsed = parse(`${code}\ndeclare function work(): void;`);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, target);
  const fn = enclosingFunction(call);
  assert.ok(fn);
  return isGatedRun(parsed.sourceCode, fn, call);
}

describe('isGatedRun', () => {
  it('takes work after a 403 on who the client is, in the branch or an enclosing block', () => {
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.user.admin) { res.status(403).end(); return; } work(); }`), true);
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.user.admin) return res.sendStatus(403); if (req.params.id) { work(); } }`), true);
    assert.equal(gated(`export async function h(ctx: any) { if (!ctx.state.admin) { ctx.status = 403; return; } work(); }`), true);
    assert.equal(gated(`const FORBIDDEN = 403;\nexport function h(req: any, res: any) { if (!req.user.admin) { res.status(FORBIDDEN).end(); return; } work(); }`), true);
  });

  it('refuses a 403 on what the client sent, a 401 inline, another status, work before the check, and a branch that goes on', () => {
    assert.equal(gated(`export async function h(req: any, res: any) { const u = await find(req.body.email); if (u.locked) { res.status(403).end(); return; } work(); }\ndeclare function find(e: string): Promise<any>;`), false);
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.user) { res.status(401).end(); return; } work(); }`), false);
    // A 403 for a missing key lets any key through.
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.headers['x-api-key']) { res.status(403).end(); return; } work(); }`), false);
    assert.equal(gated(`export function h(req: any, res: any) { const key = req.get('x-api-key'); if (!key) return res.sendStatus(403); work(); }`), false);
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.user.admin) { res.status(404).end(); return; } work(); }`), false);
    assert.equal(gated(`export function h(req: any, res: any) { work(); if (!req.user.admin) { res.status(403).end(); return; } }`), false);
    assert.equal(gated(`export function h(req: any, res: any) { if (!req.user.admin) { res.status(403); } work(); }`), false);
  });

  it('takes a guard that answers 401 itself before the handler returns on its empty result', () => {
    const guard = `function check(req: any, res: any) { if (!req.headers.token) { res.status(401).end(); return null; } return {}; }\n`;
    assert.equal(gated(`${guard}export function h(req: any, res: any) { const s = check(req, res); if (!s) return; work(); }`), true);
    // A helper that never answers 401/403 is no guard.
    assert.equal(gated(`function check(req: any) { return req.headers.token ? {} : null; }\nexport function h(req: any, res: any) { const s = check(req); if (!s) return; work(); }`), false);
  });

  it('takes a route middleware that answers 401 or 403', () => {
    const app = `import express from 'express';\nconst app = express();\n`;
    assert.equal(gated(`${app}app.get('/a', (req: any, res: any, next: any) => { if (!req.user) return res.sendStatus(401); next(); }, (req, res) => { work(); });`), true);
    assert.equal(gated(`${app}app.get('/a', (req: any, res: any, next: any) => { next(); }, (req, res) => { work(); });`), false);
  });

  it('takes a socket listener registered after its handshake was checked, not before', () => {
    const io = `import { Server } from 'socket.io';\nconst io = new Server();\n`;
    assert.equal(gated(`${io}io.on('connection', (socket) => { const user = socket.request.user; if (!user) return; socket.on('x', () => { work(); }); });`), true);
    assert.equal(gated(`${io}io.on('connection', (socket) => { socket.on('x', () => { work(); }); if (!socket.handshake.auth) return; });`), false);
    assert.equal(gated(`${io}io.on('connection', (socket) => { if (!socket.connected) return; socket.on('x', () => { work(); }); });`), false);
    // A destructured session counts; a token the client merely sent does not.
    assert.equal(gated(`${io}io.on('connection', (socket) => { const { session: { user: { admin } = {} } = {} } = socket.conn.request as any; if (!admin) return; socket.on('x', () => { work(); }); });`), true);
    assert.equal(gated(`${io}io.on('connection', (socket) => { if (!socket.handshake.auth.token) return; socket.on('x', () => { work(); }); });`), false);
  });

  it('takes a handler that closes the server its function put up', () => {
    const setup = (closed: string): string => `import express from 'express';
export function setup() {
  const app = express();
  let server: any;
  const other: any = null;
  app.post('/done', (req, res) => { work(); res.end(); ${closed}.close(); });
  server = app.listen(3000);
}`;
    assert.equal(gated(setup('server')), true);
    assert.equal(gated(setup('other')), false);
  });
  // Callers are followed through the linted file's own record (`knownCallers`): the rule tests cover them.
});
