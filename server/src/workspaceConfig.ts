import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ESLint } from 'eslint';

/** ESLint flat config file names, in ESLint's own lookup order. */
export const CONFIG_FILE_NAMES = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
] as const;

export const PLUGIN_META_NAME = 'eslint-plugin-async-hazards';

/** Files whose change re-reads every config and re-lints every open file. */
export const WATCHED_CONFIG_GLOB = '**/{eslint.config.{js,mjs,cjs,ts,mts,cts},tsconfig*.json,jsconfig.json,package.json}';
/** Modules: a change re-lints only the open files that read or import the module. */
export const WATCHED_MODULE_GLOB = '**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}';

/** Does a change to `filePath` call for everything to be read again (see `WATCHED_CONFIG_GLOB`)? */
export function isProjectConfigFile(filePath: string): boolean {
  const base = path.basename(filePath);
  return (CONFIG_FILE_NAMES as readonly string[]).includes(base) || /^tsconfig.*\.json$/.test(base) || base === 'jsconfig.json' || base === 'package.json';
}

/** What a workspace's own ESLint config says about our rules for one file. */
export interface WorkspaceRuleConfig {
  /** The config file that applies (found without executing anything). */
  configFile: string | null;
  /** `loaded`: executed and read; `untrusted`: exists but not executed; `failed`: threw; `none`: no config file. */
  status: 'loaded' | 'untrusted' | 'failed' | 'none';
  /** The alias our plugin is registered under in that config (by `meta.name`), when loaded. */
  alias: string | null;
  /** `[severity, ...options]` per rule name, only when the config registers our plugin. */
  rules: Map<string, [0 | 1 | 2, ...unknown[]]> | null;
  /** `settings['async-hazards']` from that config. */
  sharedSettings: unknown;
  /** The file is ignored by the workspace config. */
  ignored: boolean;
  error?: Error;
}

/**
 * Reads workspace ESLint configs. Nothing is executed unless `trusted`: a flat config is code.
 * One `ESLint` instance per folder, rebuilt when the config file changes on disk.
 */
export class WorkspaceConfigReader {
  private readonly dirCache = new Map<string, Promise<string | null>>();
  private readonly instances = new Map<string, { mtime: number; eslint: ESLint }>();

  /** `configFile` replaces the lookup (the CLI's `--config`): every file uses that config. */
  constructor(
    private trusted: boolean,
    private readonly configFile?: string,
  ) {}

  get isTrusted(): boolean {
    return this.trusted;
  }

  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
    this.instances.clear();
  }

  /** Forget cached lookups (a config file was created, changed or deleted). */
  clear(): void {
    this.dirCache.clear();
    this.instances.clear();
  }

  async findConfigFile(filePath: string): Promise<string | null> {
    if (this.configFile) return this.configFile;
    return this.findFrom(path.dirname(filePath));
  }

  async read(filePath: string): Promise<WorkspaceRuleConfig> {
    const configFile = await this.findConfigFile(filePath);
    const base: WorkspaceRuleConfig = { configFile, status: 'none', alias: null, rules: null, sharedSettings: undefined, ignored: false };
    if (!configFile) return base;
    if (!this.trusted) return { ...base, status: 'untrusted' };
    try {
      const eslint = await this.instanceFor(configFile);
      const config = (await eslint.calculateConfigForFile(filePath)) as FlatConfigShape | undefined;
      if (!config) return { ...base, status: 'loaded', ignored: true };
      const alias = findPluginAlias(config.plugins);
      const settings = config.settings?.['async-hazards'];
      if (alias === null) return { ...base, status: 'loaded', sharedSettings: settings };
      const rules = new Map<string, [0 | 1 | 2, ...unknown[]]>();
      for (const [id, value] of Object.entries(config.rules ?? {})) {
        if (!id.startsWith(`${alias}/`)) continue;
        const entry = Array.isArray(value) ? value : [value];
        const severity = toSeverityNumber(entry[0]);
        if (severity !== undefined) rules.set(id.slice(alias.length + 1), [severity, ...entry.slice(1)]);
      }
      return { ...base, status: 'loaded', alias, rules, sharedSettings: settings };
    } catch (error) {
      this.instances.delete(configFile);
      return { ...base, status: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async instanceFor(configFile: string): Promise<ESLint> {
    let mtime = 0;
    try {
      mtime = (await fs.stat(configFile)).mtimeMs;
    } catch {
      // Deleted between lookup and load: the load reports it.
    }
    const cached = this.instances.get(configFile);
    if (cached?.mtime === mtime) return cached.eslint;
    // ESLint looks the config up from each file's directory; rooting it at the config's own
    // directory keeps the config's `files` patterns relative to where they were written.
    const eslint = new ESLint({ cwd: path.dirname(configFile) });
    this.instances.set(configFile, { mtime, eslint });
    return eslint;
  }

  private findFrom(dir: string): Promise<string | null> {
    let found = this.dirCache.get(dir);
    if (!found) {
      found = this.lookUp(dir);
      this.dirCache.set(dir, found);
    }
    return found;
  }

  private async lookUp(dir: string): Promise<string | null> {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = path.join(dir, name);
      if (await exists(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    return parent === dir ? null : this.findFrom(parent);
  }

}

interface FlatConfigShape {
  plugins?: Record<string, { meta?: { name?: string } } | undefined>;
  rules?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

function findPluginAlias(plugins: FlatConfigShape['plugins']): string | null {
  for (const [alias, plugin] of Object.entries(plugins ?? {})) {
    if (plugin?.meta?.name === PLUGIN_META_NAME) return alias;
  }
  return null;
}

function toSeverityNumber(value: unknown): 0 | 1 | 2 | undefined {
  if (value === 0 || value === 'off') return 0;
  if (value === 1 || value === 'warn') return 1;
  if (value === 2 || value === 'error') return 2;
  return undefined;
}
