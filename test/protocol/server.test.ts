// The built language server over stdio: capabilities, diagnostics, code actions, hover, settings,
// robustness. Type information is off here (typed.test.ts covers it) to keep the suite fast.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CodeAction, Diagnostic, Hover, InitializeResult, MarkupContent, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { StatusParams } from '../../server/src/protocol';
import { DIAGNOSTIC_SOURCE, FIX_ALL_KIND } from '../../server/src/protocol';
import { HAZARDS_TS, lineOf, makeFolder } from './fixtures';
import { LspHarness, repoRoot } from './harness';

const BASE_SETTINGS = { typeAware: 'off' };

describe('language server', () => {
  let harness: LspHarness;
  let init: InitializeResult;
  let scratch: ReturnType<typeof makeFolder>;
  let file: string;

  before(async () => {
    scratch = makeFolder('server', { 'src/hazards.ts': HAZARDS_TS });
    file = path.join(scratch.dir, 'src', 'hazards.ts');
    ({ harness, initializeResult: init } = await LspHarness.start({ folders: [scratch.dir], settings: { ...BASE_SETTINGS } }));
  });
  after(async () => {
    await harness.shutdown();
    scratch.remove();
  });

  async function setSettings(settings: Record<string, unknown>): Promise<void> {
    harness.settings = settings;
    const from = harness.serverRequests.length;
    await harness.notify('workspace/didChangeConfiguration', { settings: null });
    // The server asks the client to pull again once the change is applied.
    await harness.waitForServerRequest('workspace/diagnostic/refresh', () => true, 10_000, from);
  }

  it('announces its capabilities', () => {
    const caps = init.capabilities;
    assert.deepEqual(caps.diagnosticProvider, { identifier: 'async-hazards', interFileDependencies: true, workspaceDiagnostics: true });
    assert.deepEqual((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, ['quickfix', FIX_ALL_KIND]);
    assert.equal(caps.hoverProvider, true);
    assert.deepEqual(caps.executeCommandProvider?.commands, ['asyncHazards.scanWorkspace', 'asyncHazards.showDocumentation']);
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2, save: { includeText: false } });
  });

  it('reports every rule on unsaved text with code, docs link, severity and related locations', async () => {
    const uri = await harness.open(file);
    const diagnostics = await harness.diagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line]),
      [
        ['async-hazards/no-blocking-in-async', 6],
        ['async-hazards/no-orphaned-promise', 12],
        ['async-hazards/release-in-finally', 16],
        ['async-hazards/no-unbounded-fan-out', 22],
      ],
    );
    for (const d of diagnostics) {
      assert.equal(d.source, DIAGNOSTIC_SOURCE);
      assert.equal(d.severity, 1);
      assert.equal(d.codeDescription?.href, `https://github.com/async-hazards/async-hazards/blob/main/eslint-plugin/docs/rules/${String(d.code).slice('async-hazards/'.length)}.md`);
    }
    const release = diagnostics.find((d) => d.code === 'async-hazards/release-in-finally')!;
    assert.ok(release.relatedInformation?.some((r) => r.location.uri === uri && r.location.range.start.line === 16));
    await harness.close(uri);
  });

  it('applies a suggestion as a quick fix and the finding goes away', async () => {
    const uri = await harness.open(file);
    const blocking = (await harness.diagnostics(uri)).find((d) => d.code === 'async-hazards/no-blocking-in-async')!;
    const actions = await harness.codeActions(uri, [blocking]);
    const suggestion = actions.find((a) => a.title.startsWith('Replace with `await readFile'));
    assert.ok(suggestion, `suggestion offered among ${actions.map((a) => a.title).join(' | ')}`);
    assert.equal(suggestion.kind, 'quickfix');
    assert.equal(suggestion.isPreferred, true);
    const text = await harness.applyWorkspaceEdit(suggestion.edit);
    assert.match(text, /return await readFile\(path, 'utf8'\);/);
    const after = await harness.diagnostics(uri);
    assert.ok(!after.some((d) => d.code === 'async-hazards/no-blocking-in-async' || !d.code), 'no blocking call and no parse error left');
    await harness.close(uri);
  });

  it('disables a rule for one line, with a comment the folder can accept', async () => {
    const uri = await harness.open(file);
    const orphan = (await harness.diagnostics(uri)).find((d) => d.code === 'async-hazards/no-orphaned-promise')!;
    const actions = await harness.codeActions(uri, [orphan]);
    const disable = actions.find((a) => a.title === 'Disable async-hazards/no-orphaned-promise for this line');
    assert.ok(disable, actions.map((a) => a.title).join(' | '));
    const text = await harness.applyWorkspaceEdit(disable.edit);
    assert.equal(text.split('\n')[12], '  // eslint-disable-next-line async-hazards/no-orphaned-promise');
    const after = await harness.diagnostics(uri);
    assert.deepEqual(after.map((d) => d.code), ['async-hazards/no-blocking-in-async', 'async-hazards/release-in-finally', 'async-hazards/no-unbounded-fan-out']);
    await harness.close(uri);
  });

  it('fixes all autofixable problems, and only those', async () => {
    const uri = await harness.open(file);
    await harness.diagnostics(uri);
    const actions = await harness.codeActions(uri, [], [FIX_ALL_KIND]);
    assert.deepEqual(actions.map((a) => a.kind), [FIX_ALL_KIND]);
    const text = await harness.applyWorkspaceEdit(actions[0]!.edit);
    assert.match(text, /const release = await lock\.acquire\(\);\n {2}try \{\n {4}await refresh\(\);\n {2}\} finally \{\n {4}release\(\);\n {2}\}/);
    const after = await harness.diagnostics(uri);
    assert.deepEqual(after.map((d) => d.code), ['async-hazards/no-blocking-in-async', 'async-hazards/no-orphaned-promise', 'async-hazards/no-unbounded-fan-out']);
    await harness.close(uri);
  });

  it('offers no edits computed for an older version of the document', async () => {
    const uri = await harness.open(file);
    const stale = (await harness.diagnostics(uri)).find((d) => d.code === 'async-hazards/no-blocking-in-async')!;
    await harness.replace(uri, `\n${HAZARDS_TS}`);
    const actions: CodeAction[] = await harness.codeActions(uri, [stale]);
    assert.deepEqual(actions.map((a) => [a.title, a.edit]), [['Show documentation for async-hazards/no-blocking-in-async', undefined]]);
    await harness.close(uri);
  });

  it('explains a finding on hover and opens the bundled docs', async () => {
    const uri = await harness.open(file);
    const diagnostics = await harness.diagnostics(uri);
    const permit = diagnostics.find((d) => d.code === 'async-hazards/no-blocking-in-async')!;
    const hover = await harness.request<Hover>('textDocument/hover', { textDocument: { uri }, position: permit.range.start });
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /^\*\*async-hazards\/no-blocking-in-async\*\*\n\n\*\*Why it matters:\*\* /);
    assert.doesNotMatch(value, /`fs\.readFileSync` blocks the event loop/, 'the editor shows the message itself');
    assert.match(value, /\*\*How to fix:\*\* Replace with `await readFile/);
    assert.match(value, /\*\*Judged as:\*\* long-lived code, serving phase\./, 'the role and phase the rule judged by');
    assert.match(value, /\[Documentation\]\(https:\/\/github\.com\/async-hazards\/async-hazards\/blob\/main\/eslint-plugin\/docs\/rules\/no-blocking-in-async\.md\)/);
    const none = await harness.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 0 } });
    assert.equal(none, null);

    const shown = await harness.request<{ uri: string }>('workspace/executeCommand', { command: 'asyncHazards.showDocumentation', arguments: ['async-hazards/no-sleep-holding-permit'] });
    assert.equal(shown.uri, `file://${path.join(repoRoot, 'server', 'dist', 'docs', 'no-sleep-holding-permit.md')}`);
    assert.ok((await fs.promises.stat(new URL(shown.uri))).isFile());
    assert.ok(harness.serverRequests.some((r) => r.method === 'window/showDocument' && (r.params as { uri: string }).uri === shown.uri));
    await harness.close(uri);
  });

  it('follows settings changes: severities, rules off, invalid values reported once', async () => {
    const uri = await harness.open(file);
    await setSettings({ ...BASE_SETTINGS, rules: { 'release-in-finally': 'off', 'no-orphaned-promise': 'warn' } });
    const diagnostics = await harness.diagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity]),
      [
        ['async-hazards/no-blocking-in-async', 1],
        ['async-hazards/no-orphaned-promise', 2],
        ['async-hazards/no-unbounded-fan-out', 1],
      ],
    );
    await setSettings({ ...BASE_SETTINGS, enable: false });
    assert.deepEqual(await harness.diagnostics(uri), []);

    await setSettings({ typeAware: 'sometimes', rules: { 'no-such-rule': 'error' } });
    assert.equal((await harness.diagnostics(uri)).length, 4, 'invalid values fall back to defaults');
    await setSettings({ typeAware: 'sometimes', rules: { 'no-such-rule': 'error' } });
    await harness.diagnostics(uri);
    const messages = harness.shownMessages();
    assert.equal(messages.filter((m) => m.includes('asyncHazards.typeAware: "sometimes" is not valid')).length, 1);
    assert.equal(messages.filter((m) => m.includes('unknown rule "no-such-rule"')).length, 1);
    await setSettings({ ...BASE_SETTINGS });
    await harness.close(uri);
  });

  it('lints the saved text only with run: onSave', async () => {
    await setSettings({ ...BASE_SETTINGS, run: 'onSave' });
    const uri = await harness.open(path.join(scratch.dir, 'src', 'saved.ts'), HAZARDS_TS);
    assert.equal((await harness.diagnostics(uri)).length, 4);
    await harness.replace(uri, 'export const clean = true;\n');
    assert.equal((await harness.diagnostics(uri)).length, 4, 'unsaved edits are not linted');
    await harness.notify('textDocument/didSave', { textDocument: { uri } });
    assert.deepEqual(await harness.diagnostics(uri), []);
    await setSettings({ ...BASE_SETTINGS });
    await harness.close(uri);
  });

  it('gives one diagnostic for a parse error', async () => {
    const uri = await harness.open(path.join(scratch.dir, 'src', 'broken.ts'), 'export const = ;\n');
    const diagnostics = await harness.diagnostics(uri);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, 1);
    assert.match(diagnostics[0]!.message as string, /^Parsing error: /);
    assert.equal(diagnostics[0]!.range.start.line, 0);
    await harness.close(uri);
  });

  it('parses a Flow file (@flow) with hermes-eslint and reports in it; without the pragma it is a parse error', async () => {
    const flow = (pragma: string) => `${pragma}type Job = { id: string };
export function start(id: string): void {
  const job = ({ id }: Job);
  fetch(job.id);
}
`;
    const statuses = async (uri: string) => (await harness.waitForNotification<StatusParams>('asyncHazards/status', (p) => p.uri === uri && p.state === 'ready')).parser;
    const flowUri = await harness.open(path.join(scratch.dir, 'src', 'jobs.js'), flow('// @flow\n'));
    assert.deepEqual((await harness.diagnostics(flowUri)).map((d) => [d.code, d.range.start.line]), [['async-hazards/no-orphaned-promise', 4]]);
    assert.equal(await statuses(flowUri), 'hermes-eslint');
    await harness.close(flowUri);
    const plainUri = await harness.open(path.join(scratch.dir, 'src', 'plain.js'), flow(''));
    const plain = await harness.diagnostics(plainUri);
    assert.equal(plain.length, 1);
    assert.match(plain[0]!.message as string, /^Parsing error/);
    assert.notEqual(await statuses(plainUri), 'hermes-eslint');
    await harness.close(plainUri);
  });

  it('skips a file over the size limit and says so once', async () => {
    await setSettings({ ...BASE_SETTINGS, maxFileSizeKb: 1 });
    const big = `${HAZARDS_TS}${'// padding\n'.repeat(200)}`;
    const uri = await harness.open(path.join(scratch.dir, 'src', 'big.ts'), big);
    assert.deepEqual(await harness.diagnostics(uri), []);
    await harness.replace(uri, `${big}\n`);
    assert.deepEqual(await harness.diagnostics(uri), []);
    const told = harness.shownMessages().filter((m) => m.includes('big.ts is not linted'));
    assert.equal(told.length, 1);
    await setSettings({ ...BASE_SETTINGS });
    await harness.close(uri);
  });

  it('survives binary and garbage documents', async () => {
    const binary = await harness.open(path.join(scratch.dir, 'src', 'blob.js'), '\u0000\u0001\u0002PK\u0003\u0004\u0000\uFFFD\uFFFD');
    assert.deepEqual(await harness.diagnostics(binary), []);
    const garbage = await harness.open(path.join(scratch.dir, 'src', 'noise.ts'), '}{)(][ ``` \\u{zz} <<<>>> @@@ #!\n'.repeat(50));
    const diagnostics = await harness.diagnostics(garbage);
    assert.equal(diagnostics.length, 1);
    assert.match(diagnostics[0]!.message as string, /^Parsing error/);
    await harness.close(binary);
    await harness.close(garbage);
  });

  it('answers only for the last of 100 rapid edits', async () => {
    const uri = await harness.open(path.join(scratch.dir, 'src', 'typing.ts'), HAZARDS_TS);
    const from = harness.notifications.length;
    const responses: Array<Promise<{ items?: Diagnostic[]; error?: { code: number } }>> = [];
    for (let i = 1; i <= 100; i++) {
      void harness.replace(uri, `${'\n'.repeat(i)}${HAZARDS_TS}`);
      responses.push(
        harness
          .request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })
          .then((r) => ({ items: r.items }), (error: { code: number }) => ({ error })),
      );
    }
    // Every request is already on the wire; collect the answers in order.
    const results: Array<{ items?: Diagnostic[]; error?: { code: number } }> = [];
    for (const response of responses) results.push(await response);
    const last = results[results.length - 1]!;
    assert.deepEqual(last.items?.map((d) => d.range.start.line), [106, 112, 116, 122], 'the last answer is for the last version');
    for (const result of results.slice(0, -1)) {
      if (result.error) assert.equal(result.error.code, -32802, 'superseded requests are cancelled by the server');
    }
    const linted = harness.notifications
      .slice(from)
      .filter((n) => n.method === 'asyncHazards/status' && (n.params as { uri?: string; state: string }).uri === uri && (n.params as { state: string }).state === 'ready')
      .map((n) => (n.params as { version: number }).version);
    assert.equal(linted[linted.length - 1], 101);
    assert.deepEqual(linted, [...linted].sort((a, b) => a - b), 'versions are linted in order');
    assert.ok(linted.length < 100, `superseded versions are not linted (${linted.length} lints for 100 edits)`);
    await harness.close(uri);
  });

  it('answers malformed requests with errors and keeps serving', async () => {
    await assert.rejects(harness.request('textDocument/diagnostic', {}), (e: { code: number }) => e.code === -32602);
    await assert.rejects(harness.request('textDocument/hover', { textDocument: { uri: 'file:///x.ts' }, position: { line: 'a' } }), (e: { code: number }) => e.code === -32602);
    await assert.rejects(harness.request('workspace/executeCommand', { command: 'asyncHazards.showDocumentation', arguments: [42] }), (e: { code: number }) => e.code === -32602);
    await assert.rejects(harness.request('asyncHazards/noSuchMethod', {}), (e: { code: number }) => e.code === -32601);
    // A frame whose body is not JSON.
    harness.process.stdin.write('Content-Length: 8\r\n\r\n{"jsonrp');
    const uri = await harness.open(path.join(scratch.dir, 'src', 'after.ts'), HAZARDS_TS);
    assert.equal((await harness.diagnostics(uri)).length, 4);
    assert.equal(harness.process.exitCode, null);
    await harness.close(uri);
  });
});

