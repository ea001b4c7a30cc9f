// Entry point: wires LSP handlers to the modules. `node server.js --stdio` (or --node-ipc).
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CancellationToken, ClientCapabilities, CodeAction, DidChangeWatchedFilesParams, DocumentDiagnosticReport, InitializeResult, WorkDoneProgressServerReporter, WorkspaceDiagnosticReport } from 'vscode-languageserver/node';
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  LSPErrorCodes,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  createConnection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fixAllAction, quickFixes, wants } from './codeActions';
import { minimalEdit } from './diagnostics';
import { InvalidParamsError, Reporter, describe, requirePosition, requireTextDocument } from './errors';
import { hoverFor } from './hover';
import { isSupportedFile } from './lint';
import type { ModuleChange } from './lintService';
import { LintService } from './lintService';
import type { DidGrantTrustParams, InitializationOptions, ScanSummary } from './protocol';
import { Commands, DidGrantTrustNotification, FIX_ALL_KIND, StatusNotification } from './protocol';
import { ruleDocsPath, ruleDocsUrl, ruleName } from './ruleDocs';
import { WATCHED_CONFIG_GLOB, WATCHED_MODULE_GLOB, isProjectConfigFile } from './workspaceConfig';
import { WorkspaceDiagnostics } from './workspaceScan';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const reporter = new Reporter(connection);
let capabilities: ClientCapabilities = {};
let service: LintService | undefined;
let scanProgress: WorkDoneProgressServerReporter | null = null;
/** Opened, and its first content event not yet heard (`TextDocuments` sends one right after the open). */
const justOpened = new Set<string>();

// A document must never take the process down.
process.on('uncaughtException', (error) => reporter.error('uncaught exception', error));
process.on('unhandledRejection', (error) => reporter.error('unhandled rejection', error));

function lints(): LintService {
  if (!service) throw new ResponseError(-32002, 'server not initialized');
  return service;
}

const scan = new WorkspaceDiagnostics({
  folders: () => lints().allFolders(),
  isOpen: (uri) => documents.get(uri) !== undefined,
  lintFile: (filePath, text) => lints().lintFile(filePath, text),
  maxFileSizeKb: async (uri) => (await lints().settingsFor(uri)).maxFileSizeKb,
  onProgress: (done, total, file) => scanProgress?.report(Math.round((done / Math.max(1, total)) * 100), file),
});

connection.onInitialize((params): InitializeResult => {
  capabilities = params.capabilities ?? {};
  service = new LintService(connection, documents, reporter, capabilities);
  service.initialize(params.workspaceFolders, params.initializationOptions as InitializationOptions | undefined);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      diagnosticProvider: { identifier: 'async-hazards', interFileDependencies: true, workspaceDiagnostics: true },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
      hoverProvider: true,
      executeCommandProvider: { commands: Object.values(Commands) },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'async-hazards', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [{ globPattern: WATCHED_CONFIG_GLOB }, { globPattern: WATCHED_MODULE_GLOB }],
    });
  }
  if (capabilities.workspace?.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((event) => {
      lints().addFolders(event.added);
      lints().removeFolders(event.removed);
    });
  }
  void connection.sendNotification(StatusNotification, { state: 'ready' });
});

documents.onDidOpen(reporter.guardNotification('didOpen', ({ document }) => {
  scan.opened(document.uri);
  justOpened.add(document.uri);
  // What was opened counts as saved for `run: onSave`.
  lints().documentSaved(document);
  if (!lints().pullSupported) return push(document.uri);
}));
documents.onDidChangeContent(reporter.guardNotification('didChange', async ({ document }) => {
  const dependents = changedModule(document.uri, justOpened.delete(document.uri) ? 'opened' : 'edited');
  if (!lints().pullSupported && (await lints().settingsFor(document.uri)).run === 'onType') await push(document.uri);
  await pushDependents(dependents);
}));
documents.onDidSave(reporter.guardNotification('didSave', async ({ document }) => {
  lints().documentSaved(document);
  if ((await lints().settingsFor(document.uri)).run !== 'onSave') return;
  if (lints().pullSupported) lints().configurationChanged();
  else await push(document.uri);
}));
documents.onDidClose(reporter.guardNotification('didClose', async ({ document }) => {
  justOpened.delete(document.uri);
  lints().documentClosed(document.uri);
  if (!lints().pullSupported) void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  await pushDependents(changedModule(document.uri, 'closed'));
  if (document.uri.startsWith('file:')) await scan.closed(lints().filePathFor(document));
}));

