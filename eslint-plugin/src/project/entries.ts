import * as path from 'node:path';
import { currentEpoch, isFile, listDirectory, readText } from './fileSystem';
import { Lru } from './lru';
import type { PackageFacts } from './packages';
import { isRecord, nearestPackage, parseJson } from './packages';
import { bareName, resolveImport } from './resolve';

/**
 * How a package's files are started: which run as one-shot processes (a `bin` or `scripts`
 * command, a test runner's setup file, a migration or seed tool's files, a shebang or
 * `require.main === module` script, a test) and which a long-lived entry reaches (a server's
 * start script, the package's `main`, any file nothing in the package imports).
 *
 * Configs are read as text or JSON, never executed. The package's own files are listed once,
 * bounded (`MAX_PACKAGE_FILES`, skipping `node_modules`, dot folders, build output and nested
 * packages), and each is scanned for the modules it names with a pattern rather than parsed: an
 * import graph of the whole package for the price of reading it. Imports that the scan cannot see
 * (computed `require(x)`) leave a file unreached, and an unreached file counts as a long-lived
 * entry: missing edges only ever make code long-lived.
 */
export type EntryReach =
  /** Reached only from one-shot entries; `reason` says which, in words. */
  | { kind: 'one-shot'; reason: string }
  /** A long-lived entry reaches it; `entry` when it is one itself (nothing imports it, or a start script or `main` names it). */
  | { kind: 'long-lived'; reason: string; entry: boolean }
  /** No package, or the file is not among the package files listed. */
  | { kind: 'unknown' };

/** Files listed per package at most; a bigger package is judged by each file's own evidence only. */
export const MAX_PACKAGE_FILES = 5000;
/** How long a package's graph is trusted when nothing was overlaid or invalidated since. */
const GRAPH_TTL_MS = 30_000;

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', 'out', 'coverage', 'lib-cov']);
/** Folders whose files are one-shot when they sit at a package root and no long-lived entry reaches them. */
const ONE_SHOT_FOLDERS: ReadonlySet<string> = new Set(['scripts', 'migrations', 'seeds', 'seeders', 'bin']);
/** Folders of a test suite: reach from a test file goes only into these (tests also import the code they test). */
const TEST_FOLDERS: ReadonlySet<string> = new Set(['test', 'tests', '__tests__', '__mocks__', '__fixtures__', 'fixtures', 'spec', 'e2e', 'testing']);

/** A test file by its name: `*.test.*`, `*.spec.*`, or anything under `__tests__/`. */
export function isTestFile(file: string): boolean {
  return /\.(?:test|spec)\.[cm]?[jt]sx?$/i.test(file) || file.split(/[\\/]/).includes('__tests__');
}

const TOOL_CONFIG = /^[\w-]+(?:\.[\w-]+)*\.config\.[cm]?[jt]s$/;
/** Top-level folders of a package whose files are tests when a script runs a test runner. */
const TEST_ROOT_FOLDERS: ReadonlySet<string> = new Set(['test', 'tests', 'spec', 'e2e']);
const TEST_RUNNER = /(?:^|[\s;&|/])(jest|vitest|mocha|ava|tap|uvu|node\s+(?:[^;&|]*\s)?--test)(?=\s|$|[;&|])/;

/** The test runner a package's scripts run (`jest`, `vitest`, `node --test`, …), or null. */
function testRunnerOf(scripts: Readonly<Record<string, string>>): string | null {
  for (const command of Object.values(scripts)) {
    const m = TEST_RUNNER.exec(command);
    if (m) return `\`${(m[1] ?? '').startsWith('node') ? 'node --test' : m[1]}\``;
  }
  return null;
}

/** `#!/usr/bin/env node` on the first line. */
export function hasShebang(text: string): boolean {
  return text.startsWith('#!');
}

/** `if (require.main === module)`, `import.meta.main`: the file runs itself when it is the entry. */
export function hasMainGuard(text: string): boolean {
  return /\brequire\.main\s*===?\s*module\b|\bmodule\s*===?\s*require\.main\b|\bimport\.meta\.main\b/.test(text);
}

/** What the package graph says about `file` (absolute path). */
export function entryReach(file: string): EntryReach {
  if (!path.isAbsolute(file)) return { kind: 'unknown' };
  const facts = nearestPackage(file);
  if (facts.manifest === null) return { kind: 'unknown' };
  const graph = packageGraph(facts);
  return graph.reach.get(path.resolve(file)) ?? { kind: 'unknown' };
}

/**
 * Does the package nearest `file` have a library entry (`main`, `module`, `exports`) other than
 * its `bin` commands? Then its code also runs inside whatever process loads it.
 */
export function isLibraryPackage(file: string): boolean {
  const facts = nearestPackage(file);
  if (facts.manifest === null) return false;
  const root = path.dirname(facts.manifest);
  const bins = new Set(Object.values(facts.bin).map((t) => path.resolve(root, t)));
  return mainTargets(parseJson(readText(facts.manifest))).some((t) => !bins.has(path.resolve(root, t)));
}

/**
 * The files of `file`'s package that import it (or start it by path), from the same scan as
 * `entryReach`. Null when that is not known: no package, a file not listed, a package too big to
 * list whole (an unlisted file may import it too).
 */
