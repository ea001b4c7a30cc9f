import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CancellationToken, ClientCapabilities, Connection, Diagnostic, TextDocuments, WorkDoneProgressServerReporter, WorkspaceFolder } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { TextDocument as TextDocumentImpl } from 'vscode-languageserver-textdocument';
import { toDiagnostic } from './diagnostics';
import { describe, type Reporter } from './errors';
import { IdleCollector } from './idleCollector';
import type { FileRead } from 'eslint-plugin-async-hazards/project';
import { importersOf, invalidate as invalidateProjectFile, isReadCurrent } from 'eslint-plugin-async-hazards/project';
import type { AsyncHazardsLinter, LintNotice, LintResult, OpenDocument } from './lint';
import { BUGS_URL, createLinter, syncOverlays } from './lint';
import { StatusNotification, type InitializationOptions, type StatusParams } from './protocol';
import type { Settings } from './settings';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, validateSettings } from './settings';

export interface Folder {
  uri: string;
  path: string;
  trusted: boolean;
  linter: AsyncHazardsLinter;
}

export interface DocumentReport {
  resultId: string;
  version: number;
  diagnostics: Diagnostic[];
}

/**
 * How a module changed: `edited` (unsaved text), `opened` (its editor text now counts), `closed`
 * (its saved file counts again), `disk` (a watched file was created, changed or deleted).
 */
export type ModuleChange = 'edited' | 'opened' | 'closed' | 'disk';

const LANGUAGE_EXTENSIONS: Record<string, string> = {
  javascript: '.js',
  javascriptreact: '.jsx',
  typescript: '.ts',
  typescriptreact: '.tsx',
};

/** Lets the connection dispatch messages already received (edits, cancellations) before we lint. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Per-folder linters, per-document settings and results. A newer document version makes an older
 * run moot: runs check the version after letting queued messages through, and results are keyed
 * by version and settings generation.
 */
