import type { RuleSeverities } from '../settings';
import { parseRuleFlag } from '../settings';
import type { Shard } from './shard';

export const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface CliOptions {
  paths: string[];
  typeAware: boolean;
  /** `--strict`: the strict preset where the project's ESLint config sets none. */
  strict: boolean;
  /** `--one-shot <glob>` / `--long-lived <glob>`, relative to the working directory. */
  oneShot: string[];
  longLived: string[];
  format: Format;
  outputFile: string | null;
  rules: RuleSeverities;
  maxWarnings: number;
  quiet: boolean;
  fix: boolean;
  fixDryRun: boolean;
  cache: boolean;
  cacheLocation: string;
  config: string | null;
  suppressAll: boolean;
  suppressRules: string[];
  pruneSuppressions: boolean;
  suppressionsLocation: string;
  /** `--concurrency`: how many threads lint (`auto`: one per core), or `off` for the main thread only. */
  concurrency: 'auto' | 'off' | number;
  /** `--shard i/n`: lint only the files whose path hashes to shard i of n. */
  shard: Shard | null;
  stdio: boolean;
  version: boolean;
  help: boolean;
}

/** A mistake in the command line: reported on one line, exit code 2. */
export class UsageError extends Error {}

const VALUE_FLAGS = new Set([
  '--format', '-f', '--output-file', '-o', '--rule', '--max-warnings', '--cache-location', '--config', '-c',
  '--suppress-rule', '--suppressions-location', '--concurrency', '--shard', '--one-shot', '--long-lived',
]);

export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    paths: [],
    typeAware: false,
    strict: false,
    oneShot: [],
    longLived: [],
    format: 'stylish',
    outputFile: null,
    rules: {},
    maxWarnings: -1,
    quiet: false,
    fix: false,
    fixDryRun: false,
    cache: false,
    cacheLocation: '.async-hazards-cache',
    config: null,
    suppressAll: false,
    suppressRules: [],
    pruneSuppressions: false,
    suppressionsLocation: 'async-hazards-suppressions.json',
    concurrency: 'auto',
    shard: null,
    stdio: false,
    version: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] as string;
    if (raw === '--') {
      options.paths.push(...argv.slice(i + 1));
      break;
    }
    if (!raw.startsWith('-') || raw === '-') {
      options.paths.push(raw);
      continue;
    }
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    let value: string | undefined;
    if (VALUE_FLAGS.has(flag)) {
      value = eq > 0 ? raw.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    } else if (eq > 0) {
      throw new UsageError(`${flag} takes no value`);
    }
    switch (flag) {
      case '--type-aware': options.typeAware = true; break;
      case '--strict': options.strict = true; break;
      case '--one-shot': options.oneShot.push(value as string); break;
      case '--long-lived': options.longLived.push(value as string); break;
      case '--format': case '-f': options.format = parseFormat(value as string); break;
      case '--output-file': case '-o': options.outputFile = value as string; break;
      case '--rule': {
        const parsed = parseRuleFlag(value as string);
        if ('error' in parsed) throw new UsageError(parsed.error);
        options.rules[parsed.rule] = parsed.severity;
        break;
      }
      case '--max-warnings': options.maxWarnings = parseCount(flag, value as string); break;
      case '--quiet': options.quiet = true; break;
      case '--fix': options.fix = true; break;
      case '--fix-dry-run': options.fixDryRun = true; break;
      case '--cache': options.cache = true; break;
      case '--cache-location': options.cacheLocation = value as string; break;
      case '--config': case '-c': options.config = value as string; break;
      case '--suppress-all': options.suppressAll = true; break;
      case '--suppress-rule': {
        const parsed = parseRuleFlag(`${value as string}=error`);
        if ('error' in parsed) throw new UsageError(parsed.error.replace(/--rule [^:]*: /, ''));
        options.suppressRules.push(`async-hazards/${parsed.rule}`);
        break;
      }
      case '--prune-suppressions': options.pruneSuppressions = true; break;
      case '--suppressions-location': options.suppressionsLocation = value as string; break;
      case '--concurrency': options.concurrency = parseConcurrency(value as string); break;
      case '--shard': options.shard = parseShard(value as string); break;
      case '--stdio': options.stdio = true; break;
      case '--version': case '-v': options.version = true; break;
      case '--help': case '-h': options.help = true; break;
      default: throw new UsageError(`unknown option ${flag} (see --help)`);
    }
  }
  if (options.fix && options.fixDryRun) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  if (options.shard) {
    const whole = options.suppressAll ? '--suppress-all' : options.suppressRules.length > 0 ? '--suppress-rule' : options.pruneSuppressions ? '--prune-suppressions' : null;
    if (whole) throw new UsageError(`${whole} cannot be combined with --shard: the suppressions file covers every file and a shard lints only some; run it without --shard`);
  }
  if (options.paths.length === 0) options.paths.push('.');
  return options;
}

