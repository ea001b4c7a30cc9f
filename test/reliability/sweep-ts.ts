// The TypeScript sweep: every rule over whole TypeScript code bases (listed with repository and
// commit in ts-corpora.json, kept outside the repository), untyped and then typed, with every
// autofix and suggestion applied and re-parsed. The corpora's own tsconfigs extend packages that
// are not installed, so each corpus gets a standalone tsconfig.json written next to its sources;
// imports of uninstalled packages stay unresolved (their types are `any`), and the report says how
// many imports did resolve. One worker process per corpus; exits 1 on a crash or a broken fix.
//   node --import tsx test/reliability/sweep-ts.ts [--dir /work/corpora] [--corpus name] [--workers N] [--untyped-only]
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import * as ts from 'typescript';
import type { SweepStats } from './corpus';
import {
  EXTENSIONS, countLines, emptyStats, formatStats, lintOne, mergeStats, noteSlow, packageProgram, repoRoot, runJsonChild, sweepFile,
} from './corpus';

export interface CorpusEntry {
  name: string;
  repository: string;
  commit: string;
  /** Folders of the repository that were extracted, relative to its root. */
  paths: string[];
  /** Extra compiler options for the standalone tsconfig (say, legacy decorators). */
  compilerOptions?: Record<string, unknown>;
  /** Map each workspace package's name to its `src/index.ts`, so cross-package imports resolve. */
  workspacePackages?: boolean;
}

export const MANIFEST: CorpusEntry[] = (
  JSON.parse(fs.readFileSync(path.join(__dirname, 'ts-corpora.json'), 'utf8')) as { corpora: CorpusEntry[] }
).corpora;

const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Where the corpora live: `ASYNC_HAZARDS_CORPORA`, else a `corpora` folder beside the repository. */
export function defaultCorporaDir(): string {
  return process.env.ASYNC_HAZARDS_CORPORA ?? path.resolve(repoRoot, '..', 'corpora');
}

/** Every lintable file under the corpus's extracted folders, sorted. */
export function corpusFiles(root: string, entry: CorpusEntry): string[] {
  const files: string[] = [];
  const visit = (dir: string): void => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name);
      if (item.isDirectory()) {
        if (!SKIPPED_DIRS.has(item.name)) visit(full);
      } else if (item.isFile() && EXTENSIONS.includes(path.extname(item.name))) {
        files.push(full);
      }
    }
  };
  for (const sub of entry.paths) visit(path.join(root, sub));
  return files.sort();
}

/** What to run to get a missing corpus, or undefined when every folder is there. */
export function missingCorpus(root: string, entry: CorpusEntry): string | undefined {
  const absent = entry.paths.filter((sub) => !fs.existsSync(path.join(root, sub)));
  if (absent.length === 0) return undefined;
  return [
    `corpus ${entry.name} is missing ${absent.join(', ')} under ${root}: get ${entry.repository} at ${entry.commit}, e.g.`,
    `  git clone https://github.com/${entry.repository} /tmp/${entry.name} && git -C /tmp/${entry.name} checkout ${entry.commit}`,
    `  mkdir -p ${root} && git -C /tmp/${entry.name} archive ${entry.commit} ${entry.paths.join(' ')} | tar -x -C ${root}`,
  ].join('\n');
}

/** `name` → `<dir>/src/index.ts` for every package.json of the corpus that has one, fixtures excluded. */
function workspacePaths(root: string, files: string[]): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const manifest of files.length > 0 ? packageJsons(root) : []) {
    const dir = path.dirname(manifest);
    const index = path.join(dir, 'src', 'index.ts');
    if (!fs.existsSync(index)) continue;
    const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
    if (name) paths[name] = [path.relative(root, index)];
  }
  return paths;
}

function packageJsons(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      if (item.isDirectory() && !SKIPPED_DIRS.has(item.name) && !/fixtures/i.test(item.name)) visit(path.join(dir, item.name));
      else if (item.isFile() && item.name === 'package.json') found.push(path.join(dir, item.name));
    }
  };
  visit(root);
  return found;
}

/**
 * Writes `<root>/tsconfig.json`: standalone (no `extends`), Node's types from this workspace,
 * resolution that accepts the `.ts`/`.js` specifiers and extensionless imports TypeScript code bases use.
 */
