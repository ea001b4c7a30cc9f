// Staying fresh: when a module changes (an unsaved edit, a close, a file on disk), the built server
// lints again the other open files that read or import it, and only those.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DocumentDiagnosticReport, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { StatusParams } from '../../server/src/protocol';
import { StatusNotification } from '../../server/src/protocol';
import { makeFolder } from './fixtures';
import { LspHarness, uriOf } from './harness';

const BASE_SETTINGS = { typeAware: 'off' };

/** Imports the shared module and leaves one promise orphaned (line 5), so every lint has a finding. */
const importer = (name: string): string => `import { helper } from './shared';

async function refresh${name}(): Promise<void> { await fetch('http://cache/refresh'); }
export function start${name}(): number {
  refresh${name}();
  return helper();
}
`;

const SHARED = 'export function helper(): number {\n  return 1;\n}\n';
const IMPORTERS = ['a', 'b', 'c', 'd'];

function files(): Record<string, string> {
  const out: Record<string, string> = { 'src/shared.ts': SHARED, 'src/other.ts': importer('Other').replace("'./shared'", "'./elsewhere'"), 'src/elsewhere.ts': SHARED };
  for (const name of IMPORTERS) out[`src/${name}.ts`] = importer(name.toUpperCase());
  out['src/late-user.ts'] = "import { later } from './late';\nexport const value = later();\n";
  return out;
}

const PUBLISH = 'textDocument/publishDiagnostics';

