import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { clearDependencyCache, declaresDependency, nearestDependencies } from '../../src/analysis';
import { fixture } from '../ruleTester';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-deps-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('nearestDependencies', () => {
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
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "dependencies": { "p-map": ');
    assert.equal(nearestDependencies(path.join(dir, 'a.ts')).names.size, 0);
    fs.writeFileSync(path.join(dir, 'package.json'), '[1, 2]');
    clearDependencyCache();
    assert.equal(nearestDependencies(path.join(dir, 'a.ts')).names.size, 0);
  });

  it('an edited manifest is read again', () => {
    const dir = path.join(tmp, 'edited');
    fs.mkdirSync(dir);
    const manifest = path.join(dir, 'package.json');
    fs.writeFileSync(manifest, JSON.stringify({ dependencies: { pg: '1' } }));
    assert.equal(declaresDependency(path.join(dir, 'a.ts'), 'p-limit'), false);
    fs.writeFileSync(manifest, JSON.stringify({ dependencies: { pg: '1', 'p-limit': '6' } }));
    // Give the file a different modification time even on coarse-grained file systems.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(manifest, later, later);
    assert.equal(declaresDependency(path.join(dir, 'a.ts'), 'p-limit'), true);
  });
});
