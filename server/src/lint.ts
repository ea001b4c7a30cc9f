/**
 * The one lint core, shared by the language server and the CLI.
 *
 * It runs the plugin's own rules through ESLint's `Linter` (the same rule code as CI) on text that
 * need not be saved, and returns ESLint messages plus the evidence the rules recorded.
 *
 * ```ts
 * const linter = createLinter({ cwd: '/repo', trusted: false, typeAware: 'auto' });
 * const result = await linter.lintText(text, '/repo/src/a.ts');
 * for (const m of result.messages) console.log(m.ruleId, m.line, m.message, m.evidence);
 * const { output } = await linter.fixText(text, '/repo/src/a.ts'); // autofixes only
 * ```
 *
 * Stable API:
 * - `createLinter(options: CreateLinterOptions): AsyncHazardsLinter`; one per workspace folder.
 *   `cwd` roots relative paths and `tsconfigRootDir`; `trusted` allows executing the folder's
 *   `eslint.config.*` (never otherwise); `typeAware` is `auto` (type information when a
 *   tsconfig/jsconfig covers the file), `on` or `off`; `rules` are severities by rule name that win
 *   over the workspace config; `onNotice` hears once-per-cause events (config failed to load, type
 *   information unavailable or being built, a rule crashed) and may be async (it is awaited before
 *   the first program build so a progress report can reach the user first); `configFile` fixes
 *   one ESLint config for every file instead of looking it up (the CLI's `--config`).
 * - A rule that throws (in `create` or in any listener) is switched off for the rest of that file
 *   within the same traversal: its other listeners are no longer called, its findings for that
 *   file are dropped (made before the crash or not: its picture of the file is incomplete), the
 *   other rules' findings are kept, and it is named in `LintResult.crashedRules`. `ruleCrashed` is
 *   heard once per rule; `BUGS_URL` is where to report it.
 * - `lintText(text, filePath, options?)`: `options` override `rules`, `typeAware`,
 *   `maxFileSizeKb` per call and take `isCancelled()` (checked before the expensive steps).
 *   Never throws. `LintResult.messages` holds our rules' findings (ruleId always
 *   `async-hazards/<name>`, whatever alias the workspace config uses) and at most one fatal parse
 *   message (`fatal: true`, `ruleId: null`); each has `evidence` (related locations, possibly
 *   empty) and ESLint's `fix`/`suggestions`. `skipped` says why nothing was linted.
 * - `fixText(text, filePath, options?)`: applies autofixes only (never suggestions). A rule that
 *   crashes while fixing is left out and the fixes are made again from the original text without
 *   it, because fixes already applied cannot be told apart afterwards.
 * - `disableDirectiveFor(filePath)`: which alias a disable comment must name, and whether the
 *   folder's own ESLint would understand it.
 * - `setTrusted(trusted)`, `invalidate()` (config or project files changed), `dispose()`.
 * - `openDocuments` (an option): unsaved text reaches the plugin's project layer only through
 *   its `setOverlay`, called here before each run, never through ESLint settings. With it, each
 *   run also records the file's imports in the project layer's import index (`importersOf`).
 *   `syncOverlays(documents)` lays them at once (the server, when a document changes or closes).
 * - `nativeParser` (an option, the language server's): the syntactic path parses with oxc's native
 *   parser where its binding loads (nativeParser.ts), each file it cannot serve exactly as
 *   `@typescript-eslint/parser` would going to that parser; `LintResult.parsedBy` says which parsed.
 * - Flow: a JavaScript file whose leading comments carry Flow's `@flow` pragma is parsed by
 *   hermes-eslint (type annotations are not TypeScript's, and typescript-eslint rejects many of
 *   them), loaded at the first such file. The rules give the same findings under either parser.
 * - `LintResult.reads`: every file the project layer read for the run (the plugin's read log:
 *   path and content hash, `file`/`directory` for a stat, or `missing`). The result holds while
 *   each read does (`isReadCurrent`); ESLint's own reading of the linted text is not in it.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Linter } from 'eslint';
import type { EvidenceLocation } from 'eslint-plugin-async-hazards/evidence';
import { clearEvidence, getEvidence } from 'eslint-plugin-async-hazards/evidence';
import plugin from 'eslint-plugin-async-hazards';
import type { FileRead } from 'eslint-plugin-async-hazards/project';
import * as projectLayer from 'eslint-plugin-async-hazards/project';
import { importsOf, invalidate as invalidateProjectFiles, setOverlay, withReadLog } from 'eslint-plugin-async-hazards/project';
import type { ProcessRole } from 'eslint-plugin-async-hazards/role';
import { processRole } from 'eslint-plugin-async-hazards/role';
import type { Preset, RuleName, RuleSeverities, TypeAwareMode } from './settings';
import { DEFAULT_SETTINGS, RULE_NAMES } from './settings';
import type { NativeParser } from './nativeParser';
import { loadNativeParser } from './nativeParser';
import { ProjectFileFinder, isProjectServiceFailure } from './typeAware';
import type { WorkspaceRuleConfig } from './workspaceConfig';
import { WorkspaceConfigReader } from './workspaceConfig';
import { bugs } from '../package.json';

export const RULE_PREFIX = 'async-hazards';
export const SUPPORTED_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;
const LINTED_FILES = ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'];
/** Where a rule crash should be reported; the server package's `bugs` field. */
export const BUGS_URL: string = bugs.url;

