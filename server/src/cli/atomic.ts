import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Writes `text` to a temp file next to `target`, then renames it over `target`. A rename within
 * one folder (one file system) is atomic, so a reader, a second run or a run killed half way sees
 * the old file or the new one, never part of one.
 */
export async function writeFileAtomic(target: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, text);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
