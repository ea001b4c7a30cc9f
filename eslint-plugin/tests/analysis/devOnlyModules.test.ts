import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESLint } from '@typescript-eslint/utils';
import { isDevOnlyModule, moduleSourceCode } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';

/** Whether only a development process runs the fixture module `relative`. */
function devOnly(relative: string): boolean {
  const file = fixture(relative);
  const sourceCode = moduleSourceCode(file) as Readonly<TSESLint.SourceCode>;
  assert.ok(sourceCode, relative);
  return isDevOnlyModule(sourceCode, file);
}

beforeEach(() => resetProject());

describe('isDevOnlyModule', () => {
  it('loaded only under a NODE_ENV test that rules production out', () => {
    assert.equal(devOnly('dev-modules/src/devtools.js'), true);
  });
  it('a Vite dev server the server loads only under a condition (its --dev mode)', () => {
    assert.equal(devOnly('dev-modules/src/devServer.js'), true);
  });
  it('what the package runs only from its dev script', () => {
    assert.equal(devOnly('dev-command/src/dev/watcher.js'), true);
  });
  it('near misses: a condition that is no environment test, a static import, the server itself', () => {
    // Loaded under a condition, but starts no dev server: the condition may hold in production.
    assert.equal(devOnly('dev-modules/src/eagerTools.js'), false);
    // Names Vite, but the server requires it unconditionally.
    assert.equal(devOnly('dev-modules/src/views.js'), false);
    assert.equal(devOnly('dev-modules/src/server.js'), false);
    assert.equal(devOnly('dev-modules/src/render.js'), false);
    assert.equal(devOnly('dev-command/src/lib/serve.js'), false);
  });
});