export function packageImporters(file: string): readonly string[] | null {
  if (!path.isAbsolute(file)) return null;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return null;
  const graph = packageGraph(facts);
  const resolved = path.resolve(file);
  if (graph.truncated || !graph.reach.has(resolved)) return null;
  return graph.importers.get(resolved) ?? [];
}

/** Every file of `file`'s package (its listing, sorted); null when the package cannot be listed whole. */
export function packageFiles(file: string): readonly string[] | null {
  if (!path.isAbsolute(file)) return null;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return null;
  const graph = packageGraph(facts);
  if (graph.truncated) return null;
  graph.sortedFiles ??= [...graph.reach.keys()].sort();
  return graph.sortedFiles;
}

/**
 * The files of `file`'s package that may load it by convention: a computed `import()` or
 * `require()` whose path ends in a fixed file name (`path.resolve(module.path, 'bootstrap.js')`,
 * `` `${dir}/routes.js` ``) that `file`'s path ends with. From the same scan as `entryReach`, so the
 * same whichever file is linted first; analysis reads each loader's tree to bind the call. Empty
 * when none does, or when a name matches more than `MAX_CONVENTION_FILES` files (a loader that
 * general says nothing about one of them); null when the package cannot be listed whole.
 */
export function conventionLoaders(file: string): readonly string[] | null {
  if (!path.isAbsolute(file)) return null;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return null;
  const graph = packageGraph(facts);
  if (graph.truncated) return null;
  return graph.conventionLoaders.get(path.resolve(file)) ?? [];
}

/** A fixed name loaded by convention binds at most this many files of the package. */
export const MAX_CONVENTION_FILES = 64;

/** `routes/index.js` names `a/routes/index.js` and its TypeScript source `a/routes/index.ts`. */
export function endsWithLoadedName(file: string, name: string): boolean {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const fileExt = path.extname(file);
  const fileStem = file.slice(0, file.length - fileExt.length).split(path.sep).join('/');
  if (fileStem !== stem && !fileStem.endsWith(`/${stem}`)) return false;
  return fileExt === ext || (SOURCE_TWINS.get(ext) ?? []).includes(fileExt);
}

/** Build output's extension → the source extensions it is compiled from. */
const SOURCE_TWINS: ReadonlyMap<string, readonly string[]> = new Map([
  ['.js', ['.ts', '.tsx', '.jsx']],
  ['.mjs', ['.mts']],
  ['.cjs', ['.cts']],
]);

interface PackageGraph {
  reach: ReadonlyMap<string, EntryReach>;
  /** Start-script and `main`/`exports` targets: the files a long-lived process of the package starts from. */
  processEntries: ReadonlyMap<string, string>;
  edges: ReadonlyMap<string, readonly string[]>;
  /** Files whose text names a process-wide error event (`unhandledRejection`, `uncaughtException`). */
  handlerFiles: ReadonlySet<string>;
  /** Each process entry's reach, filled on first question. */
  entryReach: Map<string, ReadonlySet<string>>;
  importers: ReadonlyMap<string, readonly string[]>;
  /** Files only development processes run (see `isDevelopmentOnly`). */
  developmentOnly: ReadonlySet<string>;
  /** Loaded file → the files that may load it by a computed import of its fixed name. */
  conventionLoaders: ReadonlyMap<string, readonly string[]>;
  truncated: boolean;
  /** `reach`'s files, sorted, made at the first ask. */
  sortedFiles?: string[];
}

/** A long-lived process of the package: the file it starts from, why, and the files it reaches that name a process-wide error event. */
export interface ProcessEntry {
  entry: string;
  reason: string;
  handlerFiles: readonly string[];
}

/**
 * The long-lived processes that run `file`: each start script or `main`/`exports` target whose
 * imports reach it, or every one of them when none does (a plugin or command folder the package
 * loads by computed `require`, which the scan cannot see). Each comes with the files in its reach
 * whose text names `unhandledRejection` or `uncaughtException`, for analysis to read. Null when
 * that cannot be told: no package, a package too big to list whole, or no such entry.
 */
export function processEntriesOf(file: string): readonly ProcessEntry[] | null {
  if (!path.isAbsolute(file)) return null;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return null;
  const graph = packageGraph(facts);
  if (graph.truncated || graph.processEntries.size === 0) return null;
  const target = path.resolve(file);
  const all = [...graph.processEntries.keys()];
  const running = all.filter((entry) => reachOfEntry(graph, entry).has(target));
  return (running.length > 0 ? running : all).map((entry) => ({
    entry,
    reason: graph.processEntries.get(entry) as string,
    handlerFiles: [...reachOfEntry(graph, entry)].filter((f) => graph.handlerFiles.has(f)).sort(),
  }));
}

function reachOfEntry(graph: PackageGraph, entry: string): ReadonlySet<string> {
  let reached = graph.entryReach.get(entry);
  if (!reached) graph.entryReach.set(entry, (reached = spread([entry], graph.edges, () => true)));
  return reached;
}

const graphs = new Lru<string, { epoch: number; at: number; graph: PackageGraph }>(64);

function packageGraph(facts: PackageFacts): PackageGraph {
  const manifest = facts.manifest as string;
  const hit = graphs.get(manifest);
  const now = Date.now();
  if (hit && hit.epoch === currentEpoch() && now - hit.at < GRAPH_TTL_MS) return hit.graph;
  const graph = buildGraph(facts, path.dirname(manifest));
  graphs.set(manifest, { epoch: currentEpoch(), at: now, graph });
  return graph;
}

