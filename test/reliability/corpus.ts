// The real-code sweep: runs every rule of the plugin (from source, so a fix to a rule is tested
// without a build) over files nobody here wrote, untyped and, where a package ships a tsconfig,
// typed; applies every autofix and every suggestion on its own and re-parses the result.
// A rule that throws is a crash; a file that does not parse in the first place is only counted.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { TSError, parse } from '@typescript-eslint/typescript-estree';
import * as ts from 'typescript';
import plugin from '../../eslint-plugin/src/index';

export const repoRoot = path.resolve(__dirname, '..', '..');

export const EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'];
// Explicit patterns: a file matched only by a catch-all pattern counts as matched by no configuration.
const FILE_PATTERNS = EXTENSIONS.map((ext) => `**/*${ext}`);
export const RULE_IDS = Object.keys(plugin.rules).map((name) => `async-hazards/${name}`);

/** Every linted file (absolute path), sorted, under each `node_modules` of the workspace packages. */
export function listCorpus(roots = corpusRoots()): string[] {
  const files: string[] = [];
  const visit = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile() && EXTENSIONS.includes(path.extname(entry.name))) files.push(full);
    }
  };
  for (const root of roots) visit(root);
  return files.sort();
}

export function corpusRoots(): string[] {
  return ['node_modules', 'eslint-plugin/node_modules', 'server/node_modules', 'client/node_modules']
    .map((dir) => path.join(repoRoot, dir))
    .filter((dir) => fs.existsSync(dir));
}

/** The folder of the package a file belongs to: the part after the last `node_modules` segment. */
export function packageOf(file: string): string {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return path.dirname(file);
  const depth = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + depth).join(path.sep);
}

const rules = Object.fromEntries(RULE_IDS.map((id) => [id, 'error' as const]));

function jsxFor(file: string): boolean {
  return ['.jsx', '.tsx', '.js', '.mjs', '.cjs'].includes(path.extname(file));
}

function isCommonJs(file: string): boolean {
  const ext = path.extname(file);
  return ext === '.cjs' || ext === '.cts';
}

function languageOptions(file: string, program?: ts.Program): Linter.Config['languageOptions'] {
  return {
    parser: tsParser as unknown as Linter.Parser,
    sourceType: isCommonJs(file) ? 'commonjs' : 'module',
    ecmaVersion: 'latest',
    parserOptions: {
      ecmaFeatures: { jsx: jsxFor(file) },
      ...(program ? { programs: [program] } : {}),
    },
  };
}

function configFor(file: string, program?: ts.Program): Linter.Config[] {
  return [
    {
      files: FILE_PATTERNS,
      plugins: { 'async-hazards': plugin as unknown as NonNullable<Linter.Config['plugins']>[string] },
      languageOptions: languageOptions(file, program),
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      // The strict preset runs every code path a rule has; recommended only leaves some reports out.
      settings: { 'async-hazards': { preset: 'strict' } },
      rules,
    },
  ];
}

function parseConfigFor(file: string): Linter.Config[] {
  return [{ files: FILE_PATTERNS, languageOptions: languageOptions(file), linterOptions: { reportUnusedDisableDirectives: 'off' } }];
}

export interface Crash {
  file: string;
  mode: 'untyped' | 'typed';
  message: string;
}

export interface FixFailure {
  file: string;
  ruleId: string;
  kind: string;
  message: string;
}

export interface SweepStats {
  files: number;
  lines: number;
  typedFiles: number;
  parseErrors: number;
  findings: Record<string, number>;
  typedFindings: Record<string, number>;
  /** `rule/fix` for autofixes, `rule/<messageId>` for suggestions: how many were applied and re-parsed. */
  fixesApplied: Record<string, number>;
  fixFailures: FixFailure[];
  crashes: Crash[];
  /** The slowest files (both modes, fixes included), slowest first. */
  slowest: Array<{ file: string; ms: number; lines: number }>;
}

export function emptyStats(): SweepStats {
  return { files: 0, lines: 0, typedFiles: 0, parseErrors: 0, findings: {}, typedFindings: {}, fixesApplied: {}, fixFailures: [], crashes: [], slowest: [] };
}

