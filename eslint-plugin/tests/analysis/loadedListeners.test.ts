import assert from 'node:assert/strict';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import type { FunctionNode } from '../../src/analysis';
import { exportedNames, ignoringLoader, isFunctionNode, loadedListeners, moduleSourceCode, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';

// Modules a loader finds by listing a folder and registers as listeners (fixtures/loaders).
const at = (name: string): string => fixture(`loaders/src/${name}`);

function firstAsync(name: string): { sourceCode: NonNullable<ReturnType<typeof moduleSourceCode>>; fn: FunctionNode } {
  const sourceCode = moduleSourceCode(at(name));
  assert.ok(sourceCode);
  let fn: FunctionNode | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (!fn && isFunctionNode(node) && node.async) fn = node;
    return true;
  });
  assert.ok(fn);
  return { sourceCode, fn };
}

function registrations(name: string): string[] {
  const { sourceCode, fn } = firstAsync(name);
  return loadedListeners(sourceCode, fn).map((l) => `${path.relative(at(''), l.file)}:${l.call.loc.start.line} ${l.registration.name}`);
}

beforeEach(() => resetProject());

describe('loadedListeners', () => {
  it('follows a template-literal require over two folder levels to `client.on(name, event.bind(…))`', () => {
    assert.deepEqual(registrations('events/client/guildDelete.js'), ['handlers/events.js:8 client.on']);
    // Found whatever the body does: whether it can reject is the rule's question.
    assert.deepEqual(registrations('events/client/ready.js'), ['handlers/events.js:8 client.on']);
  });
  it('follows `path.join(__dirname, …)` consts to a plain arrow that returns `event.execute(…)`', () => {
    assert.deepEqual(registrations('events/guild/memberAdd.js'), ['main.js:22 client.on']);
  });
  it('reads a template that starts from `${__dirname}`, and a member handed to a timer as is', () => {
    assert.deepEqual(registrations('timers/refresh.js'), ['handlers/timers.js:7 setInterval']);
  });
  it('leaves a module the loader stores in a collection instead of registering it', () => {
    assert.deepEqual(registrations('commands/ping.js'), []);
  });
  it('leaves a module whose call an async wrapper awaits: the wrapper is the registered callback', () => {
    assert.deepEqual(registrations('plugins/greet.js'), []);
  });
  it('leaves a module that running code also imports by name', () => {
    assert.deepEqual(registrations('events/guild/audit.js'), []);
  });
  it('leaves a file at another depth than the computed path spans', () => {
    assert.deepEqual(registrations('events/stray.js'), []);
  });
  it("follows an ES module's `await import(…)` and a `const` holding its default export to both registrations", () => {
    const registered = (name: string): string[] => {
      const sourceCode = moduleSourceCode(fixture(`esm-loaders/src/${name}`));
      assert.ok(sourceCode);
      const fn = sourceCode.ast.body.flatMap((s) => s.type === 'ExportDefaultDeclaration' && isFunctionNode(s.declaration) ? [s.declaration] : [])[0];
      assert.ok(fn);
      return loadedListeners(sourceCode, fn).map((l) => `${path.relative(fixture('esm-loaders/src'), l.file)}:${l.call.loc.start.line} ${l.registration.name}`);
    };
    assert.deepEqual(registered('events/guild/memberAdd.js'), ['events/loader.js:10 client.once', 'events/loader.js:11 client.on']);
  });
  it('leaves a function in a folder no loader lists', () => {
    assert.deepEqual(registrations('jobs/guilds.js'), []);
  });
});

describe('ignoringLoader', () => {
  it('skips registrations the allow list names, asked in the loader file', () => {
    const { sourceCode, fn } = firstAsync('events/guild/memberAdd.js');
    assert.equal(ignoringLoader(sourceCode, fn, [])?.call.loc.start.line, 22);
    assert.equal(ignoringLoader(sourceCode, fn, [{ module: 'discord.js', method: 'on' }]), null);
  });
});

describe('exportedNames', () => {
  it('names `module.exports = fn` default and an exported object\'s method by its key', () => {
    const ready = firstAsync('events/client/ready.js');
    assert.deepEqual([...(exportedNames(ready.sourceCode, ready.fn) ?? [])], ['default']);
    const member = firstAsync('events/guild/memberAdd.js');
    assert.deepEqual([...(exportedNames(member.sourceCode, member.fn) ?? [])], ['execute']);
  });
});
