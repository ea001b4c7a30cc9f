import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import plugin from 'eslint-plugin-async-hazards';
import type { LintMessage, LintNotice } from '../lint';
import { BUGS_URL, createLinter, isSupportedFile } from '../lint';
import { listWorkspaceFiles } from '../workspaceScan';
import { CONFIG_FILE_NAMES, exists } from '../workspaceConfig';
import type { CliOptions } from './args';
import { HELP, UsageError, parseArgs } from './args';
import { ResultCache, hash } from './cache';
import { format } from './formatters';
import type { FileReport } from './report';
import { countMessages } from './report';
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
  const files = await collectFiles(cwd, options.paths);

  let configFailure: string | null = null;
  const warned = new Set<string>();
  let crashed = false;
  const onNotice = (notice: LintNotice): void => {
    switch (notice.kind) {
      case 'configFailed':
      case 'configInvalid':
        configFailure ??= `cannot load ${path.relative(cwd, notice.configFile) || notice.configFile}: ${firstLine(notice.error.message)}`;
        break;
      case 'typeInfoUnavailable': {
        const where = notice.project ? path.relative(cwd, notice.project) : 'no tsconfig.json or jsconfig.json';
        const key = notice.project ?? 'none';
        if (!warned.has(key)) {
          warned.add(key);
          process.stderr.write(`async-hazards: warning: no type information for ${path.relative(cwd, notice.filePath)} (${where}); linting it without types\n`);
        }
        break;
      }
      case 'ruleCrashed':
        crashed = true;
        process.stderr.write(`async-hazards: internal error: ${notice.ruleId} crashed on ${path.relative(cwd, notice.filePath)}: ${notice.error.stack ?? notice.error.message}\n`);
        break;
      case 'internalError':
        crashed = true;
        process.stderr.write(`async-hazards: internal error on ${path.relative(cwd, notice.filePath)}: ${notice.error.stack ?? notice.error.message}\n`);
        break;
      default:
        break;
    }
  };
  const linter = createLinter({
    cwd,
    trusted: true,
    typeAware: options.typeAware ? 'on' : 'off',
    rules: options.rules,
    ...(options.strict ? { preset: 'strict' as const } : {}),
    oneShot: options.oneShot,
    longLived: options.longLived,
    configFile,
    maxFileSizeKb: Number.MAX_SAFE_INTEGER / 1024,
    onNotice,
  });
  const cache = options.cache ? await ResultCache.open(path.resolve(cwd, options.cacheLocation), await cacheKey(options, configFile, cwd)) : null;
  const progress = process.stderr.isTTY && files.length > 20 ? (done: number) => process.stderr.write(`\r${done}/${files.length} files`) : null;

  const reports: FileReport[] = [];
  /** Files each crashed rule failed on, in lint order. */
  const crashes = new Map<string, string[]>();
  for (const [index, filePath] of files.entries()) {
    progress?.(index);
    reports.push(await lintFile(linter, filePath, options, cache, crashes));
    if (configFailure) throw new ConfigError(configFailure);
  }
  if (progress) process.stderr.write('\r\u001b[K');
  await cache?.save();
  linter.dispose();

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
  if (crashed) return 2;
  if (errors > 0) return 1;
  if (options.maxWarnings >= 0 && warnings > options.maxWarnings) {
    process.stderr.write(`async-hazards: ${warnings} warnings, more than --max-warnings ${options.maxWarnings}\n`);
    return 1;
  }
  return 0;
}

async function lintFile(
  linter: ReturnType<typeof createLinter>,
  filePath: string,
  options: CliOptions,
  cache: ResultCache | null,
  crashes: Map<string, string[]>,
): Promise<FileReport> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${filePath}: ${(error as Error).message}`);
  }
  let output: string | undefined;
  if (options.fix || options.fixDryRun) {
    const fixed = await linter.fixText(text, filePath);
    if (fixed.fixed) {
      output = fixed.output;
      if (options.fix) await fs.writeFile(filePath, fixed.output);
      text = fixed.output;
    }
  }
  const cached = cache?.get(filePath, text);
  if (cached) return countMessages({ filePath, messages: cached, ...(output && options.fixDryRun ? { output } : {}) });
  const result = await linter.lintText(text, filePath);
  let messages: LintMessage[] = result.messages;
  let skipped: string | undefined;
  if (result.skipped && result.skipped.reason !== 'ignored') {
    skipped = result.skipped.detail;
    process.stderr.write(`async-hazards: warning: skipped ${path.relative(process.cwd(), filePath)}: ${skipped}\n`);
  }
  for (const ruleId of result.crashedRules) crashes.set(ruleId, [...(crashes.get(ruleId) ?? []), filePath]);
  messages = messages.map((m) => ({ ...m }));
  if (result.crashedRules.length === 0 && !result.skipped) cache?.set(filePath, text, messages);
  return countMessages({
    filePath,
    messages,
    ...(output && options.fixDryRun ? { output } : {}),
    ...(skipped ? { skipped } : {}),
  });
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
