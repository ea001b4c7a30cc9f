import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import plugin from 'eslint-plugin-async-hazards';
import { BUGS_URL, isSupportedFile } from '../lint';
import { ProjectFileFinder } from '../typeAware';
import { listWorkspaceFiles } from '../workspaceScan';
import { CONFIG_FILE_NAMES, exists } from '../workspaceConfig';
import type { CliOptions } from './args';
import { HELP, UsageError, parseArgs } from './args';
import { ResultCache, hash } from './cache';
import { format } from './formatters';
import type { FileOutcome, LintJob, LinterSetup, NoticeRecord } from './lintFile';
import { createFileLinter } from './lintFile';
import { partitionedQueues, runOnThreads, sharedQueue, threadCount } from './pool';
import type { FileReport } from './report';
import { countMessages } from './report';
import { inShard } from './shard';
import * as suppressions from './suppressions';

const VERSION = plugin.meta.version;
/** How many paths a crash summary names before it only counts. */
const CRASH_PATHS_SHOWN = 3;

/** A problem with the user's setup (config, paths, files): one line, exit code 2. */
class ConfigError extends Error {}

export async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`async-hazards ${VERSION}\n`);
    return 0;
  }
  if (options.stdio) {
    // The same language server bundle the editor runs; it reads --stdio from argv.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the sibling bundle, resolved at run time
    require(path.join(__dirname, 'server.js'));
    return -1;
  }
  try {
    return await lint(options);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) return fail(error.message);
    throw error;
  }
}

async function lint(options: CliOptions): Promise<number> {
  const cwd = process.cwd();
  const configFile = options.config ? path.resolve(cwd, options.config) : undefined;
  if (configFile && !(await exists(configFile))) throw new ConfigError(`config file not found: ${options.config}`);
  let files = await collectFiles(cwd, options.paths);
  const shard = options.shard;
  if (shard) files = files.filter((file) => inShard(cwd, file, shard));

  const setup: LinterSetup = {
    cwd,
    typeAware: options.typeAware ? 'on' : 'off',
    rules: options.rules,
    ...(options.strict ? { preset: 'strict' as const } : {}),
    oneShot: options.oneShot,
    longLived: options.longLived,
    configFile,
  };
  const fix = { write: options.fix, dryRun: options.fixDryRun };
  const cache = options.cache ? await ResultCache.open(path.resolve(cwd, options.cacheLocation), await cacheKey(options, configFile, cwd)) : null;
  const jobs: LintJob[] = files.map((filePath, index) => ({ index, filePath, cachedHash: cache?.entry(filePath)?.hash ?? null }));
  const progress = process.stderr.isTTY && files.length > 20 ? (done: number) => process.stderr.write(`\r${done}/${files.length} files`) : null;

  const notices = new NoticeBoard(cwd);
  const reports: FileReport[] = [];
  /** Files each crashed rule failed on, in file order. */
  const crashes = new Map<string, string[]>();
  // Outcomes arrive in any order from workers; they are taken in file order, so notices, crash
  // summaries and reports come out as on one thread.
  const arrived = new Map<number, FileOutcome>();
  let done = 0;
  const receive = (outcome: FileOutcome): void => {
    progress?.(++done);
    arrived.set(outcome.index, outcome);
    for (let next = arrived.get(reports.length); next; next = arrived.get(reports.length)) {
      arrived.delete(next.index);
      reports.push(settle(next, options, cache, notices, crashes));
    }
  };
  progress?.(0);
  const threads = threadCount(options.concurrency, files.length);
  const fileLinter = createFileLinter(setup, fix);
  if (threads === 1) {
    for (const job of jobs) receive(await fileLinter.lint(job));
  } else {
    const projects = new ProjectFileFinder();
    const source = options.typeAware ? partitionedQueues(jobs, threads, (file) => projects.find(file) ?? '') : sharedQueue(jobs, threads);
    await runOnThreads(fileLinter, { linter: setup, fix }, source, jobs.length, receive);
  }
  fileLinter.dispose();
  if (progress) process.stderr.write('\r\u001b[K');
  await cache?.save();

  const finalReports = await applySuppressions(options, cwd, reports, new Set(files));
  const shown = options.quiet
    ? finalReports.map((r) => countMessages({ ...r, messages: r.messages.filter((m) => m.severity === 2 || m.fatal) }))
    : finalReports;
  const text = format(options.format, shown, {
    cwd,
    version: VERSION,
    docsUrl: (id) => ruleMeta(id)?.docs?.url,
    description: (id) => ruleMeta(id)?.docs?.description,
    color: !options.outputFile && process.stdout.isTTY === true,
  });
  if (options.outputFile) {
    const target = path.resolve(cwd, options.outputFile);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  } else {
    process.stdout.write(text);
  }

  for (const [ruleId, crashedFiles] of crashes) process.stderr.write(`${crashSummary(ruleId, crashedFiles, cwd)}\n`);
  const errors = shown.reduce((n, r) => n + r.errorCount, 0);
  const warnings = shown.reduce((n, r) => n + r.warningCount, 0);
  if (notices.crashed) return 2;
  if (errors > 0) return 1;
  if (options.maxWarnings >= 0 && warnings > options.maxWarnings) {
    process.stderr.write(`async-hazards: ${warnings} warnings, more than --max-warnings ${options.maxWarnings}\n`);
    return 1;
  }
  return 0;
}

