import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import type { LintMessage } from '../lint';
import { writeFileAtomic } from './atomic';

interface CacheFile {
  key: string;
  files: Record<string, { hash: string; messages: LintMessage[] }>;
}

/**
 * Results keyed by file content. The whole cache is keyed by everything else that decides a result
 * (plugin version, CLI rule flags, type-aware mode, the config file's content), so a change to any
 * of them starts a fresh cache.
 */
export class ResultCache {
  private data: CacheFile;
  private dirty = false;

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

  /** What is cached for a file: the hash of the text it was linted as, and the findings. */
  entry(filePath: string): { hash: string; messages: LintMessage[] } | undefined {
    return this.data.files[filePath];
  }

  /** `textHash` is `hash()` of the text that gave `messages`. */
  set(filePath: string, textHash: string, messages: LintMessage[]): void {
    this.data.files[filePath] = { hash: textHash, messages };
    this.dirty = true;
  }

  async save(): Promise<void> {
    if (this.dirty) await writeFileAtomic(this.location, JSON.stringify(this.data));
  }
}

export function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
