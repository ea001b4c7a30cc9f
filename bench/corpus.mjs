// The benchmark corpus: real, published server-side packages nobody here wrote, pinned, installed
// into bench/.corpus/ (ignored by git, its own package.json, not a workspace) with install scripts
// off. Each package gets a tsconfig.json (allowJs, checkJs off) so the typed rows have a project.
// `node bench/corpus.mjs` installs (when missing) and prints file and line counts; the benchmark
// imports `ensureCorpus()` and `corpusFiles()`.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { APP_DIR, appFiles, ensureAppWorkspace } from './app-workspace.mjs';

const run = promisify(execFile);

export const CORPUS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '.corpus');

/** `BENCH_CORPUS=app`: the generated application workspace (bench/app-workspace.mjs) instead of the packages. */
const APP = process.env.BENCH_CORPUS === 'app';

/** The folder the rows lint in (cwd, tsconfig root). */
export const CORPUS_ROOT = APP ? APP_DIR : path.join(CORPUS_DIR, 'node_modules');

/** Async-heavy server code: queues, database drivers, HTTP clients and servers, locks, pools. */
export const PACKAGES = {
  bullmq: '5.56.0',
  pg: '8.16.3',
  mysql2: '3.14.2',
  ioredis: '5.6.1',
  undici: '7.11.0',
  got: '14.4.7',
  knex: '3.1.0',
  fastify: '5.4.0',
  koa: '3.0.0',
  express: '5.1.0',
  'generic-pool': '3.9.0',
  redlock: '4.2.0',
  mongodb: '6.17.0',
  amqplib: '0.10.8',
};

/**
 * Where a package's own code is, when it ships the same code twice: bullmq's ESM build (its CJS
 * build is the same code), mongodb's TypeScript sources (its lib/ is their compiled output).
 */
const ROOTS = { bullmq: ['dist/esm'], mongodb: ['src'] };

const SOURCE = /\.(?:js|mjs|cjs|ts|mts|cts)$/;
const SKIP_FILE = /\.d\.[mc]?ts$|\.min\.js$/;
/** Bundled copies, tests and type-only folders say nothing about the package's own async code. */
const SKIP_DIR = new Set(['node_modules', 'test', 'tests', '__tests__', 'types', 'benchmarks', 'bench', 'examples', 'docs']);

export function packageDir(name) {
  return path.join(CORPUS_DIR, 'node_modules', name);
}

async function exists(p) {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function installedVersion(name) {
  const text = await readFile(path.join(packageDir(name), 'package.json'), 'utf8').catch(() => null);
  return text === null ? null : JSON.parse(text).version;
}

export async function ensureCorpus(log = console.error) {
  if (APP) return ensureAppWorkspace();
  await mkdir(CORPUS_DIR, { recursive: true });
  const missing = [];
  for (const [name, version] of Object.entries(PACKAGES)) {
    if ((await installedVersion(name)) !== version) missing.push(name);
  }
  if (missing.length > 0) {
    log(`installing corpus (${missing.join(', ')}) into ${path.relative(process.cwd(), CORPUS_DIR)} …`);
    const manifest = { name: 'async-hazards-bench-corpus', private: true, dependencies: PACKAGES };
    await writeFile(path.join(CORPUS_DIR, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--workspaces=false'], {
      cwd: CORPUS_DIR,
      maxBuffer: 1 << 24,
    });
  }
  for (const name of Object.keys(PACKAGES)) {
    const tsconfig = {
      compilerOptions: {
        allowJs: true,
        checkJs: false,
        noEmit: true,
        skipLibCheck: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
      },
      include: (ROOTS[name] ?? ['.']).map((root) => `${root}/**/*`),
      exclude: ['node_modules', '**/*.d.ts'],
    };
    const file = path.join(packageDir(name), 'tsconfig.json');
    const text = `${JSON.stringify(tsconfig, null, 2)}\n`;
    if ((await readFile(file, 'utf8').catch(() => '')) !== text) await writeFile(file, text);
  }
}

async function collect(dir, out) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIR.has(entry.name)) await collect(p, out);
    } else if (entry.isFile() && SOURCE.test(entry.name) && !SKIP_FILE.test(entry.name)) {
      out.push(p);
    }
  }
}

/** Every linted file of the corpus, with its package and line count. */
export async function corpusFiles() {
  if (APP) return appFiles();
  const files = [];
  for (const name of Object.keys(PACKAGES)) {
    const found = [];
    for (const root of ROOTS[name] ?? ['.']) await collect(path.join(packageDir(name), root), found);
    found.sort();
    for (const file of found) {
      const text = await readFile(file, 'utf8');
      files.push({ pkg: name, file, lines: text.split('\n').length, bytes: text.length });
    }
  }
  return files;
}

/** Every BENCH_SAMPLE-th file (all by default): a smaller corpus across every package. */
export function sampleFiles(files, every = Number(process.env.BENCH_SAMPLE ?? 1)) {
  return every > 1 ? files.filter((_, i) => i % every === 0) : files;
}

export function describeCorpus(files) {
  const byPkg = new Map();
  for (const f of files) {
    const row = byPkg.get(f.pkg) ?? { files: 0, lines: 0 };
    row.files += 1;
    row.lines += f.lines;
    byPkg.set(f.pkg, row);
  }
  const out = [];
  for (const [pkg, row] of byPkg) {
    out.push(`  ${`${pkg}@${PACKAGES[pkg] ?? 'generated'}`.padEnd(24)} ${String(row.files).padStart(5)} files ${String(row.lines).padStart(8)} lines`);
  }
  const lines = files.reduce((n, f) => n + f.lines, 0);
  out.push(`  ${'total'.padEnd(24)} ${String(files.length).padStart(5)} files ${String(lines).padStart(8)} lines`);
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureCorpus();
  console.log(describeCorpus(await corpusFiles()));
  if (!(await exists(path.join(CORPUS_DIR, 'package.json')))) process.exitCode = 1;
}