export interface PluginLike {
  meta?: { name?: string };
  rules: Record<string, unknown>;
}

export type LintNotice =
  | { kind: 'configFailed'; configFile: string; error: Error }
  | { kind: 'configInvalid'; configFile: string; error: Error }
  | { kind: 'typeInfoUnavailable'; filePath: string; project: string | null; reason: string }
  | { kind: 'typeInfoBuilding'; project: string }
  | { kind: 'typeInfoBuilt'; project: string; durationMs: number }
  | { kind: 'ruleCrashed'; ruleId: string; filePath: string; error: Error }
  | { kind: 'internalError'; filePath: string; error: Error };

export interface CreateLinterOptions {
  /** Workspace folder: relative paths and `tsconfigRootDir` are resolved against it. */
  cwd: string;
  /** May the folder's `eslint.config.*` be executed? Default false. */
  trusted?: boolean;
  typeAware?: TypeAwareMode;
  /** Severities by rule name; they win over the workspace config. */
  rules?: RuleSeverities;
  maxFileSizeKb?: number;
  /**
   * The plugin's preset the rules judge by (`settings['async-hazards'].preset`) where the
   * workspace config does not set one; `recommended` when neither does.
   */
  preset?: Preset;
  /** Hears each cause once per linter; awaited for `typeInfoBuilding`. */
  onNotice?: (notice: LintNotice) => void | Promise<void>;
  /** Use this ESLint config file for every file instead of looking one up (the CLI's `--config`). */
  configFile?: string;
  /**
   * Globs (relative to `cwd`) of files judged as one-shot or long-lived code, added to the
   * workspace config's `settings['async-hazards'].oneShot` / `.longLived` (the CLI's
   * `--one-shot`/`--long-lived`). The config's own globs are read from its file's folder.
   */
  oneShot?: readonly string[];
  longLived?: readonly string[];
  /** Replaces the bundled plugin (tests); must carry the same `meta.name`. */
  plugin?: PluginLike;
  /**
   * The editor's open documents and their current text (the language server; the CLI has none).
   * Laid over the disk before each run, so rules reading the modules a file imports see unsaved
   * edits; a document no longer listed falls back to its saved file.
   */
  openDocuments?: () => Iterable<OpenDocument>;
  /**
   * Parse the syntactic path with oxc's native parser where its binding loads (the language
   * server). Each file it cannot serve exactly as `@typescript-eslint/parser` would (a syntax
   * error, JSX, a hashbang) is parsed by that parser instead; type-aware runs always are.
   */
  nativeParser?: boolean;
}

export interface OpenDocument {
  /** Absolute path. */
  filePath: string;
  text: string;
}

export interface LintTextOptions {
  typeAware?: TypeAwareMode;
  rules?: RuleSeverities;
  maxFileSizeKb?: number;
  preset?: Preset;
  /** As `CreateLinterOptions.oneShot` / `.longLived`, for this call (the extension's settings). */
  oneShot?: readonly string[];
  longLived?: readonly string[];
  /** Checked before each expensive step; a cancelled run returns `skipped.reason: 'cancelled'`. */
  isCancelled?: () => boolean;
}

export interface LintMessage extends Linter.LintMessage {
  /** Related locations the rule recorded through the evidence side channel. */
  evidence: EvidenceLocation[];
  /** The process role and phase the finding's code was judged in (not on parse errors). */
  context?: FindingContext;
}

export interface FindingContext {
  role: ProcessRole['role'];
  phase: ProcessRole['phase'];
}

export type SkipReason = 'tooLarge' | 'binary' | 'unsupported' | 'ignored' | 'cancelled';

export interface LintResult {
  filePath: string;
  messages: LintMessage[];
  skipped: { reason: SkipReason; detail: string } | null;
  /** Type information was used for this run. */
  typeAware: boolean;
  /** The tsconfig/jsconfig that would give type information, if any. */
  project: string | null;
  config: { file: string | null; status: WorkspaceRuleConfig['status']; alias: string | null };
  /** Rules that threw on this text; the other rules' findings are still in `messages`. */
  crashedRules: string[];
  /** What the project layer read to lint this text; empty when nothing was linted. */
  reads: FileRead[];
  /** Which parser parsed the text (absent when nothing was linted). */
  parsedBy?: 'oxc' | 'typescript-eslint' | 'hermes-eslint';
  durationMs: number;
}

