import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { cannotBeNullish, cannotThrow } from '../../src/analysis';
import { parse } from './parse';

/** Whether the initializer of the last `const probe = …` in `code` cannot throw. */
function safe(code: string, withSourceCode = true): boolean {
  const parsed = parse(code);
  const declarators = parsed.all(AST_NODE_TYPES.VariableDeclarator).filter(
    (d) => d.id.type === AST_NODE_TYPES.Identifier && d.id.name === 'probe',
  );
  const init = declarators[declarators.length - 1]?.init;
  assert.ok(init, 'no probe');
  return cannotThrow(init, withSourceCode ? parsed.sourceCode : undefined);
}

describe('cannotThrow: calls', () => {
  it('clock reads on the globals', () => {
    assert.equal(safe('const probe = Date.now();'), true);
    assert.equal(safe('const probe = performance.now();'), true);
  });

  it('a clock read on a local object of the same name may throw', () => {
    assert.equal(safe('const performance = load();\nconst probe = performance.now();'), false);
  });

  it('Map and Set methods on a collection the file creates', () => {
    const code = `const cache = new Map();
const seen = new Set();
function f(key, value) {
  const probe = [cache.get(key), cache.set(key, value), cache.delete(key), seen.add(key), seen.has(key)];
}`;
    assert.equal(safe(code), true);
  });

  it('without the file, collection calls are not proved safe', () => {
    assert.equal(safe('const cache = new Map();\nconst probe = cache.get(1);', false), false);
  });

  it('a collection argument that can throw makes the call unsafe', () => {
    assert.equal(safe('const cache = new Map();\nconst probe = cache.set(key(), 1);'), false);
  });

  it('a Map imported from a library is not the global Map', () => {
    assert.equal(safe("import { Map } from 'immutable';\nconst cache = new Map();\nconst probe = cache.set(1, 2);"), false);
  });

  it('a let binding may be reassigned to anything', () => {
    assert.equal(safe('let cache = new Map();\nconst probe = cache.get(1);'), false);
  });

  it('a parameter named like a collection is unknown', () => {
    assert.equal(safe('function f(cache) {\n  const probe = cache.get(1);\n}'), false);
  });

  it('WeakMap#set throws on a primitive key', () => {
    assert.equal(safe('const refs = new WeakMap();\nconst probe = refs.set(key, 1);'), false);
    assert.equal(safe('const refs = new WeakMap();\nconst probe = refs.get(key);'), true);
  });

  it('a class field collection, when every assignment in the class is one', () => {
    const fieldOnly = `class Store {
  sessions = new Map();
  put(id, s) {
    const probe = this.sessions.set(id, s);
  }
}`;
    assert.equal(safe(fieldOnly), true);
    const constructorAssigned = `class Store {
  constructor() { this.sessions = new Map(); }
  put(id, s) {
    const probe = this.sessions.set(id, s);
  }
}`;
    assert.equal(safe(constructorAssigned), true);
    const reset = `class Store {
  sessions = new Map();
  reset() { this.sessions = null; }
  put(id, s) {
    const probe = this.sessions.set(id, s);
  }
}`;
    assert.equal(safe(reset), false);
  });

  it('any other call may throw', () => {
    assert.equal(safe('const probe = JSON.parse(text);'), false);
    assert.equal(safe('const probe = work();'), false);
  });
});

describe('cannotThrow: property reads', () => {
  it('a read on a value that cannot be nullish', () => {
    assert.equal(safe('const cache = new Map();\nconst probe = cache.size;'), true);
    assert.equal(safe("const probe = 'text'.length;"), true);
    assert.equal(safe('class C {\n  m() {\n    const probe = this.count;\n  }\n}'), true);
  });

  it('a read on what Map#get returns may throw', () => {
    assert.equal(safe('const cache = new Map();\nconst probe = cache.get(1).size;'), false);
    assert.equal(safe('const cache = new Map();\nconst probe = cache.get(1)?.size;'), true);
  });

  it('a read on a parameter, or on `this` outside a class, may throw', () => {
    assert.equal(safe('function f(job) {\n  const probe = job.id;\n}'), false);
    assert.equal(safe('function f() {\n  const probe = this.id;\n}'), false);
  });

  it('without the file, no read is proved safe', () => {
    assert.equal(safe("const probe = 'text'.length;", false), false);
  });
});

describe('cannotBeNullish', () => {
  it('literals other than null, and collections, are never nullish', () => {
    const parsed = parse('const a = null;\nconst b = 1;\nconst m = new Map();\nm.set(1, 2);\nm.get(1);');
    assert.equal(cannotBeNullish(parsed.find(AST_NODE_TYPES.Literal, 'null'), parsed.sourceCode), false);
    assert.equal(cannotBeNullish(parsed.find(AST_NODE_TYPES.Literal, '1'), parsed.sourceCode), true);
    assert.equal(cannotBeNullish(parsed.find(AST_NODE_TYPES.CallExpression, 'm.set(1, 2)'), parsed.sourceCode), true);
    assert.equal(cannotBeNullish(parsed.find(AST_NODE_TYPES.CallExpression, 'm.get(1)'), parsed.sourceCode), false);
  });
});
