// Workspace trust, workspace ESLint configs and multi-root folders, and the workspace scan.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CodeAction, WorkspaceDiagnosticReport } from 'vscode-languageserver-protocol';
import type { ScanSummary } from '../../server/src/protocol';
import { ALIASED_CONFIG, FAILING_CONFIG, HAZARDS_TS, makeFolder } from './fixtures';
import { LspHarness, serverPath, uriOf } from './harness';

/** What ALIASED_CONFIG makes of HAZARDS_TS: orphaned promise at warn, the others at error, blocking off. */
const ALIASED_CONFIG_CODES: Array<[unknown, number | undefined]> = [
  ['async-hazards/no-orphaned-promise', 2],
  ['async-hazards/release-in-finally', 1],
  ['async-hazards/no-unbounded-fan-out', 1],
];

const codes = (diagnostics: Array<{ code?: unknown; severity?: number }>): Array<[unknown, number | undefined]> => diagnostics.map((d) => [d.code, d.severity]);

describe('workspace configs and trust (multi-root)', () => {
  let harness: LspHarness;
  let trusted: ReturnType<typeof makeFolder>;
  let untrusted: ReturnType<typeof makeFolder>;
  let broken: ReturnType<typeof makeFolder>;

  before(async () => {
    trusted = makeFolder('trusted', { 'eslint.config.mjs': ALIASED_CONFIG, 'a.ts': HAZARDS_TS });
    untrusted = makeFolder('untrusted', { 'eslint.config.mjs': ALIASED_CONFIG, 'a.ts': HAZARDS_TS });
    broken = makeFolder('broken', { 'eslint.config.mjs': FAILING_CONFIG, 'a.ts': HAZARDS_TS, 'b.ts': HAZARDS_TS });
    ({ harness } = await LspHarness.start({
      folders: [trusted.dir, untrusted.dir, broken.dir],
      settings: { typeAware: 'off' },
      initializationOptions: { workspaceTrusted: false, trustedFolders: [uriOf(trusted.dir), uriOf(broken.dir)] },
    }));
  });
  after(async () => {
    await harness.shutdown();
    for (const folder of [trusted, untrusted, broken]) folder.remove();
  });

  it('follows a trusted config that registers the plugin under another alias', async () => {
    const uri = await harness.open(path.join(trusted.dir, 'a.ts'));
    assert.deepEqual(codes(await harness.diagnostics(uri)), ALIASED_CONFIG_CODES);
    const [orphan] = await harness.diagnostics(uri);
    const actions: CodeAction[] = await harness.codeActions(uri, [orphan!]);
    assert.ok(actions.some((a) => a.title === 'Disable hazards/no-orphaned-promise for this line'), actions.map((a) => a.title).join(' | '));
  });

  it('executes nothing in an untrusted folder: the bundled defaults run', async () => {
    const uri = await harness.open(path.join(untrusted.dir, 'a.ts'));
    assert.deepEqual(codes(await harness.diagnostics(uri)), [
      ['async-hazards/no-blocking-in-async', 1],
      ['async-hazards/no-orphaned-promise', 1],
      ['async-hazards/release-in-finally', 1],
      ['async-hazards/no-unbounded-fan-out', 1],
    ]);
    const [blocking] = await harness.diagnostics(uri);
    const titles = (await harness.codeActions(uri, [blocking!])).map((a) => a.title);
    assert.ok(titles.includes("Disable async-hazards/no-blocking-in-async for this line (this folder's ESLint config may not load async-hazards and would report an unknown rule)"), titles.join(' | '));
  });

  it('follows the config once trust is granted', async () => {
    const uri = uriOf(path.join(untrusted.dir, 'a.ts'));
    await harness.notify('asyncHazards/didGrantTrust', { folders: [uriOf(untrusted.dir)] });
    assert.deepEqual(codes(await harness.diagnostics(uri)), ALIASED_CONFIG_CODES);
  });

  it('runs the defaults when a trusted config fails to load, and says so once', async () => {
    const a = await harness.open(path.join(broken.dir, 'a.ts'));
    const b = await harness.open(path.join(broken.dir, 'b.ts'));
    assert.equal((await harness.diagnostics(a)).length, 4);
    assert.equal((await harness.diagnostics(b)).length, 4);
    const told = harness.shownMessages().filter((m) => m.includes('eslint.config.mjs failed to load (this config is broken on purpose)'));
    assert.equal(told.length, 1);
  });
});