export interface FixResult {
  output: string;
  fixed: boolean;
}

export interface DisableDirective {
  /** Prefix to write in `eslint-disable` comments (`async-hazards` or the workspace alias). */
  alias: string;
  /** False when the folder's own ESLint might not know our rules and would complain. */
  safe: boolean;
}

export interface AsyncHazardsLinter {
  lintText(text: string, filePath: string, options?: LintTextOptions): Promise<LintResult>;
  fixText(text: string, filePath: string, options?: LintTextOptions): Promise<FixResult>;
  disableDirectiveFor(filePath: string): Promise<DisableDirective>;
  setTrusted(trusted: boolean): void;
  invalidate(): void;
  dispose(): void;
}

export function isSupportedFile(filePath: string): boolean {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(path.extname(filePath).toLowerCase());
}

export function createLinter(options: CreateLinterOptions): AsyncHazardsLinter {
  // ESLint loads `eslint.config.ts` through jiti, which by default caches the transpiled config in
  // a node_modules/.cache next to itself: inside the installed extension or package. A config is
  // only reloaded when it changes, so it is transpiled in memory instead (unless the user set it).
  process.env.JITI_FS_CACHE ??= 'false';
  return new LintCore(options);
}

interface RunPlan {
  config: Linter.Config[];
  alias: string;
  typed: boolean;
}

type RuleEntry = [0 | 1 | 2, ...unknown[]];

const SEVERITY_NUMBER = { off: 0, warn: 1, error: 2 } as const;

/** Paths this process laid unsaved text over; overlays are per process, like the plugin's caches. */
let overlaid = new Set<string>();

/**
 * Makes the plugin's overlays exactly the open documents: unchanged text costs a string comparison.
 * Each run does it; the server also does it as soon as a document changes or closes, to ask the
 * project layer which other documents' reads that changed.
 */
export function syncOverlays(documents: Iterable<OpenDocument>): void {
  const open = new Set<string>();
  for (const document of documents) {
    const filePath = path.resolve(document.filePath);
    open.add(filePath);
    setOverlay(filePath, document.text);
  }
  for (const filePath of overlaid) if (!open.has(filePath)) setOverlay(filePath, null);
  overlaid = open;
}

/** Rules the plugin's `recommended` (and `strict`) config turns on: the zero-config rule set. */
const PRESET_RULES: ReadonlySet<string> = new Set(
  Object.entries(plugin.configs.recommended.rules ?? {})
    .filter(([, entry]) => entry !== 'off' && entry !== 0)
    .map(([id]) => id.slice(id.indexOf('/') + 1)),
);

/**
 * The config's `oneShot`/`longLived` globs rooted at the config file's folder, then the caller's
 * rooted at the working directory: the rules see absolute globs, whatever folder ESLint runs in.
 * Entries that are not strings are passed on, for the rule to name them.
 */
function withRoleGlobs(shared: unknown, configFile: string | null, cwd: string, extra: { oneShot: readonly string[]; longLived: readonly string[] }): unknown {
  const record = typeof shared === 'object' && shared !== null ? (shared as Record<string, unknown>) : null;
  if (!record && extra.oneShot.length === 0 && extra.longLived.length === 0) return shared;
  const out: Record<string, unknown> = { ...record };
  const base = configFile ? path.dirname(configFile) : cwd;
  for (const key of ['oneShot', 'longLived'] as const) {
    const own = record?.[key];
    const list = typeof own === 'string' ? [own] : own;
    const rooted = Array.isArray(list) ? list.map((g) => (typeof g === 'string' ? rootGlob(g, base) : g)) : list;
    if (extra[key].length === 0) {
      if (own !== undefined) out[key] = rooted;
      continue;
    }
    out[key] = [...(Array.isArray(rooted) ? rooted : rooted === undefined ? [] : [rooted]), ...extra[key].map((g) => rootGlob(g, cwd))];
  }
  return out;
}

function rootGlob(glob: string, base: string): string {
  const negated = glob.startsWith('!') ? '!' : '';
  const body = negated ? glob.slice(1) : glob;
  return negated + (path.isAbsolute(body) ? body : path.join(base, body)).split(path.sep).join('/');
}

/** The workspace's shared settings with `preset` filled in where they do not set one. */
function withPreset(shared: unknown, preset: Preset | undefined): unknown {
  if (!preset) return shared;
  const record = typeof shared === 'object' && shared !== null ? (shared as Record<string, unknown>) : {};
  return 'preset' in record ? shared : { ...record, preset };
}

// The recommended config's parser: the server needs no parser of its own.
const parser = nonNull(plugin.configs.recommended.languageOptions?.parser, 'recommended config has a parser') as Linter.Parser;

