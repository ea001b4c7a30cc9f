import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { functionName, isCpuHeavy, matchBlockingCall, servingSyncFunction } from '../../src/analysis';
import { fixture } from '../ruleTester';
import { parse } from './parse';

const HEADER = `import fs from 'node:fs';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { execSync, spawnSync } from 'node:child_process';
`;

/** Is the catalogued call with this text CPU-heavy? */
function heavy(text: string): boolean {
  const parsed = parse(`${HEADER}export function f(p: string, b: Buffer) { return ${text}; }`);
  const found = matchBlockingCall(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text));
  assert.ok(found, `${text} is catalogued`);
  return isCpuHeavy(found);
}

/** The name of the serving synchronous function the call `text` runs in, or null. */
function serving(code: string, text: string, filename = 'file.ts'): string | null {
  const parsed = parse(`${HEADER}${code}`, filename);
  const fn = servingSyncFunction(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text), { filename });
  return fn ? functionName(fn) ?? '(anonymous)' : null;
}

describe('isCpuHeavy', () => {
  it('takes key derivation, password hashing, sync compression and child processes', () => {
    for (const text of [
      `crypto.scryptSync(p, 'salt', 32)`, `crypto.pbkdf2Sync(p, 's', 1e5, 64, 'sha512')`, `bcrypt.hashSync(p, 10)`,
      `bcrypt.compareSync(p, p)`, `zlib.gzipSync(b)`, `execSync('df')`, `spawnSync('ls')`,
    ]) {
      assert.equal(heavy(text), true, text);
    }
  });

  it('leaves file I/O, metadata and cheap crypto out', () => {
    for (const text of [`fs.readFileSync(p)`, `fs.writeFileSync(p, b)`, `fs.existsSync(p)`, `bcrypt.genSaltSync(10)`, `crypto.hkdfSync('sha256', p, 's', 'i', 32)`]) {
      assert.equal(heavy(text), false, text);
    }
  });
});

describe('servingSyncFunction', () => {
  it('names helpers and methods whose callers are not in sight', () => {
    assert.equal(serving(`export function hash(p: string) { return bcrypt.hashSync(p, 10); }`, 'bcrypt.hashSync(p, 10)'), 'hash');
    assert.equal(serving(`export const pack = (b: Buffer) => zlib.gzipSync(b);`, 'zlib.gzipSync(b)'), 'pack');
    assert.equal(serving(`export class Disk { static free() { return execSync('df'); } }`, `execSync('df')`), 'free');
    assert.equal(serving(`export class Vault { key = (p: string) => crypto.scryptSync(p, 's', 32); }`, `crypto.scryptSync(p, 's', 32)`), 'key');
    assert.equal(serving(`module.exports = { check(p) { return bcrypt.compareSync(p, p); } };`, 'bcrypt.compareSync(p, p)'), 'check');
    assert.notEqual(serving(`exports.df = function () { return execSync('df'); };`, `execSync('df')`), null);
  });

  it('looks through synchronous callbacks to the helper that runs them', () => {
    assert.equal(serving(`export function hashAll(ps: string[]) { return ps.map((p) => bcrypt.hashSync(p, 10)); }`, 'bcrypt.hashSync(p, 10)'), 'hashAll');
  });

  it('refuses top level, constructors, anonymous callbacks and async code', () => {
    assert.equal(serving(`export const sha = execSync('git rev-parse HEAD');`, `execSync('git rev-parse HEAD')`), null);
    assert.equal(serving(`export class C { k: Buffer; constructor(p: string) { this.k = crypto.scryptSync(p, 's', 32); } }`, `crypto.scryptSync(p, 's', 32)`), null);
    assert.equal(serving(`process.on('exit', () => execSync('cleanup'));`, `execSync('cleanup')`), null);
    assert.equal(serving(`export async function h(p: string) { return bcrypt.hashSync(p, 10); }`, 'bcrypt.hashSync(p, 10)'), null);
  });

  it('refuses startup-only helpers, lazy initialisation, dev-only code and first-run setup', () => {
    assert.equal(serving(`function sha() { return execSync('git log'); }\nexport const v = sha();`, `execSync('git log')`), null);
    assert.equal(serving(`let k: Buffer | undefined;\nexport function key(p: string) { k ??= crypto.scryptSync(p, 's', 32); return k; }`, `crypto.scryptSync(p, 's', 32)`), null);
    assert.equal(serving(`export function banner() { if (process.env.NODE_ENV === 'development') execSync('git log'); }`, `execSync('git log')`), null);
    assert.equal(serving(`export function init(d: string) { if (!fs.existsSync(d)) { fs.mkdirSync(d); spawnSync('install-db'); } }`, `spawnSync('install-db')`), null);
  });

  it('refuses files one-shot code runs', () => {
    const script = fixture('roles/scripts/migrate.js');
    assert.equal(serving(`export function build() { return execSync('tsc'); }`, `execSync('tsc')`, script), null);
    assert.equal(serving(`export function build() { return execSync('tsc'); }`, `execSync('tsc')`, fixture('roles/src/server.js')), 'build');
  });
});