describe('re-linting open files when a module they import changes (push)', () => {
  let harness: LspHarness;
  let scratch: ReturnType<typeof makeFolder>;
  const file = (name: string): string => path.join(scratch.dir, 'src', name);

  before(async () => {
    scratch = makeFolder('dependents', files());
    ({ harness } = await LspHarness.start({ folders: [scratch.dir], settings: { ...BASE_SETTINGS }, pull: false }));
    for (const name of [...IMPORTERS, 'other', 'shared', 'late-user']) {
      const uri = await harness.open(file(`${name}.ts`));
      await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === uri);
    }
  });
  after(async () => {
    await harness.shutdown();
    scratch.remove();
  });

  /** Lints of `uri` finished since notification `from` (the server reports each as `ready`). */
  function lintsSince(uri: string, from: number): number {
    return harness.notifications.slice(from).filter((n) => n.method === StatusNotification.method && (n.params as StatusParams).state === 'ready' && (n.params as StatusParams).uri === uri).length;
  }

  /**
   * Pulls each file's diagnostics (the server answers pulls in push mode too): the answer waits
   * for a lint under way and its push, and a file whose result was dropped is linted (and
   * counted) now, so "not linted again" is checked, not assumed.
   */
  async function settled(names: readonly string[]): Promise<void> {
    for (const name of names) await harness.diagnostics(uriOf(file(`${name}.ts`)));
  }

  it("an unsaved edit republishes every open importer at that importer's own version, and no other file", async () => {
    const from = harness.notifications.length;
    await harness.replace(uriOf(file('shared.ts')), SHARED.replace('return 1;', 'return 2;'));
    for (const name of IMPORTERS) {
      const uri = uriOf(file(`${name}.ts`));
      const published = await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === uri, undefined, from);
      assert.equal(published.version, 1, `${name}.ts was never edited`);
      assert.deepEqual(published.diagnostics.map((d) => [d.code, d.range.start.line]), [['async-hazards/no-orphaned-promise', 4]]);
      assert.equal(lintsSince(uri, from), 1);
    }
    await settled(['other', ...IMPORTERS]);
    const other = uriOf(file('other.ts'));
    assert.equal(harness.notifications.slice(from).filter((n) => n.method === PUBLISH && (n.params as PublishDiagnosticsParams).uri === other).length, 0);
    assert.equal(lintsSince(other, from), 0);
  });

  it('a burst of edits lints each importer again at most once per edit, and last after the last one', async (t) => {
    const shared = uriOf(file('shared.ts'));
    const from = harness.notifications.length;
    const EDITS = 10;
    for (let i = 0; i < EDITS; i++) await harness.replace(shared, SHARED.replace('return 1;', `return ${10 + i};`));
    const last = harness.version(shared);
    await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === shared && p.version === last, undefined, from);
    const lastPublish = harness.notifications.findIndex((n, i) => i >= from && n.method === PUBLISH && (n.params as PublishDiagnosticsParams).uri === shared && (n.params as PublishDiagnosticsParams).version === last);
    for (const name of IMPORTERS) {
      // The edits' order decides: the last edit's own lint comes first, then its importers'.
      await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === uriOf(file(`${name}.ts`)), undefined, lastPublish);
    }
    await settled(['other', ...IMPORTERS]);
    const counts = IMPORTERS.map((name) => lintsSince(uriOf(file(`${name}.ts`)), from));
    for (const [i, count] of counts.entries()) {
      assert.ok(count >= 1 && count <= EDITS, `${IMPORTERS[i]}.ts was linted ${count} times for ${EDITS} edits`);
    }
    assert.equal(lintsSince(uriOf(file('other.ts')), from), 0);
    t.diagnostic(`re-lints per importer for ${EDITS} edits of the shared module: ${counts.join(', ')}`);
  });

  it('closing a module with unsaved edits republishes its importers, which read the saved file again', async () => {
    const shared = uriOf(file('shared.ts'));
    const from = harness.notifications.length;
    await harness.close(shared);
    for (const name of IMPORTERS) {
      const uri = uriOf(file(`${name}.ts`));
      const published = await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === uri, undefined, from);
      assert.equal(published.version, 1);
    }
    const reopened = harness.notifications.length;
    const uri = await harness.open(file('shared.ts'));
    await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === uri, undefined, reopened);
  });

  it('registers a watcher for modules next to the one for configs', async () => {
    const registration = await harness.waitForServerRequest<{ registrations: Array<{ method: string; registerOptions: { watchers: Array<{ globPattern: string }> } }> }>(
      'client/registerCapability',
      (p) => p.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'),
    );
    const watchers = registration.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')?.registerOptions.watchers.map((w) => w.globPattern);
    assert.deepEqual(watchers, ['**/{eslint.config.{js,mjs,cjs,ts,mts,cts},tsconfig*.json,jsconfig.json,package.json}', '**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}']);
  });

  it('a module created on disk republishes the open file whose import it now satisfies, and only that file', async () => {
    const from = harness.notifications.length;
    await fs.promises.writeFile(file('late.ts'), 'export function later(): number {\n  return 3;\n}\n');
    await harness.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file('late.ts')), type: 1 }] });
    const user = uriOf(file('late-user.ts'));
    const published = await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (p) => p.uri === user, undefined, from);
    assert.equal(published.version, 1);
    await settled([...IMPORTERS, 'other', 'shared']);
    for (const name of [...IMPORTERS, 'other', 'shared']) assert.equal(lintsSince(uriOf(file(`${name}.ts`)), from), 0, `${name}.ts does not read late.ts`);
  });

  it('a change on disk to a module open in the editor changes nothing: its unsaved text is what importers read', async () => {
    const from = harness.notifications.length;
    await fs.promises.writeFile(file('shared.ts'), SHARED.replace('return 1;', 'return 99;'));
    await harness.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file('shared.ts')), type: 2 }] });
    await settled([...IMPORTERS, 'shared']);
    for (const name of [...IMPORTERS, 'shared']) assert.equal(lintsSince(uriOf(file(`${name}.ts`)), from), 0, name);
  });
});

describe('re-linting open files when a module they import changes (pull)', () => {
  it('asks the client to pull again; the importer gets a new result, a file that does not import it stays unchanged', async () => {
    const scratch = makeFolder('dependents-pull', files());
    const { harness } = await LspHarness.start({ folders: [scratch.dir], settings: { ...BASE_SETTINGS } });
    const pull = (uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> =>
      harness.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) });
    try {
      const a = await harness.open(path.join(scratch.dir, 'src', 'a.ts'));
      const other = await harness.open(path.join(scratch.dir, 'src', 'other.ts'));
      const shared = await harness.open(path.join(scratch.dir, 'src', 'shared.ts'));
      const first = await pull(a);
      const otherFirst = await pull(other);
      await pull(shared);
      assert.equal(first.kind, 'full');
      assert.equal((await pull(a, first.resultId)).kind, 'unchanged', 'nothing changed yet');
      const from = harness.serverRequests.length;
      await harness.replace(shared, SHARED.replace('return 1;', 'return 2;'));
      await harness.waitForServerRequest('workspace/diagnostic/refresh', () => true, 10_000, from);
      const again = await pull(a, first.resultId);
      assert.equal(again.kind, 'full');
      assert.notEqual(again.resultId, first.resultId);
      assert.equal((await pull(other, otherFirst.resultId)).kind, 'unchanged');
    } finally {
      await harness.shutdown();
      scratch.remove();
    }
  });
});