function buildGraph(facts: PackageFacts, root: string): PackageGraph {
  const { files, truncated } = listPackageFiles(root);
  const known = new Set(files);
  const scans = new Map(files.map((f) => [f, scanFile(f)]));
  const oneShot = new Map<string, string>();
  const addOneShot = (file: string | null, reason: string): void => {
    if (file !== null && known.has(file) && !oneShot.has(file)) oneShot.set(file, reason);
  };
  const longLived = new Map<string, string>();
  const addLongLived = (file: string | null, reason: string): void => {
    if (file !== null && known.has(file) && !longLived.has(file)) longLived.set(file, reason);
  };
  const processEntries = new Map<string, string>();

  for (const [name, target] of Object.entries(facts.bin)) addOneShot(sourceOf(root, target, known), `the package's \`bin\` command \`${name}\``);
  const development: { file: string | null; reason: string }[] = [];
  for (const [name, command] of Object.entries(facts.scripts)) {
    const serving = isServingScript(name, command);
    const developing = serving && isDevelopmentScript(name, command);
    for (const target of runTargets(facts.scripts, command)) {
      const file = sourceOf(root, target, known);
      if (developing) development.push({ file, reason: `the \`${name}\` script, a development process beside the package's production entry` });
      else if (serving) {
        addLongLived(file, `the \`${name}\` script starts a long-running process`);
        if (file !== null && !processEntries.has(file)) processEntries.set(file, `the \`${name}\` script`);
      } else addOneShot(file, `the package.json script \`${name}\``);
    }
  }
  const manifestJson = parseJson(readText(path.join(root, 'package.json')));
  for (const target of mainTargets(manifestJson)) {
    // A CLI's `main` is often its `bin` file: it stays the command.
    const file = sourceOf(root, target, known);
    if (file !== null && !oneShot.has(file)) {
      addLongLived(file, "the package's `main` or `exports`");
      if (!processEntries.has(file)) processEntries.set(file, "the package's `main` or `exports`");
    }
  }
  // A dev server or watcher serves one developer; what only it reaches (a file watcher, a
  // recompiler) never runs in production. Without a production entry the dev script is how the
  // package runs, so it stays long-lived.
  const production = longLived.size > 0;
  for (const { file, reason } of development) {
    if (production) addOneShot(file, reason);
    else addLongLived(file, reason.replace(/, a development process.*$/, ' starts a long-running process'));
  }
  for (const { file, reason } of configuredOneShotFiles(root, manifestJson, files)) addOneShot(file, reason);
  const runner = testRunnerOf(facts.scripts);
  const testRoots = new Set<string>();
  for (const file of files) {
    const scan = scans.get(file) as FileScan;
    const first = path.relative(root, file).split(path.sep)[0] ?? '';
    if (isTestFile(file)) {
      testRoots.add(file);
      addOneShot(file, 'a test file');
    } else if (runner !== null && TEST_ROOT_FOLDERS.has(first)) {
      testRoots.add(file);
      addOneShot(file, `in the package's \`${first}/\` folder, which its scripts test with ${runner}`);
    }
    if (scan.shebang) addOneShot(file, 'a script with a shebang');
    else if (scan.bundlerHook) addOneShot(file, 'a bundler loader or plugin: the bundler runs it while it builds');
    else if (scan.mainGuard) addOneShot(file, 'a script that runs itself (`require.main === module` or `import.meta.main`)');
    if (ONE_SHOT_FOLDERS.has(first) && path.relative(root, file).includes(path.sep)) addOneShot(file, `in the package's \`${first}/\` folder`);
    // `next.config.js`, `vite.config.ts`: a tool evaluates them once as it starts, before any work.
    if (path.dirname(file) === root && TOOL_CONFIG.test(first)) addOneShot(file, `a tool's config file (\`${first}\`)`);
  }

  const edges = new Map<string, string[]>();
  const importers = new Map<string, string[]>();
  for (const file of files) {
    const targets = resolveScanned(file, (scans.get(file) as FileScan).specifiers, known, facts);
    edges.set(file, targets);
    for (const t of new Set(targets)) {
      if (t === file) continue;
      const list = importers.get(t);
      if (list) list.push(file);
      else importers.set(t, [file]);
    }
  }
  const imported = new Set(importers.keys());
  // Anything nothing in the package imports and no one-shot command starts is an entry of its own:
  // a server, a library's module, a framework's page. Unseen as one-shot, so long-lived.
  for (const file of files) if (!imported.has(file) && !oneShot.has(file)) addLongLived(file, 'nothing in the package imports it');

  const fromLongLived = spread([...longLived.keys()], edges, () => true);
  const reach = new Map<string, EntryReach>();
  for (const file of files) if (fromLongLived.has(file)) reach.set(file, { kind: 'long-lived', reason: longLived.get(file) ?? 'a long-lived entry imports it', entry: longLived.has(file) });
  // A big package is only partly listed: an unlisted file may import anything, so reach proves nothing.
  for (const [rootFile, reason] of oneShot) {
    if (reach.has(rootFile)) continue;
    reach.set(rootFile, { kind: 'one-shot', reason });
    if (truncated) continue;
    const fromTest = testRoots.has(rootFile);
    const reached = spread([rootFile], edges, (f) => !fromTest || inTestFolder(root, f));
    for (const file of reached) if (!reach.has(file)) reach.set(file, { kind: 'one-shot', reason: `imported only from one-shot code (${reason})` });
  }
  for (const file of files) if (!reach.has(file)) reach.set(file, { kind: 'long-lived', reason: 'a long-lived entry imports it', entry: false });
  const handlerFiles = new Set(files.filter((f) => (scans.get(f) as FileScan).processHandler));
  const developmentOnly = production && !truncated
    ? developmentReach(development.flatMap((d) => (d.file === null ? [] : [d.file])), edges, importers, fromLongLived)
    : new Set<string>();
  return { reach, processEntries, edges, handlerFiles, entryReach: new Map(), importers, developmentOnly, conventionLoaders: conventionEdges(files, scans), truncated };
}

