// A typed LSP client for tests and the benchmark: spawns the BUILT server over stdio with the
// extension's Node.js flags, answers the server's requests (workspace/configuration from a settings
// table), records notifications, and gives every request a timeout. No sleeps: callers await
// responses or recorded notifications.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type {
  ClientCapabilities,
  CodeAction,
  Diagnostic,
  DocumentDiagnosticReport,
  FullDocumentDiagnosticReport,
  InitializeResult,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { SERVER_EXEC_ARGV } from '../../server/src/protocol';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const serverPath = path.join(repoRoot, 'server', 'dist', 'server.js');
export const samplesRoot = path.join(repoRoot, 'samples');

export const uriOf = (file: string): string => pathToFileURL(file).href;

export interface HarnessOptions {
  /** Workspace folders (absolute paths). */
  folders: string[];
  /** The server bundle to run; `server/dist/server.js` by default. */
  serverPath?: string;
  initializationOptions?: Record<string, unknown>;
  /** `asyncHazards` settings answered to `workspace/configuration`, optionally per scope URI prefix. */
  settings?: Record<string, unknown>;
  /** Leave out pull diagnostics to exercise the push fallback. */
  pull?: boolean;
  /** Extra environment for the server process. */
  env?: Record<string, string>;
}

export interface Notification {
  method: string;
  params: unknown;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export class LspHarness {
  readonly notifications: Notification[] = [];
  readonly serverRequests: Notification[] = [];
  settings: Record<string, unknown>;
  stderr = '';
  private readonly versions = new Map<string, number>();
  private readonly texts = new Map<string, string>();
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly connection: MessageConnection,
    options: HarnessOptions,
  ) {
    this.settings = options.settings ?? {};
  }

