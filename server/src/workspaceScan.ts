import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver';
import { isSupportedFile } from './lint';
import type { LintResult } from './lint';

/** Every lintable file of a folder: `git ls-files` when the folder is in a repository (it knows every .gitignore), a walk otherwise. */
export async function listWorkspaceFiles(folder: string): Promise<string[]> {
  const fromGit = await gitFiles(folder);
  const files = fromGit ?? (await walk(folder, await rootIgnores(folder)));
  return files.filter((file) => isSupportedFile(file) && !file.split(path.sep).includes('node_modules')).sort();
}

function gitFiles(folder: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', folder, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) resolve(null);
      else resolve(stdout.split('\0').filter(Boolean).map((f) => path.join(folder, f)).filter((f) => isExistingPath(f)));
    });
  });
}

function isExistingPath(file: string): boolean {
  // Deleted but still indexed files are listed by --cached.
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The folder's top-level .gitignore as plain names and simple globs (the no-git fallback). */
async function rootIgnores(folder: string): Promise<RegExp[]> {
  try {
    const text = await fs.readFile(path.join(folder, '.gitignore'), 'utf8');
    return text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'))
      .map((line) => globToRegExp(line.replace(/^\//, '').replace(/\/$/, '')));
  } catch {
    return [];
  }
}

function globToRegExp(glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]').replace(/\0/g, '.*');
  return glob.includes('/') ? new RegExp(`^${source}(/|$)`) : new RegExp(`(^|/)${source}(/|$)`);
}

async function walk(folder: string, ignores: RegExp[]): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const relative = path.relative(folder, full).split(path.sep).join('/');
      if (ignores.some((re) => re.test(relative))) continue;
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) out.push(full);
    }
  };
  await visit(folder);
  return out;
}

export interface ScanHooks {
  folders: () => readonly { path: string }[];
  isOpen: (uri: string) => boolean;
  lintFile: (filePath: string, text: string) => Promise<{ result: LintResult; diagnostics: Diagnostic[] }>;
  maxFileSizeKb: (uri: string) => Promise<number>;
  onProgress: (done: number, total: number, file: string) => void;
}

type Listener = (report: WorkspaceDocumentDiagnosticReport) => void;

/**
 * Workspace diagnostics: results of the last scan for files that are not open. Open files are
 * reported by document pulls only, so no file is listed twice.
 */
export class WorkspaceDiagnostics {
  private readonly store = new Map<string, WorkspaceDocumentDiagnosticReport>();
  private readonly listeners = new Set<Listener>();
  private readonly waiters = new Set<() => void>();
  private running: Promise<{ files: number; findings: number }> | null = null;
  private scanned = false;
  private counter = 0;

  constructor(private readonly hooks: ScanHooks) {}

  get isRunning(): boolean {
    return this.running !== null;
  }

  get hasScanned(): boolean {
    return this.scanned;
  }

  /** Runs one scan at a time; a second request joins the running one. */
  scan(): Promise<{ files: number; findings: number }> {
    this.running ??= this.runScan().finally(() => {
      this.running = null;
      this.scanned = true;
      this.wake();
    });
    this.wake();
    return this.running;
  }

  /** A document opened: the document pull owns it now. */
  opened(uri: string): void {
    this.store.delete(uri);
  }

  /** A document closed: report it from disk again if the workspace was scanned. */
  async closed(filePath: string): Promise<void> {
    if (!this.scanned || !isSupportedFile(filePath)) return;
    await this.lintInto(filePath);
    this.wake();
  }

  /** Reports not known to the client yet (by `previousResultIds`), excluding open files. */
  reportsSince(previous: Map<string, string>): WorkspaceDocumentDiagnosticReport[] {
    return [...this.store.values()].filter((r) => !this.hooks.isOpen(r.uri) && previous.get(r.uri) !== (r as { resultId?: string }).resultId);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves on the next scan start, scan end or new result. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  waitForScan(): Promise<unknown> {
    return this.running ?? Promise.resolve();
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private async runScan(): Promise<{ files: number; findings: number }> {
    const files: string[] = [];
    for (const folder of this.hooks.folders()) files.push(...(await listWorkspaceFiles(folder.path)));
    const unique = [...new Set(files)];
    let findings = 0;
    let done = 0;
    for (const file of unique) {
      this.hooks.onProgress(done++, unique.length, file);
      findings += await this.lintInto(file);
      // Let document requests through between files.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { files: unique.length, findings };
  }

  private async lintInto(filePath: string): Promise<number> {
    const uri = pathToFileURL(filePath).href;
    if (this.hooks.isOpen(uri)) return 0;
    try {
      const stat = await fs.stat(filePath);
      if (stat.size > (await this.hooks.maxFileSizeKb(uri)) * 1024) return 0;
      const text = await fs.readFile(filePath, 'utf8');
      const { result, diagnostics } = await this.hooks.lintFile(filePath, text);
      if (result.skipped || this.hooks.isOpen(uri)) {
        this.store.delete(uri);
        return 0;
      }
      const report: WorkspaceDocumentDiagnosticReport = { kind: 'full', uri, version: null, resultId: `scan:${++this.counter}`, items: diagnostics };
      this.store.set(uri, report);
      for (const listener of this.listeners) listener(report);
      return diagnostics.length;
    } catch {
      return 0;
    }
  }
}
