import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { declaresDependency, nearestDependencies } from '../../src/analysis';
import { dependencyVersion, invalidate, lowestMajor, nearestPackage, resetProject } from '../../src/project';
import { fixture } from '../ruleTester';
import { app, scratch, write } from './helpers';

const tmp = scratch('packages');
const JOB = app('packages/worker/src/job.ts');

beforeEach(() => resetProject());

describe('nearestDependencies (through analysis, as rules ask)', () => {
  it('reads the manifest nearest to the file, in every dependency field', () => {
    assert.equal(declaresDependency(fixture('fan-out/with-p-map/batch.ts'), 'p-map'), true);
    assert.equal(declaresDependency(fixture('fan-out/with-p-map/batch.ts'), 'p-limit'), false);
    const both = nearestDependencies(fixture('fan-out/with-both/src/deep/batch.ts'));
    assert.equal(both.manifest, fixture('fan-out/with-both/package.json'));
    assert.deepEqual([...both.names].sort(), ['p-limit', 'p-map']);
  });

  it('files without a real path get no answer and no crash', () => {
    assert.equal(nearestDependencies('<input>').manifest, null);
    assert.equal(nearestDependencies('<text>').names.size, 0);
    assert.equal(nearestDependencies('relative/file.ts').manifest, null);
  });

  it('a broken manifest reads as no dependencies', () => {
    const dir = path.join(tmp, 'broken');
    write(path.join(dir, 'package.json'), '{ "dependencies": { "p-map": ');
    assert.equal(nearestDependencies(path.join(dir, 'a.ts')).names.size, 0);
    assert.equal(nearestDependencies(path.join(dir, 'a.ts')).manifest, path.join(dir, 'package.json'));
    fs.writeFileSync(path.join(dir, 'package.json'), '[1, 2]');
    invalidate(path.join(dir, 'package.json'));
    assert.equal(nearestDependencies(path.join(dir, 'a.ts')).names.size, 0);
  });

  it('an edited manifest is read again once the change is announced', () => {
    const manifest = write(path.join(tmp, 'edited', 'package.json'), JSON.stringify({ dependencies: { pg: '1' } }));
    assert.equal(declaresDependency(path.join(tmp, 'edited', 'a.ts'), 'p-limit'), false);
    fs.writeFileSync(manifest, JSON.stringify({ dependencies: { pg: '1', 'p-limit': '6' } }));
    invalidate(manifest);
    assert.equal(declaresDependency(path.join(tmp, 'edited', 'a.ts'), 'p-limit'), true);
  });
});

describe('nearestPackage', () => {
  it('gives `type`, `bin` and `scripts` of the nearest manifest', () => {
    const facts = nearestPackage(app('src/db/index.ts'));
    assert.equal(facts.manifest, app('package.json'));
    assert.equal(facts.name, 'fixture-app');
    assert.equal(facts.type, 'module');
    assert.deepEqual(facts.bin, { 'app-cli': './bin/cli.js' });
    assert.deepEqual(facts.scripts, { start: 'node src/server.ts', worker: 'node packages/worker/src/job.ts' });
  });

  it('a string `bin` is named after the package without its scope; no `type` means CommonJS', () => {
    const worker = nearestPackage(JOB);
    assert.equal(worker.manifest, app('packages/worker/package.json'));
    assert.equal(worker.type, 'commonjs');
    assert.deepEqual(worker.bin, { worker: './src/job.ts' });
    assert.deepEqual(worker.scripts, {});
  });

  it('ignores fields of the wrong shape', () => {
    const dir = path.join(tmp, 'odd');
    write(path.join(dir, 'package.json'), JSON.stringify({ type: 'esm', bin: ['x'], scripts: { ok: 'node a', bad: 1 }, dependencies: ['pg'] }));
    const facts = nearestPackage(path.join(dir, 'a.js'));
    assert.equal(facts.type, 'commonjs');
    assert.deepEqual(facts.bin, {});
    assert.deepEqual(facts.scripts, { ok: 'node a' });
    assert.equal(facts.ranges.size, 0);
  });
});

