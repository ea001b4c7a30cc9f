import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { unsetGuard } from '../../src/analysis';
import { parse } from './parse';

/** Which of `checked` (call texts inside the helper `abort`) cannot run when `site` calls it. */
function skipped(code: string, site: string, checked: readonly string[], nth = 0): string[] | null {
  const parsed = parse(code);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, site, nth);
  const helper = parsed.all(AST_NODE_TYPES.ArrowFunctionExpression).find((fn) => fn.parent.type === AST_NODE_TYPES.VariableDeclarator &&
    fn.parent.id.type === AST_NODE_TYPES.Identifier && fn.parent.id.name === 'abort') as FunctionNode | undefined;
  assert.ok(helper);
  const skip = unsetGuard(parsed.sourceCode, call, helper);
  return skip && checked.filter((text) => skip(parsed.find(AST_NODE_TYPES.CallExpression, text)));
}

const HELPER = `  const abort = () => {
    if (dest && exists(dest)) { unlink(dest); dest = null; }
    log(dest);
    return dest ? size(dest) : 0;
  };`;
const CHECKED = ['exists(dest)', 'unlink(dest)', 'log(dest)', 'size(dest)'];

describe('unsetGuard', () => {
  it('calls behind a variable that is still unset at the call site', () => {
    const code = `function route(req) {\n  let dest;\n${HELPER}\n  if (!req.ok) return abort();\n  dest = req.path;\n  abort();\n}`;
    assert.deepEqual(skipped(code, 'abort()', CHECKED), ['exists(dest)', 'unlink(dest)', 'size(dest)']);
    // The second call comes after the assignment: everything may run.
    assert.equal(skipped(code, 'abort()', CHECKED, 1), null);
    assert.deepEqual(skipped(`function route(req) {\n  let dest = null;\n${HELPER}\n  abort();\n  dest = req.path;\n}`, 'abort()', CHECKED),
      ['exists(dest)', 'unlink(dest)', 'size(dest)']);
  });
  it('near misses: the variable may hold a value at the call', () => {
    // After the assignment.
    assert.equal(skipped(`function route(req) {\n  let dest;\n${HELPER}\n  dest = req.path;\n  abort();\n}`, 'abort()', CHECKED), null);
    // A value at its declaration.
    assert.equal(skipped(`function route(req) {\n  let dest = req.path;\n${HELPER}\n  abort();\n}`, 'abort()', CHECKED), null);
    // Assigned later in source but inside the loop around the call: a later turn sees it.
    assert.equal(skipped(`function route(xs) {\n  let dest;\n${HELPER}\n  for (const x of xs) { abort(); dest = x; }\n}`, 'abort()', CHECKED), null);
    // Assigned by a callback that may already have run.
    assert.equal(skipped(`function route(req) {\n  let dest;\n${HELPER}\n  req.on('data', (x) => { dest = x; });\n  abort();\n}`, 'abort()', CHECKED), null);
    // The call runs in a listener, later than the assignment.
    assert.equal(skipped(`function route(req) {\n  let dest;\n${HELPER}\n  req.on('error', () => abort());\n  dest = req.path;\n}`, 'abort()', CHECKED), null);
  });
  it('calls not behind the variable still run', () => {
    const code = `function route(req) {\n  let dest;\n  const abort = () => { if (req.dest || dest) exists(dest); other(); };\n  abort();\n  dest = 1;\n}`;
    assert.deepEqual(skipped(code, 'abort()', ['exists(dest)', 'other()']), []);
  });

  // A name a probe loop picked does not exist yet: until something uses it, the helper's
  // `fs.existsSync(dest)` guard is false, and what it guards cannot run.
  const probed = (between: string, test = 'fs.existsSync(dest)'): string => `import fs from 'node:fs';
function route(req) {
  let dest;
  const abort = () => {
    if (dest && fs.existsSync(dest)) { fs.unlinkSync(dest); dest = null; }
    log(dest);
  };
  do { dest = pick(); } while (${test});
${between}  if (!mk()) return abort();
  open(dest);
  abort();
}`;
  const PROBED = ['fs.unlinkSync(dest)', 'log(dest)'];
  it('calls behind an existence probe of a name a probe loop just found free', () => {
    assert.deepEqual(skipped(probed(''), 'abort()', PROBED), ['fs.unlinkSync(dest)']);
    // After the file is made from the name, everything may run.
    assert.equal(skipped(probed(''), 'abort()', PROBED, 1), null);
  });
  it('near misses: the name may have been used, or the loop is no probe', () => {
    assert.equal(skipped(probed('  fs.writeFileSync(dest, req.body);\n'), 'abort()', PROBED), null);
    assert.equal(skipped(probed('  dest = req.path;\n'), 'abort()', PROBED), null);
    assert.equal(skipped(probed('', 'fs.existsSync(dest) && tries++ < 3'), 'abort()', PROBED), null);
    assert.equal(skipped(probed('', 'exists(dest)'), 'abort()', PROBED), null);
  });
});
