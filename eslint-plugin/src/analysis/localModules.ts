import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import type { ParsedModule } from '../project';
import { DISK_CACHE_MS, bareName, declaresDependency, importRecords, isModuleText, moduleTokens, parseJson, parsedModule, pathKind, projectVersion, readLogOpen, readText, resolveImport, workspacePackageDir } from '../project';
import type { ModuleRef } from './imports';
import { importedModules, normalizeModule } from './imports';
import { skipTransparent, staticPropertyName } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * The other half of module summaries: a value imported from one of the project's own modules is
 * looked up in that module and analysed there, by the same analysis, on a `SourceCode` built for
 * it. `import { pool } from './db'` is a pg pool when `db.ts` builds one; `import { sleep } from
 * '../utils'` is a sleep helper when its body sleeps.
 *
 * Every `SourceCode` the analysis sees is tied to its file: ESLint's through `createRule`, a
 * module's here. Modules come from the project layer's bounded parse cache, so an unsaved edit
 * (an overlay) or a change on disk is a new parse and a new `SourceCode`.
 */
const files = new WeakMap<object, string>();

/**
 * Answers built on project modules are trusted while this stays: it moves on, at the start of a
 * lint, when the project layer heard of a change since the last one (an unsaved edit, a watched
 * file) or its trust in the disk ran out (`DISK_CACHE_MS`). A CLI run over unchanged files keeps
 * each module's answers for seconds, not for one file; an edit two imports away is seen at the
 * next lint. While a read log is open, every lint starts one (see `registerSourceFile`).
 */
let generation = 0;
let seenVersion = -1;
let seenPeriod = -1;
const moduleSources = new WeakSet<object>();

/**
 * The last linted files' own `SourceCode`s, oldest first. A module ESLint has just parsed (a
 * sibling linted before the file importing it) is read from its parse instead of parsed again,
 * while its text is what the layer reads. Few and small, as they outlive their lint; typed
 * parses are left out (answers cached on them may rest on type information).
 */
const linted = new Map<string, Services>();
const MAX_LINTED = 16;
const MAX_LINTED_CHARS = 1024 * 1024;
let lintedChars = 0;

/** Ties ESLint's `SourceCode` for the linted file to its path (called once per rule and file). */
export function registerSourceFile(sourceCode: Services, filename: string): void {
  if (files.has(sourceCode)) return;
  files.set(sourceCode, filename);
  const version = projectVersion();
  const period = Math.floor(Date.now() / DISK_CACHE_MS);
  // Under a read log (the language server, the CLI's cache) every lint must read what it rests
  // on, and a cached answer would skip those reads: there each lint is a generation.
  if (readLogOpen() || version !== seenVersion || period !== seenPeriod) {
    seenVersion = version;
    seenPeriod = period;
    generation++;
  }
  const at = path.resolve(filename);
  // A file under node_modules is never read as a project module (the resolver's answer is not local).
  if (sourceCode.parserServices?.program || !isModuleText(at, sourceCode.text) || at.split(path.sep).includes('node_modules')) return;
  forgetLinted(at);
  linted.set(at, sourceCode);
  lintedChars += sourceCode.text.length;
  for (const [oldest] of linted) {
    if (linted.size <= MAX_LINTED && lintedChars <= MAX_LINTED_CHARS) break;
    forgetLinted(oldest);
  }
}

function forgetLinted(at: string): void {
  const before = linted.get(at);
  if (!before) return;
  linted.delete(at);
  lintedChars -= before.text.length;
}

/** Changes when a lint may see the project differently. A cache of answers about project modules keyed by it stays fresh. */
export function lintGeneration(): number {
  return generation;
}

/** True for a `SourceCode` read as a project module (built here, or a linted file's read again), not the one being linted. */
export function isModuleSource(sourceCode: Services): boolean {
  return moduleSources.has(sourceCode);
}

/** The absolute path `sourceCode` was read from, when known. */
export function sourceFileOf(sourceCode: Services): string | null {
  return files.get(sourceCode) ?? null;
}

/**
 * Answers about a file's nodes (or the file itself): the linted file's hold for its lint, a
 * project module's for one `lintGeneration`, since its parse outlives a lint while an answer
 * about it may rest on a module further down its imports, which can change while it does not.
 */
export class ModuleAnswers<K extends object, V> {
  private readonly entries = new WeakMap<K, { generation: number; value: V }>();

