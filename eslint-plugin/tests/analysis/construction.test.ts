import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { constructionKind, getConstruction } from '../../src/analysis';
import { parse } from './parse';

/** The construction of the receiver in the first `<name>.use()` call. */
function constructionOf(code: string, receiver: string, filename?: string): ReturnType<typeof getConstruction> {
  const parsed = parse(`${code}\n${receiver}.use();`, filename);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, `${receiver}.use()`);
  assert.equal(call.callee.type, AST_NODE_TYPES.MemberExpression);
  return getConstruction(parsed.sourceCode, call.callee.type === AST_NODE_TYPES.MemberExpression ? call.callee.object : call.callee);
}

function kindOf(code: string, receiver: string, filename?: string): string | null {
  return constructionOf(code, receiver, filename)?.kind ?? null;
}

describe('getConstruction: catalogued libraries', () => {
  it('async-mutex Mutex and Semaphore', () => {
    assert.equal(kindOf(`import { Mutex } from 'async-mutex';\nconst lock = new Mutex();`, 'lock'), 'mutex');
    assert.equal(kindOf(`import { Semaphore } from 'async-mutex';\nconst sem = new Semaphore(4);`, 'sem'), 'semaphore');
  });

  it('p-limit default import called as a factory', () => {
    const found = constructionOf(`import pLimit from 'p-limit';\nconst limit = pLimit(8);`, 'limit');
    assert.equal(found?.kind, 'limiter');
    assert.deepEqual(found?.ref, { module: 'p-limit', path: [] });
    assert.equal(found?.fromType, false);
    assert.equal(found?.node.type, AST_NODE_TYPES.CallExpression);
  });

  it('pg Pool: named import, default import member, require', () => {
    assert.equal(kindOf(`import { Pool } from 'pg';\nconst pool = new Pool();`, 'pool'), 'dbPool');
    assert.equal(kindOf(`import pg from 'pg';\nconst pool = new pg.Pool({ max: 10 });`, 'pool'), 'dbPool');
    assert.equal(kindOf(`const { Pool } = require('pg');\nconst pool = new Pool();`, 'pool', 'file.cjs'), 'dbPool');
  });

  it('mysql2 createPool, promise and callback flavours', () => {
    assert.equal(kindOf(`import mysql from 'mysql2/promise';\nconst pool = mysql.createPool({});`, 'pool'), 'dbPool');
    assert.equal(kindOf(`import * as mysql from 'mysql2';\nconst pool = mysql.createPool({});`, 'pool'), 'dbPool');
  });

  it('p-queue, bottleneck, async-lock, async-sema, generic-pool, redlock', () => {
    assert.equal(kindOf(`import PQueue from 'p-queue';\nconst q = new PQueue({ concurrency: 2 });`, 'q'), 'queue');
    assert.equal(kindOf(`import Bottleneck from 'bottleneck';\nconst b = new Bottleneck({ maxConcurrent: 1 });`, 'b'), 'bottleneck');
    assert.equal(kindOf(`import AsyncLock from 'async-lock';\nconst locks = new AsyncLock();`, 'locks'), 'keyedLock');
    assert.equal(kindOf(`import { Sema } from 'async-sema';\nconst s = new Sema(3);`, 's'), 'semaphore');
    assert.equal(kindOf(`import { createPool } from 'generic-pool';\nconst p = createPool({} as any);`, 'p'), 'genericPool');
    assert.equal(kindOf(`const Redlock = require('redlock');\nconst r = new Redlock([]);`, 'r', 'file.cjs'), 'redlock');
  });

  it('a construction from an uncatalogued module has a ref but no kind', () => {
    const found = constructionOf(`import { Pool } from 'undici';\nconst pool = new Pool('http://x');`, 'pool');
    assert.deepEqual(found?.ref, { module: 'undici', path: ['Pool'] });
    assert.equal(found?.kind, null);
  });

  it('constructionKind is the kind, or null', () => {
    const parsed = parse(`import { Mutex } from 'async-mutex';\nconst lock = new Mutex();\nconst other = {};\nlock.use();\nother.use();`);
    const [lockUse, otherUse] = parsed.all(AST_NODE_TYPES.MemberExpression);
    assert.ok(lockUse?.type === AST_NODE_TYPES.MemberExpression && otherUse?.type === AST_NODE_TYPES.MemberExpression);
    assert.equal(constructionKind(parsed.sourceCode, lockUse.object), 'mutex');
    assert.equal(constructionKind(parsed.sourceCode, otherUse.object), null);
  });
});