describe('dependencyVersion', () => {
  it('the installed major comes first, found through node_modules from the file', () => {
    assert.deepEqual(dependencyVersion(JOB, 'express'), {
      source: 'installed',
      major: 4,
      version: '4.21.2',
      manifest: app('node_modules/express/package.json'),
    });
    // `exports` does not list package.json: the installed version is still read.
    assert.equal(dependencyVersion(app('src/server.ts'), 'hidden-pkg').major, 2);
    assert.equal(dependencyVersion(app('src/server.ts'), '@acme/pool').major, 1);
  });

  it('else the lowest major of the range in the nearest manifest that declares it', () => {
    assert.deepEqual(dependencyVersion(JOB, 'bullmq'), { source: 'declared', major: 5, version: '>=5.1 <7', manifest: app('packages/worker/package.json') });
    // The worker's manifest does not declare koa; the root's does.
    assert.deepEqual(dependencyVersion(JOB, 'koa'), { source: 'declared', major: 2, version: '^2.15.0', manifest: app('package.json') });
    assert.equal(dependencyVersion(JOB, 'hono').major, 4, 'an `npm:` alias counts by its range');
  });

  it('else unknown: undeclared, unbounded or not a version range', () => {
    assert.deepEqual(dependencyVersion(JOB, 'nothing'), { source: 'unknown', major: null, version: null, manifest: null });
    assert.deepEqual(dependencyVersion(JOB, 'left-pad'), { source: 'unknown', major: null, version: '*', manifest: app('package.json') });
    assert.equal(dependencyVersion(JOB, 'fastify').source, 'unknown');
    assert.equal(dependencyVersion('<input>', 'express').source, 'unknown');
  });

  it('an installed manifest of another package, or without a version, is not believed', () => {
    const dir = path.join(tmp, 'impostor');
    write(path.join(dir, 'package.json'), JSON.stringify({ dependencies: { pg: '^8.0.0', mysql2: '^3.1.0' } }));
    write(path.join(dir, 'node_modules/pg/package.json'), JSON.stringify({ name: 'not-pg', version: '1.0.0' }));
    write(path.join(dir, 'node_modules/mysql2/package.json'), JSON.stringify({ name: 'mysql2' }));
    assert.equal(dependencyVersion(path.join(dir, 'a.js'), 'pg').source, 'declared');
    assert.equal(dependencyVersion(path.join(dir, 'a.js'), 'pg').major, 8);
    assert.equal(dependencyVersion(path.join(dir, 'a.js'), 'mysql2').major, 3);
  });
});

describe('lowestMajor', () => {
  it('reads the ranges package.json files hold', () => {
    assert.equal(lowestMajor('^4.18.2'), 4);
    assert.equal(lowestMajor('~5.0.1'), 5);
    assert.equal(lowestMajor('4.x'), 4);
    assert.equal(lowestMajor('3 || 4'), 3);
    assert.equal(lowestMajor('>=2.1.0 <4'), 2);
    assert.equal(lowestMajor('^0.3.1'), 0);
    assert.equal(lowestMajor('5.0.0-rc.1'), 5);
    assert.equal(lowestMajor('workspace:^2.0.0'), 2);
    assert.equal(lowestMajor('npm:@scope/pkg@^7.1.0'), 7);
    assert.equal(lowestMajor('>=3'), 3);
    // Bounded above only: 0.x is allowed, so 0 is the lowest major.
    assert.equal(lowestMajor('<2'), 0);
  });

  it('null when the range does not bound the major', () => {
    assert.equal(lowestMajor('*'), null);
    assert.equal(lowestMajor(''), null);
    assert.equal(lowestMajor('latest'), null);
    assert.equal(lowestMajor('workspace:*'), null);
    assert.equal(lowestMajor('file:../pkg'), null);
    assert.equal(lowestMajor('git+https://github.com/a/b.git'), null);
  });
});