/** One file's outcome, in file order: its notices told, its findings cached, its report made. */
function settle(outcome: FileOutcome, options: CliOptions, cache: ResultCache | null, notices: NoticeBoard, crashes: Map<string, string[]>): FileReport {
  const { filePath } = outcome;
  if (outcome.readError !== null) throw new ConfigError(`cannot read ${filePath}: ${outcome.readError}`);
  for (const notice of outcome.notices) notices.tell(notice);
  if (notices.configFailure) throw new ConfigError(notices.configFailure);
  const output = outcome.output && options.fixDryRun ? { output: outcome.output } : {};
  const cached = outcome.fromCache ? cache?.entry(filePath) : undefined;
  if (cached) return countMessages({ filePath, messages: cached.messages, ...output });
  if (outcome.skipped !== null) process.stderr.write(`async-hazards: warning: skipped ${path.relative(process.cwd(), filePath)}: ${outcome.skipped}\n`);
  for (const ruleId of outcome.crashedRules) crashes.set(ruleId, [...(crashes.get(ruleId) ?? []), filePath]);
  const messages = outcome.messages.map((m) => ({ ...m }));
  if (outcome.cacheHash !== null) cache?.set(filePath, outcome.cacheHash, messages, outcome.reads);
  return countMessages({ filePath, messages, ...output, ...(outcome.skipped !== null ? { skipped: outcome.skipped } : {}) });
}

/**
 * Tells each cause once per run on stderr. Each worker's linter tells a cause once per worker,
 * and outcomes are told in file order, so the one told is the first file's, as on one thread.
 */
class NoticeBoard {
  configFailure: string | null = null;
  crashed = false;
  private readonly told = new Set<string>();

  constructor(private readonly cwd: string) {}

  tell(notice: NoticeRecord): void {
    const relative = (file: string): string => path.relative(this.cwd, file);
    switch (notice.kind) {
      case 'configFailed':
        this.configFailure ??= `cannot load ${relative(notice.configFile) || notice.configFile}: ${firstLine(notice.message)}`;
        break;
      case 'typeInfoUnavailable': {
        const where = notice.project ? relative(notice.project) : 'no tsconfig.json or jsconfig.json';
        if (this.once(`typed:${notice.project ?? 'none'}`)) {
          process.stderr.write(`async-hazards: warning: no type information for ${relative(notice.filePath)} (${where}); linting it without types\n`);
        }
        break;
      }
      case 'ruleCrashed':
        this.crashed = true;
        if (this.once(`crash:${notice.ruleId}`)) {
          process.stderr.write(`async-hazards: internal error: ${notice.ruleId} crashed on ${relative(notice.filePath)}: ${notice.detail}\n`);
        }
        break;
      case 'internalError':
        this.crashed = true;
        if (this.once(`internal:${notice.filePath}`)) process.stderr.write(`async-hazards: internal error on ${relative(notice.filePath)}: ${notice.detail}\n`);
        break;
      default:
        break;
    }
  }