/**
 * The files only development processes run: the targets of the package's dev scripts that no
 * production entry reaches, and what they reach whose every importer is such a file. A `bin`
 * command that also starts a dev target starts the same development process; a test or a
 * production module importing a file keeps it out.
 */
function developmentReach(
  targets: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
  importers: ReadonlyMap<string, readonly string[]>,
  production: ReadonlySet<string>,
): Set<string> {
  const roots = new Set(targets.filter((f) => !production.has(f)));
  const only = spread([...roots], edges, (f) => !production.has(f));
  for (let changed = true; changed;) {
    changed = false;
    for (const file of only) {
      if (roots.has(file) || (importers.get(file) ?? []).every((i) => only.has(i))) continue;
      only.delete(file);
      changed = true;
    }
  }
  return only;
}

/** A file of a test suite: a test by its name, or any file in a test folder of its package (`test/fixtures/fake-store.ts`). */
export function isTestSuiteFile(file: string): boolean {
  if (isTestFile(file)) return true;
  const facts = nearestPackage(file);
  return facts.manifest !== null && inTestFolder(path.dirname(facts.manifest), path.resolve(file));
}

/**
 * The files of `file`'s package whose text has `word` as a whole word, sorted; null when the
 * package cannot be listed whole (no package, too many files). A text search: what a name could be
 * used by, for a caller to read further.
 */
export function packageFilesNaming(file: string, word: string): readonly string[] | null {
  if (!path.isAbsolute(file)) return null;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return null;
  const graph = packageGraph(facts);
  if (graph.truncated) return null;
  const pattern = new RegExp(`(?<![\\w$])${word.replace(/\$/g, '\\$')}(?![\\w$])`);
  return [...graph.reach.keys()].filter((f) => pattern.test(readText(f) ?? '')).sort();
}

/**
 * Does only a development process run `file`: a dev script's target beside a production entry,
 * or a file reached only from such (a watcher, a recompiler)? False when not known.
 */
export function isDevelopmentOnly(file: string): boolean {
  if (!path.isAbsolute(file)) return false;
  const facts = nearestPackage(file);
  if (facts.manifest === null) return false;
  return packageGraph(facts).developmentOnly.has(path.resolve(file));
}

function conventionEdges(files: readonly string[], scans: ReadonlyMap<string, FileScan>): Map<string, string[]> {
  const loaders = new Map<string, string[]>();
  const matchesOf = new Map<string, string[]>();
  for (const loader of files) {
    for (const name of (scans.get(loader) as FileScan).loadedNames) {
      let matches = matchesOf.get(name);
      if (!matches) matchesOf.set(name, (matches = files.filter((f) => endsWithLoadedName(f, name))));
      if (matches.length > MAX_CONVENTION_FILES) continue;
      for (const loaded of matches) {
        if (loaded === loader) continue;
        const list = loaders.get(loaded);
        if (!list) loaders.set(loaded, [loader]);
        else if (!list.includes(loader)) list.push(loader);
      }
    }
  }
  return loaders;
}