  static async start(options: HarnessOptions): Promise<{ harness: LspHarness; initializeResult: InitializeResult }> {
    const bundle = options.serverPath ?? serverPath;
    await fs.promises.access(bundle).catch(() => {
      throw new Error(`${bundle} is missing: run npm run build first`);
    });
    // Started as the extension starts it, with its Node.js flags.
    const child = spawn(process.execPath, [...SERVER_EXEC_ARGV, bundle, '--stdio'], { stdio: 'pipe', env: { ...process.env, ...options.env } });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const harness = new LspHarness(child, connection, options);
    child.stderr.on('data', (chunk: Buffer) => {
      harness.stderr += chunk.toString();
    });
    connection.onNotification((method, params) => harness.record(harness.notifications, method, params));
    connection.onUnhandledProgress((params) => harness.record(harness.notifications, '$/progress', params));
    connection.onRequest((method, params) => {
      harness.record(harness.serverRequests, method, params);
      if (method === 'workspace/configuration') {
        const items = (params as { items: Array<{ scopeUri?: string; section?: string }> }).items;
        return items.map(() => harness.settings);
      }
      if (method === 'window/showDocument') return { success: true };
      if (method === 'window/showMessageRequest') return null;
      return null;
    });
    connection.listen();
    const pull = options.pull !== false;
    const capabilities: ClientCapabilities = {
      workspace: {
        configuration: true,
        workspaceFolders: true,
        didChangeConfiguration: { dynamicRegistration: false },
        didChangeWatchedFiles: { dynamicRegistration: true },
        workspaceEdit: { documentChanges: true },
        diagnostics: { refreshSupport: true },
      },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } }, isPreferredSupport: true, dataSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        ...(pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
      },
      window: { workDoneProgress: true, showDocument: { support: true } },
    };
    const initializeResult = await harness.request<InitializeResult>('initialize', {
      processId: process.pid,
      rootUri: options.folders[0] ? uriOf(options.folders[0]) : null,
      capabilities,
      workspaceFolders: options.folders.map((folder) => ({ uri: uriOf(folder), name: path.basename(folder) })),
      initializationOptions: options.initializationOptions ?? {},
    });
    await harness.connection.sendNotification('initialized', {});
    return { harness, initializeResult };
  }

  private record(list: Notification[], method: string, params: unknown): void {
    list.push({ method, params });
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Sends a request; rejects (and cancels it) after `timeoutMs`. */
  async request<R>(method: string, params: unknown, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<R> {
    const source = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        source.cancel();
        reject(new Error(`${method} got no response in ${timeoutMs} ms\nserver stderr:\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.connection.sendRequest<R>(method, params, source.token), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every message shown to the user so far (`window/showMessage` and `window/showMessageRequest`). */
  shownMessages(): string[] {
    return [...this.notifications, ...this.serverRequests]
      .filter((n) => n.method === 'window/showMessage' || n.method === 'window/showMessageRequest')
      .map((n) => (n.params as { message: string }).message);
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** Resolves with the first recorded notification (past or future) matching; rejects after `timeoutMs`. */
  waitForNotification<P>(method: string, predicate: (params: P) => boolean = () => true, timeoutMs = DEFAULT_TIMEOUT_MS, from = 0): Promise<P> {
    return this.waitFor(this.notifications, method, predicate, timeoutMs, from);
  }

  /** Same for requests the server sent to the client (answered already). */
  waitForServerRequest<P>(method: string, predicate: (params: P) => boolean = () => true, timeoutMs = DEFAULT_TIMEOUT_MS, from = 0): Promise<P> {
    return this.waitFor(this.serverRequests, method, predicate, timeoutMs, from);
  }

  private async waitFor<P>(list: Notification[], method: string, predicate: (params: P) => boolean, timeoutMs: number, from: number): Promise<P> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = list.slice(from).find((n) => n.method === method && predicate(n.params as P));
      if (hit) return hit.params as P;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${method} in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async open(file: string, text?: string, languageId = languageOf(file)): Promise<string> {
    const uri = uriOf(file);
    const content = text ?? (await fs.promises.readFile(file, 'utf8'));
    this.versions.set(uri, 1);
    this.texts.set(uri, content);
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text: content } });
    return uri;
  }

  /** Replaces the whole text (incremental sync with one full-range edit). */
  async replace(uri: string, text: string): Promise<number> {
    const before = this.text(uri);
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    this.texts.set(uri, text);
    await this.notify('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: endPosition(before) }, text }],
    });
    return version;
  }

  /** Applies `edits` to the document as the client would (one didChange). */
  async applyEdits(uri: string, edits: TextEdit[]): Promise<string> {
    const text = applyTextEdits(this.text(uri), edits);
    await this.replace(uri, text);
    return text;
  }

  async applyWorkspaceEdit(edit: WorkspaceEdit | undefined): Promise<string> {
    if (!edit) throw new Error('the action has no edit');
    const change = edit.documentChanges?.[0];
    if (!change || !('edits' in change)) throw new Error('expected one text document edit');
    if (change.textDocument.version !== null && change.textDocument.version !== this.versions.get(change.textDocument.uri)) {
      throw new Error(`edit for version ${change.textDocument.version}, document is at ${this.versions.get(change.textDocument.uri)}`);
    }
    return this.applyEdits(change.textDocument.uri, change.edits.filter((e): e is TextEdit => 'range' in e));
  }

  text(uri: string): string {
    const text = this.texts.get(uri);
    if (text === undefined) throw new Error(`${uri} is not open`);
    return text;
  }

  version(uri: string): number {
    return this.versions.get(uri) ?? 0;
  }

  async close(uri: string): Promise<void> {
    this.texts.delete(uri);
    this.versions.delete(uri);
    await this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  async diagnostics(uri: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Diagnostic[]> {
    const report = await this.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } }, timeoutMs);
    if (report.kind !== 'full') throw new Error(`expected a full report, got ${report.kind}`);
    return (report as FullDocumentDiagnosticReport).items;
  }

  codeActions(uri: string, diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]> {
    const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return this.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, ...(only ? { only } : {}) } });
  }

  async shutdown(): Promise<void> {
    try {
      await this.request('shutdown', null, 5000);
      await this.notify('exit', null);
    } catch {
      // The process is killed below either way.
    }
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }
}

export function languageOf(file: string): string {
  const ext = path.extname(file);
  return ext === '.tsx' ? 'typescriptreact' : ext === '.jsx' ? 'javascriptreact' : /\.[cm]?ts$/.test(ext) ? 'typescript' : 'javascript';
}

function endPosition(text: string): { line: number; character: number } {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

function offsetAt(text: string, position: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + position.character);
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  let out = text;
  for (const edit of sorted) out = out.slice(0, offsetAt(out, edit.range.start)) + edit.newText + out.slice(offsetAt(out, edit.range.end));
  return out;
}