  private once(key: string): boolean {
    if (this.told.has(key)) return false;
    this.told.add(key);
    return true;
  }
}

async function collectFiles(cwd: string, inputs: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const input of inputs) {
    const absolute = path.resolve(cwd, input);
    let stat: Awaited<ReturnType<typeof fs.stat>>;
    try {
      stat = await fs.stat(absolute);
    } catch {
      throw new ConfigError(`no such file or directory: ${input}`);
    }
    if (stat.isDirectory()) {
      for (const file of await listWorkspaceFiles(absolute)) files.add(file);
    } else if (isSupportedFile(absolute)) {
      files.add(absolute);
    } else {
      throw new ConfigError(`${input} is not a JavaScript or TypeScript file (.js .jsx .mjs .cjs .ts .tsx .mts .cts)`);
    }
  }
  return [...files].sort();
}

async function applySuppressions(options: CliOptions, cwd: string, reports: FileReport[], linted: ReadonlySet<string>): Promise<FileReport[]> {
  const location = path.resolve(cwd, options.suppressionsLocation);
  let current: suppressions.Suppressions;
  try {
    current = await suppressions.loadSuppressions(location);
  } catch (error) {
    throw new ConfigError(`cannot read suppressions: ${firstLine((error as Error).message)}`);
  }
  if (options.suppressAll || options.suppressRules.length > 0) {
    current = suppressions.record(location, reports, options.suppressAll ? {} : current, options.suppressAll ? [] : options.suppressRules);
    if (!options.suppressAll) current = mergeKeep(current, await suppressions.loadSuppressions(location));
    await suppressions.saveSuppressions(location, current);
  } else if (options.pruneSuppressions) {
    current = await suppressions.prune(location, reports, current, linted);
    await suppressions.saveSuppressions(location, current);
  }
  return suppressions.apply(location, reports, current);
}

/** `--suppress-rule` replaces the counts of the named rules and keeps the rest of the file. */
function mergeKeep(recorded: suppressions.Suppressions, previous: suppressions.Suppressions): suppressions.Suppressions {
  const merged: suppressions.Suppressions = JSON.parse(JSON.stringify(previous)) as suppressions.Suppressions;
  for (const [file, rules] of Object.entries(recorded)) merged[file] = { ...merged[file], ...rules };
  return merged;
}

async function cacheKey(options: CliOptions, configFile: string | undefined, cwd: string): Promise<string> {
  let configText = '';
  const candidates = configFile ? [configFile] : CONFIG_FILE_NAMES.map((n) => path.join(cwd, n));
  for (const candidate of candidates) {
    try {
      configText += await fs.readFile(candidate, 'utf8');
    } catch {
      // Not there.
    }
  }
  return hash(JSON.stringify([VERSION, options.rules, options.typeAware, options.strict, options.quiet, hash(configText), options.oneShot, options.longLived]));
}

function ruleMeta(ruleId: string): { docs?: { url?: string; description?: string } } | undefined {
  const name = ruleId.slice(ruleId.indexOf('/') + 1);
  return (plugin.rules as Record<string, { meta?: { docs?: { url?: string; description?: string } } }>)[name]?.meta;
}

/** One line per crashed rule, after the report: the details went to stderr as the crash happened. */
function crashSummary(ruleId: string, files: readonly string[], cwd: string): string {
  const shown = files.slice(0, CRASH_PATHS_SHOWN).map((f) => path.relative(cwd, f) || f);
  const more = files.length > shown.length ? ` and ${files.length - shown.length} more` : '';
  const count = files.length === 1 ? '1 file' : `${files.length} files`;
  return `async-hazards: ${ruleId} crashed on ${count} (${shown.join(', ')}${more}); its findings there are missing. This is a bug in async-hazards; please report it at ${BUGS_URL}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

function fail(message: string): number {
  process.stderr.write(`async-hazards: ${message}\n`);
  return 2;
}
