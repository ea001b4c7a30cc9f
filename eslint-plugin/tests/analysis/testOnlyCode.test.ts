import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { moduleSourceCode, onlyTestsRun, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { parse } from './parse';

/** Whether only the tests run the call whose text is `target` (the `nth`), in a file of fixtures/test-only. */
function testOnly(relative: string, target: string, nth = 0): boolean {
  const file = fixture(`test-only/${relative}`);
  const sourceCode = moduleSourceCode(file) as Readonly<TSESLint.SourceCode>;
  assert.ok(sourceCode, relative);
  const found: TSESTree.Node[] = [];
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && sourceCode.getText(node) === target) found.push(node);
    return true;
  });
  const node = found[nth];
  assert.ok(node, target);
  return onlyTestsRun(sourceCode, file, node);
}

beforeEach(() => resetProject());

describe('onlyTestsRun', () => {
  it('a method only a test names; an interface signature, a fake in a test folder and its own timer label are no uses', () => {
    assert.equal(testOnly('src/store.ts', 'this.save(row)'), true);
    assert.equal(testOnly('src/store.ts', "timer('importRows')"), true);
  });
  it('a function only a test calls', () => {
    assert.equal(testOnly('src/sync.js', "store.save('seed')"), true);
  });
  it('near misses: production calls it, nothing calls it, code outside any function', () => {
    assert.equal(testOnly('src/store.ts', 'fetch(`http://db.local/save?row=${row}`)'), false);
    assert.equal(testOnly('src/sync.js', "store.save('sync')"), false);
    // Named by nobody: dead, or called in a way the text does not show.
    assert.equal(testOnly('src/store.ts', 'this.save(row)', 1), false);
    assert.equal(testOnly('src/server.js', 'store.save(req.url)'), false);
  });
  it('near misses: a file outside a package, a decorated method, a class extending a library', () => {
    const parsed = parse('class A { @Get() async find() { await load(); } }\nimport { Transform } from "node:stream";\nclass B extends Transform { async _flush() { await load(); } }');
    for (const call of parsed.all(AST_NODE_TYPES.CallExpression).filter((c) => parsed.sourceCode.getText(c) === 'load()')) {
      assert.equal(onlyTestsRun(parsed.sourceCode, fixture('test-only/src/store.ts'), call), false);
    }
    assert.equal(onlyTestsRun(parsed.sourceCode, 'relative.ts', parsed.find(AST_NODE_TYPES.CallExpression, 'load()')), false);
  });
});