export function writeTsconfig(root: string, entry: CorpusEntry, files: string[]): void {
  const tsconfig = {
    compilerOptions: {
      target: 'es2022',
      lib: ['es2023', 'esnext.disposable', 'dom'],
      module: 'esnext',
      moduleResolution: 'bundler',
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      allowJs: true,
      checkJs: false,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      jsx: 'preserve',
      types: ['node'],
      typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
      ...(entry.workspacePackages ? { paths: workspacePaths(root, files) } : {}),
      ...entry.compilerOptions,
    },
    include: entry.paths.map((sub) => `${sub}/**/*`),
  };
  fs.writeFileSync(path.join(root, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

export interface ImportCoverage {
  files: number;
  /** Files in the program whose every import resolved to a file (or is a Node built-in). */
  fullyResolvedFiles: number;
  relative: { resolved: number; total: number };
  packages: { resolved: number; total: number };
}

const BUILTINS = new Set(builtinModules);

/** How much of the program got real types: its imports that resolve, relative and package ones apart. */
export function importCoverage(program: ts.Program, files: string[]): ImportCoverage {
  const options = program.getCompilerOptions();
  const cache = ts.createModuleResolutionCache(program.getCurrentDirectory(), (name) => name, options);
  const coverage: ImportCoverage = { files: 0, fullyResolvedFiles: 0, relative: { resolved: 0, total: 0 }, packages: { resolved: 0, total: 0 } };
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    coverage.files++;
    let all = true;
    for (const { fileName: specifier } of ts.preProcessFile(source.text, true, true).importedFiles) {
      const bucket = specifier.startsWith('.') ? coverage.relative : coverage.packages;
      bucket.total++;
      const builtin = BUILTINS.has(specifier.replace(/^node:/, ''));
      const resolved = builtin || ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule !== undefined;
      if (resolved) bucket.resolved++;
      else all = false;
    }
    if (all) coverage.fullyResolvedFiles++;
  }
  return coverage;
}

export interface CorpusResult {
  name: string;
  stats: SweepStats;
  coverage?: ImportCoverage;
  seconds: number;
}

function sweepCorpus(root: string, entry: CorpusEntry, typed: boolean): CorpusResult {
  const started = performance.now();
  const files = corpusFiles(root, entry);
  const stats = emptyStats();
  for (const [index, file] of files.entries()) {
    if ((index + 1) % 500 === 0) process.stderr.write(`${entry.name}: untyped ${index + 1}/${files.length}\n`);
    sweepFile(stats, file);
  }
  let coverage: ImportCoverage | undefined;
  if (typed) {
    writeTsconfig(root, entry, files);
    const program = packageProgram(root, files);
    coverage = importCoverage(program, files);
    // Only the typed lint here: the untyped pass above already counted each file and its lines.
    for (const [index, file] of files.entries()) {
      if ((index + 1) % 500 === 0) process.stderr.write(`${entry.name}: typed ${index + 1}/${files.length}\n`);
      if (!program.getSourceFile(file)) continue;
      const fileStarted = performance.now();
      const text = fs.readFileSync(file, 'utf8');
      stats.typedFiles++;
      lintOne(stats, file, text, program);
      noteSlow(stats, { file, ms: performance.now() - fileStarted, lines: countLines(text) });
    }
  }
  return { name: entry.name, stats, coverage, seconds: (performance.now() - started) / 1000 };
}

function runWorker(dir: string, name: string, typed: boolean): Promise<CorpusResult> {
  const args = ['--max-old-space-size=6144', '--import', 'tsx', __filename, '--dir', dir, '--worker', name, ...(typed ? [] : ['--untyped-only'])];
  return runJsonChild<CorpusResult>(args, `sweep of ${name}`);
}

function formatCoverage(coverage: ImportCoverage | undefined): string {
  if (!coverage) return 'untyped only';
  const { relative, packages } = coverage;
  return `${coverage.files} files in the program, ${coverage.fullyResolvedFiles} with every import resolved; relative imports resolved ${relative.resolved}/${relative.total}, package imports ${packages.resolved}/${packages.total}`;
}

/** Runs the wanted corpora in `workers` child processes and prints the totals. */
async function sweepAll(dir: string, wanted: CorpusEntry[], typed: boolean, workerCount: number): Promise<void> {
  const started = Date.now();
  const queue = [...wanted];
  const results: CorpusResult[] = [];
  const workers = Math.max(1, Math.min(workerCount, queue.length));
  // A small fixed number of workers pulling from the queue: each holds a whole program in memory.
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) results.push(await runWorker(dir, entry.name, typed));
    }),
  );
  const total = emptyStats();
  for (const result of results.sort((a, b) => a.name.localeCompare(b.name))) {
    const { stats } = result;
    process.stdout.write(`${result.name}: ${stats.files} files, ${stats.lines} lines, ${stats.typedFiles} typed, ${stats.crashes.length} crashes, ${stats.fixFailures.length} broken fixes, ${result.seconds.toFixed(0)} s; types: ${formatCoverage(result.coverage)}\n`);
    mergeStats(total, stats);
  }
  process.stdout.write(`${formatStats(total, (Date.now() - started) / 1000)}\n`);
  process.exitCode = total.crashes.length > 0 || total.fixFailures.length > 0 ? 1 : 0;
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: defaultCorporaDir() },
      corpus: { type: 'string', multiple: true },
      worker: { type: 'string' },
      workers: { type: 'string', default: '1' },
      'untyped-only': { type: 'boolean', default: false },
    },
  });
  const typed = !values['untyped-only'];
  const wanted = MANIFEST.filter((e) => !values.corpus || values.corpus.includes(e.name));
  const missing = wanted.flatMap((e) => missingCorpus(path.join(values.dir, e.name), e) ?? []);
  if (values.worker) {
    // A worker: one corpus, its result as JSON on stdout.
    const entry = MANIFEST.find((e) => e.name === values.worker);
    if (!entry) throw new Error(`no corpus ${values.worker} in ts-corpora.json`);
    process.stdout.write(JSON.stringify(sweepCorpus(path.join(values.dir, entry.name), entry, typed)));
  } else if (missing.length > 0) {
    process.stderr.write(`${missing.join('\n')}\n`);
    process.exitCode = 2;
  } else {
    void sweepAll(values.dir, wanted, typed, Number(values.workers));
  }
}
