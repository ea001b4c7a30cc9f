import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
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

  constructor(private readonly location: string, key: string) {
    this.data = { key, files: {} };
    try {
      const loaded = JSON.parse(fs.readFileSync(location, 'utf8')) as CacheFile;
      if (loaded && loaded.key === key && typeof loaded.files === 'object') this.data = loaded;
    } catch {
      // Missing or unreadable: start empty.
    }
  }

  get(filePath: string, text: string): LintMessage[] | undefined {
    const entry = this.data.files[filePath];
    return entry && entry.hash === hash(text) ? entry.messages : undefined;
  }

  set(filePath: string, text: string, messages: LintMessage[]): void {
    this.data.files[filePath] = { hash: hash(text), messages };
    this.dirty = true;
  }

  save(): void {
    if (this.dirty) fs.writeFileSync(this.location, JSON.stringify(this.data));
  }
}

export function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
