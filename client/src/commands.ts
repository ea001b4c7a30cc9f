import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DIAGNOSTIC_SOURCE } from '../../server/src/protocol';
import { ruleDocsFolder } from './config';

/** Commands the client owns. The server's commands (`asyncHazards.scanWorkspace`,
 * `asyncHazards.showDocumentation`) are registered by the language client from the server's
 * `executeCommandProvider`, so they must not be registered here. */
export function registerCommands(
  context: vscode.ExtensionContext,
  client: LanguageClient,
  output: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('asyncHazards.restartServer', async () => {
      output.info('restarting the server on request');
      await (client.isRunning() ? client.restart() : client.start());
    }),
    vscode.commands.registerCommand('asyncHazards.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('asyncHazards.openRuleDoc', (ruleId?: unknown) =>
      openRuleDoc(context, typeof ruleId === 'string' ? ruleId : undefined),
    ),
  ];
}

async function openRuleDoc(context: vscode.ExtensionContext, ruleId: string | undefined): Promise<void> {
  const folder = ruleDocsFolder(context);
  const given = ruleId?.slice(ruleId.lastIndexOf('/') + 1);
  const id = given ?? ruleAtCursor() ?? (await pickRule(folder));
  if (id === undefined) return;
  const page = vscode.Uri.joinPath(folder, `${id}.md`);
  try {
    await vscode.workspace.fs.stat(page);
  } catch {
    void vscode.window.showWarningMessage(`Async Hazards has no documentation page for "${id}".`);
    return;
  }
  // The built-in Markdown preview renders the page offline (running the command activates it);
  // where that extension is disabled, show the source.
  try {
    await vscode.commands.executeCommand('markdown.showPreview', page);
  } catch {
    await vscode.window.showTextDocument(page, { preview: true });
  }
}

/** The rule of the first Async Hazards diagnostic under the cursor, if any. */
function ruleAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) return undefined;
  const position = editor.selection.active;
  for (const diagnostic of vscode.languages.getDiagnostics(editor.document.uri)) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || !diagnostic.range.contains(position)) continue;
    const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
    // Codes may carry the plugin prefix (`async-hazards/<name>`); docs pages are named by rule.
    if (code !== undefined) return String(code).slice(String(code).lastIndexOf('/') + 1);
  }
  return undefined;
}

async function pickRule(folder: vscode.Uri): Promise<string | undefined> {
  const entries = await vscode.workspace.fs.readDirectory(folder);
  const ids = entries
    .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.md'))
    .map(([name]) => name.slice(0, -'.md'.length))
    .sort();
  return vscode.window.showQuickPick(ids, { placeHolder: 'Open the documentation of an Async Hazards rule' });
}
