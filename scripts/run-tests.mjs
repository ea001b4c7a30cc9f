// Runs node's test runner over glob patterns. Node 20 does not expand globs given to `--test`
// (Node 22 does), so this expands `*` and `**` itself and hands the files over in one run.
// Usage: node scripts/run-tests.mjs "eslint-plugin/tests/**/*.test.ts" "test/**/*.test.ts"
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'fixtures']);

/** `**` matches any number of directories, `*` anything but a slash. */
function toRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*' && pattern[i + 2] === '/') {
      source += '(?:.*/)?';
      i += 2;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function listFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a pattern whose base folder does not exist (yet) matches nothing
  }
  return entries.flatMap((entry) => {
    const full = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : listFiles(full);
    return entry.isFile() ? [full] : [];
  });
}

const patterns = process.argv.slice(2);
const files = new Set();
for (const pattern of patterns) {
  // Walk only from the part of the pattern before its first wildcard.
  const segments = pattern.split('/').slice(0, -1);
  const wildcard = segments.findIndex((segment) => segment.includes('*'));
  const base = (wildcard === -1 ? segments : segments.slice(0, wildcard)).join('/') || '.';
  const matcher = toRegExp(pattern);
  for (const file of listFiles(base).sort()) if (matcher.test(file)) files.add(file);
}

if (files.size === 0) {
  process.stderr.write(`run-tests: no test files match ${patterns.join(' ')}\n`);
  process.exit(1);
}
// Two files at a time: many suites wait on child processes (the CLI, the server, npm), so a second
// file keeps the other core busy. TEST_CONCURRENCY overrides it.
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
