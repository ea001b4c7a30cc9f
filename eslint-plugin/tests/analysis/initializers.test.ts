import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { FunctionNode } from '../../src/analysis';
import { functionName, isFunctionNode, isSingletonInitializer, moduleSourceCode, walk } from '../../src/analysis';
import { fixture } from '../ruleTester';

// The files of fixtures/startup that set up an object in a method.
function initializer(file: string, name: string): boolean {
  const sourceCode = moduleSourceCode(fixture(`startup/src/${file}`));
  assert.ok(sourceCode);
  let fn = null as FunctionNode | null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (!fn && isFunctionNode(node) && functionName(node) === name) fn = node;
    return !fn;
  });
  assert.ok(fn, `${name} in ${file}`);
  return isSingletonInitializer(sourceCode, fn);
}

describe('isSingletonInitializer', () => {
  it('the method that opens what the only instance needs', () => {
    assert.equal(initializer('database.js', 'initialize'), true);
  });
  it('not the methods that need it, nor a module-level instance whose method a route calls', () => {
    assert.equal(initializer('database.js', 'connection'), false);
    assert.equal(initializer('resetStore.js', 'initialize'), false);
  });
  it('not a class built per call, an exported class, or a field nothing requires', () => {
    assert.equal(initializer('loader.js', 'initialize'), false);
    assert.equal(initializer('mailer.js', 'initialize'), false);
    assert.equal(initializer('settings.js', 'reload'), false);
  });
});
