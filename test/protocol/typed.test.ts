// Type-aware mode through the built bundle: the bundled TypeScript must find its lib*.d.ts next to
// server/dist/server.js, with no node_modules in the linted folder.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StatusParams } from '../../server/src/protocol';
import { makeFolder } from './fixtures';
import { LspHarness, samplesRoot } from './harness';

const TSCONFIG = JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] });
// The promise is visible only through a type: the store comes from a factory whose body this
// module does not have, so module summaries cannot tell `save` returns one; the checker can.
const JOBS_TS = `interface Jobs {
  save(id: string): Promise<void>;
}
declare function openJobs(): Jobs;
export const jobs: Jobs = openJobs();
`;
const CALLER_TS = `import { jobs } from './jobs.js';

export function run(ids: string[]): void {
  for (const id of ids) {
    jobs.save(id);
  }
}
`;
const TYPED_TIMEOUT_MS = 120_000;

describe('type-aware linting', () => {
  let harness: LspHarness;
  let project: ReturnType<typeof makeFolder>;

  before(async () => {
    project = makeFolder('typed', { 'tsconfig.json': TSCONFIG, 'src/jobs.ts': JOBS_TS, 'src/caller.ts': CALLER_TS, 'scripts/tool.ts': CALLER_TS });
    ({ harness } = await LspHarness.start({ folders: [project.dir, samplesRoot], settings: { typeAware: 'auto' } }));
  });
  after(async () => {
    await harness.shutdown();
    project.remove();
  });

  it('finds a promise from another file, reporting the first program build as progress', async () => {
    const uri = await harness.open(path.join(project.dir, 'src', 'caller.ts'));
    const diagnostics = await harness.diagnostics(uri, TYPED_TIMEOUT_MS);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line]), [['async-hazards/no-orphaned-promise', 4]]);
    const progress = harness.notifications.filter((n) => n.method === '$/progress').map((n) => (n.params as { value: { kind: string; message?: string } }).value);
    assert.equal(progress[0]?.kind, 'begin');
    assert.match(progress[0]?.message ?? '', /^Building type information \(.*\/tsconfig\.json\)$/);
    assert.equal(progress[progress.length - 1]?.kind, 'end');
    const ready = await harness.waitForNotification<StatusParams>('asyncHazards/status', (s) => s.state === 'ready' && s.uri === uri);
    assert.equal(ready.typeAware, true);
    assert.ok(harness.notifications.some((n) => n.method === 'asyncHazards/status' && (n.params as StatusParams).state === 'building'));
  });

  it('lints the unsaved text with types', async () => {
    const uri = path.join(project.dir, 'src', 'caller.ts');
    const fileUri = `file://${uri}`;
    const awaited = CALLER_TS.replace('export function run(ids: string[]): void {', 'export async function run(ids: string[]): Promise<void> {').replace('    jobs.save(id);', '    await jobs.save(id);');
    await harness.replace(fileUri, awaited);
    assert.deepEqual(await harness.diagnostics(fileUri, TYPED_TIMEOUT_MS), []);
    await harness.replace(fileUri, CALLER_TS);
    assert.equal((await harness.diagnostics(fileUri, TYPED_TIMEOUT_MS)).length, 1);
  });

  it('finds nothing of the kind without types: type information only adds findings', async () => {
    harness.settings = { typeAware: 'off' };
    await harness.notify('workspace/didChangeConfiguration', { settings: null });
    const uri = `file://${path.join(project.dir, 'src', 'caller.ts')}`;
    await harness.replace(uri, `${CALLER_TS}\n`);
    assert.deepEqual(await harness.diagnostics(uri), []);
    harness.settings = { typeAware: 'auto' };
    await harness.notify('workspace/didChangeConfiguration', { settings: null });
    await harness.replace(uri, CALLER_TS);
    assert.equal((await harness.diagnostics(uri, TYPED_TIMEOUT_MS)).length, 1);
  });

  it('falls back to syntactic linting, once and with a message, for a file its tsconfig leaves out', async () => {
    const uri = await harness.open(path.join(project.dir, 'scripts', 'tool.ts'));
    assert.deepEqual(await harness.diagnostics(uri, TYPED_TIMEOUT_MS), []);
    await harness.replace(uri, `${CALLER_TS}\n`);
    assert.deepEqual(await harness.diagnostics(uri, TYPED_TIMEOUT_MS), []);
    const told = harness.shownMessages().filter((m) => m.includes('type information is unavailable for tool.ts'));
    assert.equal(told.length, 1);
    const ready = await harness.waitForNotification<StatusParams>('asyncHazards/status', (s) => s.state === 'ready' && s.uri === uri && s.version === 2);
    assert.equal(ready.typeAware, false);
  });

  it('finds the cross-file orphaned promise in samples/src/scheduler.ts', async () => {
    const file = path.join(samplesRoot, 'src', 'scheduler.ts');
    const uri = await harness.open(file);
    const text = harness.text(uri);
    const diagnostics = await harness.diagnostics(uri, TYPED_TIMEOUT_MS);
    const orphans = diagnostics.filter((d) => d.code === 'async-hazards/no-orphaned-promise');
    const line = text.split('\n').findIndex((l) => l.trim() === 'enqueueSummary(id);');
    assert.deepEqual(orphans.map((d) => d.range.start.line), [line]);
    assert.match(orphans[0]!.message as string, /enqueueSummary/);
  });
});