/** The open documents to lint again because the module at `uri` changed (see `LintService.modulesChanged`). */
function changedModule(uri: string, how: ModuleChange): string[] {
  if (!uri.startsWith('file:')) return [];
  const filePath = fileURLToPath(uri);
  return isSupportedFile(filePath) ? lints().modulesChanged([filePath], how) : [];
}

/** Push clients get the dependents' new diagnostics; pull clients were asked to pull again. */
async function pushDependents(uris: readonly string[]): Promise<void> {
  if (!lints().pullSupported) await Promise.all(uris.map(push));
}

/** Push fallback for clients without pull diagnostics. */
async function push(uri: string): Promise<void> {
  const report = await lints().diagnose(uri);
  if (report && documents.get(uri)) await connection.sendDiagnostics({ uri, version: report.version, diagnostics: report.diagnostics });
}

connection.languages.diagnostics.on(reporter.guard('textDocument/diagnostic', { kind: 'full', items: [] } as DocumentDiagnosticReport, async (params, token: CancellationToken) => {
  const { uri } = requireTextDocument(params);
  const report = await lints().diagnose(uri, token);
  if (!report) throw new ResponseError(LSPErrorCodes.ServerCancelled, 'a newer version of the document replaced this one', { retriggerRequest: true });
  if (params.previousResultId === report.resultId) return { kind: 'unchanged', resultId: report.resultId } as DocumentDiagnosticReport;
  return { kind: 'full', resultId: report.resultId, items: report.diagnostics } as DocumentDiagnosticReport;
}));

connection.languages.diagnostics.onWorkspace(reporter.guard('workspace/diagnostic', { items: [] } as WorkspaceDiagnosticReport, async (params, token: CancellationToken, _workDone: unknown, resultProgress?: { report(p: WorkspaceDiagnosticReport): void }) => {
  if (!Array.isArray(params?.previousResultIds)) throw new InvalidParamsError('params.previousResultIds must be an array');
  const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
  const cancelled = new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
  if (scan.isRunning && resultProgress) {
    // Stream results as files finish; the final response is then empty, as LSP requires.
    const initial = scan.reportsSince(previous);
    if (initial.length) resultProgress.report({ items: initial });
    const unsubscribe = scan.subscribe((report) => resultProgress.report({ items: [report] }));
    await Promise.race([scan.waitForScan(), cancelled]);
    unsubscribe();
    return { items: [] };
  }
  while (!token.isCancellationRequested) {
    if (scan.isRunning) await Promise.race([scan.waitForScan(), cancelled]);
    const items = scan.reportsSince(previous);
    if (items.length || token.isCancellationRequested) return { items };
    // Nothing new: hold the request until there is (a long poll the client cancels at will).
    await Promise.race([scan.changed(), cancelled]);
  }
  return { items: [] };
}));

connection.onCodeAction(reporter.guard('textDocument/codeAction', [] as CodeAction[], async (params) => {
  const { uri } = requireTextDocument(params);
  const document = documents.get(uri);
  if (!document) return [];
  const diagnostics = Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : [];
  const only = params.context?.only;
  const versionedEdits = capabilities.workspace?.workspaceEdit?.documentChanges === true;
  const folder = lints().folderFor(uri, lints().filePathFor(document));
  const directive = await folder.linter.disableDirectiveFor(lints().filePathFor(document));
  const actions = quickFixes({ document, diagnostics, only, directive, versionedEdits });
  const fixable = diagnostics.some((d) => (d.data as { fix?: unknown } | undefined)?.fix);
  if (only ? wants(only, FIX_ALL_KIND) && only.some((o) => o !== CodeActionKind.QuickFix) : fixable) {
    const settings = await lints().settingsFor(uri);
    const { output } = await folder.linter.fixText(document.getText(), lints().filePathFor(document), { rules: settings.rules, maxFileSizeKb: settings.maxFileSizeKb });
    const action = fixAllAction(document, minimalEdit(document.getText(), output, document), versionedEdits);
    if (action) actions.push(action);
  }
  return actions;
}));

