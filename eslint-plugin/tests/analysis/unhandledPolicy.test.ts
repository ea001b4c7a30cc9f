import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { unhandledPolicy } from '../../src/analysis';
import { processEntriesOf } from '../../src/project';
import { fixture } from '../ruleTester';

const at = (workspace: string, file = 'src/jobs.js'): string => fixture(`process-handlers/${workspace}/${file}`);
const short = (file: string): string => path.relative(fixture('process-handlers'), file).split(path.sep).join('/');

describe('processEntriesOf', () => {
  it('names the start script that reaches a file, with the files it reaches that name a process event', () => {
    const entries = processEntriesOf(at('logs')) ?? [];
    assert.deepEqual(entries.map((e) => [short(e.entry), e.reason, e.handlerFiles.map(short)]), [
      ['logs/src/server.js', 'the `start` script', ['logs/src/server.js']],
    ]);
  });

  it('a file no entry reaches runs in every long-lived process of the package', () => {
    const entries = processEntriesOf(at('plugins', 'src/plugins/greet.js')) ?? [];
    assert.deepEqual(entries.map((e) => short(e.entry)), ['plugins/src/server.js']);
  });

  it('a library main that reaches the file is one more process', () => {
    const entries = processEntriesOf(at('library')) ?? [];
    assert.deepEqual(entries.map((e) => [short(e.entry), e.handlerFiles.length]).sort(), [['library/src/index.js', 0], ['library/src/server.js', 1]]);
  });

  it('follows a start script that runs another script by name', () => {
    const entries = processEntriesOf(at('express-logs', 'src/routes.js')) ?? [];
    assert.deepEqual(entries.map((e) => [short(e.entry), e.reason]), [['express-logs/src/server.js', 'the `start` script']]);
    assert.equal(unhandledPolicy(at('express-logs', 'src/routes.js')).kind, 'logs');
    assert.equal(unhandledPolicy(at('express-exits', 'src/routes.js')).kind, 'exits');
  });

  it('no package: unknown', () => {
    assert.equal(processEntriesOf('/nowhere/at/all.js'), null);
    assert.equal(processEntriesOf('relative.js'), null);
  });
});

describe('unhandledPolicy', () => {
  it('a rejection handler that reads the error and does not stop the process logs', () => {
    const policy = unhandledPolicy(at('logs'));
    assert.equal(policy.kind, 'logs');
    assert.equal(policy.kind === 'logs' && short(policy.handler.file), 'logs/src/server.js');
  });

  it('an exception handler alone receives rejections; one that logs through a project function logs', () => {
    assert.equal(unhandledPolicy(at('exception-logs')).kind, 'logs');
  });

  it('a rejection handler that throws, to an exception handler that exits through exports.stop, exits', () => {
    const policy = unhandledPolicy(at('exits'));
    assert.equal(policy.kind, 'exits');
    assert.equal(policy.kind === 'exits' && policy.handler.event, 'uncaughtException');
  });

  it('a handler that never reads the error, a library main, or no package: Node default', () => {
    assert.equal(unhandledPolicy(at('swallows')).kind, 'default');
    assert.equal(unhandledPolicy(at('library')).kind, 'default');
    assert.equal(unhandledPolicy('/nowhere/at/all.js').kind, 'default');
  });
});