function parseConcurrency(value: string): CliOptions['concurrency'] {
  if (value === 'auto' || value === 'off') return value;
  if (/^[1-9]\d*$/.test(value)) return Number(value);
  throw new UsageError(`--concurrency needs auto, off or a number of threads, got ${JSON.stringify(value)}`);
}

function parseShard(value: string): Shard {
  const match = /^([1-9]\d*)\/([1-9]\d*)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index > count) throw new UsageError(`--shard needs i/n with 1 <= i <= n, got ${JSON.stringify(value)}`);
  return { index, count };
}

function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UsageError(`unknown format ${JSON.stringify(value)}; use one of ${FORMATS.join(', ')}`);
}

function parseCount(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} needs a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

export const HELP = `Usage: async-hazards [options] [paths...]

Finds the concurrency hazards of async JavaScript/TypeScript code: locks released outside
finally, sleeps holding a permit, blocking calls in async code, orphaned promises and unbounded
fan-out. Lints .js .jsx .mjs .cjs .ts .tsx .mts .cts files under the paths (default: .), skipping
node_modules, .gitignore'd files and ESLint ignores. Uses the project's ESLint flat config when it
enables eslint-plugin-async-hazards, otherwise every rule at error.

Options:
  --strict                     Also report what the recommended preset leaves out for context
                               (startup code, entry scripts, sizes it cannot see)
  --one-shot <glob>            Judge matching files as one-shot code (scripts, migrations, CLIs);
                               relative to the working directory (repeatable)
  --long-lived <glob>          Judge matching files as long-lived code (servers, workers); wins
                               over --one-shot (repeatable)
  --type-aware                 Use TypeScript type information (project service)
  -f, --format <name>          stylish (default), json, sarif, github
  -o, --output-file <file>     Write the report to a file instead of stdout
  --rule <id>=<severity>       off|warn|error; id with or without the async-hazards/ prefix (repeatable)
  --max-warnings <n>           Fail when there are more than n warnings
  --quiet                      Report errors only
  --fix                        Apply autofixes (never suggestions) and write the files
  --fix-dry-run                Compute autofixes without writing; json output carries them
  --cache                      Only re-lint changed files
  --cache-location <file>      Cache file (default .async-hazards-cache)
  -c, --config <file>          Use this ESLint flat config file
  --suppress-all               Record every current error in the suppressions file
  --suppress-rule <id>         Record current errors of one rule (repeatable)
  --prune-suppressions         Drop suppressions that no longer match anything
  --suppressions-location <f>  Suppressions file (default async-hazards-suppressions.json)
  --concurrency <auto|off|n>   Lint on n threads, the main one and n-1 workers; auto (default): one
                               per core, at most one per 50 files; off or 1: the main thread only.
                               The report is the same either way
  --shard <i>/<n>              Lint only shard i of n (for CI machines in parallel): files are
                               assigned by a hash of their path, so shards 1..n together lint every
                               file once. --max-warnings counts the shard's warnings only
  --stdio                      Start the language server on stdin/stdout
  -v, --version                Print the version
  -h, --help                   Print this help

Exit codes: 0 no errors (and warnings within --max-warnings), 1 errors or too many warnings,
2 usage or configuration error.

Examples:
  async-hazards src/
  async-hazards --format sarif --output-file async-hazards.sarif .
  async-hazards --rule no-orphaned-promise=warn --max-warnings 0 src/
  async-hazards --type-aware --format github
  async-hazards --suppress-all          # adopt in an existing codebase: only new findings fail
  async-hazards --shard 2/4 --format sarif -o shard-2.sarif .
`;
