// Installable as users install it: pack the built plugin, install the tarball from disk into fresh
// projects outside this repository (a JavaScript-only one on ESLint 9 and a TypeScript 6 one on
// ESLint 10), and lint a hazardous file there with the installed ESLint and `configs.recommended`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';

const run = promisify(execFile);
const PLUGIN_DIR = path.join(__dirname, '..', '..', 'eslint-plugin');
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** A readFileSync inside an async function: certain to be reported by no-blocking-in-async. */
const HAZARD_JS = `import { readFileSync } from 'node:fs';

export async function loadTemplate(name) {
  return readFileSync(\`templates/\${name}.html\`, 'utf8');
}
`;
const CLEAN_JS = `import { readFile } from 'node:fs/promises';

export async function loadTemplate(name) {
  return readFile(\`templates/\${name}.html\`, 'utf8');
}
`;
const HAZARD_TS = `import { readFileSync } from 'node:fs';

export async function loadTemplate(name: string): Promise<string> {
  return readFileSync(\`templates/\${name}.html\`, 'utf8');
}
`;

interface LintResult {
  filePath: string;
  fatalErrorCount: number;
  messages: { ruleId: string | null; line: number; message: string }[];
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

async function npmInstall(dir: string, packages: string[]): Promise<void> {
  await run('npm', ['install', '--save-dev', ...NPM_FLAGS, ...packages], { cwd: dir, timeout: 150_000 });
}

/** Runs the project's own ESLint with the JSON formatter; exit code 1 just means findings. */
async function eslint(dir: string, files: string[]): Promise<LintResult[]> {
  const bin = path.join(dir, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = await run(process.execPath, [bin, '--format', 'json', ...files], { cwd: dir, timeout: 60_000 }).catch(
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      if (error.code === 1 && error.stdout) return { stdout: error.stdout, stderr: error.stderr ?? '' };
      throw error;
    },
  );
  return JSON.parse(result.stdout) as LintResult[];
}

function findings(results: LintResult[], file: string): string[] {
  const result = results.find((r) => path.basename(r.filePath) === file);
  assert.ok(result, `no result for ${file}`);
  assert.equal(result.fatalErrorCount, 0, JSON.stringify(result.messages));
  return result.messages.map((m) => `${m.line} ${m.ruleId}`);
}

describe('installable as users install it', { timeout: 240_000 }, () => {
  let work = '';
  let tarball = '';
  let jsProject = '';
  let tsProject = '';

  before(async () => {
    const built = await access(path.join(PLUGIN_DIR, 'dist', 'index.js')).then(() => true, () => false);
    assert.ok(built, 'build the plugin first: npm run build');
    work = await mkdtemp(path.join(os.tmpdir(), 'async-hazards-install-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work, '--loglevel=error'], { cwd: PLUGIN_DIR });
    const [info] = JSON.parse(packed.stdout) as { filename: string }[];
    assert.ok(info);
    tarball = path.join(work, info.filename);

    jsProject = path.join(work, 'js-project');
    await writeFiles(jsProject, {
      'package.json': JSON.stringify({ name: 'js-project', private: true, type: 'module' }, null, 2),
      // CommonJS config: `require()` must return the plugin object itself.
      'eslint.config.cjs': `const asyncHazards = require('eslint-plugin-async-hazards');\nmodule.exports = [asyncHazards.configs.recommended];\n`,
      'hazard.js': HAZARD_JS,
      'clean.js': CLEAN_JS,
    });
    // The samples' JavaScript files: a file lock and dropped promises, for more rules on ESLint 9.
    for (const file of ['lockfile.js', 'notify.js']) {
      await copyFile(path.join(PLUGIN_DIR, '..', 'samples', 'src', 'legacy', file), path.join(jsProject, file));
    }
    tsProject = path.join(work, 'ts-project');
    await writeFiles(tsProject, {
      'package.json': JSON.stringify({ name: 'ts-project', private: true, type: 'module' }, null, 2),
      'tsconfig.json': JSON.stringify(
        { compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, noEmit: true, types: [] }, include: ['*.ts'] },
        null,
        2,
      ),
      'eslint.config.mjs': `import asyncHazards from 'eslint-plugin-async-hazards';\nexport default [asyncHazards.configs.recommended];\n`,
      'hazard.ts': HAZARD_TS,
    });
    // Both installs at once: they share npm's cache and nothing else.
    await Promise.all([
      npmInstall(jsProject, [tarball, 'eslint@9.39.5']),
      npmInstall(tsProject, [tarball, 'eslint@10.15.0', 'typescript@6.0.3']),
    ]);
  });

  after(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the tarball ships the build, the types and the docs, not the sources or tests', async () => {
    const listed = await run('tar', ['-tzf', tarball]);
    const files = listed.stdout.split('\n').filter(Boolean);
    assert.ok(files.includes('package/dist/index.js'));
    assert.ok(files.includes('package/dist/index.d.ts'));
    assert.ok(files.includes('package/package.json'));
    assert.ok(files.includes('package/README.md'));
    assert.ok(files.includes('package/LICENSE'));
    assert.ok(files.some((f) => f.startsWith('package/docs/rules/') && f.endsWith('.md')));
    assert.ok(!files.some((f) => f.startsWith('package/src/') || f.startsWith('package/tests/')), files.join('\n'));
  });

  it('JavaScript-only project on ESLint 9 (CommonJS config): a blocking call in async code is reported', async () => {
    const results = await eslint(jsProject, ['hazard.js', 'clean.js']);
    assert.deepEqual(findings(results, 'hazard.js'), ['4 async-hazards/no-blocking-in-async']);
    assert.deepEqual(findings(results, 'clean.js'), []);
    const more = await eslint(jsProject, ['lockfile.js', 'notify.js']);
    assert.deepEqual(findings(more, 'lockfile.js'), ['16 async-hazards/release-in-finally']);
    assert.deepEqual(findings(more, 'notify.js'), ['11 async-hazards/no-orphaned-promise', '12 async-hazards/no-orphaned-promise']);
    const installed = await run(process.execPath, ['-p', "require('eslint/package.json').version"], { cwd: jsProject });
    assert.match(installed.stdout.trim(), /^9\./);
  });

  it('TypeScript 6 project (ESM config): a blocking call in async code is reported', async () => {
    const results = await eslint(tsProject, ['hazard.ts']);
    assert.deepEqual(findings(results, 'hazard.ts'), ['4 async-hazards/no-blocking-in-async']);
    const installed = await run(process.execPath, ['-p', "require('typescript').version"], { cwd: tsProject });
    assert.match(installed.stdout.trim(), /^6\.0\./);
  });
});
