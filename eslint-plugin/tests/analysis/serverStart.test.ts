import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { enclosingFunction, firstListen, isBeforeOwnListen } from '../../src/analysis';
import { parse } from './parse';

/** The function around the call `block()` and whether that call runs before the function puts its server up. */
function beforeListen(code: string, filename?: string): boolean {
  const parsed = parse(code, filename);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, 'block()');
  const fn = enclosingFunction(call) as FunctionNode;
  return isBeforeOwnListen(parsed.sourceCode, fn, call);
}

/** The source text of `firstListen` for the first function declared in `code`. */
function listenText(code: string): string | null {
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0] as TSESTree.FunctionDeclaration;
  const found = firstListen(parsed.sourceCode, fn);
  return found ? parsed.sourceCode.getText(found) : null;
}

describe('firstListen', () => {
  it('finds `x.listen(…)`, in a promise executor too', () => {
    assert.equal(listenText('async function start() { await new Promise((r) => app.listen(3000, r)); other.listen(1); }'), 'app.listen');
  });
  it('finds `x.listen` handed to a call, as with promisify', () => {
    assert.equal(listenText('async function start() { await promisify(server.listen).bind(server)(80); }'), 'server.listen');
  });
  it('finds a call of a function of the same file that listens, `exports.x` included', () => {
    assert.equal(listenText('async function start() { await boot(); }\nasync function boot() { server.listen(80); }'), 'boot()');
    assert.equal(
      listenText('async function create() { log(); await exports.restart(); }\nexports.restart = async () => { server.listen(80); };'),
      'exports.restart()',
    );
  });
  it('ignores a listen in a callback that runs later, and a mere mention', () => {
    assert.equal(listenText("async function start() { bus.on('up', () => server.listen(80)); const f = server.listen; }"), null);
  });
  it('terminates on a call cycle', () => {
    assert.equal(listenText('async function a() { await b(); }\nasync function b() { await a(); }'), null);
  });
});

describe('isBeforeOwnListen', () => {
  it('a function that reads, then creates its server and listens', () => {
    assert.equal(beforeListen(`export async function start() {
  const ssl = block();
  const server = https.createServer(ssl, app);
  server.listen(443);
}`), true);
    assert.equal(beforeListen(`class App {
  async startApp(options) {
    const app = express();
    const schema = block();
    await new Promise((resolve) => app.listen(options.port, resolve));
  }
}`), true);
  });
  it('not after the listen, nor in a function that never listens', () => {
    assert.equal(beforeListen('async function start() { server.listen(80); block(); }'), false);
    assert.equal(beforeListen('async function load() { block(); await db.connect(); }'), false);
  });
  it('not in a callback handed to other code, which may run it again and again', () => {
    assert.equal(beforeListen("bus.on('tenant', async () => { block(); server.listen(0); });"), false);
    assert.equal(beforeListen('boot().then(async () => { block(); server.listen(0); });'), false);
  });
  it('not in a route handler, even one that starts a server of its own', () => {
    assert.equal(beforeListen(`import express from 'express';
const app = express();
async function preview(req, res) { block(); http.createServer().listen(0); }
app.post('/preview', preview);
app.listen(3000);`), false);
  });
});