describe('getConstruction: following the value', () => {
  it('a const alias of a constructed value', () => {
    assert.equal(kindOf(`import { Mutex } from 'async-mutex';\nconst a = new Mutex();\nconst b = a;`, 'b'), 'mutex');
  });

  it('a cast or non-null assertion around the value', () => {
    assert.equal(kindOf(`import { Mutex } from 'async-mutex';\nconst a = new Mutex() as Mutex;`, 'a'), 'mutex');
    assert.equal(kindOf(`import { Mutex } from 'async-mutex';\nlet a: Mutex | undefined = new Mutex();\nconst b = a!;`, 'b'), 'mutex');
  });

  it('a `let` assigned once later (lazy initialisation)', () => {
    assert.equal(kindOf(`import { Pool } from 'pg';\nlet pool: any = null;\nexport function init() { pool = new Pool(); }`, 'pool'), 'dbPool');
  });

  it('a `let` reassigned to something unknown is not trusted', () => {
    const code = `import { Mutex } from 'async-mutex';\ndeclare function other(): any;\nlet lock = new Mutex();\nexport function swap() { lock = other(); }`;
    assert.equal(kindOf(code, 'lock'), null);
  });

  it('a `let` reassigned to a different kind is not trusted', () => {
    const code = `import { Mutex, Semaphore } from 'async-mutex';\nlet lock: any = new Mutex();\nexport function swap() { lock = new Semaphore(2); }`;
    assert.equal(kindOf(code, 'lock'), null);
  });

  it('a `let` reassigned to the same kind keeps it', () => {
    const code = `import { Mutex } from 'async-mutex';\nlet lock = new Mutex();\nexport function reset() { lock = new Mutex(); }`;
    assert.equal(kindOf(code, 'lock'), 'mutex');
  });

  it('an awaited factory', () => {
    assert.equal(kindOf(`import mysql from 'mysql2/promise';\nconst pool = await mysql.createPool({});`, 'pool'), 'dbPool');
  });

  it('withTimeout wrapping a Mutex keeps the kind and records the wrapper', () => {
    const parsed = parse(`import { Mutex, withTimeout } from 'async-mutex';\nconst lock = withTimeout(new Mutex(), 1000);\nlock.use();`);
    const receiver = parsed.find(AST_NODE_TYPES.Identifier, 'lock', 1);
    const found = getConstruction(parsed.sourceCode, receiver);
    assert.equal(found?.kind, 'mutex');
    assert.equal(found?.node, parsed.find(AST_NODE_TYPES.NewExpression, 'new Mutex()'));
    assert.deepEqual(found?.wrappedBy, [parsed.find(AST_NODE_TYPES.CallExpression, 'withTimeout(new Mutex(), 1000)')]);
  });

  it('tryAcquire(withTimeout(...)) lists wrappers outermost first', () => {
    const parsed = parse(`import { Semaphore, tryAcquire, withTimeout } from 'async-mutex';\nconst s = tryAcquire(withTimeout(new Semaphore(2), 50));\ns.use();`);
    const found = getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.Identifier, 's', 1));
    assert.equal(found?.kind, 'semaphore');
    assert.deepEqual(
      found?.wrappedBy.map((call) => parsed.sourceCode.getText(call.callee)),
      ['tryAcquire', 'withTimeout'],
    );
  });

  it('withTimeout around a variable', () => {
    assert.equal(kindOf(`import { Mutex, withTimeout } from 'async-mutex';\nconst base = new Mutex();\nconst lock = withTimeout(base, 10);`, 'lock'), 'mutex');
  });

  it('a `withTimeout` from another module is not the wrapper', () => {
    const found = constructionOf(`import { Mutex } from 'async-mutex';\nimport { withTimeout } from './time';\nconst lock = withTimeout(new Mutex(), 10);`, 'lock');
    assert.equal(found?.kind, null);
    assert.deepEqual(found?.wrappedBy, []);
  });
});

describe('getConstruction: class fields', () => {
  it('a field initializer', () => {
    const code = `import { Mutex } from 'async-mutex';\nclass Store { private lock = new Mutex(); run() { this.lock.use(); } }`;
    const parsed = parse(code);
    const member = parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock');
    assert.equal(getConstruction(parsed.sourceCode, member)?.kind, 'mutex');
  });

  it('a field assigned in the constructor, also inside if and try', () => {
    const code = [
      `import { Pool } from 'pg';`,
      `import pLimit from 'p-limit';`,
      `import { Mutex } from 'async-mutex';`,
      `class Repo {`,
      `  pool: any; limit: any; lock: any;`,
      `  constructor(url?: string) {`,
      `    this.pool = new Pool({ connectionString: url });`,
      `    if (url) { this.limit = pLimit(4); }`,
      `    try { this.lock = new Mutex(); } catch { /* ignore */ }`,
      `  }`,
      `  async run() { this.pool.use(); this.limit.use(); this.lock.use(); }`,
      `}`,
    ].join('\n');
    const parsed = parse(code);
    const kind = (text: string) => getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, text, 1))?.kind;
    assert.equal(kind('this.pool'), 'dbPool');
    assert.equal(kind('this.limit'), 'limiter');
    assert.equal(kind('this.lock'), 'mutex');
  });

  it('a constructor parameter property annotated with a catalogued type', () => {
    const code = `import { Mutex } from 'async-mutex';\nclass Store { constructor(private readonly lock: Mutex) {} run() { this.lock.use(); } }`;
    const parsed = parse(code);
    const found = getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock'));
    assert.equal(found?.kind, 'mutex');
    assert.equal(found?.fromType, true);
  });

  it('a declared field with a type annotation only', () => {
    const code = `import type { Pool } from 'pg';\nclass Repo { pool!: Pool; run() { this.pool.use(); } }`;
    const parsed = parse(code);
    const found = getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.pool'));
    assert.equal(found?.kind, 'dbPool');
    assert.equal(found?.fromType, true);
  });

  it('`this` in an arrow inside a method is still the instance', () => {
    const code = `import { Mutex } from 'async-mutex';\nclass Store { lock = new Mutex(); run() { return () => this.lock.use(); } }`;
    const parsed = parse(code);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock'))?.kind, 'mutex');
  });

  it('`this` inside a nested function expression is not the instance', () => {
    const code = `import { Mutex } from 'async-mutex';\nclass Store { lock = new Mutex(); run() { return function (this: any) { this.lock.use(); }; } }`;
    const parsed = parse(code);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock')), null);
  });

  it('a field of another class with the same name is not confused', () => {
    const code = [
      `import { Mutex } from 'async-mutex';`,
      `class A { lock = new Mutex(); }`,
      `class B { lock = { use() {} }; run() { this.lock.use(); } }`,
    ].join('\n');
    const parsed = parse(code);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock')), null);
  });

  it('`this.x` outside any class is unknown', () => {
    const parsed = parse(`export function f(this: any) { this.lock.use(); }`);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock')), null);
  });
});