connection.onHover(reporter.guard('textDocument/hover', null, (params) => {
  const { uri } = requireTextDocument(params);
  return hoverFor(lints().currentDiagnostics(uri), requirePosition(params));
}));

connection.onExecuteCommand(reporter.guard('workspace/executeCommand', null, async (params) => {
  if (params.command === Commands.scanWorkspace) return runScan();
  if (params.command === Commands.showDocumentation) {
    const [ruleId] = params.arguments ?? [];
    if (typeof ruleId !== 'string') throw new InvalidParamsError(`${Commands.showDocumentation} takes a rule id`);
    return showDocumentation(ruleId);
  }
  throw new InvalidParamsError(`unknown command ${params.command}`);
}));

async function runScan(): Promise<ScanSummary> {
  const started = performance.now();
  if (capabilities.window?.workDoneProgress && !scan.isRunning) {
    try {
      scanProgress = await connection.window.createWorkDoneProgress();
      scanProgress.begin('Async Hazards: scanning the workspace', 0, undefined, false);
    } catch (error) {
      reporter.log(`no progress for the scan: ${describe(error)}`);
    }
  }
  try {
    const { files, findings } = await scan.scan();
    return { folders: lints().allFolders().length, files, findings, durationMs: Math.round(performance.now() - started) };
  } finally {
    scanProgress?.done();
    scanProgress = null;
  }
}

async function showDocumentation(ruleId: string): Promise<{ uri: string } | null> {
  const local = ruleDocsPath(ruleId);
  const uri = local ? pathToFileURL(local).href : ruleDocsUrl(ruleId);
  if (!uri) throw new InvalidParamsError(`no rule named ${ruleName(ruleId)}`);
  if (capabilities.window?.showDocument?.support) await connection.window.showDocument({ uri, external: !local, takeFocus: true });
  else void connection.window.showInformationMessage(`Documentation for async-hazards/${ruleName(ruleId)}: ${ruleDocsUrl(ruleId) ?? uri}`);
  return { uri };
}

connection.onNotification(DidGrantTrustNotification, reporter.guardNotification('didGrantTrust', (params: DidGrantTrustParams | undefined) => {
  lints().grantTrust(Array.isArray(params?.folders) ? params.folders : undefined);
  return relintPushed();
}));
connection.onDidChangeConfiguration(reporter.guardNotification('didChangeConfiguration', () => {
  lints().configurationChanged();
  return relintPushed();
}));
connection.onDidChangeWatchedFiles(reporter.guardNotification('didChangeWatchedFiles', (params: DidChangeWatchedFilesParams | undefined) => {
  const paths = (Array.isArray(params?.changes) ? params.changes : []).flatMap((c) => (typeof c?.uri === 'string' && c.uri.startsWith('file:') ? [fileURLToPath(c.uri)] : []));
  if (paths.length === 0 || paths.some(isProjectConfigFile)) {
    lints().filesChanged();
    return relintPushed();
  }
  // Installs and builds rewrite node_modules wholesale; what rules read there is its manifests.
  const modules = paths.filter((p) => isSupportedFile(p) && !p.split(/[\\/]/).includes('node_modules'));
  return pushDependents(lints().modulesChanged(modules, 'disk'));
}));

/** Pull clients are told to re-pull by `changed()`; push clients get fresh diagnostics here. */
async function relintPushed(): Promise<void> {
  if (lints().pullSupported) return;
  for (const document of documents.all()) await push(document.uri);
}

documents.listen(connection);
connection.listen();