describe('language server without pull diagnostics', () => {
  it('pushes diagnostics for the current version', async () => {
    const scratch = makeFolder('push', { 'a.ts': HAZARDS_TS });
    const { harness } = await LspHarness.start({ folders: [scratch.dir], settings: { ...BASE_SETTINGS }, pull: false });
    try {
      const uri = await harness.open(path.join(scratch.dir, 'a.ts'));
      const first = await harness.waitForNotification<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (p) => p.uri === uri);
      assert.equal(first.version, 1);
      assert.equal(first.diagnostics.length, 4);
      const text = HAZARDS_TS.replace("return readFileSync(path, 'utf8');", "return '';");
      await harness.replace(uri, text);
      const second = await harness.waitForNotification<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (p) => p.uri === uri && p.version === 2);
      assert.deepEqual(second.diagnostics.map((d) => d.range.start.line), [lineOf(text, 'refresh();'), 16, 22]);
    } finally {
      await harness.shutdown();
      scratch.remove();
    }
  });
});

describe('language server with a rule that crashes', () => {
  it('shows the other rules, drops the crashed one for that file, and says once where to report it', async () => {
    // The real plugin, with no-unbounded-fan-out throwing on a marked identifier after its own
    // listeners ran (through the lint core's test hook): its finding on line 23 came before the throw.
    const crashing = `const plugin = require(${JSON.stringify(path.join(repoRoot, 'eslint-plugin', 'dist', 'index.js'))});
const real = plugin.rules['no-unbounded-fan-out'];
const broken = {
  ...real,
  create(context) {
    const listeners = real.create(context);
    const own = listeners.Identifier;
    return { ...listeners, Identifier(node) { if (node.name === 'explode') throw new Error('rule bug on explode'); own?.(node); } };
  },
};
module.exports = { ...plugin, rules: { ...plugin.rules, 'no-unbounded-fan-out': broken } };
`;
    const text = `${HAZARDS_TS}export const explode = 1;\n`;
    const scratch = makeFolder('crash', { 'a.ts': text, 'crashing-plugin.cjs': crashing });
    const { harness } = await LspHarness.start({
      folders: [scratch.dir],
      settings: { ...BASE_SETTINGS },
      env: { ASYNC_HAZARDS_TEST_PLUGIN: path.join(scratch.dir, 'crashing-plugin.cjs') },
    });
    try {
      const uri = await harness.open(path.join(scratch.dir, 'a.ts'));
      assert.deepEqual(
        (await harness.diagnostics(uri)).map((d) => [d.code, d.range.start.line]),
        [
          ['async-hazards/no-blocking-in-async', 6],
          ['async-hazards/no-orphaned-promise', 12],
          ['async-hazards/release-in-finally', 16],
        ],
      );
      // Shown as a `window/showMessageRequest` (error level); the request is recorded as it arrives.
      await harness.waitForServerRequest<{ message: string }>('window/showMessageRequest', (p) => p.message.includes('no-unbounded-fan-out'));
      await harness.replace(uri, `${text}// edited\n`);
      assert.equal((await harness.diagnostics(uri)).length, 3);
      const told = harness.shownMessages().filter((m) => m.includes('no-unbounded-fan-out'));
      assert.equal(told.length, 1, told.join('\n'));
      assert.match(told[0]!, /failed on a\.ts.*please report it at https:\/\/github\.com\/async-hazards\/async-hazards\/issues/);
    } finally {
      await harness.shutdown();
      scratch.remove();
    }
  });
});
