import * as vscode from 'vscode';

/** The settings section the server reads (`asyncHazards.*`), also the language client's id. */
export const SECTION = 'asyncHazards';

/** The JavaScript/TypeScript family: the languages the extension activates on and lints. */
export const LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'] as const;

/** Files on disk and unsaved buffers; a plain object type fits both vscode's and the client's selector types. */
export const documentSelector: { scheme: string; language: string }[] = LANGUAGES.flatMap((language) => [
  { scheme: 'file', language },
  { scheme: 'untitled', language },
]);

/** The bundled server, next to the client bundle in `dist/`. */
export function serverModule(context: vscode.ExtensionContext): string {
  return context.asAbsolutePath('dist/server.js');
}

/** The bundled rule docs (Markdown), copied from the plugin at build time (see esbuild.mjs). */
export function ruleDocsFolder(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.joinPath(context.extensionUri, 'dist', 'docs');
}