describe('workspace scan', () => {
  let harness: LspHarness;
  let folder: ReturnType<typeof makeFolder>;

  before(async () => {
    folder = makeFolder('scan', {
      'src/open.ts': HAZARDS_TS,
      'src/closed.ts': HAZARDS_TS,
      'src/later.js': "import { execSync } from 'node:child_process';\nexport async function build() {\n  return execSync('make');\n}\n",
      'src/clean.ts': 'export const answer = 42;\n',
      'README.md': '# not code\n',
      'node_modules/dep/index.js': HAZARDS_TS,
      'generated/out.js': HAZARDS_TS,
      '.gitignore': 'generated/\n',
    });
    ({ harness } = await LspHarness.start({ folders: [folder.dir], settings: { typeAware: 'off' } }));
  });
  after(async () => {
    await harness.shutdown();
    folder.remove();
  });

  it('lists findings of unopened files once, and never an open file', async () => {
    const open = await harness.open(path.join(folder.dir, 'src', 'open.ts'));
    assert.equal((await harness.diagnostics(open)).length, 4);
    const summary = await harness.request<ScanSummary>('workspace/executeCommand', { command: 'asyncHazards.scanWorkspace', arguments: [] }, 60_000);
    assert.deepEqual([summary.folders, summary.files, summary.findings], [1, 4, 5]);
    const progress = harness.notifications.filter((n) => n.method === '$/progress').map((n) => (n.params as { value: { kind: string } }).value.kind);
    assert.deepEqual([progress[0], progress[progress.length - 1]], ['begin', 'end']);

    const report = await harness.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
    const byUri = new Map(report.items.map((item) => [item.uri, item]));
    assert.equal(byUri.size, report.items.length, 'no file listed twice');
    assert.deepEqual([...byUri.keys()].sort(), [uriOf(path.join(folder.dir, 'src', 'clean.ts')), uriOf(path.join(folder.dir, 'src', 'closed.ts')), uriOf(path.join(folder.dir, 'src', 'later.js'))]);
    const closed = byUri.get(uriOf(path.join(folder.dir, 'src', 'closed.ts')));
    assert.equal(closed?.kind, 'full');
    assert.equal(closed?.kind === 'full' ? closed.items.length : -1, 4);

    // Opened later: the document pull owns it, the workspace report drops it.
    const later = await harness.open(path.join(folder.dir, 'src', 'later.js'));
    assert.deepEqual((await harness.diagnostics(later)).map((d) => d.code), ['async-hazards/no-blocking-in-async']);
    const again = await harness.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
    assert.deepEqual(again.items.map((i) => i.uri).sort(), [uriOf(path.join(folder.dir, 'src', 'clean.ts')), uriOf(path.join(folder.dir, 'src', 'closed.ts'))]);
    // Nothing new: the request is held open; closing a file brings it back from disk, once.
    const pending = harness.request<WorkspaceDiagnosticReport>('workspace/diagnostic', {
      previousResultIds: again.items.map((i) => ({ uri: i.uri, value: (i as { resultId: string }).resultId })),
    });
    await harness.close(later);
    const next = await pending;
    assert.deepEqual(next.items.map((i) => [i.uri, i.kind === 'full' ? i.items.length : -1]), [[uriOf(path.join(folder.dir, 'src', 'later.js')), 1]]);
  });
});

describe('a trusted eslint.config.ts', () => {
  let harness: LspHarness;
  let folder: ReturnType<typeof makeFolder>;
  let dist: string;

  before(async () => {
    // The bundle runs from a copy outside the repository, as the extension's does, so `jiti` can
    // only come from the node_modules/jiti shipped next to it, not from the repository's own.
    dist = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'async-hazards-dist-'));
    await fs.promises.cp(path.dirname(serverPath), dist, { recursive: true });
    // The same config written in TypeScript: a type annotation Node 20 cannot run by itself.
    const config = ALIASED_CONFIG.replace("'hazards/no-orphaned-promise': 'warn'", "'hazards/no-orphaned-promise': orphans")
      .replace('export default', "const orphans: 'warn' | 'error' = 'warn';\n\nexport default");
    folder = makeFolder('ts-config', { 'eslint.config.ts': config, 'a.ts': HAZARDS_TS });
    ({ harness } = await LspHarness.start({
      folders: [folder.dir],
      serverPath: path.join(dist, 'server.js'),
      settings: { typeAware: 'off' },
      initializationOptions: { workspaceTrusted: true },
    }));
  });
  after(async () => {
    await harness.shutdown();
    folder.remove();
    await fs.promises.rm(dist, { recursive: true, force: true });
  });

  it('is loaded with the jiti shipped next to the bundle: its severities apply', async () => {
    const uri = await harness.open(path.join(folder.dir, 'a.ts'));
    assert.deepEqual(codes(await harness.diagnostics(uri)), ALIASED_CONFIG_CODES);
    assert.deepEqual(harness.shownMessages().filter((m) => m.includes('eslint.config.ts')), []);
    const cache = await fs.promises.stat(path.join(dist, 'node_modules', '.cache')).then(() => true, () => false);
    assert.equal(cache, false, 'jiti wrote a cache next to the bundle');
  });
});