  get(sourceCode: Services, key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || (entry.generation !== generation && moduleSources.has(sourceCode))) return undefined;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.set(key, { generation, value });
  }
}

/** One `SourceCode` per parse: the parse cache hands back the same program for the same text. */
const built = new WeakMap<TSESTree.Program, Services | null>();

type SourceCodeClass = new (config: {
  text: string;
  ast: TSESTree.Program;
  scopeManager: unknown;
  visitorKeys: unknown;
}) => Services;

let loaded: { SourceCode: SourceCodeClass; analyze: (program: TSESTree.Program, options: object) => unknown; visitorKeys: unknown } | null = null;

/** Loaded on the first imported value: a lint run that never follows one pays nothing. */
function tools(): NonNullable<typeof loaded> {
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred on purpose, see above */
  loaded ??= {
    SourceCode: (require('eslint') as { SourceCode: SourceCodeClass }).SourceCode,
    analyze: (require('@typescript-eslint/scope-manager') as { analyze: (p: TSESTree.Program, o: object) => unknown }).analyze,
    visitorKeys: (require('@typescript-eslint/visitor-keys') as { visitorKeys: unknown }).visitorKeys,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return loaded;
}

/**
 * The project's own module at `file`, as a `SourceCode` the analysis can run on: scope analysis,
 * tokens and comments like the linted file's. Null when the project layer cannot parse it.
 */
export function moduleSourceCode(file: string): Services | null {
  // Within one generation the answer cannot change, and asking the parse cache hashes the whole text.
  if (memoGeneration !== generation) {
    memo.clear();
    memoGeneration = generation;
  }
  const known = memo.get(file);
  if (known !== undefined) return known;
  const sourceCode = buildModuleSourceCode(file);
  memo.set(file, sourceCode);
  return sourceCode;
}

const memo = new Map<string, Services | null>();
let memoGeneration = -1;

function buildModuleSourceCode(file: string): Services | null {
  const own = linted.get(file);
  if (own && readText(file) === own.text) {
    // From now on it is a module like the others: answers about it hold for one lint.
    moduleSources.add(own);
    return own;
  }
  const parsed = parsedModule(file);
  if (!parsed) return null;
  let sourceCode = built.get(parsed.program);
  if (sourceCode === undefined) {
    const { analyze, visitorKeys } = tools();
    const isModule = parsed.program.body.some(
      (s) => s.type === AST_NODE_TYPES.ImportDeclaration || s.type.startsWith('Export'),
    );
    const scopeManager = analyze(parsed.program, { sourceType: isModule ? 'module' : 'script', globalReturn: !isModule });
    // ESLint's `SourceCode` insists on the arrays; `tokensOnDemand` replaces them.
    Object.assign(parsed.program, { tokens: [], comments: [] });
    sourceCode = new (moduleSourceCodeClass())({ text: parsed.text, ast: parsed.program, scopeManager, visitorKeys });
    tokensOnDemand(sourceCode, parsed, scopeManager);
    files.set(sourceCode, file);
    moduleSources.add(sourceCode);
    built.set(parsed.program, sourceCode);
  }
  return sourceCode;
}

/**
 * A module's parse carries no tokens or comments (see `ParsedModule`); its `SourceCode` gets them
 * on first ask. Every token and comment query, and `ast.tokens`/`ast.comments`, goes to a second
 * `SourceCode` over the same text built with them: a token query needs only node ranges, which
 * are the same. The analysis asks them of the linted file only, so this is never paid today, but
 * a question that does ask of a module gets the answer it would get from ESLint's parse.
 */
function tokensOnDemand(sourceCode: Services, parsed: ParsedModule, scopeManager: unknown): void {
  const { SourceCode, visitorKeys } = tools();
  let full: Services | null = null;
  const withTokens = (): Services => {
    full ??= new SourceCode({ text: parsed.text, ast: { ...parsed.program, ...moduleTokens(parsed) }, scopeManager, visitorKeys });
    return full;
  };
  withTokensOf.set(sourceCode, withTokens);
  // Not enumerable, so the copy made for the full `SourceCode` does not ask for them.
  for (const key of ['tokens', 'comments'] as const) {
    Object.defineProperty(sourceCode.ast, key, { get: () => withTokens().ast[key], configurable: true, enumerable: false });
  }
}

const withTokensOf = new WeakMap<object, () => Services>();
let moduleClass: SourceCodeClass | null = null;

/**
 * ESLint's `SourceCode` with its token and comment queries sent to `withTokensOf`. Instances are
 * frozen, so the queries live on the class; `tokensAndComments`, which the constructor assigns,
 * is an accessor whose setter drops the empty merge.
 */
function moduleSourceCodeClass(): SourceCodeClass {
  if (moduleClass) return moduleClass;
  const { SourceCode } = tools();
  const cls = class extends SourceCode {};
  const full = (self: object): Record<string, unknown> => {
    const load = withTokensOf.get(self);
    return (load ? load() : self) as unknown as Record<string, unknown>;
  };
  const base = SourceCode.prototype as unknown as Record<string, unknown>;
  const store = Object.getPrototypeOf(SourceCode.prototype) as object;
  const names = [...Object.getOwnPropertyNames(store), 'getAllComments', 'isSpaceBetween', 'isSpaceBetweenTokens', 'getJSDocComment', 'getInlineConfigNodes', 'getDisableDirectives'];
  for (const name of new Set(names)) {
    const method = base[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    Object.defineProperty(cls.prototype, name, {
      value(this: object, ...args: unknown[]): unknown {
        return (method as (...a: unknown[]) => unknown).apply(full(this), args);
      },
      configurable: true,
      writable: true,
    });
  }
  Object.defineProperty(cls.prototype, 'tokensAndComments', {
    get(this: object): unknown {
      return full(this).tokensAndComments;
    },
    set(): void {},
    configurable: true,
  });
  moduleClass = cls;
  return cls;
}

/** A value found in one of the project's modules, with the `SourceCode` to analyse it on. */
export interface LocalValue {
  sourceCode: Services;
  /** The exported expression, binding identifier, or function or class declaration. */
  node: TSESTree.Node;
  file: string;
}

/**
 * Whether a specifier names one of the project's own files: relative and absolute paths, and any
 * alias (tsconfig `paths` such as `@server/…`, package `imports`) the resolver takes to a file
 * outside node_modules. Asked of the resolver, not read from a prefix.
 */
export function isProjectSpecifier(sourceCode: Services, specifier: string): boolean {
  const name = bareName(specifier);
  if (name === null) return true;
  const from = sourceFileOf(sourceCode);
  if (!from || specifier.startsWith('\0') || isBuiltin(specifier)) return false;
  // Asked again for every reference to the import, by every rule: one answer per generation.
  if (projectGeneration !== generation) {
    projectSpecifiers.clear();
    projectGeneration = generation;
  }
  // A path holds no NUL, so the first one ends it.
  const key = `${from}\0${specifier}`;
  let answer = projectSpecifiers.get(key);
  if (answer === undefined) {
    // A declared dependency is a package: asking the resolver, from every folder, costs more than the lint.
    if (declaresDependency(from, name)) answer = false;
    else {
      const resolution = resolveImport(from, specifier);
      answer = resolution.kind === 'file' && resolution.local;
    }
    projectSpecifiers.set(key, answer);
  }
  return answer;
}

const projectSpecifiers = new Map<string, boolean>();
let projectGeneration = -1;

/**
 * A specifier of the project's own (`./roles`, `../data/db`) that names no file the lint can read:
 * a module left out of the folder, or generated by a build that has not run.
 */
export function isUnreadableProjectModule(sourceCode: Services, specifier: string): boolean {
  const from = sourceFileOf(sourceCode);
  if (from === null || specifier.startsWith('\0')) return false;
  const name = bareName(specifier);
  if (name === null) return localTarget(from, specifier) === null;
  // `import { prisma } from '@linkwarden/prisma'`: a package of the workspace is the project's own
  // code, unreadable when the source file its manifest names as entry is not in the folder.
  if (name !== specifier || isBuiltin(specifier)) return false;
  const dir = workspacePackageDir(from, name);
  return dir !== null && localTarget(from, specifier) === null && entryMissing(dir);
}

const ENTRY_EXTENSIONS: readonly string[] = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];
/** Folders of build output: an entry there is compiled from sources the package does hold (`src/`), only not built yet. */
const BUILD_FOLDERS: ReadonlySet<string> = new Set(['dist', 'lib', 'build', 'out']);

function entryMissing(dir: string): boolean {
  const json = parseJson(readText(path.join(dir, 'package.json')));
  const manifest = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const entries = [manifest.main, manifest.module, 'index'].filter((e): e is string => typeof e === 'string');
  if (entries.some((entry) => ENTRY_EXTENSIONS.some((ext) => pathKind(path.join(dir, entry + ext)) === 'file'))) return false;
  const built = entries.some((entry) => BUILD_FOLDERS.has(path.normalize(entry).split(path.sep)[0] ?? ''));
  return !(built && pathKind(path.join(dir, 'src')) === 'directory');
}

/** Re-exports (`export * from`, `export { x } from`) followed at most this deep: barrels nest a few levels. */
const MAX_HOPS = 4;

/**
 * Where `ref` (a module and a property path, from `resolveReference`) lands when its module is one
 * of the project's own files: the exported value, and the part of the path still to apply to it.
 * `import { pool } from './db'` → `{ value: <pool's binding in db.ts>, rest: [] }`. Null for
 * packages, built-ins, unresolved specifiers, and exports this reading cannot see.
 */
export function localExport(sourceCode: Services, ref: ModuleRef): { value: LocalValue; rest: readonly string[] } | null {
  const from = sourceFileOf(sourceCode);
  if (!from) return null;
  // Every rule asks after the same few imports of a file, and each asking resolved the specifier
  // and read the module's exports again; the answer rests only on modules, kept per generation.
  if (exportsGeneration !== generation) {
    exportAnswers.clear();
    exportsGeneration = generation;
  }
  const key = JSON.stringify([from, ref.module, ...ref.path]);
  let found = exportAnswers.get(key);
  if (found === undefined) {
    found = exportFrom(from, ref.module, ref.path, 0);
    exportAnswers.set(key, found);
  }
  return found;
}

const exportAnswers = new Map<string, { value: LocalValue; rest: readonly string[] } | null>();
let exportsGeneration = -1;

function exportFrom(from: string, specifier: string, refPath: readonly string[], hops: number): { value: LocalValue; rest: readonly string[] } | null {
  const target = localTarget(from, specifier);
  if (!target || hops > MAX_HOPS) return null;
  const sourceCode = moduleSourceCode(target);
  if (!sourceCode) return null;
  const [first, ...rest] = refPath.filter((p) => p !== 'default');
  if (first === undefined) {
    const node = defaultExport(sourceCode);
    return node ? { value: { sourceCode, node, file: target }, rest: [] } : null;
  }
  const named = namedExport(sourceCode, target, first, hops);
  if (named) return { value: named, rest };
  // `export default { pool }` / `module.exports = { pool }` read as `db.pool`.
  const object = defaultExport(sourceCode);
  const property = object ? objectProperty(sourceCode, target, object, first, hops) : null;
  return property ? { value: property, rest } : null;
}

/**
 * What this module itself exports as `name`, declared in this module: `export const start = …`,
 * `export function start`, `export { start }`, `exports.start = …`, `module.exports = { start }`.
 * For `exports.start()` inside the module, a call of its own export. Null for a re-export from
 * another module and for a name it does not export.
 */
export function ownExport(sourceCode: Services, name: string): TSESTree.Node | null {
  const file = sourceFileOf(sourceCode) ?? '';
  const named = namedExport(sourceCode, file, name, 0);
  if (named) return named.sourceCode === sourceCode ? named.node : null;
  const object = defaultExport(sourceCode);
  const property = object ? objectProperty(sourceCode, file, object, name, 0) : null;
  return property?.sourceCode === sourceCode ? property.node : null;
}

/** The resolved file for a relative or aliased import, when it is one of the project's sources. */
function localTarget(from: string, specifier: string): string | null {
  if (specifier.startsWith('\0')) return null;
  const resolution = resolveImport(from, specifier);
  return resolution.kind === 'file' && resolution.local ? resolution.path : null;
}

/** `export default x`, `export = x`, `module.exports = x`. */
function defaultExport(sourceCode: Services): TSESTree.Node | null {
  let found: TSESTree.Node | null = null;
  for (const stmt of sourceCode.ast.body) {
    if (stmt.type === AST_NODE_TYPES.ExportDefaultDeclaration) found = stmt.declaration;
    else if (stmt.type === AST_NODE_TYPES.TSExportAssignment) found = stmt.expression;
    else {
      const assigned = moduleExportsAssignment(stmt);
      if (assigned && assigned.path.length === 0) found = assigned.value;
    }
  }
  return found;
}

function namedExport(sourceCode: Services, file: string, name: string, hops: number): LocalValue | null {
  const at = (node: TSESTree.Node): LocalValue => ({ sourceCode, node, file });
  let found: LocalValue | null = null;
  for (const stmt of sourceCode.ast.body) {
    if (stmt.type === AST_NODE_TYPES.ExportNamedDeclaration) {
      const decl = stmt.declaration;
      if (decl?.type === AST_NODE_TYPES.VariableDeclaration) {
        for (const d of decl.declarations) if (d.id.type === AST_NODE_TYPES.Identifier && d.id.name === name) found = at(d.id);
      } else if (
        (decl?.type === AST_NODE_TYPES.FunctionDeclaration || decl?.type === AST_NODE_TYPES.ClassDeclaration) &&
        decl.id?.name === name
      ) {
        found = at(decl);
      }
      for (const spec of stmt.specifiers) {
        if (spec.type !== AST_NODE_TYPES.ExportSpecifier || exportedName(spec.exported) !== name) continue;
        const local = exportedName(spec.local);
        if (stmt.source) return exportFrom(file, stmt.source.value, [local], hops + 1)?.value ?? null;
        if (spec.local.type === AST_NODE_TYPES.Identifier) found = at(spec.local);
      }
    } else if (stmt.type === AST_NODE_TYPES.ExportAllDeclaration && !stmt.exported && !found) {
      const through = exportFrom(file, stmt.source.value, [name], hops + 1);
      if (through && through.rest.length === 0) found = through.value;
    } else {
      const assigned = moduleExportsAssignment(stmt);
      if (assigned?.path.length === 1 && assigned.path[0] === name) found = at(assigned.value);
    }
  }
  return found;
}

function exportedName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/** `module.exports = v` → path []; `module.exports.x = v` and `exports.x = v` → path ['x']. */
function moduleExportsAssignment(stmt: TSESTree.Node): { path: string[]; value: TSESTree.Node } | null {
  if (stmt.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const expr = stmt.expression;
  // A bare `exports = v` rebinds a local name and exports nothing.
  if (expr.type !== AST_NODE_TYPES.AssignmentExpression || expr.operator !== '=' || expr.left.type === AST_NODE_TYPES.Identifier) return null;
  const path = exportsPath(expr.left);
  return path ? { path, value: expr.right } : null;
}

function exportsPath(node: TSESTree.Node): string[] | null {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name === 'exports' ? [] : null;
  if (node.type !== AST_NODE_TYPES.MemberExpression) return null;
  const name = staticPropertyName(node);
  if (name === null) return null;
  if (node.object.type === AST_NODE_TYPES.Identifier && node.object.name === 'module') return name === 'exports' ? [] : null;
  const base = exportsPath(node.object);
  return base && base.length === 0 ? [name] : null;
}

/**
 * `{ pool, query: run }` → the value of `name`; `{ ...require('./sleep') }`, the CommonJS barrel,
 * is followed into the spread module.
 */
function objectProperty(sourceCode: Services, file: string, node: TSESTree.Node, name: string, hops: number): LocalValue | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return null;
  let found: LocalValue | null = null;
  for (const prop of expr.properties) {
    if (prop.type === AST_NODE_TYPES.SpreadElement) {
      const spread = skipTransparent(prop.argument);
      const source = spread.type === AST_NODE_TYPES.CallExpression && spread.callee.type === AST_NODE_TYPES.Identifier &&
        spread.callee.name === 'require' && spread.arguments[0]?.type === AST_NODE_TYPES.Literal ? spread.arguments[0].value : null;
      const through = typeof source === 'string' ? exportFrom(file, source, [name], hops + 1) : null;
      if (through && through.rest.length === 0) found = through.value;
      continue;
    }
    if (prop.kind !== 'init') continue;
    const key = !prop.computed && prop.key.type === AST_NODE_TYPES.Identifier ? prop.key.name
      : prop.key.type === AST_NODE_TYPES.Literal && typeof prop.key.value === 'string' ? prop.key.value : null;
    if (key === name) found = { sourceCode, node: prop.value, file };
  }
  return found;
}
/** Barrels (`index.ts` re-exporting `./db`) are looked through this many levels for the early exits below. */
const REACH_DEPTH = 2;
const MAX_REACHED = 40;
const reachCache = new WeakMap<object, ReadonlySet<string>>();
/** `from 'x'`, `import('x')`, `require('x')`: a module's specifiers, read from its text. */
const SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]([^'"\n]+)['"]/g;

/**
 * The packages this file imports, plus those its own local modules import, two levels deep: the
 * early exit of a rule that needs `async-mutex` or `p-limit` must not skip a file whose lock is
 * built in `./lock`. The linted file's type-only imports are left out. Its modules are read as
 * text and scanned, not parsed: this only decides whether a rule runs, and a parse of every
 * imported module for it would cost more than the answer saves.
 */
export function reachableModules(sourceCode: Services): ReadonlySet<string> {
  const hit = reachCache.get(sourceCode);
  if (hit) return hit;
  const modules = new Set(importedModules(sourceCode));
  const from = sourceFileOf(sourceCode);
  if (from) {
    const seen = new Set<string>([from]);
    let frontier = localTargets(from, runtimeSpecifiers(sourceCode), seen, modules);
    for (let depth = 0; depth < REACH_DEPTH && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const file of frontier) {
        const specifiers = scannedSpecifiers(file);
        if (specifiers !== null) next.push(...localTargets(file, specifiers, seen, modules));
      }
      frontier = next;
    }
  }
  reachCache.set(sourceCode, modules);
  return modules;
}

/**
 * A module's specifiers as its text names them, scanned once per lint generation: the route files
 * of every feature reach the same shared modules. Null when the file cannot be read.
 */
function scannedSpecifiers(file: string): readonly string[] | null {
  if (specifiersGeneration !== generation) {
    specifierScans.clear();
    specifiersGeneration = generation;
  }
  let specifiers = specifierScans.get(file);
  if (specifiers === undefined) {
    const text = readText(file);
    specifiers = text === null ? null : [...text.matchAll(SPECIFIER)].map((m) => m[1] as string);
    specifierScans.set(file, specifiers);
  }
  return specifiers;
}

const specifierScans = new Map<string, readonly string[] | null>();
let specifiersGeneration = -1;

/**
 * Adds the packages among `specifiers` to `modules`; returns the project files not seen yet. Only
 * paths and `#`, `@/`, `~/` aliases are resolved: resolving every package name from every folder
 * cost more than the rules it gates, and these answers only decide whether a rule runs.
 */
function localTargets(from: string, specifiers: readonly string[], seen: Set<string>, modules: Set<string>): string[] {
  const out: string[] = [];
  for (const specifier of specifiers) {
    if (!looksLocal(specifier)) {
      modules.add(normalizeModule(specifier).module);
      continue;
    }
    const resolution = resolveImport(from, specifier);
    if (resolution.kind !== 'file' || !resolution.local) {
      modules.add(normalizeModule(specifier).module);
      continue;
    }
    if (seen.has(resolution.path) || seen.size >= MAX_REACHED) continue;
    seen.add(resolution.path);
    out.push(resolution.path);
  }
  return out;
}

/** The project files a module's text imports, by path or `#`, `@/`, `~/` alias, without parsing it. */
export function scannedLocalImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] as string;
    if (!looksLocal(specifier)) continue;
    const resolution = resolveImport(file, specifier);
    if (resolution.kind === 'file' && resolution.local) out.push(resolution.path);
  }
  return out;
}

function looksLocal(specifier: string): boolean {
  return bareName(specifier) === null || specifier.startsWith('@/') || specifier.startsWith('~/');
}

const runtimeCache = new WeakMap<object, readonly string[]>();

/** The specifiers the linted file imports at run time (type-only imports left out). */
function runtimeSpecifiers(sourceCode: Services): readonly string[] {
  let found = runtimeCache.get(sourceCode);
  if (!found) {
    found = importRecords(sourceCode.ast, sourceCode.text).filter((r) => !r.typeOnly).map((r) => r.specifier);
    runtimeCache.set(sourceCode, found);
  }
  return found;
}

/** The project files the linted file imports at run time, by path or `#`, `@/`, `~/` alias. */
export function localImportFiles(sourceCode: Services): string[] {
  const from = sourceFileOf(sourceCode);
  if (!from) return [];
  const out: string[] = [];
  for (const specifier of runtimeSpecifiers(sourceCode)) {
    if (!looksLocal(specifier)) continue;
    const resolution = resolveImport(from, specifier);
    if (resolution.kind === 'file' && resolution.local) out.push(resolution.path);
  }
  return out;
}
