import { createHash } from 'node:crypto';
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

/** Bumped by every change the layer hears of, unsaved text included (which keeps the epoch). */
let version = 0;

/**
 * Changes whenever the layer was told a file may differ (`setOverlay` with new text, `invalidate`).
 * Caches above the layer key answers about modules on it, with `DISK_CACHE_MS` for changes
 * nobody announced.
 */
export function projectVersion(): number {
  return version;
}

function key(file: string): string {
  // Nearly every path asked about is resolved already, and resolving it again costs more than the lookup it keys.
  return path.sep === '/' && RESOLVED.test(file) ? file : path.resolve(file);
}

/** An absolute POSIX path without `.`, `..` or empty segments or a trailing slash: `path.resolve` hands it back unchanged. */
const RESOLVED = /^(?:\/(?!\.\.?(?:\/|$))[^/]+)+$/;

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
  version++;
  cachedDisk?.purge(at);
}

/**
 * Forgets what was read from disk about `file` (absolute path; a directory forgets everything
 * below it), or about every file when called without one. For file watchers.
 */
export function invalidate(file?: string): void {
  epoch++;
  version++;
  // Nothing read yet, nothing to forget: an editor sending overlays loads nothing here.
  if (file === undefined) cachedDisk?.purge();
  else {
    const at = key(file);
    cachedDisk?.purge(at);
    // The parent's own entries, for files that appeared or vanished; its other children stay cached.
    cachedDisk?.purge(path.dirname(at), { exact: true });
  }
}

/**
 * What a read found at a path: the sha1 of the text when the text was read, `file` or `directory`
 * when only a stat was made (the resolver probing `db.ts`, `db.js`, …), `missing` when nothing
 * was there. A state that no longer holds means an answer built on it may have changed.
 */
export type ReadState = string;

/** One path the layer read while a read log was open. */
export interface FileRead {
  path: string;
  state: ReadState;
}

/**
 * What a read saw. Text is hashed only when the log closes, so a log costs next to nothing per
 * read; a replayed read arrives hashed already.
 */
type Seen = { text: string } | { hash: string } | 'file' | 'directory' | 'missing';

/** The read logs open now, innermost last: every read is noted in each of them. */
const logs: Map<string, Seen>[] = [];
/** Set by the first read log: until then caches above the disk do not keep what they read. */
let logging = false;

function note(at: string, seen: Seen): void {
  for (const log of logs) {
    // That a file has some text says more than that it exists.
    if (typeof seen === 'string' && typeof log.get(at) === 'object') continue;
    log.set(at, seen);
  }
}

function stateOf(seen: Seen): ReadState {
  if (typeof seen === 'string') return seen;
  return 'hash' in seen ? seen.hash : contentHash(seen.text);
}

