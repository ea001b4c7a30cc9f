import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { fixture } from '../ruleTester';

/**
 * The multi-file workspace most project tests ask about, laid out in a temporary folder: the
 * packages it has "installed" are kept in `fixtures/project/installed/` (a repository tracks no
 * `node_modules`) and copied into its `node_modules/` here.
 */
export const APP = layOutApp();

function layOutApp(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-project-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'app');
  fs.cpSync(fixture('project/app'), dir, { recursive: true });
  fs.cpSync(fixture('project/installed'), path.join(dir, 'node_modules'), { recursive: true });
  return fs.realpathSync(dir);
}

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