/** hermes-eslint, loaded at the first Flow file. */
let flowParser: Linter.Parser | undefined;
function sharedFlowParser(): Linter.Parser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a Flow file comes
  flowParser ??= require('hermes-eslint') as Linter.Parser;
  return flowParser;
}

const JS_EXTENSIONS = new Set(['.js', '.jsx', '.mjs', '.cjs']);
/** The comments (and a shebang) before a file's first token. */
const LEADING_COMMENTS = /^(?:#![^\n]*)?(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;

/** A JavaScript file Flow checks: `@flow` in a comment before the first token, and no `@noflow`. */
export function isFlowFile(filePath: string, text: string): boolean {
  if (!JS_EXTENSIONS.has(path.extname(filePath).toLowerCase())) return false;
  const head = LEADING_COMMENTS.exec(text.slice(0, 64 * 1024))?.[0] ?? '';
  return /@flow\b/.test(head) && !/@noflow\b/.test(head);
}

/** Loaded once per process, at the first linter that asks; null when no binding loads here. */
let nativeParser: NativeParser | null | undefined;
function sharedNativeParser(): NativeParser | null {
  if (nativeParser === undefined) nativeParser = loadNativeParser(parser);
  return nativeParser;
}

/** ESLint's config array: `Linter#verify` takes one ready-made instead of normalising a plain array. */
type FlatConfigArrayClass = new (configs: Linter.Config[], options: { basePath: string }) => Linter.Config[] & { normalizeSync(): unknown };

/**
 * `Linter#verify` turns a plain config array into ESLint's `FlatConfigArray` on every call, and
 * the array works out the file's config afresh (merging, validating each rule's options, matching
 * the globs): about 4 % of an editor re-lint's CPU on a 1,000-line file. Handed an array made
 * once per config, it answers each file from its own cache, as ESLint's `ESLint` class has it.
 * The package does not export the class: the bundles map this path to ESLint's file (esbuild.mjs),
 * and run from source it is found next to ESLint's entry point. Null if neither works (plain
 * arrays then, as before).
 */
function loadFlatConfigArray(): FlatConfigArrayClass | null {
  /* eslint-disable @typescript-eslint/no-require-imports -- an internal module, found at run time */
  try {
    return (require('eslint/lib/config/flat-config-array') as { FlatConfigArray: FlatConfigArrayClass }).FlatConfigArray;
  } catch {
    // Not bundled: the package's exports keep the path out, a relative require does not.
  }
  try {
    const fromEslint = createRequire(require.resolve('eslint'));
    return (fromEslint('./config/flat-config-array.js') as { FlatConfigArray?: FlatConfigArrayClass }).FlatConfigArray ?? null;
  } catch {
    return null;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

let flatConfigArray: FlatConfigArrayClass | null | undefined;

class LintCore implements AsyncHazardsLinter {
  private readonly linters = new Map<string, Linter>();
  private readonly projects = new ProjectFileFinder();
  private readonly workspace: WorkspaceConfigReader;
  private readonly plugin: PluginLike;
  private readonly told = new Set<string>();
  private readonly builtProjects = new Set<string>();
  /** Files (or projects) where type information failed: linted syntactically until `invalidate`. */
  private readonly typedFailures = new Set<string>();
  private readonly configCache = new Map<string, Linter.Config[]>();
  /** Each cached config as ESLint's own config array, per linter folder (its base path). */
  private readonly configArrays = new WeakMap<Linter.Config[], Map<string, Linter.Config[]>>();
  /** Each cached config with hermes-eslint as its parser, for Flow files. */
  private readonly flowTwins = new WeakMap<Linter.Config[], Linter.Config[]>();
  /** Rules that threw during the `verify` under way (it is synchronous, so one list serves). */
  private crashes: RuleCrash[] = [];
  /** The syntactic path's parser: oxc's when asked for and loaded, else typescript-eslint's. */
  private readonly native: NativeParser | null;

  constructor(private readonly options: CreateLinterOptions) {
    this.native = options.nativeParser ? sharedNativeParser() : null;
    this.workspace = new WorkspaceConfigReader(options.trusted ?? false, options.configFile);
    this.plugin = isolateCrashes(options.plugin ?? testPlugin() ?? (plugin as unknown as PluginLike), (crash) => this.crashes.push(crash));
  }

  setTrusted(trusted: boolean): void {
    this.workspace.setTrusted(trusted);
    this.configCache.clear();
  }

  invalidate(): void {
    invalidateProjectFiles();
    this.workspace.clear();
    this.projects.clear();
    this.typedFailures.clear();
    this.configCache.clear();
    this.told.clear();
  }

  dispose(): void {
    this.linters.clear();
    this.configCache.clear();
  }

  async disableDirectiveFor(filePath: string): Promise<DisableDirective> {
    const workspace = await this.workspace.read(filePath);
    if (workspace.status === 'none') return { alias: RULE_PREFIX, safe: true };
    if (workspace.alias) return { alias: workspace.alias, safe: true };
    return { alias: RULE_PREFIX, safe: false };
  }

  async lintText(text: string, filePath: string, callOptions: LintTextOptions = {}): Promise<LintResult> {
    const started = performance.now();
    const absolute = path.resolve(this.options.cwd, filePath);
    const result: LintResult = {
      filePath: absolute,
      messages: [],
      skipped: null,
      typeAware: false,
      project: null,
      config: { file: null, status: 'none', alias: null },
      crashedRules: [],
      reads: [],
      durationMs: 0,
    };
    const finish = (): LintResult => {
      result.durationMs = performance.now() - started;
      return result;
    };
    const skip = this.precheck(text, absolute, callOptions);
    if (skip) {
      result.skipped = skip;
      return finish();
    }
    try {
      const plan = await this.plan(absolute, callOptions, result);
      if (!plan) return finish();
      if (callOptions.isCancelled?.()) {
        result.skipped = { reason: 'cancelled', detail: 'a newer version replaced this one' };
        return finish();
      }
      await this.run(text, absolute, plan, result, callOptions);
    } catch (error) {
      await this.notice(`internal:${absolute}`, { kind: 'internalError', filePath: absolute, error: asError(error) });
    }
    return finish();
  }

  async fixText(text: string, filePath: string, callOptions: LintTextOptions = {}): Promise<FixResult> {
    const absolute = path.resolve(this.options.cwd, filePath);
    if (this.precheck(text, absolute, callOptions)) return { output: text, fixed: false };
    try {
      const scratch: LintResult = { ...emptyResult(absolute) };
      const plan = await this.plan(absolute, { ...callOptions, typeAware: 'off' }, scratch);
      if (!plan) return { output: text, fixed: false };
      this.layOverlays();
      let config = plan.config;
      for (;;) {
        this.crashes = [];
        const report = this.linterFor(absolute).verifyAndFix(text, config, { filename: absolute, fix: true });
        const crashed = this.takeCrashes(scratch);
        if (crashed.length === 0) return { output: report.output, fixed: report.fixed };
        // Each round drops at least one rule, so this ends.
        config = withoutRules(config, crashed.map((name) => `${plan.alias}/${name}`));
      }
    } catch (error) {
      await this.notice(`internal:${absolute}`, { kind: 'internalError', filePath: absolute, error: asError(error) });
      return { output: text, fixed: false };
    }
  }

  /** Right before the synchronous ESLint run, so no edit can arrive between the two. */
  private layOverlays(): void {
    if (this.options.openDocuments) syncOverlays(this.options.openDocuments());
  }

  private precheck(text: string, filePath: string, callOptions: LintTextOptions): LintResult['skipped'] {
    if (!isSupportedFile(filePath)) return { reason: 'unsupported', detail: `${path.extname(filePath) || 'no extension'} is not JavaScript or TypeScript` };
    const limitKb = callOptions.maxFileSizeKb ?? this.options.maxFileSizeKb ?? DEFAULT_SETTINGS.maxFileSizeKb;
    // UTF-16 length bounds the UTF-8 size from below; only count bytes when it matters.
    if (text.length > limitKb * 256) {
      const sizeKb = Buffer.byteLength(text, 'utf8') / 1024;
      if (sizeKb > limitKb) return { reason: 'tooLarge', detail: `${Math.round(sizeKb)} KB is over the ${limitKb} KB limit` };
    }
    if (looksBinary(text)) return { reason: 'binary', detail: 'the file looks binary' };
    return null;
  }

  /** Decides config, alias and parser mode for one file. Null when the file is ignored. */
  private async plan(filePath: string, callOptions: LintTextOptions, result: LintResult): Promise<RunPlan | null> {
    const workspace = await this.workspace.read(filePath);
    result.config = { file: workspace.configFile, status: workspace.status, alias: workspace.alias };
    if (workspace.status === 'failed' && workspace.configFile) {
      await this.notice(`config:${workspace.configFile}`, { kind: 'configFailed', configFile: workspace.configFile, error: workspace.error ?? new Error('unknown error') });
    }
    if (workspace.ignored) {
      result.skipped = { reason: 'ignored', detail: `ignored by ${workspace.configFile ?? 'the ESLint config'}` };
      return null;
    }
    const mode = callOptions.typeAware ?? this.options.typeAware ?? DEFAULT_SETTINGS.typeAware;
    const project = mode === 'off' ? null : this.projects.find(filePath);
    result.project = project;
    const typed = mode !== 'off' && (project !== null || mode === 'on') && !this.typedFailures.has(filePath);
    const alias = workspace.alias ?? RULE_PREFIX;
    const rules = this.ruleEntries(workspace, { ...this.options.rules, ...callOptions.rules });
    const extra = {
      oneShot: [...(this.options.oneShot ?? []), ...(callOptions.oneShot ?? [])],
      longLived: [...(this.options.longLived ?? []), ...(callOptions.longLived ?? [])],
    };
    const shared = withRoleGlobs(withPreset(workspace.sharedSettings, callOptions.preset ?? this.options.preset), workspace.configFile, this.options.cwd, extra);
    const key = JSON.stringify([alias, rules, shared ?? null, typed]);
    let config = this.configCache.get(key);
    if (!config) {
      config = this.buildConfig(alias, rules, shared, typed);
      if (this.configCache.size > 32) this.configCache.clear();
      this.configCache.set(key, config);
    }
    return { config, alias, typed };
  }

  private ruleEntries(workspace: WorkspaceRuleConfig, overrides: RuleSeverities): Record<string, RuleEntry> {
    const entries: Record<string, RuleEntry> = {};
    for (const name of RULE_NAMES) {
      const fromWorkspace = workspace.rules ? workspace.rules.get(name) : undefined;
      // With no workspace config, the plugin's own preset config says which rules run.
      const base: RuleEntry = workspace.rules ? (fromWorkspace ?? [0]) : (PRESET_RULES.has(name) ? [2] : [0]);
      const override = overrides[name];
      entries[name] = override ? [SEVERITY_NUMBER[override], ...base.slice(1)] : base;
    }
    return entries;
  }

  private buildConfig(alias: string, rules: Record<string, RuleEntry>, sharedSettings: unknown, typed: boolean): Linter.Config[] {
    const configuredRules: Linter.RulesRecord = {};
    for (const [name, entry] of Object.entries(rules)) {
      if (entry[0] !== 0 && name in this.plugin.rules) configuredRules[`${alias}/${name}`] = entry as Linter.RuleEntry;
    }
    const parserOptions: Linter.ParserOptions = typed
      ? { projectService: true, tsconfigRootDir: this.options.cwd, loggerFn: false }
      : { jsDocParsingMode: 'none', loggerFn: false };
    return [
      {
        files: LINTED_FILES,
        plugins: { [alias]: this.plugin as unknown as NonNullable<Linter.Config['plugins']>[string] },
        languageOptions: { parser: typed ? parser : this.syntacticParser(), parserOptions },
        linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
        settings: sharedSettings === undefined ? {} : { 'async-hazards': sharedSettings },
        rules: configuredRules,
      },
    ];
  }

  private async run(text: string, filePath: string, plan: RunPlan, result: LintResult, callOptions: LintTextOptions): Promise<void> {
    let current = isFlowFile(filePath, text) ? { ...plan, typed: false, config: this.flowTwin(plan) } : plan;
    if (current.typed && result.project && !this.builtProjects.has(result.project)) {
      await this.notice(`building:${result.project}`, { kind: 'typeInfoBuilding', project: result.project });
    }
    const buildStarted = performance.now();
    this.layOverlays();
    let messages = this.verifyLogged(text, filePath, current, result);
    const fatal = current.typed ? messages.find((m) => m.fatal) : undefined;
    if (fatal && isProjectServiceFailure(fatal.message)) {
      // The project service could not serve this file (a plain syntax error is reported as is).
      current = { ...plan, typed: false, config: this.syntacticTwin(plan) };
      if (callOptions.isCancelled?.()) return;
      messages = this.verifyLogged(text, filePath, current, result);
      this.typedFailures.add(filePath);
      await this.notice(`typed:${result.project ?? filePath}`, {
        kind: 'typeInfoUnavailable',
        filePath,
        project: result.project,
        reason: fatal.message.replace(/^Parsing error:\s*/, ''),
      });
    } else if (current.typed && result.project && !this.builtProjects.has(result.project)) {
      this.builtProjects.add(result.project);
      await this.notice(`built:${result.project}`, { kind: 'typeInfoBuilt', project: result.project, durationMs: performance.now() - buildStarted });
    }
    result.typeAware = current.typed;
    result.messages = this.withEvidence(messages, current, filePath);
  }

  private syntacticTwin(plan: RunPlan): Linter.Config[] {
    const [first] = plan.config;
    return [{ ...first, languageOptions: { parser: this.syntacticParser(), parserOptions: { jsDocParsingMode: 'none', loggerFn: false } } }];
  }

  /** The plan's config with hermes-eslint for a Flow file (no type information: Flow's are not TypeScript's). */
  private flowTwin(plan: RunPlan): Linter.Config[] {
    let twin = this.flowTwins.get(plan.config);
    if (!twin) {
      const [first] = plan.config;
      twin = [{ ...first, languageOptions: { parser: sharedFlowParser(), parserOptions: { sourceType: 'module' } } }];
      this.flowTwins.set(plan.config, twin);
    }
    return twin;
  }

  private syntacticParser(): Linter.Parser {
    return this.native?.parser ?? parser;
  }

  /** One pass under the project layer's read log, which becomes `result.reads`. */
  private verifyLogged(text: string, filePath: string, plan: RunPlan, result: LintResult): Linter.LintMessage[] {
    const { value, reads } = withReadLog(() => {
      const messages = this.verifyOnce(text, filePath, plan, result);
      if (this.options.openDocuments && !messages.some((m) => m.fatal)) this.recordImports(filePath, text);
      return messages;
    });
    result.reads = reads;
    return value;
  }

  /**
   * Puts the file's imports in the project layer's import index, so the server knows which open
   * files import a module that changed even when no rule asked about that module.
   */
  private recordImports(filePath: string, text: string): void {
    const sourceCode = this.linterFor(filePath).getSourceCode() as { ast: unknown; text: string } | null;
    if (sourceCode?.text === text) importsOf(filePath, sourceCode.ast as Parameters<typeof importsOf>[1], text);
  }

  /** One ESLint pass; a rule that threw is left out of the messages (see `isolateCrashes`). */
  private verifyOnce(text: string, filePath: string, plan: RunPlan, result: LintResult): Linter.LintMessage[] {
    this.crashes = [];
    if (this.native) this.native.lastParse = null;
    const messages = this.linterFor(filePath).verify(text, this.configArray(plan.config, this.linterCwd(filePath)), { filename: filePath });
    const parserOf = plan.config[0]?.languageOptions?.parser;
    result.parsedBy = parserOf !== undefined && parserOf === flowParser ? 'hermes-eslint'
      : !plan.typed && this.native?.lastParse?.by === 'native' ? 'oxc' : 'typescript-eslint';
    const crashed = this.takeCrashes(result);
    if (crashed.length === 0) return messages;
    const dropped = new Set(crashed.map((name) => `${plan.alias}/${name}`));
    return messages.filter((m) => m.ruleId === null || !dropped.has(m.ruleId));
  }

  /** Names the rules that crashed in the last pass on `result` and tells about each once. */
  private takeCrashes(result: LintResult): string[] {
    const names: string[] = [];
    for (const crash of this.crashes) {
      const ruleId = `${RULE_PREFIX}/${crash.rule}`;
      if (names.includes(crash.rule)) continue;
      names.push(crash.rule);
      if (!result.crashedRules.includes(ruleId)) result.crashedRules.push(ruleId);
      void this.notice(`crash:${crash.rule}`, { kind: 'ruleCrashed', ruleId, filePath: crash.filePath, error: crash.error });
    }
    this.crashes = [];
    return names;
  }

  private withEvidence(messages: Linter.LintMessage[], plan: RunPlan, filePath: string): LintMessage[] {
    const alias = plan.alias;
    const sourceCode = this.linterFor(filePath).getSourceCode();
    const records = sourceCode ? getEvidence(sourceCode) : [];
    const settings = plan.config[0]?.settings;
    const out: LintMessage[] = [];
    for (const message of messages) {
      if (message.fatal) {
        out.push({ ...message, evidence: [] });
        continue;
      }
      if (!message.ruleId?.startsWith(`${alias}/`)) continue;
      const ruleId = `${RULE_PREFIX}/${message.ruleId.slice(alias.length + 1)}`;
      const record = records.find((r) => r.ruleId === ruleId && r.line === message.line && r.column === message.column - 1);
      const context = sourceCode ? findingContext(sourceCode, filePath, this.options.cwd, settings, message) : undefined;
      out.push({ ...message, ruleId, evidence: record ? record.related : [], ...(context ? { context } : {}) });
    }
    if (sourceCode) clearEvidence(sourceCode);
    return out;
  }

  /** `config` as a normalised ESLint config array for a linter in `cwd`; `config` itself when the class is not found. */
  private configArray(config: Linter.Config[], cwd: string): Linter.Config[] {
    flatConfigArray ??= loadFlatConfigArray();
    if (!flatConfigArray) return config;
    let byCwd = this.configArrays.get(config);
    if (!byCwd) {
      byCwd = new Map();
      this.configArrays.set(config, byCwd);
    }
    let array = byCwd.get(cwd);
    if (!array) {
      // As `Linter#verify` makes it from a plain array: the linter's folder as base path.
      const made = new flatConfigArray(config, { basePath: cwd });
      made.normalizeSync();
      array = made;
      byCwd.set(cwd, array);
    }
    return array;
  }

  private linterCwd(filePath: string): string {
    const inside = !path.relative(this.options.cwd, filePath).startsWith('..');
    return inside ? this.options.cwd : path.parse(filePath).root;
  }

  private linterFor(filePath: string): Linter {
    const cwd = this.linterCwd(filePath);
    let linter = this.linters.get(cwd);
    if (!linter) {
      linter = new Linter({ cwd });
      this.linters.set(cwd, linter);
    }
    return linter;
  }

  /** Each cause is heard once per linter (until `invalidate`). */
  private async notice(key: string, notice: LintNotice): Promise<void> {
    if (this.told.has(key)) return;
    this.told.add(key);
    try {
      await this.options.onNotice?.(notice);
    } catch {
      // A listener's failure must not turn into a lint failure.
    }
  }
}

/**
 * The role and phase at a finding, by the same function the rules judge by: the role of the file
 * and the phase at the innermost node that starts where the finding does.
 */
function findingContext(
  sourceCode: NonNullable<ReturnType<Linter['getSourceCode']>>,
  filePath: string,
  cwd: string,
  settings: unknown,
  message: Linter.LintMessage,
): FindingContext | undefined {
  const subject = { filename: filePath, cwd, settings: settings ?? {}, sourceCode: sourceCode as never };
  let node: unknown = null;
  if (typeof message.line === 'number' && typeof message.column === 'number' && message.line >= 1 && message.line <= sourceCode.lines.length) {
    const index = sourceCode.getIndexFromLoc({ line: message.line, column: Math.max(0, message.column - 1) });
    node = sourceCode.getNodeByRangeIndex(index);
  }
  // A finding on a function (a route handler a framework drops the promise of, a listener) is
  // about what its body does when it runs, not about where the function is written: a handler
  // registered at module top level runs while the process serves.
  if (isFunctionLike(node)) node = node.body;
  const found = processRole(subject, (node ?? undefined) as never);
  return { role: found.role, phase: found.phase };
}

function isFunctionLike(node: unknown): node is { body: unknown } {
  const type = (node as { type?: unknown } | null)?.type;
  return type === 'FunctionDeclaration' || type === 'FunctionExpression' || type === 'ArrowFunctionExpression';
}

interface RuleCrash {
  rule: string;
  filePath: string;
  error: Error;
}

interface RuleLike {
  create(context: { filename: string }): Record<string, unknown>;
}

function isRuleLike(rule: unknown): rule is RuleLike {
  return typeof rule === 'object' && rule !== null && typeof (rule as { create?: unknown }).create === 'function';
}

/**
 * The plugin with every rule's `create` and listeners guarded: the first throw is recorded and
 * that rule's listeners do nothing for the rest of the file, so one traversal serves even when a
 * rule has a bug. (Without this, ESLint's `verify` throws and the whole file has to be linted again.)
 */
function isolateCrashes(original: PluginLike, record: (crash: RuleCrash) => void): PluginLike {
  const rules: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(original.rules)) {
    rules[name] = isRuleLike(rule) ? { ...rule, create: (context: { filename: string }) => guardedCreate(name, rule, context, record) } : rule;
  }
  return { ...original, rules };
}

function guardedCreate(name: string, rule: RuleLike, context: { filename: string }, record: (crash: RuleCrash) => void): Record<string, unknown> {
  let crashed = false;
  const crash = (error: unknown): void => {
    crashed = true;
    record({ rule: name, filePath: context.filename, error: asError(error) });
  };
  let listeners: Record<string, unknown>;
  try {
    listeners = rule.create(context);
  } catch (error) {
    crash(error);
    return {};
  }
  const guarded: Record<string, unknown> = {};
  for (const [selector, listener] of Object.entries(listeners)) {
    if (typeof listener !== 'function') {
      guarded[selector] = listener;
      continue;
    }
    guarded[selector] = (...args: unknown[]): unknown => {
      if (crashed) return undefined;
      try {
        return (listener as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        crash(error);
        return undefined;
      }
    };
  }
  return guarded;
}

function withoutRules(config: Linter.Config[], ruleIds: readonly string[]): Linter.Config[] {
  const [first] = config;
  const rules = { ...first?.rules };
  for (const id of ruleIds) delete rules[id];
  return [{ ...first, rules }];
}

/**
 * Test hook: `ASYNC_HAZARDS_TEST_PLUGIN` names a CommonJS module whose export replaces the bundled
 * plugin, so tests of the built CLI and server can run a rule that throws. An export that is a
 * function is called with the bundled project layer and returns the plugin: a stand-in rule then
 * reads modules through the same overlays and read log as the bundled rules. Never set in use.
 */
function testPlugin(): PluginLike | undefined {
  const file = process.env.ASYNC_HAZARDS_TEST_PLUGIN;
  if (!file) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module named at run time
  const loaded = require(file) as PluginLike | ((project: typeof projectLayer) => PluginLike);
  return typeof loaded === 'function' ? loaded(projectLayer) : loaded;
}

function emptyResult(filePath: string): LintResult {
  return { filePath, messages: [], skipped: null, typeAware: false, project: null, config: { file: null, status: 'none', alias: null }, crashedRules: [], reads: [], durationMs: 0 };
}

/** NUL characters do not occur in source text; a run of them means a binary file was opened. */
function looksBinary(text: string): boolean {
  const head = text.length > 8192 ? text.slice(0, 8192) : text;
  return head.includes('\u0000');
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function nonNull<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

export type { RuleName };