function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function toReads(log: ReadonlyMap<string, Seen>): FileRead[] {
  return [...log].map(([at, seen]) => ({ path: at, state: stateOf(seen) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Runs `fn` and returns, with its value, every file the project layer read meanwhile (the
 * resolver's probes and the manifests, modules and tsconfigs it opened), each once, sorted by
 * path. Answers the layer had cached count too: they carry the reads they were computed from.
 * Logs nest. A caller that keeps the result of `fn` can tell it is still good when every read
 * is still current (`isReadCurrent`): the language server re-lints an open file when a path it
 * read changes, the CLI's cache re-lints a file whose reads changed.
 *
 * Not recorded: symlink targets (`readlink`, `realpath`) and ESLint's own reads of the linted file.
 */
export function withReadLog<T>(fn: () => T): { value: T; reads: FileRead[] } {
  logging = true;
  const log = new Map<string, Seen>();
  logs.push(log);
  try {
    return { value: fn(), reads: toReads(log) };
  } finally {
    logs.splice(logs.lastIndexOf(log), 1);
  }
}

/**
 * For caches inside the layer: runs `fn` and keeps what it read, to be replayed into the logs open
 * when the cached answer is used again. Null reads when no log was ever opened (plain ESLint runs
 * keep nothing); a cache must then compute again if a log is open on a later hit.
 */
export function captureReads<T>(fn: () => T): { value: T; reads: readonly FileRead[] | null } {
  if (!logging) return { value: fn(), reads: null };
  const { value, reads } = withReadLog(fn);
  return { value, reads };
}

/** Notes `reads`, captured earlier, in every open log. */
export function replayReads(reads: readonly FileRead[]): void {
  if (logs.length === 0) return;
  for (const read of reads) note(read.path, isStatState(read.state) ? (read.state as 'file' | 'directory' | 'missing') : { hash: read.state });
}

function isStatState(state: ReadState): boolean {
  return state === 'file' || state === 'directory' || state === 'missing';
}

/** True while a read log is open: caches use it to know a hit must replay what it read. */
export function readLogOpen(): boolean {
  return logs.length > 0;
}

/**
 * Does `read` still hold? Judged through the same view of the disk as the reads themselves
 * (unsaved text included), and noted in no log.
 */
export function isReadCurrent(read: FileRead): boolean {
  const open = logs.splice(0);
  try {
    return currentState(read.path, read.state) === read.state;
  } finally {
    logs.push(...open);
  }
}

function currentState(file: string, recorded: ReadState): ReadState {
  const at = key(file);
  if (!isStatState(recorded)) {
    const text = readText(at);
    return text === null ? 'missing' : contentHash(text);
  }
  return overlays.has(at) ? 'file' : diskState(at);
}

function diskState(at: string): 'file' | 'directory' | 'missing' {
  try {
    const stat = disk().statSync(at);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'missing';
  } catch {
    return 'missing';
  }
}

/** Paths that currently have unsaved text (tests and diagnostics). */
export function overlaidPaths(): string[] {
  return [...overlays.keys()];
}

/** Drops every overlay and cached read (tests). */
export function resetFileSystem(): void {
  overlays.clear();
  logging = false;
  invalidate();
}

/** The text of `file`: unsaved text when the editor has some, else the saved file, else null. */
export function readText(file: string): string | null {
  const at = key(file);
  const overlay = overlays.get(at);
  if (overlay !== undefined) {
    if (logs.length > 0) note(at, { text: overlay });
    return overlay;
  }
  let text: string | null;
  try {
    const data = disk().readFileSync(at);
    text = typeof data === 'string' ? data : decoded(data);
  } catch {
    // Missing, a directory, or unreadable: all read as "no such file" to every caller.
    text = null;
  }
  // A failed read of a directory is noted as the directory, so that checking the read later agrees.
  if (logs.length > 0) note(at, text === null ? diskState(at) : { text });
  return text;
}

/**
 * The cached disk hands back the same buffer while it trusts a read, and a module's text is read
 * by many questions: it is decoded once per buffer.
 */
const texts = new WeakMap<Buffer, string>();

function decoded(data: Buffer): string {
  let text = texts.get(data);
  if (text === undefined) {
    text = data.toString('utf8');
    texts.set(data, text);
  }
  return text;
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
  if (overlays.has(at)) {
    if (logs.length > 0) note(at, 'file');
    return true;
  }
  try {
    return noteStat(at, disk().statSync(at)).isFile();
  } catch {
    if (logs.length > 0) note(at, 'missing');
    return false;
  }
}

/**
 * What is at `file`: a file (saved or only in the editor), a directory, or nothing. Noted in the
 * open logs like the resolver's own probes, from the same cached stats.
 */
export function pathKind(file: string): 'file' | 'directory' | 'missing' {
  if (notListed(file)) return 'missing';
  try {
    const stat = loggedStat(file, (at) => disk().statSync(at));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'missing';
  } catch {
    return 'missing';
  }
}

/**
 * True when the folder's listing (cached like stats, and purged with them) has no entry of that
 * name: the file is missing. Most probes are of candidates that do not exist (`db.ts`, `db.tsx`, …
 * before `db.js`), and one listing answers them all where each failed stat costs an exception.
 * Names are compared case-folded, so a case-insensitive disk answers as its stat would; a folder
 * with a name outside printable ASCII is left to stats (Unicode folding and normalisation differ
 * between file systems), as is a folder that cannot be listed. Noted in the open logs as missing,
 * like the stat it saves.
 */
function notListed(file: string): boolean {
  const at = key(file);
  const dir = path.dirname(at);
  const name = path.basename(at);
  if (dir === at || !PLAIN_NAME.test(name) || overlays.has(at)) return false;
  const names = listedNames(dir);
  if (names === null || names.has(name.toLowerCase())) return false;
  if (logs.length > 0) note(at, 'missing');
  return true;
}

const PLAIN_NAME = /^[\x20-\x7e]+$/;
/** Listing (the cached array) → its names, lowercased; null when some name is not plain. */
const listings = new WeakMap<object, ReadonlySet<string> | null>();

function listedNames(dir: string): ReadonlySet<string> | null {
  let entries: unknown;
  try {
    entries = disk().readdirSync(dir);
  } catch {
    // Missing or unreadable: the stat decides.
    return null;
  }
  if (!Array.isArray(entries)) return null;
  let names = listings.get(entries);
  if (names === undefined) {
    names = entries.every((e) => typeof e === 'string' && PLAIN_NAME.test(e)) ? new Set((entries as string[]).map((e) => e.toLowerCase())) : null;
    listings.set(entries, names);
  }
  return names;
}

/** The real path of a saved file (symbolic links followed, cached like stats); null when it is not on disk. */
export function realPathOnDisk(file: string): string | null {
  const d = disk();
  try {
    const real: unknown = d.realpathSync ? d.realpathSync(file) : fs.realpathSync(file);
    return typeof real === 'string' ? real : String(real);
  } catch {
    return null;
  }
}

function noteStat(at: string, stat: fs.Stats): fs.Stats {
  if (logs.length > 0) note(at, stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'missing');
  return stat;
}

/** A stat for the resolver, noted in the open logs (a throw is "missing"). */
function loggedStat(file: string, stat: (at: string) => fs.Stats): fs.Stats {
  const at = key(file);
  const text = overlays.get(at);
  if (text !== undefined) {
    if (logs.length > 0) note(at, 'file');
    return overlayStat(text);
  }
  try {
    return noteStat(at, stat(file));
  } catch (error) {
    if (logs.length > 0) note(at, 'missing');
    throw error;
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

/** The resolver expects a missing file to throw, as `fs` does. */
function readOrThrow(file: string): string {
  const text = readText(file);
  if (text === null) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT', path: file });
  return text;
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
    return loggedStat(file, (at) => disk().statSync(at));
  },
  lstatSync(file: string): fs.Stats {
    const d = disk();
    return loggedStat(file, (at) => (d.lstatSync ? d.lstatSync(at) : d.statSync(at)));
  },
  readFileSync(file: string): Buffer {
    const text = overlays.get(key(file));
    if (text !== undefined || logs.length > 0) return Buffer.from(readOrThrow(file));
    const data = disk().readFileSync(file);
    return typeof data === 'string' ? Buffer.from(data) : data;
  },
  readJsonSync(file: string): unknown {
    const text = overlays.get(key(file));
    const d = disk();
    // While a log is open the text is read (to be hashed) and parsed here, not from the JSON cache.
    if (text !== undefined || logs.length > 0 || !d.readJsonSync) return JSON.parse(readOrThrow(file)) as unknown;
    return d.readJsonSync(file);
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