export class LintService {
  private folders: Folder[] = [];
  private readonly looseFolders = new Map<string, Folder>();
  private readonly settings = new Map<string, Promise<Settings>>();
  private readonly reports = new Map<string, DocumentReport>();
  private readonly inflight = new Map<string, { resultId: string; promise: Promise<DocumentReport | null> }>();
  private readonly saved = new Map<string, TextDocument>();
  private generation = 0;
  private workspaceTrusted = false;
  private trustedFolders = new Set<string>();
  private progress: WorkDoneProgressServerReporter | null = null;
  private lintCount = 0;
  /** What the last lint of each open document read, by path (the project layer's read log). */
  private readonly reads = new Map<string, Map<string, FileRead>>();
  /** Bumped when a module an open document depends on changes: part of its result id. */
  private readonly dependencyStamps = new Map<string, number>();
  private refreshScheduled = false;
  /** Scavenges after a document's lint, while the editor waits for the user (see idleCollector.ts). */
  private readonly idle = new IdleCollector();
  private documentLints = 0;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly reporter: Reporter,
    private readonly capabilities: ClientCapabilities,
  ) {}

  get pullSupported(): boolean {
    return this.capabilities.textDocument?.diagnostic !== undefined;
  }

  get totalLints(): number {
    return this.lintCount;
  }

  initialize(folders: WorkspaceFolder[] | null | undefined, options: InitializationOptions | undefined): void {
    this.workspaceTrusted = options?.workspaceTrusted === true;
    this.trustedFolders = new Set(Array.isArray(options?.trustedFolders) ? options.trustedFolders.filter((f) => typeof f === 'string') : []);
    this.addFolders(folders ?? []);
  }

  addFolders(folders: WorkspaceFolder[]): void {
    for (const folder of folders) {
      if (this.folders.some((f) => f.uri === folder.uri) || !folder.uri.startsWith('file:')) continue;
      this.folders.push(this.makeFolder(folder.uri, fileURLToPath(folder.uri)));
    }
    // Longest path first, so nested folders win.
    this.folders.sort((a, b) => b.path.length - a.path.length);
    this.changed();
  }

  removeFolders(folders: WorkspaceFolder[]): void {
    const removed = new Set(folders.map((f) => f.uri));
    for (const folder of this.folders) if (removed.has(folder.uri)) folder.linter.dispose();
    this.folders = this.folders.filter((f) => !removed.has(f.uri));
    this.changed();
  }

  allFolders(): readonly Folder[] {
    return this.folders;
  }

  grantTrust(folderUris: string[] | undefined): void {
    if (folderUris === undefined) this.workspaceTrusted = true;
    else for (const uri of folderUris) this.trustedFolders.add(uri);
    for (const folder of [...this.folders, ...this.looseFolders.values()]) {
      const trusted = this.isTrusted(folder.uri);
      if (trusted !== folder.trusted) {
        folder.trusted = trusted;
        folder.linter.setTrusted(trusted);
      }
    }
    this.changed();
  }

  /** Settings changed: drop cached settings and every result. */
  configurationChanged(): void {
    this.settings.clear();
    this.changed();
  }

  /** Config or project files changed on disk. */
  filesChanged(): void {
    for (const folder of [...this.folders, ...this.looseFolders.values()]) folder.linter.invalidate();
    this.changed();
  }

  documentSaved(document: TextDocument): void {
    this.saved.set(document.uri, TextDocumentImpl.create(document.uri, document.languageId, document.version, document.getText()));
  }

  documentClosed(uri: string): void {
    this.reports.delete(uri);
    this.saved.delete(uri);
    this.settings.delete(uri);
    this.inflight.delete(uri);
    this.reads.delete(uri);
    this.dependencyStamps.delete(uri);
  }

  /**
   * JS/TS modules changed (absolute paths). The project layer is told, then every other open
   * document whose last lint read one of them and would now read something else is due again, and
   * so is every open document that imports one (`importersOf`): the import index covers what a
   * read log cannot show, such as what the type checker read. `opened` counts only the reads
   * (opening a file seldom changes its text). A file on disk that is open in the editor changes
   * nothing: its unsaved text is what everyone reads. Their results are dropped, pull clients are
   * asked to pull again, and the URIs are returned for push clients.
   */
  modulesChanged(paths: readonly string[], how: ModuleChange): string[] {
    const open = new Map<string, string>();
    for (const document of this.documents.all()) if (document.uri.startsWith('file:')) open.set(path.resolve(fileURLToPath(document.uri)), document.uri);
    const changed = paths.map((p) => path.resolve(p)).filter((p) => how !== 'disk' || !open.has(p));
    if (changed.length === 0) return [];
    if (how === 'disk') for (const file of changed) invalidateProjectFile(file);
    else syncOverlays(this.openDocuments());
    const due = new Set<string>();
    for (const [filePath, uri] of open) {
      if (changed.includes(filePath)) continue;
      const reads = this.reads.get(uri);
      if (reads && changed.some((file) => { const read = reads.get(file); return read !== undefined && !isReadCurrent(read); })) due.add(uri);
    }
    if (how !== 'opened') {
      for (const file of changed) for (const importer of importersOf(file)) {
        const uri = open.get(importer);
        if (uri && !changed.includes(importer)) due.add(uri);
      }
    }
    for (const uri of due) {
      this.dependencyStamps.set(uri, (this.dependencyStamps.get(uri) ?? 0) + 1);
      this.reports.delete(uri);
    }
    if (due.size > 0) this.refreshSoon();
    return [...due];
  }

  /** Latest diagnostics of the current version of `uri`, for hover. */
  currentDiagnostics(uri: string): Diagnostic[] {
    const report = this.reports.get(uri);
    const document = this.documents.get(uri);
    return report && document && report.version === document.version ? report.diagnostics : [];
  }

  async settingsFor(uri: string): Promise<Settings> {
    let settings = this.settings.get(uri);
    if (!settings) {
      settings = this.fetchSettings(uri);
      this.settings.set(uri, settings);
    }
    return settings;
  }

  folderFor(uri: string, filePath: string): Folder {
    const inside = this.folders.find((f) => !path.relative(f.path, filePath).startsWith('..') && !path.isAbsolute(path.relative(f.path, filePath)));
    if (inside) return inside;
    const dir = path.dirname(filePath);
    let loose = this.looseFolders.get(dir);
    if (!loose) {
      loose = this.makeFolder(pathToFileURL(dir).href, dir);
      this.looseFolders.set(dir, loose);
    }
    return loose;
  }

  filePathFor(document: { uri: string; languageId?: string }): string {
    if (document.uri.startsWith('file:')) return fileURLToPath(document.uri);
    // Unsaved buffers: a path in the first folder with the extension of their language.
    const base = decodeURIComponent(document.uri.slice(document.uri.lastIndexOf('/') + 1).replace(/^[a-z-]+:/, '')) || 'untitled';
    const extension = path.extname(base) ? '' : (LANGUAGE_EXTENSIONS[document.languageId ?? ''] ?? '.js');
    return path.join(this.folders[0]?.path ?? os.tmpdir(), `${base.replace(/[^\w.-]/g, '_')}${extension}`);
  }

  /**
   * Diagnostics for the document's current text (or last saved text with `run: onSave`).
   * Returns null when a newer version or a cancellation made this run moot.
   */
  async diagnose(uri: string, token?: CancellationToken): Promise<DocumentReport | null> {
    const document = this.documents.get(uri);
    if (!document) return { resultId: `closed:${this.generation}`, version: -1, diagnostics: [] };
    const settings = await this.settingsFor(uri);
    if (!settings.enable) return { resultId: `disabled:${this.generation}`, version: document.version, diagnostics: [] };
    const target = settings.run === 'onSave' ? (this.saved.get(uri) ?? document) : document;
    const resultId = `${target.version}:${this.generation}:${this.dependencyStamps.get(uri) ?? 0}`;
    const cached = this.reports.get(uri);
    if (cached?.resultId === resultId) return cached;
    const running = this.inflight.get(uri);
    if (running?.resultId === resultId) return running.promise;
    const promise = this.lint(uri, target, settings, resultId, token);
    this.inflight.set(uri, { resultId, promise });
    try {
      return await promise;
    } finally {
      if (this.inflight.get(uri)?.promise === promise) this.inflight.delete(uri);
    }
  }

  /** Lints a file that is not open (workspace scan). */
  async lintFile(filePath: string, text: string): Promise<{ result: LintResult; diagnostics: Diagnostic[] }> {
    const uri = pathToFileURL(filePath).href;
    const settings = await this.settingsFor(uri);
    const folder = this.folderFor(uri, filePath);
    const result = await folder.linter.lintText(text, filePath, { typeAware: settings.typeAware, rules: settings.rules, maxFileSizeKb: settings.maxFileSizeKb, preset: settings.preset, oneShot: settings.oneShot, longLived: settings.longLived });
    const document = TextDocumentImpl.create(uri, 'typescript', 0, text);
    const diagnostics = settings.enable ? result.messages.map((m) => toDiagnostic(m, document)) : [];
    for (const d of diagnostics) if (d.data) (d.data as { version: number | null }).version = null;
    return { result, diagnostics };
  }

  private async lint(uri: string, target: TextDocument, settings: Settings, resultId: string, token?: CancellationToken): Promise<DocumentReport | null> {
    this.idle.cancel();
    this.documentLints++;
    try {
      return await this.lintNow(uri, target, settings, resultId, token);
    } finally {
      if (--this.documentLints === 0) this.idle.schedule();
    }
  }

  private async lintNow(uri: string, target: TextDocument, settings: Settings, resultId: string, token?: CancellationToken): Promise<DocumentReport | null> {
    await settle();
    const stamp = this.dependencyStamps.get(uri) ?? 0;
    // A module it depends on changing again makes this run moot, as a newer version does.
    const isCancelled = (): boolean =>
      token?.isCancellationRequested === true ||
      (settings.run === 'onType' && this.documents.get(uri)?.version !== target.version) ||
      (this.dependencyStamps.get(uri) ?? 0) !== stamp;
    if (isCancelled()) return null;
    const filePath = this.filePathFor(target);
    const folder = this.folderFor(uri, filePath);
    // Only runs long enough to see are announced; a status per keystroke would only flicker.
    if (settings.typeAware !== 'off' || target.getText().length > 200_000) this.status({ state: 'linting', uri, version: target.version });
    const result = await folder.linter.lintText(target.getText(), filePath, {
      typeAware: settings.typeAware,
      rules: settings.rules,
      maxFileSizeKb: settings.maxFileSizeKb,
      preset: settings.preset,
      oneShot: settings.oneShot,
      longLived: settings.longLived,
      isCancelled,
    });
    this.lintCount++;
    if (result.skipped?.reason === 'cancelled') return null;
    if (result.skipped?.reason === 'tooLarge') this.reporter.tellOnce(`size:${uri}`, `${path.basename(filePath)} is not linted: ${result.skipped.detail} (asyncHazards.maxFileSizeKb).`, 'info');
    else if (result.skipped) this.reporter.log(`${filePath} not linted: ${result.skipped.detail}`);
    const report: DocumentReport = { resultId, version: target.version, diagnostics: result.messages.map((m) => toDiagnostic(m, target)) };
    this.reports.set(uri, report);
    if (this.documents.get(uri)) this.reads.set(uri, new Map(result.reads.map((read) => [read.path, read])));
    this.status({ state: 'ready', uri, version: target.version, lastLintMs: Math.round(result.durationMs * 100) / 100, lastLintAt: new Date().toISOString(), typeAware: result.typeAware, ...(result.parsedBy ? { parser: result.parsedBy } : {}) });
    return report;
  }

  private async fetchSettings(uri: string): Promise<Settings> {
    if (!this.capabilities.workspace?.configuration) return { ...DEFAULT_SETTINGS, rules: {} };
    try {
      const raw: unknown = await this.connection.workspace.getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION });
      const { settings, problems } = validateSettings(raw);
      for (const problem of problems) this.reporter.tellOnce(`settings:${problem}`, `invalid setting ${problem}.`);
      return settings;
    } catch (error) {
      this.reporter.error('reading settings failed; using defaults', error);
      return { ...DEFAULT_SETTINGS, rules: {} };
    }
  }

  private makeFolder(uri: string, folderPath: string): Folder {
    const trusted = this.isTrusted(uri);
    const folder: Folder = {
      uri,
      path: folderPath,
      trusted,
      linter: createLinter({
        cwd: folderPath,
        nativeParser: true,
        trusted,
        onNotice: (notice) => this.onNotice(folder, notice),
        openDocuments: () => this.openDocuments(),
      }),
    };
    return folder;
  }

  /** Open documents that are files, with their current (possibly unsaved) text. */
  private *openDocuments(): Iterable<OpenDocument> {
    for (const document of this.documents.all()) {
      if (document.uri.startsWith('file:')) yield { filePath: fileURLToPath(document.uri), text: document.getText() };
    }
  }

  private isTrusted(folderUri: string): boolean {
    return this.workspaceTrusted || this.trustedFolders.has(folderUri) || this.trustedFolders.has(folderUri.replace(/\/$/, ''));
  }

  /** One refresh for however many modules changed in the same turn. */
  private refreshSoon(): void {
    if (this.refreshScheduled || !this.capabilities.workspace?.diagnostics?.refreshSupport) return;
    this.refreshScheduled = true;
    setImmediate(() => {
      this.refreshScheduled = false;
      void this.connection.languages.diagnostics.refresh().then(undefined, () => undefined);
    });
  }

  private changed(): void {
    this.generation++;
    this.reports.clear();
    if (this.capabilities.workspace?.diagnostics?.refreshSupport) {
      void this.connection.languages.diagnostics.refresh().then(undefined, () => undefined);
    }
  }

  private async onNotice(folder: Folder, notice: LintNotice): Promise<void> {
    switch (notice.kind) {
      case 'configFailed':
        this.reporter.error(`${notice.configFile} failed to load`, notice.error);
        this.reporter.tellOnce(`config:${notice.configFile}`, `${notice.configFile} failed to load (${firstLine(notice.error.message)}); the recommended rules run instead.`);
        return;
      case 'configInvalid':
        this.reporter.error(`${notice.configFile} has invalid options for our rules`, notice.error);
        this.reporter.tellOnce(`config:${notice.configFile}`, `${notice.configFile} has invalid async-hazards options; defaults are used.`);
        return;
      case 'typeInfoUnavailable':
        this.reporter.log(`type information unavailable for ${notice.filePath}: ${notice.reason}`);
        this.reporter.tellOnce(`typed:${notice.project ?? folder.uri}`, `type information is unavailable for ${path.basename(notice.filePath)} (${firstLine(notice.reason)}); linting without types.`, 'info');
        return;
      case 'typeInfoBuilding':
        return this.beginBuild(notice.project);
      case 'typeInfoBuilt':
        this.reporter.log(`type information for ${notice.project} built in ${Math.round(notice.durationMs)} ms`);
        this.progress?.done();
        this.progress = null;
        return;
      case 'ruleCrashed':
        this.reporter.error(`${notice.ruleId} threw while linting ${notice.filePath}; its findings for that file are dropped, the other rules still ran. Please report it at ${BUGS_URL}`, notice.error);
        this.reporter.tellOnce(`crash:${notice.ruleId}`, `rule ${notice.ruleId} failed on ${path.basename(notice.filePath)}; the other rules' findings are shown. Details are in the output log; please report it at ${BUGS_URL}`, 'error');
        return;
      case 'internalError':
        this.reporter.error(`linting ${notice.filePath} failed`, notice.error);
        this.status({ state: 'error', message: firstLine(notice.error.message) });
        this.reporter.tellOnce(`internal:${notice.filePath}`, `linting ${path.basename(notice.filePath)} failed: ${firstLine(describe(notice.error))}`, 'error');
        return;
    }
  }

  private async beginBuild(project: string): Promise<void> {
    this.status({ state: 'building', message: project });
    if (this.capabilities.window?.workDoneProgress) {
      try {
        const reporter = await withTimeout(this.connection.window.createWorkDoneProgress(), 2000);
        reporter.begin('Async Hazards', undefined, `Building type information (${path.basename(path.dirname(project))}/${path.basename(project)})`);
        this.progress = reporter;
      } catch (error) {
        this.reporter.log(`no progress report for the type information build: ${describe(error)}`);
      }
    }
    // The build blocks the thread; let the progress report leave first.
    await settle();
  }

  private status(params: StatusParams): void {
    void this.connection.sendNotification(StatusNotification, params).then(undefined, () => undefined);
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
