import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CachedInputFileSystem, FileSystem } from 'enhanced-resolve';

/**
 * The project layer's one view of the disk: what is saved, with the editor's unsaved text laid
 * over it. Everything in `project/` reads files through here (the resolver included), so an
 * unsaved edit to `db.ts` or `package.json` changes every answer that depends on it.
 *
 * State is per module instance, so per process and per ESLint worker thread; nothing here goes
 * through ESLint settings.
 */

/** Absolute path → unsaved text. Never bounded by count: the editor sets and clears each entry. */
const overlays = new Map<string, string>();

/**
 * How long a stat or read of a saved file is trusted. The language server also calls `invalidate`
 * when it hears a file changed; the expiry covers changes nobody announced (a `git checkout`).
 */
export const DISK_CACHE_MS = 4000;
let cachedDisk: CachedInputFileSystem | null = null;

/** Loaded on first use, like everything in the layer: a run whose rules never ask pays nothing. */
function disk(): CachedInputFileSystem {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
  cachedDisk ??= new (require('enhanced-resolve') as typeof import('enhanced-resolve')).CachedInputFileSystem(fs, DISK_CACHE_MS);
  return cachedDisk;
}

/** Bumped whenever an answer may differ for a path already asked about: callers key caches on it. */
let epoch = 0;

export function currentEpoch(): number {
  return epoch;
}

function key(file: string): string {
  return path.resolve(file);
}

/**
 * Lays the editor's unsaved `text` over `file` (absolute path), or removes the overlay with null
 * (the document was closed, or saved and now matches the disk). Setting the same text again is
 * free, so a caller may re-send every open document before each lint.
 */
export function setOverlay(file: string, text: string | null): void {
  const at = key(file);
  const before = overlays.get(at);
  if (text === null) {
    if (before === undefined) return;
    overlays.delete(at);
  } else {
    if (before === text) return;
    overlays.set(at, text);
  }
  // Content edits of a module change only its parse, which is cached by content. Whether a file
  // exists, and any manifest or tsconfig, change resolution: those start a new epoch.
  if (before === undefined || text === null || at.endsWith('.json')) epoch++;
  cachedDisk?.purge(at);
}

/**
 * Forgets what was read from disk about `file` (absolute path; a directory forgets everything
 * below it), or about every file when called without one. For file watchers.
 */
export function invalidate(file?: string): void {
  epoch++;
  // Nothing read yet, nothing to forget: an editor sending overlays loads nothing here.
  if (file === undefined) cachedDisk?.purge();
  else {
    const at = key(file);
    cachedDisk?.purge(at);
    // The parent's own entries, for files that appeared or vanished; its other children stay cached.
    cachedDisk?.purge(path.dirname(at), { exact: true });
  }
}

/** Paths that currently have unsaved text (tests and diagnostics). */
export function overlaidPaths(): string[] {
  return [...overlays.keys()];
}

/** Drops every overlay and cached read (tests). */
export function resetFileSystem(): void {
  overlays.clear();
  invalidate();
}

/** The text of `file`: unsaved text when the editor has some, else the saved file, else null. */
export function readText(file: string): string | null {
  const at = key(file);
  const overlay = overlays.get(at);
  if (overlay !== undefined) return overlay;
  try {
    const data = disk().readFileSync(at);
    return typeof data === 'string' ? data : data.toString('utf8');
  } catch {
    // Missing, a directory, or unreadable: all read as "no such file" to every caller.
    return null;
  }
}

/**
 * The entries of `dir` (absolute path), split into files and subdirectories, with files that
 * exist only as unsaved text in it. Symbolic links are left out: a walk that follows them can
 * loop or leave the package. Empty lists for a missing or unreadable directory.
 */
export function listDirectory(dir: string): { files: string[]; dirs: string[] } {
  const at = key(dir);
  const files: string[] = [];
  const dirs: string[] = [];
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(at, { withFileTypes: true });
  } catch {
    // Read as an empty folder, like a missing file reads as "no such file".
  }
  for (const entry of entries) {
    if (entry.isFile()) files.push(entry.name);
    else if (entry.isDirectory()) dirs.push(entry.name);
  }
  for (const overlaid of overlays.keys()) {
    if (path.dirname(overlaid) === at && !files.includes(path.basename(overlaid))) files.push(path.basename(overlaid));
  }
  return { files: files.sort(), dirs: dirs.sort() };
}

/** True when `file` is a file, saved or only in the editor. */
export function isFile(file: string): boolean {
  const at = key(file);
  if (overlays.has(at)) return true;
  try {
    return disk().statSync(at).isFile();
  } catch {
    return false;
  }
}

/**
 * A stat for a file that exists only as unsaved text. The resolver looks at `isFile` and
 * `isDirectory`; the times say "now" so nothing mistakes it for an old saved file.
 */
function overlayStat(text: string): fs.Stats {
  const now = Date.now();
  return {
    isFile: () => true,
    isDirectory: () => false,
    isSymbolicLink: () => false,
    size: Buffer.byteLength(text),
    mtimeMs: now,
    mtime: new Date(now),
  } as fs.Stats;
}

function notALink(at: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EINVAL: invalid argument, readlink '${at}'`), { code: 'EINVAL', path: at });
}

/**
 * The file system handed to enhanced-resolve. With `useSyncFileSystemCalls` the resolver calls
 * only the `…Sync` methods, which is what keeps resolution synchronous (rules are synchronous).
 */
export const resolverFileSystem = {
  statSync(file: string): fs.Stats {
    const text = overlays.get(key(file));
    return text === undefined ? disk().statSync(file) : overlayStat(text);
  },
  lstatSync(file: string): fs.Stats {
    const text = overlays.get(key(file));
    if (text !== undefined) return overlayStat(text);
    const d = disk();
    return d.lstatSync ? d.lstatSync(file) : d.statSync(file);
  },
  readFileSync(file: string): Buffer {
    const text = overlays.get(key(file));
    if (text !== undefined) return Buffer.from(text);
    const data = disk().readFileSync(file);
    return typeof data === 'string' ? Buffer.from(data) : data;
  },
  readJsonSync(file: string): unknown {
    const text = overlays.get(key(file));
    if (text !== undefined) return JSON.parse(text) as unknown;
    const d = disk();
    if (d.readJsonSync) return d.readJsonSync(file);
    return JSON.parse(readText(file) ?? '') as unknown;
  },
  readdirSync(dir: string): unknown {
    return disk().readdirSync(dir);
  },
  readlinkSync(file: string): string | Buffer {
    if (overlays.has(key(file))) throw notALink(file);
    return disk().readlinkSync(file);
  },
  realpathSync(file: string): string | Buffer {
    const at = key(file);
    if (overlays.has(at) && !fs.existsSync(at)) return at;
    const d = disk();
    return d.realpathSync ? d.realpathSync(file) : fs.realpathSync(file);
  },
} as unknown as FileSystem;
