import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { fixture } from '../ruleTester';

/** The multi-file workspace most project tests ask about. */
export const APP = fixture('project/app');

export function app(relative: string): string {
  return path.join(APP, relative);
}

/** A scratch folder for tests that write files, removed when the test file ends. */
export function scratch(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `async-hazards-${prefix}-`));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
