// The extension's server copy (client/dist, as the .vsix ships it) with oxc's native binding for
// this platform, and the same copy without it, as on a platform the package carries no binding for:
// the first parses with oxc, the second falls back to @typescript-eslint/parser, and both publish
// the same diagnostics for the samples. Built by `npm run build`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { StatusParams } from '../../server/src/protocol';
import { LspHarness, repoRoot, samplesRoot } from './harness';

const SHIPPED = path.join(repoRoot, 'client', 'dist');

function sampleFiles(): string[] {
  return fs
    .readdirSync(path.join(samplesRoot, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function lintSamples(serverPath: string): Promise<{ diagnostics: Record<string, Diagnostic[]>; parsers: Set<string | undefined> }> {
  const { harness } = await LspHarness.start({ folders: [samplesRoot], serverPath, settings: { typeAware: 'off' } });
  try {
    const diagnostics: Record<string, Diagnostic[]> = {};
    const parsers = new Set<string | undefined>();
    for (const file of sampleFiles()) {
      const uri = await harness.open(file);
      diagnostics[path.relative(samplesRoot, file)] = await harness.diagnostics(uri, 120_000);
      const status = await harness.waitForNotification<StatusParams>('asyncHazards/status', (p) => p.uri === uri && p.state === 'ready', 120_000);
      parsers.add(status.parser);
    }
    return { diagnostics, parsers };
  } finally {
    await harness.shutdown();
  }
}

describe('the shipped server with and without a native binding for the platform', () => {
  let withBinding: string;
  let withoutBinding: string;
  before(() => {
    assert.ok(fs.existsSync(path.join(SHIPPED, 'server.js')), 'client/dist/server.js is missing: run npm run build');
    assert.ok(fs.existsSync(path.join(SHIPPED, 'node_modules', 'oxc-parser', 'package.json')), 'the build did not place oxc-parser next to the server');
    // Outside the repository, so no node_modules up the tree can stand in for what is missing.
    withBinding = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-oxc-'));
    withoutBinding = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-no-oxc-'));
    fs.cpSync(SHIPPED, withBinding, { recursive: true });
    fs.cpSync(SHIPPED, withoutBinding, { recursive: true });
    fs.rmSync(path.join(withoutBinding, 'node_modules', '@oxc-parser'), { recursive: true, force: true });
  });
  after(() => {
    fs.rmSync(withBinding, { recursive: true, force: true });
    fs.rmSync(withoutBinding, { recursive: true, force: true });
  });

  it('parses with oxc where the binding loads, falls back where it does not, and reports the same', async () => {
    const native = await lintSamples(path.join(withBinding, 'server.js'));
    const fallback = await lintSamples(path.join(withoutBinding, 'server.js'));
    assert.deepEqual([...native.parsers], ['oxc']);
    assert.deepEqual([...fallback.parsers], ['typescript-eslint']);
    assert.ok(Object.values(native.diagnostics).some((d) => d.length > 0), 'the samples have findings');
    assert.deepEqual(native.diagnostics, fallback.diagnostics);
  });
});
