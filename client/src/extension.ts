import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { registerCommands } from './commands';
import { createLanguageClient } from './languageClient';
import { ServerStatus } from './status';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Async Hazards', { log: true });
  const status = new ServerStatus();
  client = createLanguageClient(context, output, status);
  context.subscriptions.push(output, status, ...registerCommands(context, client, output));
  try {
    // Awaited so the server's commands (asyncHazards.scanWorkspace) exist when activation ends.
    await client.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    status.set('error', { detail: `the server did not start: ${message}` });
    output.error(`the server did not start: ${message}`);
    void vscode.window.showErrorMessage(`Async Hazards: the server did not start (${message}).`, 'Show Output')
      .then((choice) => choice && output.show(true));
  }
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