const bump = (counts: Record<string, number>, key: string, by = 1): void => {
  counts[key] = (counts[key] ?? 0) + by;
};

// Flat config ignores everything under node_modules relative to the linter's cwd, and the sweep is
// about exactly those files: each package gets a linter whose cwd is the package folder.
const linters = new Map<string, Linter>();
function linterFor(file: string): Linter {
  const cwd = packageOf(file);
  let linter = linters.get(cwd);
  if (!linter) {
    linter = new Linter({ configType: 'flat', cwd });
    linters.set(cwd, linter);
  }
  return linter;
}

/**
 * Undefined when `text` parses as `file`; otherwise the parser's message. The parse ESLint runs
 * (typescript-estree, same file name and JSX setting), without scope analysis and traversal, which
 * on a 3 MB bundle make a re-parse per suggestion cost minutes. `parseProblemViaLinter` is the
 * full path; the fuzz test checks both give the same verdict.
 */
export function parseProblem(file: string, text: string): string | undefined {
  try {
    // The source type ESLint passes: in a module, a top-level `await (` is an await, not a call.
    const sourceType = isCommonJs(file) ? 'script' : 'module';
    parse(text, { filePath: file, jsx: jsxFor(file), sourceType, loc: true, range: true, tokens: false, comment: false });
    return undefined;
  } catch (error) {
    if (!(error instanceof TSError)) throw error;
    return `${error.location.start.line}:${error.location.start.column + 1} ${error.message}`;
  }
}

/** Like `parseProblem`, through `Linter.verify` with no rules: what ESLint itself reports. */
export function parseProblemViaLinter(file: string, text: string): string | undefined {
  const messages = linterFor(file).verify(text, parseConfigFor(file), { filename: file });
  if (messages.some((m) => m.ruleId === null && m.line === 0)) throw new Error(`${file}: ${messages[0]!.message}`);
  const fatal = messages.find((m) => m.fatal);
  return fatal ? `${fatal.line}:${fatal.column} ${fatal.message}` : undefined;
}

function applyFix(text: string, fix: { range: [number, number]; text: string }): string {
  return text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
}

/**
 * Lints one file's text in one mode and records findings, crashes and fix results into `stats`.
 * Returns the messages, or undefined when a rule threw.
 */
