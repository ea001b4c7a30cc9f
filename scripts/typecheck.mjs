// Type-checks every TypeScript project in the repository with `tsc --noEmit`, one after another.
// Projects are found by their tsconfig.json, so a package that adds one is checked from then on.
// samples/ and test fixtures are left out: they are hazardous on purpose and their libraries are
// not installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const candidates = ['eslint-plugin', 'server', 'client', 'bench'];
for (const group of ['test']) {
  const dir = path.join(root, group);
  if (!existsSync(dir)) continue;
  if (existsSync(path.join(dir, 'tsconfig.json'))) candidates.push(group);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'fixtures') candidates.push(`${group}/${entry.name}`);
  }
}

let failed = 0;
for (const project of candidates) {
  if (!existsSync(path.join(root, project, 'tsconfig.json'))) continue;
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`typecheck: ${project} ${result.status === 0 ? 'ok' : 'FAILED'} (${seconds}s)\n`);
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
