// Lints samples/ with ESLint and the plugin's recommended config, and prints the findings.
// Exits 0 whenever the run worked, whatever it found: findings are the point of the demo.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const samples = fileURLToPath(new URL('../samples/', import.meta.url));
try {
  const eslint = new ESLint({ cwd: samples });
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  process.stdout.write(text || 'No findings.\n');
  const count = results.reduce((n, r) => n + r.messages.length, 0);
  process.stdout.write(`async-hazards demo: ${count} findings in ${results.length} files under ${path.relative(process.cwd(), samples) || '.'}\n`);
} catch (error) {
  process.stderr.write(`async-hazards demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
