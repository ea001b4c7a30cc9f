import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import type { FileRead } from 'eslint-plugin-async-hazards/project';
import { isReadCurrent } from 'eslint-plugin-async-hazards/project';
import type { LintMessage } from '../lint';
import { writeFileAtomic } from './atomic';

interface CacheEntry {
  hash: string;
  messages: LintMessage[];
  /** What the lint read besides the file itself: imported modules, manifests, installed packages. */
  reads: FileRead[];
}

interface CacheFile {
  key: string;
  files: Record<string, CacheEntry>;
}

/**
 * Results keyed by file content and by every other file the lint read (the project layer's read
 * log: each imported module, package.json and installed package manifest with its hash, and each
 * path the resolver found missing). The whole cache is keyed by everything else that decides a
 * result (plugin version, CLI rule flags, type-aware mode, the config file's content), so a change
 * to any of them starts a fresh cache.
 */
export class ResultCache {
  private data: CacheFile;
  private dirty = false;
  /** Whether a read still holds, asked once per run however many files recorded it. */
  private readonly current = new Map<string, boolean>();

  private constructor(private readonly location: string, key: string) {
    this.data = { key, files: {} };
  }

  static async open(location: string, key: string): Promise<ResultCache> {
    const cache = new ResultCache(location, key);
    try {
      const loaded = JSON.parse(await fs.readFile(location, 'utf8')) as CacheFile;
      if (loaded && loaded.key === key && typeof loaded.files === 'object') cache.data = loaded;
    } catch {
      // Missing or unreadable: start empty.
    }
    return cache;
  }

  /**
   * What is cached for a file, while it stands: the hash of the text it was linted as, and the
   * findings. An entry whose recorded reads no longer hold (an imported module, a manifest or an
   * installed package changed) is not offered, so the file is linted again.
   */
  entry(filePath: string): { hash: string; messages: LintMessage[] } | undefined {
    const entry = this.data.files[filePath];
    if (!entry || !Array.isArray(entry.reads)) return undefined;
    return entry.reads.every((read) => this.holds(read)) ? entry : undefined;
  }

  /** `textHash` is `hash()` of the text that gave `messages`; `reads` what that lint read. */
  set(filePath: string, textHash: string, messages: LintMessage[], reads: readonly FileRead[]): void {
    this.data.files[filePath] = { hash: textHash, messages, reads: reads.filter((read) => read.path !== filePath) };
    this.dirty = true;
  }

  async save(): Promise<void> {
    if (this.dirty) await writeFileAtomic(this.location, JSON.stringify(this.data));
  }

  private holds(read: FileRead): boolean {
    const key = `${read.path}\0${read.state}`;
    let holds = this.current.get(key);
    if (holds === undefined) this.current.set(key, (holds = typeof read.path === 'string' && typeof read.state === 'string' && isReadCurrent(read)));
    return holds;
  }
}

export function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
