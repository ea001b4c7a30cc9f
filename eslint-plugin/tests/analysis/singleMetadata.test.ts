import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { catalogueEntry, isRepeatedIn, isSingleMetadataCall, matchBlockingCall } from '../../src/analysis';
import { parse } from './parse';

/** Is the call with this text, in the first function of `code`, a single metadata call there? */
function single(code: string, text: string): boolean {
  const parsed = parse(`import fs from 'node:fs';\n${code}`);
  const call = parsed.find(AST_NODE_TYPES.CallExpression, text);
  const found = matchBlockingCall(parsed.sourceCode, call);
  assert.ok(found, `${text} is catalogued`);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0] as FunctionNode;
  return isSingleMetadataCall(found, fn);
}

describe('catalogue kinds', () => {
  it('tags one-path metadata calls, and rmdir apart', () => {
    for (const name of ['existsSync', 'statSync', 'lstatSync', 'accessSync', 'mkdirSync', 'renameSync', 'fstatSync']) {
      assert.equal(catalogueEntry({ module: 'fs', path: [name] })?.kind, 'metadata', name);
    }
    assert.equal(catalogueEntry({ module: 'fs-extra', path: ['pathExistsSync'] })?.kind, 'metadata');
    assert.equal(catalogueEntry({ module: 'fs', path: ['realpathSync', 'native'] })?.kind, 'metadata');
    assert.equal(catalogueEntry({ module: 'fs', path: ['rmdirSync'] })?.kind, 'remove');
  });

  it('leaves file removals untagged: they free the file\'s data', () => {
    for (const ref of [{ module: 'fs', path: ['unlinkSync'] }, { module: 'fs', path: ['rmSync'] }, { module: 'fs-extra', path: ['unlinkSync'] }]) {
      const entry = catalogueEntry(ref);
      assert.ok(entry, ref.path.join('.'));
      assert.equal(entry.kind, undefined, ref.path.join('.'));
    }
  });

  it('leaves content, listings, copies and recursive removes untagged, and tags processes and CPU work `cpu`', () => {
    const refs = [
      { module: 'fs', path: ['readFileSync'] }, { module: 'fs', path: ['writeFileSync'] }, { module: 'fs', path: ['readdirSync'] },
      { module: 'fs', path: ['cpSync'] }, { module: 'fs', path: ['copyFileSync'] }, { module: 'fs-extra', path: ['removeSync'] },
      { module: 'fs', path: ['openSync'] },
    ];
    for (const ref of refs) assert.equal(catalogueEntry(ref)?.kind, undefined, ref.path.join('.'));
    const heavy = [
      { module: 'child_process', path: ['execSync'] }, { module: 'crypto', path: ['pbkdf2Sync'] },
      { module: 'bcryptjs', path: ['compareSync'] }, { module: 'zlib', path: ['gzipSync'] },
    ];
    for (const ref of heavy) assert.equal(catalogueEntry(ref)?.kind, 'cpu', ref.path.join('.'));
  });
});

describe('isSingleMetadataCall', () => {
  it('takes one metadata call and a non-recursive rmdir', () => {
    assert.equal(single(`async function f(p) { if (fs.existsSync(p)) return 1; }`, 'fs.existsSync(p)'), true);
    assert.equal(single(`async function f(p) { fs.mkdirSync(p, { recursive: true }); }`, 'fs.mkdirSync(p, { recursive: true })'), true);
    assert.equal(single(`async function f(p) { fs.rmdirSync(p); }`, 'fs.rmdirSync(p)'), true);
    assert.equal(single(`async function f(p) { fs.rmdirSync(p, { recursive: false }); }`, 'fs.rmdirSync(p, { recursive: false })'), true);
  });

  it('refuses a recursive or unknown remove, file removals and content calls', () => {
    assert.equal(single(`async function f(p) { fs.rmdirSync(p, { recursive: true }); }`, 'fs.rmdirSync(p, { recursive: true })'), false);
    assert.equal(single(`async function f(p, o) { fs.rmdirSync(p, o); }`, 'fs.rmdirSync(p, o)'), false);
    assert.equal(single(`async function f(p) { fs.rmdirSync(p, { ...p }); }`, 'fs.rmdirSync(p, { ...p })'), false);
    assert.equal(single(`async function f(p) { fs.unlinkSync(p); }`, 'fs.unlinkSync(p)'), false);
    assert.equal(single(`async function f(p) { fs.rmSync(p, { force: true }); }`, 'fs.rmSync(p, { force: true })'), false);
    assert.equal(single(`async function f(p) { fs.readFileSync(p); }`, 'fs.readFileSync(p)'), false);
  });

  it('refuses a call repeated by a loop or a per-element callback', () => {
    assert.equal(single(`async function f(ps) { for (const p of ps) fs.statSync(p); }`, 'fs.statSync(p)'), false);
    assert.equal(single(`async function f(ps) { for (let i = 0; i < ps.length; i++) fs.statSync(ps[i]); }`, 'fs.statSync(ps[i])'), false);
    assert.equal(single(`async function f(ps) { return ps.filter((p) => fs.existsSync(p)); }`, 'fs.existsSync(p)'), false);
    assert.equal(single(`async function f(ps) { while (ps.length) fs.statSync(ps.pop()); }`, 'fs.statSync(ps.pop())'), false);
  });
});

describe('isRepeatedIn', () => {
  const code = `async function f(ps, p) {
  for (const x of [g(0)]) g(1);
  do { p = next(p); } while (!g(2));
  while (g(3) && p) p = next(p);
  new Promise((r) => r(g(4)));
  ps.forEach((x) => g(5));
  setTimeout(() => g(6));
}`;
  const parsed = parse(code);
  const fn = parsed.all(AST_NODE_TYPES.FunctionDeclaration)[0] as FunctionNode;
  const at = (n: number): boolean => isRepeatedIn(parsed.find(AST_NODE_TYPES.CallExpression, `g(${n})`), fn);

  it('knows loop bodies from what runs once', () => {
    assert.equal(at(0), false, 'the iterated expression runs once');
    assert.equal(at(1), true);
    assert.equal(at(2), false, 'a probe as the whole test');
    assert.equal(at(3), true, 'a test that does more than probe');
    assert.equal(at(4), false, 'the executor runs once');
    assert.equal(at(5), true);
  });

  it('stops at a function that runs later', () => {
    assert.equal(at(6), false);
  });
});
