import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

// CPU-heavy work (key derivation, password hashing, sync compression, child processes) in a
// synchronous helper or method of a long-lived process is reported where it runs, though no
// async caller is in sight: it stalls every request in flight wherever it is called from. Not at
// module top level, in a constructor, in an anonymous callback, in startup-only code, in one-shot
// files or behind lazy initialisation; and file I/O or metadata calls there stay unreported.
const serving = (name: string): string => `\`${name}\` (line 3), which this long-lived process may run while it serves`;

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (CPU-heavy work in synchronous code)', rule as never, {
  valid: [
    // Content I/O and metadata calls in a synchronous helper: their cost depends on the caller, which is not in sight.
    `import fs from 'node:fs';
export class Store {
  save(id: string, data: unknown) { fs.writeFileSync(id + '.json', JSON.stringify(data)); }
  has(id: string) { return fs.existsSync(id + '.json'); }
}`,
    // A cheap crypto call: a salt, a small random buffer, HKDF.
    `import bcrypt from 'bcryptjs';
import crypto from 'node:crypto';
export function salt() { return bcrypt.genSaltSync(10) + crypto.hkdfSync('sha256', 'k', 's', 'i', 32).byteLength; }`,
    // Module top level and a class constructor: once, as the process starts.
    `import { execSync } from 'node:child_process';
export const commit = execSync('git rev-parse HEAD').toString().trim();`,
    `import crypto from 'node:crypto';
export class Cipher {
  private key: Buffer;
  constructor(secret: string) { this.key = crypto.scryptSync(secret, 'salt', 32); }
  get length() { return this.key.length; }
}`,
    // A helper only the module's top level calls.
    `import { execSync } from 'node:child_process';
function gitSha() { return execSync('git rev-parse HEAD').toString(); }
const sha = gitSha();
export default sha;`,
    // A key derived once and kept.
    `import crypto from 'node:crypto';
let key: Buffer | undefined;
export function cipherKey(secret: string) {
  key ??= crypto.scryptSync(secret, 'salt', 32);
  return key;
}`,
    // Only outside production.
    `import { execSync } from 'node:child_process';
export function devBanner() {
  if (process.env.NODE_ENV !== 'production') return execSync('git log -1 --oneline').toString();
  return '';
}`,
    // An anonymous callback handed to an API the lint does not know: when it runs is not known.
    `import { execSync } from 'node:child_process';
process.on('exit', () => { execSync('rm -rf /tmp/cache'); });`,
    // First-run setup: the block makes the directory its test finds missing, so it runs once per installation.
    `import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
export class EmbeddedDb {
  constructor(private dataDir: string) {}
  init() {
    if (!fs.existsSync(this.dataDir)) {
      fs.mkdirSync(this.dataDir, { recursive: true });
      spawnSync('install-db', ['--datadir=' + this.dataDir]);
    }
  }
}`,
    // A one-shot file: a package.json script.
    {
      code: `const { execSync } = require('node:child_process');
function build() { return execSync('tsc -p .'); }
module.exports = { build };`,
      filename: fixture('roles/scripts/migrate.js'),
    },
  ],
  invalid: [
    // A private method of a service; its caller in this file is async, and it is said once, here.
    {
      code: `import crypto from 'node:crypto';
class Vault {
  private encrypt(text: string) {
    const key = crypto.scryptSync(process.env.KEY ?? '', 'salt', 32);
    return crypto.createCipheriv('aes-256-cbc', key, Buffer.alloc(16)).update(text, 'utf8', 'hex');
  }
  async save(text: string) { return this.encrypt(text); }
}
export default new Vault();`,
      errors: [{ messageId: 'blockingCall', line: 4, column: 17, data: { cost: SERVING, name: 'crypto.scryptSync', where: serving('encrypt') } }],
    },
    // An exported password check whose callers live in other files.
    {
      code: `const crypto = require('node:crypto');
module.exports = {
  check: (pw, salt, hash) =>
    crypto.pbkdf2Sync(pw, salt, 100000, 64, 'sha512').toString('hex') === hash,
};`,
      errors: [{ messageId: 'blockingCall', line: 4, column: 5, data: { cost: SERVING, name: 'crypto.pbkdf2Sync', where: serving('check') } }],
    },
    {
      code: `import bcrypt from 'bcrypt';
export class Users {
  verify(pw: string, hash: string) { return bcrypt.compareSync(pw, hash); }
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 45, data: { cost: SERVING, name: 'bcrypt.compareSync', where: serving('verify') } }],
    },
    // A child process in a static helper, and sync compression in an exported function.
    {
      code: `import { execSync } from 'node:child_process';
export class Disk {
  static free(dir: string) { return execSync(\`df -B1 "\${dir}"\`, { encoding: 'utf8' }); }
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 37, data: { cost: SERVING, name: 'child_process.execSync', where: serving('free') } }],
    },
    {
      code: `import zlib from 'node:zlib';
export function pack(body: string) {
  return zlib.gzipSync(body);
}`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, data: { cost: SERVING, name: 'zlib.gzipSync', where: '`pack` (line 2), which this long-lived process may run while it serves' } }],
    },
    // The test finds a path missing, but the block makes another one: it runs every time that path is missing.
    {
      code: `import fs from 'node:fs';
import { execSync } from 'node:child_process';
export function thumbnail(src: string, out: string) {
  if (!fs.existsSync(out)) {
    fs.mkdirSync('/tmp/thumbs', { recursive: true });
    execSync(\`convert \${src} -resize 64 \${out}\`);
  }
}`,
      errors: [{ messageId: 'blockingCall', line: 6, column: 5, data: { cost: SERVING, name: 'child_process.execSync', where: '`thumbnail` (line 3), which this long-lived process may run while it serves' } }],
    },
    // Called from startup and from async code: it also runs while serving, and the report names the async caller.
    {
      code: `import { execSync } from 'node:child_process';
function gitSha() {
  return execSync('git rev-parse HEAD').toString();
}
const sha = gitSha();
export async function status() { return { sha, now: gitSha() }; }`,
      errors: [{ messageId: 'blockingCall', line: 3, column: 10, data: { cost: SERVING, name: 'child_process.execSync', where: '`gitSha` (line 2), which async function `status` calls (line 6) while the process serves' } }],
    },
  ],
});
