import assert from 'node:assert/strict';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { MAX_CONVENTION_FILES, conventionLoaders, resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { scratch, write } from './helpers';

beforeEach(() => resetProject());

const PACKAGE = JSON.stringify({ name: 'p', private: true, type: 'module', scripts: { start: 'node src/main.js' } });

describe('conventionLoaders', () => {
  const at = (relative: string): readonly string[] | null => conventionLoaders(fixture(`convention-loader/src/${relative}`));
  it('each module folder\'s bootstrap.js is loaded by the file that imports `path.resolve(folder, \'bootstrap.js\')`, a plugin by `${folder}/plugin.js`', () => {
    assert.deepEqual(at('modules/catalog/bootstrap.js'), [fixture('convention-loader/src/bootstraps.js')]);
    assert.deepEqual(at('modules/locale/bootstrap.js'), [fixture('convention-loader/src/bootstraps.js')]);
    assert.deepEqual(at('modules/catalog/plugin.js'), [fixture('convention-loader/src/plugins.js')]);
  });
  it('near misses: a name the caller passes fixes no file; a file with no such name; a relative path', () => {
    assert.deepEqual(at('tasks/warm.js'), []);
    assert.deepEqual(at('lib/catalog.js'), []);
    assert.equal(conventionLoaders('relative.js'), null);
  });
  it('a TypeScript source under its output name, a name with folders, the loader\'s own folder, and a name too many files have', () => {
    const root = scratch('convention');
    write(path.join(root, 'package.json'), PACKAGE);
    const loader = write(path.join(root, 'src/load.ts'), [
      "import path from 'node:path';",
      'export const load = async (dir: string) => (await import(path.join(dir, \'bootstrap.js\'))).default();',
      "export const routes = (dir: string) => require(path.join(dir, 'routes', 'index.js'));",
      "export const own = () => import(path.join(__dirname, 'worker.js'));",
      'export const each = (dir: string) => import(`${dir}/setup.js`);',
    ].join('\n'));
    const boot = write(path.join(root, 'src/a/bootstrap.ts'), 'export default () => {};');
    const index = write(path.join(root, 'src/a/routes/index.js'), 'module.exports = () => {};');
    const worker = write(path.join(root, 'src/b/worker.js'), 'export default () => {};');
    const other = write(path.join(root, 'src/b/index.js'), 'export default () => {};');
    const setups: string[] = [];
    for (let i = 0; i <= MAX_CONVENTION_FILES; i++) setups.push(write(path.join(root, `src/m${i}/setup.js`), 'export default () => {};'));
    const real = (file: string): string => path.resolve(file);
    assert.deepEqual(conventionLoaders(boot), [real(loader)]);
    assert.deepEqual(conventionLoaders(index), [real(loader)]);
    assert.deepEqual(conventionLoaders(worker), []);
    assert.deepEqual(conventionLoaders(other), []);
    assert.deepEqual(conventionLoaders(setups[0] as string), []);
  });
});
