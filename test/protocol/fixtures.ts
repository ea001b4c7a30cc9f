// Literal fixture sources and temporary workspace folders for the protocol tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './harness';

/** One hazard per rule, each on a known line (1-based in comments). */
export const HAZARDS_TS = `import { readFileSync } from 'node:fs'; import { readdir } from 'node:fs/promises';
import { Mutex } from 'async-mutex';

const lock = new Mutex();

export async function load(path: string): Promise<string> {
  return readFileSync(path, 'utf8'); // line 7: no-blocking-in-async
}

async function refresh(): Promise<void> { await fetch('http://cache/refresh'); }

export function start(): void {
  refresh(); // line 13: no-orphaned-promise
}
// line 17 (the acquire): release-in-finally
export async function update(): Promise<void> {
  const release = await lock.acquire();
  await refresh();
  release();
}

export async function all(dir: string): Promise<void> {
  await Promise.all((await readdir(dir)).map((id) => load(id))); // line 23: no-unbounded-fan-out (a listing: data-sized)
}
`;

/** The plugin as a workspace config imports it, by absolute URL (temporary folders have no node_modules). */
export const pluginUrl = pathToFileURL(path.join(repoRoot, 'eslint-plugin', 'dist', 'index.js')).href;

/** A flat config registering the plugin under another alias, turning one rule off and one to warn. */
export const ALIASED_CONFIG = `import plugin from '${pluginUrl}';

export default [
  {
    files: ['**/*.ts'],
    plugins: { hazards: plugin },
    rules: {
      'hazards/no-blocking-in-async': 'off',
      'hazards/no-orphaned-promise': 'warn',
      'hazards/release-in-finally': 'error',
      'hazards/no-unbounded-fan-out': 'error',
      'hazards/no-sleep-holding-permit': 'error',
    },
  },
];
`;

export const FAILING_CONFIG = `throw new Error('this config is broken on purpose');
`;

/** Creates a temporary folder holding `files` (relative path → text); removed by the returned function. */
export function makeFolder(prefix: string, files: Record<string, string>): { dir: string; remove: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `async-hazards-${prefix}-`)));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`${needle} not in text`);
  return index;
}
