import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TSESTree } from '@typescript-eslint/utils';
import { importedFunction, importsProjectModules, isAwaitingEmitter, moduleSourceCode, promiseOrigin, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { scratch, write } from '../project/helpers';

const root = scratch('module-functions');
write(path.join(root, 'package.json'), '{"name":"app","dependencies":{"emittery":"1.0.0"}}');
write(path.join(root, 'mail.ts'), [
  'export async function send(to: string) { await fetch(to); }',
  'export function format(to: string) { return `<${to}>`; }',
  'export function later(to: string) { if (!to) return; return fetch(to); }',
  'export function maybe(to: string) { if (!to) return null; return fetch(to); }',
  'export async function quiet(to: string) { try { await fetch(to); } catch (e) { console.error(e); } }',
  'export function settled(to: string) { return quiet(to).then(() => console.log("sent")); }',
  'export let swapped = send;',
  '',
].join('\n'));
write(path.join(root, 'relay.ts'), "import { send } from './mail';\nexport const relay = send;\nexport function forward(to: string) { return send(to); }\n");
write(path.join(root, 'legacy.cjs'), "const mail = require('./mail');\nmodule.exports = { send: mail.send, async ping() { await fetch('x'); } };\n");
write(path.join(root, 'bus.ts'), "import Emittery from 'emittery';\nimport { EventEmitter } from 'node:events';\nexport class Bus extends Emittery {}\nexport class Sub extends Bus {}\nexport const bus = new Emittery();\nexport const plain = new EventEmitter();\n");
write(path.join(root, 'browser.ts'), 'export default class Browser {\n  static async pause(ms: number) { await new Promise((r) => setTimeout(r, ms)); }\n  async open() {}\n}\n');
write(path.join(root, 'app.ts'), [
  "import { send, format, later, maybe, quiet, settled, swapped } from './mail';",
  "import { relay, forward } from './relay';",
  "import legacy from './legacy.cjs';",
  "import { Bus, Sub, bus, plain } from './bus';",
  "import { gone } from './missing';",
  "send('a'); format('a'); later('a'); maybe('a'); quiet('a'); settled('a'); swapped('a');",
  "relay('a'); forward('a'); legacy.send('a'); legacy.ping(); gone();",
  "import Browser from './browser';",
  'Browser.pause(1); Browser.open();',
  'const b = new Bus(); const s = new Sub();',
  'b, s, bus, plain;',
  '',
].join('\n'));

function appSourceCode(): NonNullable<ReturnType<typeof moduleSourceCode>> {
  const sourceCode = moduleSourceCode(path.join(root, 'app.ts'));
  assert.ok(sourceCode, 'app.ts parses');
  return sourceCode;
}

function calls(): Map<string, TSESTree.CallExpression> {
  const sourceCode = appSourceCode();
  const out = new Map<string, TSESTree.CallExpression>();
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) out.set(sourceCode.getText(node.callee), node);
  });
  return out;
}

describe('importedFunction and the promise origin of its calls', () => {
  resetProject();

  it('follows imports, re-exports, const aliases and CommonJS objects to the function', () => {
    const sourceCode = appSourceCode();
    assert.equal(importsProjectModules(sourceCode), true);
    const found = (callee: string): string | null => {
      const call = calls().get(callee);
      assert.ok(call, callee);
      const fn = importedFunction(sourceCode, call.callee);
      return fn ? `${path.basename(fn.file)}:${fn.name}:${fn.fn.loc.start.line}` : null;
    };
    assert.equal(found('send'), 'mail.ts:send:1');
    assert.equal(found('relay'), 'mail.ts:relay:1');
    assert.equal(found('legacy.send'), 'mail.ts:send:1');
    assert.equal(found('legacy.ping'), 'legacy.cjs:ping:2');
    // A static method of a default-exported class; its instance methods are not the class's.
    assert.equal(found('Browser.pause'), 'browser.ts:pause:2');
    assert.equal(found('Browser.open'), null);
    // A `let` may be reassigned; a missing module is unknown.
    assert.equal(found('swapped'), null);
    assert.equal(found('gone'), null);
  });

  it('an async function, or every return a promise; and whether it can reject', () => {
    const sourceCode = appSourceCode();
    const origin = (callee: string): string => {
      const call = calls().get(callee);
      assert.ok(call, callee);
      const o = promiseOrigin(sourceCode, call);
      return o?.kind === 'imported' ? `${o.declaredAsync ? 'async' : 'returns'}${o.canReject ? '' : ', cannot reject'}` : String(o?.kind ?? null);
    };
    assert.equal(origin('send'), 'async');
    assert.equal(origin('format'), 'null');
    // A bare `return;` returns no value; `return null` is a value that is no promise.
    assert.equal(origin('later'), 'returns');
    assert.equal(origin('maybe'), 'null');
    assert.equal(origin('quiet'), 'async, cannot reject');
    assert.equal(origin('settled'), 'returns, cannot reject');
    assert.equal(origin('forward'), 'returns');
  });
});

describe('isAwaitingEmitter', () => {
  it('a catalogued emitter, built in a project module or subclassed there; never Node\'s EventEmitter', () => {
    const sourceCode = appSourceCode();
    const statement = sourceCode.ast.body[sourceCode.ast.body.length - 1];
    assert.ok(statement?.type === AST_NODE_TYPES.ExpressionStatement && statement.expression.type === AST_NODE_TYPES.SequenceExpression);
    const verdicts = statement.expression.expressions.map((e) => `${sourceCode.getText(e)}=${isAwaitingEmitter(sourceCode, e)}`);
    assert.deepEqual(verdicts, ['b=true', 's=true', 'bus=true', 'plain=false']);
  });
});
