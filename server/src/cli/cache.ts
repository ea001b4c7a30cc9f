import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import type { LintMessage } from '../lint';

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

  get(filePath: string, text: string): LintMessage[] | undefined {
    const entry = this.data.files[filePath];
    return entry && entry.hash === hash(text) ? entry.messages : undefined;
  }

  set(filePath: string, text: string, messages: LintMessage[]): void {
    this.data.files[filePath] = { hash: hash(text), messages };
    this.dirty = true;
  }

  async save(): Promise<void> {
    if (this.dirty) await fs.writeFile(this.location, JSON.stringify(this.data));
  }
}

export function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
