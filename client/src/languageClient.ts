import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  DidGrantTrustNotification,
  SERVER_EXEC_ARGV,
  StatusNotification,
  type InitializationOptions,
  type StatusParams,
} from '../../server/src/protocol';
import { SECTION, documentSelector, serverModule } from './config';
import type { ServerStatus } from './status';

/** Restarts allowed within CRASH_WINDOW_MS before the client gives up and says so. */
const MAX_RESTARTS = 4;
const CRASH_WINDOW_MS = 3 * 60_000;

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  status: ServerStatus,
): LanguageClient {
  const module = serverModule(context);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_EXEC_ARGV] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_EXEC_ARGV, '--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: { workspaceTrusted: vscode.workspace.isTrusted } satisfies InitializationOptions,
    // The server pulls settings per document; this tells it when `asyncHazards.*` changed.
    synchronize: { configurationSection: SECTION },
    errorHandler: new CrashReporter(output, status),
  };
  const client = new LanguageClient(SECTION, 'Async Hazards', serverOptions, clientOptions);
  client.onDidChangeState(({ newState }) => {
    if (newState === State.Starting) status.set('starting');
    else if (newState === State.Running) status.set('ready');
    else status.set('stopped', { detail: 'the server is not running; run "Async Hazards: Restart Server"' });
  });
  client.onNotification(StatusNotification, (params) => showStatus(status, params));
  // Untrusted folders run in limited mode; granting trust lets the server load the folder's config.
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client.isRunning()) void client.sendNotification(DidGrantTrustNotification, {});
    }),
  );
  return client;
}

function showStatus(status: ServerStatus, params: StatusParams): void {
  const lintedAt = params.lastLintAt === undefined ? undefined : new Date(params.lastLintAt);
  const info = { lintedAt, durationMs: params.lastLintMs, typeAware: params.typeAware };
  if (params.state === 'ready') status.set('ready', info);
  else if (params.state === 'linting') status.set('linting', info);
  else if (params.state === 'building') status.set('types', { ...info, detail: params.message });
  else status.set('error', { ...info, detail: params.message ?? 'the server reported an error; see the output' });
}

/** Makes every server crash visible: the status item turns red, the output channel says what
 * happened, and the user is told when the client stops restarting the server. */
class CrashReporter implements ErrorHandler {
  private crashes: number[] = [];

  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly status: ServerStatus,
  ) {}

  error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
    this.output.error(`connection error: ${error.message}`);
    // Transient write/read errors recover; repeated ones mean the connection is gone.
    return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
  }

  closed(): CloseHandlerResult {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
    const restarts = this.crashes.length;
    this.output.error(`the server stopped unexpectedly (${restarts} in the last 3 minutes)`);
    if (restarts > MAX_RESTARTS) {
      const message = `The Async Hazards server crashed ${restarts} times in the last 3 minutes and was not restarted.`;
      this.status.set('error', { detail: message });
      void vscode.window
        .showErrorMessage(message, 'Show Output', 'Restart Server')
        .then((choice) => runChoice(choice));
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    this.status.set('error', { detail: `the server crashed; restarting (${restarts}/${MAX_RESTARTS})` });
    void vscode.window
      .showWarningMessage('The Async Hazards server crashed and is being restarted.', 'Show Output')
      .then((choice) => runChoice(choice));
    return { action: CloseAction.Restart, handled: true };
  }
}

function runChoice(choice: string | undefined): void {
  if (choice === 'Show Output') void vscode.commands.executeCommand('asyncHazards.showOutput');
  if (choice === 'Restart Server') void vscode.commands.executeCommand('asyncHazards.restartServer');
}
