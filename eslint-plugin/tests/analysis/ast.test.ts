import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { conjuncts, constInit } from '../../src/analysis';
import { parse } from './parse';
import { nodeAtIndex } from '../../src/analysis/ast';

/** The source text of the initializer `constInit` finds for the last `x` read in `code`, or null. */
function initOfX(code: string): string | null {
  const parsed = parse(code);
  const read = parsed.all(AST_NODE_TYPES.Identifier).filter((id) => id.name === 'x').at(-1);
  assert.ok(read, 'no x in the code');
  const init = constInit(parsed.sourceCode, read);
  return init ? parsed.sourceCode.getText(init) : null;
}

describe('constInit', () => {
  it('follows a const declarator to its initializer, casts kept', () => {
    assert.equal(initOfX('const x = new Map() as Map<string, number>;\nuse(x);'), 'new Map() as Map<string, number>');
  });

  it('finds the const of an outer scope', () => {
    assert.equal(initOfX('const x = 8;\nfunction f() {\n  return () => x;\n}'), '8');
  });

  it('answers null for a let or var, which may be assigned again', () => {
    assert.equal(initOfX('let x = 8;\nuse(x);'), null);
    assert.equal(initOfX('var x = 8;\nuse(x);'), null);
  });

  it('answers null for a destructured binding, a parameter, an import and an unknown name', () => {
    assert.equal(initOfX('const { x } = options;\nuse(x);'), null);
    assert.equal(initOfX('const [x] = list;\nuse(x);'), null);
    assert.equal(initOfX('function f(x = 8) {\n  return x;\n}'), null);
    assert.equal(initOfX("import { x } from './x';\nuse(x);"), null);
    assert.equal(initOfX('use(x);'), null);
  });

  it('answers null for a declared const, which has no initializer', () => {
    assert.equal(initOfX('declare const x: number;\nuse(x);'), null);
  });

  it('answers null when an inner binding shadows the const', () => {
    assert.equal(initOfX('const x = 8;\nfunction f(x: number) {\n  return x;\n}'), null);
  });
});

describe('conjuncts', () => {
  const operands = (code: string): string[] => {
    const parsed = parse(code);
    const statement = parsed.ast.body[0];
    assert.ok(statement?.type === AST_NODE_TYPES.ExpressionStatement);
    return conjuncts(statement.expression).map((n) => parsed.sourceCode.getText(n));
  };

  it('splits a chain of && at every level, in source order', () => {
    assert.deepEqual(operands('a && (b && c) && d;'), ['a', 'b', 'c', 'd']);
  });

  it('keeps || and ?? operands whole, and a lone expression as its only operand', () => {
    assert.deepEqual(operands('a && (b || c);'), ['a', 'b || c']);
    assert.deepEqual(operands('(a && b) ?? c;'), ['(a && b) ?? c']);
    assert.deepEqual(operands('ready;'), ['ready']);
  });
});

// Long enough that the module's statements and the array's elements are bisected, with holes
// (`, ,`) that send the search back to the plain scan, and offsets in the gaps between items.
const LONG = `import { a } from 'a';
const s1 = 1;
const s2 = [1, , 3, 4, 5, , , 8, 9, 10, 11, 12, , 14, 15, 16, 17, 18, 19, 20, , 22];
function s3() { return a(); }

const s4 = { k: 1 };
class S5 { m() { return [s1, s2]; } }
let s6 = s1 + s1;
s6 += 1;
// a comment between statements
export async function s9(ids: string[]) { await Promise.all(ids.map((id) => a(id))); }
const s10 = \`t\${s1}\`;
if (s1) s6 = 2;
for (const x of s2) s6 += x ?? 0;
while (s6 > 100) s6--;
try { a(); } finally { s6 = 0; }
export const s15 = () => s6;
type S16 = { n: number };
interface S17 { m(): void }
enum S18 { A, B }
label: { break label; }
const s20 = [, , s1, , s6];
`;

describe('nodeAtIndex', () => {
  it('finds at every offset the node ESLint getNodeByRangeIndex finds', () => {
    const { sourceCode, ast } = parse(LONG);
    assert.ok(ast.body.length > 16);
    for (let index = -1; index <= LONG.length; index++) {
      const expected = sourceCode.getNodeByRangeIndex(index);
      const actual = nodeAtIndex(ast, index, sourceCode.visitorKeys);
      assert.equal(actual, expected, `offset ${index}: ${actual?.type} instead of ${expected?.type}`);
    }
  });
});
