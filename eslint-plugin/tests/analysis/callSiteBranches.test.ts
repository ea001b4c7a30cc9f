import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { branchesRuledOutAt, isFunctionNode } from '../../src/analysis';
import { parse } from './parse';

/** The text of each branch of `connect()` that the call `this.connect()` rules out, or null. */
const ruledOut = (code: string): string[] | null => {
  const parsed = parse(code);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, 'this.connect()');
  const method = parsed.all(AST_NODE_TYPES.MethodDefinition).find((m) => m.key.type === AST_NODE_TYPES.Identifier && m.key.name === 'connect');
  assert.ok(method && isFunctionNode(method.value));
  const out = branchesRuledOutAt(parsed.sourceCode, call, method.value);
  return out === null ? null : [...out].map((node) => parsed.sourceCode.getText(node));
};

const CONNECT = `async connect() {
    if (this.subscriber.isOpen) return;
    if (typeof this.subscriber.connect === 'function') { await this.subscriber.connect(); } else { this.subscriber.isOpen = true; }
  }`;
const server = (site: string, connect = CONNECT): string => `class Server {
  constructor(subscriber) {
    this.subscriber = subscriber;
    ${site}
  }
  ${connect}
}`;

describe('branches a call site rules out', () => {
  it('drops the branch that needs what the call site has just found missing', () => {
    assert.deepEqual(ruledOut(server('if (!this.subscriber.connect) { this.connect(); }')), ["{ await this.subscriber.connect(); }"]);
    assert.deepEqual(ruledOut(server('if (this.subscriber.connect) {} else this.connect();')), ["{ await this.subscriber.connect(); }"]);
    // A type assertion inside the callee's early-return test changes nothing at run time.
    const asserted = CONNECT.replace('if (this.subscriber.isOpen)', 'if ((this.subscriber as Subscriber).isOpen)');
    assert.deepEqual(ruledOut(server('if (!this.subscriber.connect) { this.connect(); }', asserted)), ["{ await this.subscriber.connect(); }"]);
  });

  it('drops the else of a test the call site has already answered the same way', () => {
    const connect = `async connect() {
    if (!this.subscriber.connect) { this.subscriber.isOpen = true; } else { await this.subscriber.connect(); }
  }`;
    assert.deepEqual(ruledOut(server('if (!this.subscriber.connect) this.connect();', connect)), ['{ await this.subscriber.connect(); }']);
    assert.deepEqual(ruledOut(server('if (this.subscriber.connect) this.connect();', connect)), ['{ this.subscriber.isOpen = true; }']);
  });

  it('tells nothing when the facts agree, differ in path, or could have changed', () => {
    // Near misses: the same condition on both sides; another path; `typeof … === 'function'` false is not "missing".
    assert.equal(ruledOut(server('if (this.subscriber.connect) { this.connect(); }')), null);
    assert.equal(ruledOut(server('if (!this.publisher.connect) { this.connect(); }')), null);
    assert.equal(ruledOut(server("if (typeof this.subscriber.connect !== 'function') { this.connect(); }")), null);
    // Something runs first on either side: a call before it at the site, an await before the branch in the callee.
    assert.equal(ruledOut(server('if (!this.subscriber.connect) { this.reset(); this.connect(); }')), null);
    assert.equal(ruledOut(server('if (!this.subscriber.connect) { this.connect(); }', CONNECT.replace('if (this.subscriber.isOpen) return;', 'await this.prepare();'))), null);
    // A test in the callee that can throw before the branch: `in` on a value that may not be an object.
    assert.equal(ruledOut(server('if (!this.subscriber.connect) { this.connect(); }', CONNECT.replace('if (this.subscriber.isOpen)', "if ('isOpen' in this.subscriber)"))), null);
    // A parameter default runs first and may call anything.
    assert.equal(ruledOut(server('if (!this.subscriber.connect) { this.connect(); }', CONNECT.replace('connect()', 'connect(options = this.reset())'))), null);
    // Not a call on `this`, or not under an `if` at all.
    assert.equal(ruledOut(server('this.connect();')), null);
  });
});
