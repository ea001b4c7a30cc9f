import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { isDevelopmentOnly, resetProject } from '../../src/project';
import { fixture } from '../ruleTester';

beforeEach(() => resetProject());

describe('isDevelopmentOnly', () => {
  const at = (relative: string): boolean => isDevelopmentOnly(fixture(`dev-command/${relative}`));
  it("a dev script's target beside a production start script, and what only it reaches (a forked child, its watcher)", () => {
    assert.equal(at('src/dev/index.js'), true);
    assert.equal(at('src/dev/init.js'), true);
    assert.equal(at('src/dev/watcher.js'), true);
    assert.equal(at('src/lib/compile.js'), true);
  });
  it('near misses: what production also reaches, the command line that starts both, the production entry', () => {
    assert.equal(at('src/lib/serve.js'), false);
    assert.equal(at('bin/app.js'), false);
    assert.equal(at('src/start.js'), false);
  });
  it('the same file under both a dev and a start script is production; a dev script alone is how the package runs', () => {
    assert.equal(isDevelopmentOnly(fixture('dev-modules/src/server.js')), false);
    assert.equal(isDevelopmentOnly(fixture('roles-dev/src/devWorker.js')), true);
    assert.equal(isDevelopmentOnly(fixture('roles-dev/src/server.js')), false);
    assert.equal(isDevelopmentOnly(fixture('roles-dev-only/src/index.js')), false);
    assert.equal(isDevelopmentOnly('relative.js'), false);
  });
});
