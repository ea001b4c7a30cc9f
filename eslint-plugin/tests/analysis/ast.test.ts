import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeAtIndex } from '../../src/analysis/ast';
import { parse } from './parse';

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
