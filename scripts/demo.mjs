// Lints samples/ with the async-hazards CLI and prints the findings. Exit code 1 means "findings",
// which is the point of the demo, so it becomes 0; 2 (usage or configuration error) passes through.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../server/bin/async-hazards.js', import.meta.url));
const run = spawnSync(process.execPath, [bin, 'samples/', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (run.error) {
  process.stderr.write(`demo: ${run.error.message}\n`);
  process.exit(2);
}
process.exit(run.status === 1 ? 0 : (run.status ?? 2));