export function lintOne(stats: SweepStats, file: string, text: string, program?: ts.Program): Linter.LintMessage[] | undefined {
  const mode = program ? 'typed' : 'untyped';
  let messages: Linter.LintMessage[];
  try {
    messages = linterFor(file).verify(text, configFor(file, program), { filename: file });
  } catch (error) {
    stats.crashes.push({ file, mode, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return undefined;
  }
  if (messages.some((m) => m.ruleId === null && m.line === 0)) throw new Error(`${file}: ${messages[0]!.message}`);
  if (messages.some((m) => m.fatal)) {
    if (!program) stats.parseErrors++;
    return messages;
  }
  for (const message of messages) {
    // Disable comments naming rules of other plugins come back as findings of those rules.
    if (!message.ruleId || !RULE_IDS.includes(message.ruleId)) continue;
    bump(program ? stats.typedFindings : stats.findings, message.ruleId);
    const edits: Array<{ kind: string; fix: { range: [number, number]; text: string } }> = [];
    if (message.fix) edits.push({ kind: 'fix', fix: message.fix });
    for (const suggestion of message.suggestions ?? []) edits.push({ kind: suggestion.messageId ?? 'suggestion', fix: suggestion.fix });
    for (const { kind, fix } of edits) {
      const rule = message.ruleId.replace('async-hazards/', '');
      bump(stats.fixesApplied, `${rule}/${kind}`);
      const problem = parseProblem(file, applyFix(text, fix));
      if (problem) stats.fixFailures.push({ file, ruleId: rule, kind, message: problem });
    }
  }
  return messages;
}

/** Lints one file untyped, and typed too when `program` is given. */
export function sweepFile(stats: SweepStats, file: string, program?: ts.Program): void {
  const started = performance.now();
  const text = fs.readFileSync(file, 'utf8');
  const lines = countLines(text);
  stats.files++;
  stats.lines += lines;
  lintOne(stats, file, text);
  if (program?.getSourceFile(file)) {
    stats.typedFiles++;
    lintOne(stats, file, text, program);
  }
  noteSlow(stats, { file, ms: performance.now() - started, lines });
}

export function noteSlow(stats: SweepStats, entry: { file: string; ms: number; lines: number }): void {
  stats.slowest.push(entry);
  stats.slowest.sort((a, b) => b.ms - a.ms);
  stats.slowest.length = Math.min(stats.slowest.length, 5);
}

/** Adds the counts of `from` (another shard's) into `into`. */
export function mergeStats(into: SweepStats, from: SweepStats): void {
  into.files += from.files;
  into.lines += from.lines;
  into.typedFiles += from.typedFiles;
  into.parseErrors += from.parseErrors;
  for (const key of ['findings', 'typedFindings', 'fixesApplied'] as const) {
    for (const [name, count] of Object.entries(from[key])) into[key][name] = (into[key][name] ?? 0) + count;
  }
  into.fixFailures.push(...from.fixFailures);
  into.crashes.push(...from.crashes);
  for (const entry of from.slowest) noteSlow(into, entry);
}

export function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/**
 * A program over a package's own files, with the compiler options of the tsconfig it ships
 * (when that tsconfig reads cleanly; `extends` of an uninstalled base falls back to defaults).
 */
export function packageProgram(packageDir: string, files: string[]): ts.Program {
  const configFile = path.join(packageDir, 'tsconfig.json');
  let options: ts.CompilerOptions = {};
  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  if (!read.error) {
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, packageDir, undefined, configFile);
    options = parsed.options;
  }
  return ts.createProgram({
    rootNames: files,
    options: { ...options, allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true, noResolve: false, composite: false, incremental: false },
  });
}

export function hasTsconfig(packageDir: string): boolean {
  return fs.existsSync(path.join(packageDir, 'tsconfig.json'));
}

/** A fixed, spread-out sample: every n-th file of the sorted corpus, skipping files over `maxBytes`. */
export function fixedSample(files: string[], size: number, maxBytes = 200_000): string[] {
  const small = files.filter((file) => fs.statSync(file).size <= maxBytes);
  const step = Math.max(1, Math.floor(small.length / size));
  const picked: string[] = [];
  for (let i = 0; i < small.length && picked.length < size; i += step) picked.push(small[i]!);
  return picked;
}

export function formatStats(stats: SweepStats, seconds: number): string {
  const lines = [
    `files linted: ${stats.files} (${stats.typedFiles} also typed), lines: ${stats.lines}, in ${seconds.toFixed(1)} s`,
    `files that do not parse (not crashes): ${stats.parseErrors}`,
    'findings per rule (untyped / typed):',
    ...RULE_IDS.map((id) => `  ${id.replace('async-hazards/', '')}: ${stats.findings[id] ?? 0} / ${stats.typedFindings[id] ?? 0}`),
    'fixes and suggestions applied and re-parsed (rule/kind):',
    ...Object.entries(stats.fixesApplied)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `  ${key}: ${count}`),
    `fix parse failures: ${stats.fixFailures.length}`,
    ...stats.fixFailures.slice(0, 20).map((f) => `  ${path.relative(repoRoot, f.file)} ${f.ruleId}/${f.kind}: ${f.message}`),
    'slowest files:',
    ...stats.slowest.map((s) => `  ${(s.ms / 1000).toFixed(1)} s ${path.relative(repoRoot, s.file)} (${s.lines} lines)`),
    `crashes: ${stats.crashes.length}`,
    ...stats.crashes.slice(0, 20).map((c) => `  [${c.mode}] ${path.relative(repoRoot, c.file)}: ${c.message.split('\n').slice(0, 6).join('\n    ')}`),
  ];
  return lines.join('\n');
}

/** Runs a sweep worker (`node <args>`) and parses the JSON it prints; a non-zero exit rejects, named `what`. */
export function runJsonChild<T>(args: readonly string[], what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${what} exited with ${code}`));
      else resolve(JSON.parse(out) as T);
    });
  });
}