/**
 * A stand-in for rules that learn what an imported module exports: it reports, on each import, the
 * names the target module exports, following `export * from` (through the server's own project
 * layer, handed to it by the lint core's test hook). Its answer for a.ts depends on c.ts, which
 * a.ts reaches only through b.ts: only the read log can tell the server so.
 */
const READING_PLUGIN = `module.exports = (project) => ({
  meta: { name: 'eslint-plugin-async-hazards' },
  rules: {
    'no-orphaned-promise': {
      meta: { type: 'problem', schema: [], messages: { exports: 'exports: {{names}}' } },
      create: (context) => ({
        ImportDeclaration(node) {
          const names = exportsOf(project, context.filename, node.source.value, 0);
          context.report({ node, messageId: 'exports', data: { names: names.join(', ') || 'nothing' } });
        },
      }),
    },
  },
});
function exportsOf(project, from, specifier, depth) {
  const target = project.resolveImport(from, specifier);
  const module = target.kind === 'file' && depth < 4 ? project.parsedModule(target.path) : null;
  if (!module) return [];
  return module.program.body.flatMap((s) => {
    if (s.type === 'ExportAllDeclaration') return exportsOf(project, module.path, s.source.value, depth + 1);
    if (s.type === 'ExportNamedDeclaration' && s.declaration && s.declaration.type === 'VariableDeclaration') return s.declaration.declarations.map((d) => d.id.name);
    return [];
  });
}
`;

describe('an unsaved edit in another open file changes the answer (a rule that reads imported modules)', () => {
  let harness: LspHarness;
  let scratch: ReturnType<typeof makeFolder>;
  const file = (name: string): string => path.join(scratch.dir, 'src', name);
  const exportsSeen = async (uri: string, from: number): Promise<string[]> => {
    const p = await harness.waitForNotification<PublishDiagnosticsParams>(PUBLISH, (n) => n.uri === uri, undefined, from);
    assert.equal(p.version, 1, 'the importer itself is never edited');
    return p.diagnostics.map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
  };

  before(async () => {
    scratch = makeFolder('dependents-reads', {
      'reading-plugin.cjs': READING_PLUGIN,
      'src/a.ts': "import { pool } from './b';\nexport const used = pool;\n",
      'src/b.ts': "export * from './c';\n",
      'src/c.ts': 'export const pool = 1;\n',
      'src/other.ts': "import { x } from './x';\nexport const y = x;\n",
      'src/x.ts': 'export const x = 1;\n',
    });
    ({ harness } = await LspHarness.start({
      folders: [scratch.dir],
      settings: { ...BASE_SETTINGS },
      pull: false,
      env: { ASYNC_HAZARDS_TEST_PLUGIN: path.join(scratch.dir, 'reading-plugin.cjs') },
    }));
  });
  after(async () => {
    await harness.shutdown();
    scratch.remove();
  });

  it('follows an edit of a module two imports away, a close, and a change on disk', async () => {
    let from = harness.notifications.length;
    const a = await harness.open(file('a.ts'));
    assert.deepEqual(await exportsSeen(a, from), ['exports: pool']);
    const other = await harness.open(file('other.ts'));
    const c = await harness.open(file('c.ts'));
    // Their first lints are done (see `settled` above).
    await harness.diagnostics(other);
    await harness.diagnostics(c);

    from = harness.notifications.length;
    await harness.replace(c, 'export const pool = 1;\nexport const limiter = 2;\n');
    assert.deepEqual(await exportsSeen(a, from), ['exports: pool, limiter']);
    await harness.diagnostics(other);
    assert.equal(harness.notifications.slice(from).filter((n) => n.method === PUBLISH && (n.params as PublishDiagnosticsParams).uri === other).length, 0, 'other.ts read nothing that changed');

    from = harness.notifications.length;
    await harness.close(c);
    assert.deepEqual(await exportsSeen(a, from), ['exports: pool'], 'the saved c.ts counts again');

    from = harness.notifications.length;
    await fs.promises.writeFile(file('c.ts'), 'export const pool = 1;\nexport const queue = 3;\n');
    await harness.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file('c.ts')), type: 2 }] });
    assert.deepEqual(await exportsSeen(a, from), ['exports: pool, queue']);
  });
});