describe('getConstruction: type annotations', () => {
  it('a parameter annotated `lock: Mutex`', () => {
    const found = constructionOf(`import { Mutex } from 'async-mutex';\nexport function run(lock: Mutex) {\nlock.use(); }`, 'lock');
    assert.equal(found?.kind, 'mutex');
    assert.equal(found?.fromType, true);
    assert.equal(found?.node.type, AST_NODE_TYPES.TSTypeReference);
  });

  it('interface types and p-limit LimitFunction', () => {
    assert.equal(kindOf(`import type { MutexInterface } from 'async-mutex';\nexport function run(lock: MutexInterface) {\nlock.use(); }`, 'lock'), 'mutex');
    assert.equal(kindOf(`import type { LimitFunction } from 'p-limit';\nexport function run(limit: LimitFunction) {\nlimit.use(); }`, 'limit'), 'limiter');
  });

  it('a namespace-qualified type `pg.Pool`', () => {
    assert.equal(kindOf(`import * as pg from 'pg';\nexport function run(pool: pg.Pool) {\npool.use(); }`, 'pool'), 'dbPool');
  });

  it('a variable declared with a type and no initializer', () => {
    assert.equal(kindOf(`import type { Pool } from 'pg';\ndeclare const pool: Pool;`, 'pool'), 'dbPool');
  });

  it('a local type with a catalogued name is not the library type', () => {
    assert.equal(kindOf(`interface Mutex { use(): void }\nexport function run(lock: Mutex) {\nlock.use(); }`, 'lock'), null);
  });

  it('an unimported type name is unknown', () => {
    assert.equal(kindOf(`export function run(lock: Mutex) {\nlock.use(); }`, 'lock'), null);
  });
});

describe('getConstruction: near-misses', () => {
  it('a local class named Mutex', () => {
    assert.equal(constructionOf(`class Mutex { use() {} }\nconst lock = new Mutex();`, 'lock'), null);
  });

  it('a destructured value', () => {
    assert.equal(constructionOf(`declare const deps: any;\nconst { lock } = deps;`, 'lock'), null);
  });

  it('a parameter without an annotation', () => {
    assert.equal(constructionOf(`export function run(lock: any) {\nlock.use(); }`, 'lock'), null);
  });

  it('assignment cycles terminate', () => {
    const code = `let a: any;\nlet b: any;\nexport function f() { a = b; b = a; }`;
    assert.equal(constructionOf(code, 'a'), null);
  });
});

describe('getConstruction: class fields assigned in several places', () => {
  it('lazy initialisation from null in another method', () => {
    const code = `import { Pool } from 'pg';\nclass Repo { pool: any = null; init() { this.pool = new Pool(); } run() { this.pool.use(); } }`;
    const parsed = parse(code);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.pool', 1))?.kind, 'dbPool');
  });

  it('a field also assigned something unknown is not trusted', () => {
    const code = `import { Mutex } from 'async-mutex';\nclass Store { lock: any = new Mutex(); swap(other: any) { this.lock = other; } run() { this.lock.use(); } }`;
    const parsed = parse(code);
    assert.equal(getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock', 1)), null);
  });

  it('an annotation holds even when assigned from an unannotated value', () => {
    const code = `import type { Mutex } from 'async-mutex';\nclass Store { lock: Mutex; constructor(lock: any) { this.lock = lock; } run() { this.lock.use(); } }`;
    const parsed = parse(code);
    const found = getConstruction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.MemberExpression, 'this.lock', 1));
    assert.equal(found?.kind, 'mutex');
    assert.equal(found?.fromType, true);
  });
});
