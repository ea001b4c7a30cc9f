// The server copy the extension ships (client/dist/server.js), in type-aware mode, in a folder with
// a tsconfig.json but no node_modules: the bundled TypeScript must find the lib*.d.ts files copied
// next to it. Built by `npm run build` (esbuild.mjs, target `client`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import type { StatusParams } from '../../server/src/protocol';

const BUNDLE = path.join(__dirname, '..', '..', 'client', 'dist', 'server.js');
const TIMEOUT_MS = 120_000;
const SERVER_CANCELLED = -32802;

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'src/store.ts': 'export async function persist(id: string): Promise<void> {\n  if (!id) throw new Error("no id");\n}\n',
  // Only types say that `persist`, imported from another file, returns a promise.
  'src/sync.ts': "import { persist } from './store.js';\n\nexport function syncAll(ids: string[]): void {\n  for (const id of ids) {\n    persist(id);\n  }\n}\n",
};

describe('the server bundled in the extension (client/dist/server.js)', () => {
  let folder: string;
  let connection: MessageConnection;
  let child: ReturnType<typeof spawn>;
  const statuses: StatusParams[] = [];

  before(async () => {
    assert.ok(await exists(BUNDLE), `${BUNDLE} is missing: run npm run build`);
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'async-hazards-bundled-'));
    for (const [name, text] of Object.entries(FILES)) {
      await fs.mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await fs.writeFile(path.join(folder, name), text);
    }
    child = spawn(process.execPath, [BUNDLE, '--stdio'], { stdio: 'pipe' });
    assert.ok(child.stdout && child.stdin);
    connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') return (params as { items: unknown[] }).items.map(() => ({ typeAware: 'auto' }));
      return null;
    });
    connection.onNotification('asyncHazards/status', (params: StatusParams) => void statuses.push(params));
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(folder).href,
      workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'typed' }],
      initializationOptions: { workspaceTrusted: true },
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
        textDocument: { diagnostic: { dynamicRegistration: false }, publishDiagnostics: { relatedInformation: true } },
        window: { workDoneProgress: true },
      },
    });
    await connection.sendNotification('initialized', {});
  });

  after(async () => {
    await connection.sendRequest('shutdown').catch(() => undefined);
    await connection.sendNotification('exit').catch(() => undefined);
    connection.dispose();
    if (child.exitCode === null) child.kill();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('has TypeScript lib files next to it', async () => {
    for (const lib of ['lib.es2022.d.ts', 'lib.es5.d.ts', 'lib.dom.d.ts']) {
      assert.ok(await exists(path.join(path.dirname(BUNDLE), lib)), `${lib} missing next to the bundle`);
    }
  });

  it('has the jiti files ESLint imports for eslint.config.ts next to it', async () => {
    for (const file of ['package.json', 'lib/jiti.mjs', 'dist/jiti.cjs', 'dist/babel.cjs']) {
      assert.ok(await exists(path.join(path.dirname(BUNDLE), 'node_modules', 'jiti', file)), `jiti/${file} missing next to the bundle`);
    }
  });

  it('finds an orphaned promise that only type information reveals, with no node_modules', { timeout: TIMEOUT_MS }, async () => {
    assert.ok(!(await exists(path.join(folder, 'node_modules'))));
    const uri = pathToFileURL(path.join(folder, 'src/sync.ts')).href;
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text: FILES['src/sync.ts'] },
    });
    const diagnostics = await pullDiagnostics(connection, uri);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line]), [['async-hazards/no-orphaned-promise', 4]]);
    assert.ok(statuses.some((s) => s.state === 'ready' && s.uri === uri && s.typeAware === true),
      `no ready status with typeAware: ${JSON.stringify(statuses)}`);
  });
});

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

/** `textDocument/diagnostic`, asked again while the server answers "cancelled, retrigger". */
async function pullDiagnostics(connection: MessageConnection, uri: string): Promise<Diagnostic[]> {
  for (;;) {
    try {
      const report = await connection.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
      return report.kind === 'full' ? report.items : [];
    } catch (error) {
      if ((error as { code?: number }).code !== SERVER_CANCELLED) throw error;
    }
  }
}