function spread(starts: readonly string[], edges: ReadonlyMap<string, readonly string[]>, may: (file: string) => boolean): Set<string> {
  const seen = new Set<string>(starts);
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    for (const next of edges.get(file) ?? []) {
      if (seen.has(next) || !may(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

function inTestFolder(root: string, file: string): boolean {
  return isTestFile(file) || path.relative(root, file).split(path.sep).slice(0, -1).some((part) => TEST_FOLDERS.has(part));
}

function listPackageFiles(root: string): { files: string[]; truncated: boolean } {
  const files: string[] = [];
  const dirs = [root];
  while (dirs.length > 0) {
    const dir = dirs.shift() as string;
    const listing = listDirectory(dir);
    // A nested package.json starts another package, with its own entries.
    if (dir !== root && listing.files.includes('package.json')) continue;
    for (const name of listing.files) {
      if (!SOURCE.test(name) || name.endsWith('.d.ts')) continue;
      if (files.length >= MAX_PACKAGE_FILES) return { files, truncated: true };
      files.push(path.join(dir, name));
    }
    // Build output sits at the package root; a `build/` folder deeper down is source (`test/build/`).
    for (const name of listing.dirs) {
      if (name.startsWith('.') || name === 'node_modules' || (dir === root && SKIPPED_DIRS.has(name))) continue;
      dirs.push(path.join(dir, name));
    }
  }
  return { files, truncated: false };
}

interface FileScan {
  shebang: boolean;
  mainGuard: boolean;
  /** A webpack loader (`this.cacheable()`, `this.getOptions()`) or plugin (`apply(compiler)` tapping `compiler.hooks`). */
  bundlerHook: boolean;
  specifiers: string[];
  /** Names a process-wide error event: it may install a handler for it. */
  processHandler: boolean;
  /** Fixed file names it may load by a computed `import()`/`require()` (`bootstrap.js`, `routes/index.js`). */
  loadedNames: string[];
}

const scanCache = new Lru<string, { text: string; scan: FileScan }>(20_000);

/** Module names in `import`/`export … from`, `require('…')` and `import('…')`; `import type` runs nothing. */
const SPECIFIER = /\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"\n]+)['"]|\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)|\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

const PROCESS_EVENT = /['"`](?:unhandledRejection|uncaughtException)['"`]/;

/**
 * A source file named by path next to the module, to start it: `fork(path.join(__dirname, 'worker.js'))`,
 * `new Worker(new URL('./task.js', import.meta.url))`, a child process's script. Not an import, but
 * the file runs because this one does.
 */
const PATH_REFERENCE = /\b(?:resolve|join)\s*\(\s*__dirname\s*,\s*['"]([^'"\n]+\.[cm]?[jt]sx?)['"]\s*\)|\bnew\s+URL\s*\(\s*['"](\.{1,2}\/[^'"\n]+\.[cm]?[jt]sx?)['"]\s*,\s*import\.meta\.url\s*\)/g;

/** An `import(…)`/`require(…)` whose argument is not a string literal. */
const COMPUTED_LOAD = /\bimport\s*\(\s*(?!['"\s])|\brequire\s*\(\s*(?!['"\s])/;
/** `join(dir, 'bootstrap.js')`, `resolve(module.path, 'routes', 'index.js')`: a variable folder, then fixed names. */
const JOINED_NAME = /\b(?:join|resolve)\s*\(\s*([\w$.]+(?:\s*,\s*[\w$.]+)*)((?:\s*,\s*['"][\w.@-]+(?:\/[\w.@-]+)*['"])+)\s*\)/g;
/** `` `${dir}/routes.js` `` */
const TEMPLATE_NAME = /`\$\{\s*([\w$.]+)\s*\}((?:\/[\w.@-]+)+)`/g;
const SCRIPT_NAME = /\.[cm]?[jt]sx?$/;
/** A folder that is the module's own: `join(__dirname, 'worker.js')` names one file, not a convention. */
const OWN_FOLDER = /^(?:__dirname|import\.meta\.dirname)$/;

/** A fixed name a convention loader may load (`./routes/index.js` → `routes/index.js`): a script, never above its folder; else null. */
export function conventionName(text: string): string | null {
  const name = text.replace(/^\.?\/+/, '');
  return SCRIPT_NAME.test(name) && !name.split('/').includes('..') ? name : null;
}

/** The fixed file names `text` may load by convention (see `conventionLoaders`). */
function loadedNamesIn(text: string): string[] {
  if (!COMPUTED_LOAD.test(text)) return [];
  const names = new Set<string>();
  const add = (folder: string, name: string): void => {
    const script = conventionName(name);
    if (script !== null && !OWN_FOLDER.test(folder.trim())) names.add(script);
  };
  for (const m of text.matchAll(JOINED_NAME)) {
    const folders = (m[1] ?? '').split(',');
    const parts = [...(m[2] ?? '').matchAll(/['"]([^'"]+)['"]/g)].map((p) => p[1] as string);
    add(folders[folders.length - 1] ?? '', parts.join('/'));
  }
  for (const m of text.matchAll(TEMPLATE_NAME)) add(m[1] ?? '', m[2] ?? '');
  return [...names];
}

function scanFile(file: string): FileScan {
  const text = readText(file) ?? '';
  const hit = scanCache.get(file);
  if (hit && hit.text === text) return hit.scan;
  const specifiers: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    if (m[1]) continue;
    const specifier = m[2] ?? m[3] ?? m[4];
    if (specifier) specifiers.push(specifier);
  }
  for (const m of text.matchAll(PATH_REFERENCE)) {
    const named = m[1] ?? m[2];
    if (named) specifiers.push(named.startsWith('.') ? named : `./${named}`);
  }
  const scan = { shebang: hasShebang(text), mainGuard: hasMainGuard(text), bundlerHook: isBundlerHook(text), specifiers, processHandler: PROCESS_EVENT.test(text), loadedNames: loadedNamesIn(text) };
  scanCache.set(file, { text, scan });
  return scan;
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

function resolveScanned(file: string, specifiers: readonly string[], known: ReadonlySet<string>, facts: PackageFacts): string[] {
  const out: string[] = [];
  for (const specifier of specifiers) {
    let target: string | null = null;
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      target = localFile(path.resolve(path.dirname(file), specifier), known);
    } else {
      // A tsconfig alias (`@/db`, `~/lib`) names no declared package: the resolver knows where it goes.
      const name = bareName(specifier);
      if (name !== null && facts.ranges.has(name)) continue;
      const resolution = resolveImport(file, specifier);
      if (resolution.kind === 'file' && resolution.local && known.has(resolution.path)) target = resolution.path;
    }
    if (target !== null) out.push(target);
  }
  return out;
}

/** The listed file a path names, the way Node and TypeScript look: as is, with an extension, `index`, `.js` for `.ts`. */
function localFile(base: string, known: ReadonlySet<string>): string | null {
  if (known.has(base)) return base;
  const stem = base.replace(/\.[cm]?jsx?$/i, '');
  for (const ext of EXTENSIONS) if (known.has(stem + ext)) return stem + ext;
  for (const ext of EXTENSIONS) if (known.has(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  return null;
}

/** A manifest's path to a file, or its TypeScript source when it names build output (`dist/cli.js` → `src/cli.ts`). */
function sourceOf(root: string, target: string, known: ReadonlySet<string>): string | null {
  const direct = localFile(path.resolve(root, target), known);
  if (direct) return direct;
  const relative = path.relative(root, path.resolve(root, target)).split(path.sep);
  if (relative.length > 1 && ['dist', 'build', 'lib', 'out'].includes(relative[0] ?? '')) {
    return localFile(path.join(root, 'src', ...relative.slice(1)), known);
  }
  return null;
}

/**
 * The loader context webpack calls a loader with, or a plugin's `apply(compiler)` tapping the
 * compiler's hooks: code the bundler runs at build time (and a dev server while it rebuilds).
 */
export function isBundlerHook(text: string): boolean {
  return /\bthis\.(?:cacheable|getOptions|addDependency|addContextDependency)\s*\(/.test(text) ||
    (/\bapply\s*\(\s*compiler\b/.test(text) && /\bcompiler\.hooks\./.test(text));
}

/** npm's names for running the package itself, and watchers that keep a process up. */
const SERVING_SCRIPT = /^(?:start|serve|server|dev|develop|prod|production|preview|watch)(?::.*)?$/;
const WATCHERS = /(?:^|\s)(?:nodemon|ts-node-dev|node-dev|pm2|forever|tsx\s+watch)(?:\s|$)|\s--watch\b/;

/** Does the script start a process meant to keep running (a server, a watcher)? Judged by npm's conventions. */
export function isServingScript(name: string, command: string): boolean {
  return SERVING_SCRIPT.test(name) || WATCHERS.test(command);
}

const DEVELOPMENT_NAME = /^(?:dev|develop|development|watch)$/;
const PRODUCTION_NAME = /^(?:start|serve|server|prod|production|preview)$/;
const DEV_WATCHERS = /(?:^|\s)(?:nodemon|ts-node-dev|node-dev|tsx\s+watch)(?:\s|$)|\s--watch\b/;

/**
 * Is a serving script a developer's loop rather than production: `dev`, `watch`, `start:dev`, or a
 * restart-on-change watcher (nodemon, `tsx watch`, `--watch`; not pm2 or forever)?
 */
export function isDevelopmentScript(name: string, command: string): boolean {
  const parts = name.split(':');
  if (parts.some((part) => DEVELOPMENT_NAME.test(part))) return true;
  // `start` is what npm and hosts run in production, with or without a watcher.
  return !PRODUCTION_NAME.test(parts[0] ?? '') && DEV_WATCHERS.test(command);
}

/** Programs that run the file named after their options. */
const RUNNERS: ReadonlySet<string> = new Set([
  'node', 'nodejs', 'tsx', 'ts-node', 'ts-node-esm', 'ts-node-script', 'ts-node-transpile-only', 'babel-node', 'bun',
  'esno', 'esr', 'vite-node', 'jiti', 'sucrase-node', 'swc-node', 'nodemon', 'ts-node-dev', 'node-dev', 'deno',
]);
/** Programs that run the rest of the command line. */
const WRAPPERS: ReadonlySet<string> = new Set(['cross-env', 'env', 'npx', 'pnpx', 'bunx', 'dotenv', 'time', 'nice', 'exec']);
/** Runner options followed by a value. */
const VALUE_FLAGS: ReadonlySet<string> = new Set([
  '-r', '--require', '--loader', '--experimental-loader', '--import', '-C', '--conditions', '--env-file', '-P', '--project',
  '-e', '--eval', '-p', '--print', '--tsconfig', '-O', '--compiler-options', '--inspect-port', '--title',
]);

/**
 * The files a package.json command runs with a JavaScript runtime: `node x.js`, `tsx src/y.ts`,
 * `cross-env A=1 ts-node -r dotenv/config z.ts`, `./bin/run.js`, each part of `a && b`. Paths as
 * written, relative to the package.
 */
export function scriptTargets(command: string): string[] {
  const targets: string[] = [];
  for (const part of command.split(/&&|\|\||[;|&]/)) {
    const words = tokens(part);
    let i = 0;
    for (;;) {
      const word = words[i];
      if (word === undefined) break;
      // `NODE_ENV=test`, wrapper programs and their options, `pnpm exec`, `yarn node`, `npm exec --`.
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || WRAPPERS.has(word) || word === '--' ||
        ((word === 'pnpm' || word === 'yarn' || word === 'npm') && (words[i + 1] === 'exec' || words[i + 1] === 'node'))) {
        i += (word === 'pnpm' || word === 'yarn' || word === 'npm') && words[i + 1] === 'exec' ? 2 : 1;
        continue;
      }
      if (word.startsWith('-') && i > 0) {
        i += VALUE_FLAGS.has(word) ? 2 : 1;
        continue;
      }
      break;
    }
    const program = words[i];
    if (program === undefined) continue;
    if (/^\.{0,2}\/.*\.[cm]?[jt]sx?$/.test(program)) {
      targets.push(program);
      continue;
    }
    if (!RUNNERS.has(path.basename(program))) continue;
    for (let j = i + 1; j < words.length; j++) {
      const word = words[j] as string;
      if (word.startsWith('-')) {
        if (VALUE_FLAGS.has(word)) j++;
        continue;
      }
      if (word === 'watch' || word === 'run') continue;
      targets.push(word);
      break;
    }
  }
  return targets;
}

/**
 * The files a script runs, also through the scripts it runs by name: `start` as
 * `npm run start-server` runs what `start-server` names (`node server/server.js`). Followed a few
 * levels, each script once.
 */
function runTargets(scripts: Readonly<Record<string, string>>, command: string, seen = new Set<string>()): string[] {
  const targets = scriptTargets(command);
  if (seen.size >= 4) return targets;
  for (const name of scriptsRun(command)) {
    const next = Object.hasOwn(scripts, name) ? scripts[name] : undefined;
    if (next === undefined || seen.has(name)) continue;
    seen.add(name);
    targets.push(...runTargets(scripts, next, seen));
  }
  return targets;
}

/** `npm run x`, `npm run-script x`, `yarn x`, `yarn run x`, `pnpm x`, `pnpm run x`, `bun run x`: the scripts a command runs by name. */
export function scriptsRun(command: string): string[] {
  const names: string[] = [];
  for (const part of command.split(/&&|\|\||[;|&]/)) {
    const words = tokens(part);
    // Past `NODE_ENV=production` and `cross-env`, up to the package manager.
    const at = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !WRAPPERS.has(w));
    const [tool, verb, name] = at < 0 ? [] : words.slice(at);
    if (tool === undefined || !PACKAGE_MANAGERS.has(tool) || verb === undefined) continue;
    if (verb === 'run' || verb === 'run-script') {
      if (name !== undefined && !name.startsWith('-')) names.push(name);
    } else if (verb === 'start' || (tool !== 'npm' && !verb.startsWith('-') && !PACKAGE_MANAGER_COMMANDS.has(verb))) {
      names.push(verb);
    }
  }
  return names;
}

const PACKAGE_MANAGERS: ReadonlySet<string> = new Set(['npm', 'yarn', 'pnpm', 'bun']);
/** Package-manager commands that are not a script's name (`yarn build` runs the `build` script). */
const PACKAGE_MANAGER_COMMANDS: ReadonlySet<string> = new Set([
  'add', 'install', 'i', 'remove', 'rm', 'exec', 'dlx', 'node', 'x', 'create', 'init', 'link', 'publish', 'test', 'workspace', 'workspaces',
]);

function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** `main`, `module` and the string targets of `exports`: what a library's users load. */
function mainTargets(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const out: string[] = [];
  for (const field of ['main', 'module']) if (typeof json[field] === 'string') out.push(json[field] as string);
  const collect = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isRecord(value)) Object.values(value).forEach(collect);
  };
  collect(json['exports']);
  return out.filter((t) => !t.includes('*'));
}

const TEST_SETUP_KEYS = ['setupFiles', 'setupFilesAfterEnv', 'setupFilesAfterEach', 'globalSetup', 'globalTeardown'];
const MOCHA_KEYS = ['require', 'file'];

/**
 * One-shot files that configs name: test runners' setup files (jest, vitest/vite, mocha), knex's
 * migration and seed directories, sequelize's `.sequelizerc` paths, typeorm's `migrations` globs,
 * prisma's seed command.
 */
function configuredOneShotFiles(root: string, manifest: unknown, files: readonly string[]): { file: string; reason: string }[] {
  const known = new Set(files);
  const out: { file: string; reason: string }[] = [];
  const add = (value: string, base: string, reason: string): void => {
    const file = localFile(path.resolve(base, value.replace(/^<rootDir>[\\/]?/, '')), known);
    if (file) out.push({ file, reason });
  };
  const addDir = (dir: string, reason: string): void => {
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const file of files) if (file.startsWith(prefix)) out.push({ file, reason });
  };
  if (isRecord(manifest)) {
    for (const [field, keys] of [['jest', TEST_SETUP_KEYS], ['mocha', MOCHA_KEYS]] as const) {
      const block = manifest[field];
      if (!isRecord(block)) continue;
      for (const key of keys) for (const value of strings(block[key])) add(value, root, `${field}'s \`${key}\` in package.json`);
    }
    const prisma = manifest['prisma'];
    if (isRecord(prisma) && typeof prisma['seed'] === 'string') {
      for (const target of scriptTargets(prisma['seed'])) add(target, root, "prisma's seed command");
    }
  }
  for (const name of listDirectory(root).files) {
    const file = path.join(root, name);
    const text = (): string => readText(file) ?? '';
    if (/^(?:jest|vitest|vite|vitest\.workspace)\.config\.[cm]?[jt]s(?:on)?$|^vitest\.workspace\.[cm]?[jt]s(?:on)?$/.test(name)) {
      for (const value of configValues(text(), TEST_SETUP_KEYS)) add(value, root, `a setup file in ${name}`);
    } else if (/^\.mocharc(?:\.[cm]?js|\.jsonc?|\.ya?ml)?$/.test(name)) {
      for (const value of configValues(text(), MOCHA_KEYS)) if (/^\.{0,2}\//.test(value) || isFile(path.resolve(root, value))) add(value, root, `mocha's ${name}`);
    } else if (/^knexfile\.[cm]?[jt]s$/.test(name)) {
      const dirs = knexDirectories(text());
      for (const dir of dirs.length > 0 ? dirs : ['migrations', 'seeds']) addDir(path.resolve(root, dir), `a knex migration or seed (${name})`);
    } else if (name === '.sequelizerc') {
      for (const dir of sequelizePaths(text())) addDir(path.resolve(root, dir), 'a sequelize migration or seeder (.sequelizerc)');
    }
  }
  for (const file of files) {
    const text = readText(file) ?? '';
    if (!text.includes('DataSource') && !/ormconfig\.[cm]?[jt]s$/.test(file)) continue;
    for (const glob of typeormMigrationGlobs(text, path.dirname(file), root)) {
      for (const candidate of files) if (matchesGlob(candidate, glob)) out.push({ file: candidate, reason: 'a typeorm migration' });
    }
  }
  const ormJson = parseJson(readText(path.join(root, 'ormconfig.json')));
  for (const entry of Array.isArray(ormJson) ? ormJson : [ormJson]) {
    if (!isRecord(entry)) continue;
    for (const glob of strings(entry['migrations'])) {
      for (const candidate of files) if (matchesGlob(candidate, path.resolve(root, glob))) out.push({ file: candidate, reason: 'a typeorm migration (ormconfig.json)' });
    }
  }
  return out;
}

/** The string values of `key: '…'` / `key: ['…', …]` / `"key": …` / YAML `key: …` and its `- …` items. */
export function configValues(text: string, keys: readonly string[]): string[] {
  const out: string[] = [];
  const names = keys.join('|');
  const js = new RegExp(`["']?\\b(?:${names})["']?\\s*:\\s*(\\[[^\\]]*\\]|'[^']*'|"[^"]*"|\`[^\`$]*\`)`, 'g');
  for (const m of text.matchAll(js)) for (const s of (m[1] ?? '').matchAll(/'([^']*)'|"([^"]*)"|`([^`$]*)`/g)) out.push(s[1] ?? s[2] ?? s[3] ?? '');
  const yaml = new RegExp(`^(?:${names}):[ \\t]*([^\\n'"\\[]*)$((?:\\n[ \\t]+-[ \\t]*.+)*)`, 'gm');
  for (const m of text.matchAll(yaml)) {
    const inline = (m[1] ?? '').trim();
    if (inline) out.push(inline);
    for (const item of (m[2] ?? '').matchAll(/-[ \t]*['"]?([^'"\n]+?)['"]?[ \t]*$/gm)) out.push(item[1] ?? '');
  }
  return out.filter((v) => v.length > 0);
}

function knexDirectories(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/directory\s*:\s*(?:'([^']+)'|"([^"]+)"|`([^`$]+)`|path\.(?:join|resolve)\(\s*__dirname\s*,([^)]*)\))/g)) {
    if (m[4] !== undefined) out.push(path.join(...stringArgs(m[4])));
    else out.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return out.filter((d) => d.length > 0);
}

function sequelizePaths(text: string): string[] {
  const out: string[] = ['migrations', 'seeders'];
  for (const m of text.matchAll(/['"](?:migrations|seeders)-path['"]\s*:\s*(?:'([^']+)'|"([^"]+)"|path\.(?:join|resolve)\(([^)]*)\))/g)) {
    if (m[3] !== undefined) out.push(path.join(...stringArgs(m[3])));
    else out.push(m[1] ?? m[2] ?? '');
  }
  return out;
}

/** Globs in `migrations: [...]`, absolute: `__dirname + '/…'` and `${__dirname}/…` are from the file's folder. */
function typeormMigrationGlobs(text: string, dir: string, root: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bmigrations\s*:\s*\[([^\]]*)\]/g)) {
    const body = m[1] ?? '';
    for (const s of body.matchAll(/(__dirname\s*\+\s*)?(?:'([^']+)'|"([^"]+)"|`(\$\{__dirname\})?([^`$]*)`)/g)) {
      const fromFile = s[1] !== undefined || s[4] !== undefined;
      const glob = s[2] ?? s[3] ?? s[5] ?? '';
      if (!glob.includes('*') && !/\.[cm]?[jt]s$/.test(glob)) continue;
      const absolute = path.resolve(fromFile ? dir : root, glob.replace(/^\//, fromFile ? '' : '/').replace(/^\/+/, ''));
      out.push(absolute);
      // `dist/migrations/*.js` names the build output of `src/migrations/*.ts`.
      const relative = path.relative(root, absolute).split(path.sep);
      if (['dist', 'build', 'lib', 'out'].includes(relative[0] ?? '')) out.push(path.join(root, 'src', ...relative.slice(1)).replace(/\.js\b/g, '.ts'));
    }
  }
  return out;
}

function stringArgs(text: string): string[] {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

type Minimatch = typeof import('minimatch').minimatch;
let minimatchFn: Minimatch | null = null;

/** `minimatch` over absolute paths with `/` separators; loaded on the first glob. */
export function matchesGlob(file: string, glob: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred: most runs never match a glob
  minimatchFn ??= (require('minimatch') as typeof import('minimatch')).minimatch;
  return minimatchFn(file.split(path.sep).join('/'), glob.split(path.sep).join('/'), { dot: true });
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Forgets every package graph and file scan (tests). */
export function resetEntries(): void {
  graphs.clear();
  scanCache.clear();
}
