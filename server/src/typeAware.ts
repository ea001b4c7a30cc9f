import * as fs from 'node:fs';
import * as path from 'node:path';

/** Names of the project files that make a folder a TypeScript/JavaScript project. */
export const PROJECT_FILE_NAMES = ['tsconfig.json', 'jsconfig.json'] as const;

/**
 * Finds the nearest `tsconfig.json`/`jsconfig.json` above a file, caching per directory.
 * Whether that project really includes the file is the project service's answer; this is the
 * cheap first question that keeps plain folders on the fast syntactic path.
 */
export class ProjectFileFinder {
  private readonly cache = new Map<string, string | null>();

  find(filePath: string): string | null {
    return this.findFrom(path.dirname(filePath));
  }

  /** Forget what was found, e.g. after a project file was created or deleted. */
  clear(): void {
    this.cache.clear();
  }

  private findFrom(dir: string): string | null {
    const cached = this.cache.get(dir);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    for (const name of PROJECT_FILE_NAMES) {
      const candidate = path.join(dir, name);
      if (isFile(candidate)) {
        found = candidate;
        break;
      }
    }
    if (!found) {
      const parent = path.dirname(dir);
      found = parent === dir || path.basename(dir) === 'node_modules' ? null : this.findFrom(parent);
    }
    this.cache.set(dir, found);
    return found;
  }
}

/** True when a fatal parse message came from the project service rather than from the syntax. */
export function isProjectServiceFailure(message: string): boolean {
  return /project service|tsconfig|allowDefaultProject|parserOptions\.project|Cannot read file|program/i.test(message);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
