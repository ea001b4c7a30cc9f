import type { CodeAction, Diagnostic, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DisableDirective } from './lint';
import type { DiagnosticData } from './protocol';
import { Commands, DIAGNOSTIC_SOURCE, FIX_ALL_KIND } from './protocol';
import { ruleName } from './ruleDocs';

export interface CodeActionInput {
  document: TextDocument;
  diagnostics: Diagnostic[];
  /** `context.only` from the request. */
  only: string[] | undefined;
  directive: DisableDirective;
  /** Client understands `documentChanges` (versioned edits). */
  versionedEdits: boolean;
}

/** Is a kind requested by `only` (a kind matches itself and its sub-kinds)? */
export function wants(only: string[] | undefined, kind: string): boolean {
  return !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/**
 * Quick fixes for our diagnostics: the rule's autofix and suggestions (edits computed when the
 * diagnostic was made, for the version in `data.version`), disable comments and documentation.
 */
export function quickFixes(input: CodeActionInput): CodeAction[] {
  const { document, only } = input;
  if (!wants(only, CodeActionKind.QuickFix)) return [];
  const actions: CodeAction[] = [];
  const seenRules = new Set<string>();
  for (const diagnostic of input.diagnostics) {
    const data = diagnosticData(diagnostic);
    if (!data) continue;
    const current = data.version === null || data.version === document.version;
    if (current) {
      const fixes = [...(data.fix ? [{ title: `Fix: ${ruleName(data.ruleId)}`, edit: data.fix }] : []), ...data.suggestions];
      fixes.forEach((fix, index) => {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: index === 0,
          edit: workspaceEdit(document, [fix.edit], input.versionedEdits),
        });
      });
      actions.push(disableLine(document, diagnostic, data.ruleId, input));
    }
    if (!seenRules.has(data.ruleId)) {
      seenRules.add(data.ruleId);
      if (current) actions.push(disableFile(document, diagnostic, data.ruleId, input));
      actions.push({
        title: `Show documentation for ${data.ruleId}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        command: { title: `Show documentation for ${data.ruleId}`, command: Commands.showDocumentation, arguments: [data.ruleId] },
      });
    }
  }
  return actions;
}

/** `source.fixAll.async-hazards`: one edit from the autofixed text (suggestions never apply). */
export function fixAllAction(document: TextDocument, edit: TextEdit | null, versionedEdits: boolean): CodeAction | null {
  if (!edit) return null;
  return { title: 'Fix all autofixable async-hazards problems', kind: FIX_ALL_KIND, edit: workspaceEdit(document, [edit], versionedEdits) };
}

function disableLine(document: TextDocument, diagnostic: Diagnostic, ruleId: string, input: CodeActionInput): CodeAction {
  const name = `${input.directive.alias}/${ruleName(ruleId)}`;
  const line = diagnostic.range.start.line;
  const lineText = lineAt(document, line);
  const indent = /^\s*/.exec(lineText)?.[0] ?? '';
  const previous = line > 0 ? lineAt(document, line - 1) : '';
  const existing = /^(\s*\/\/\s*eslint-disable-next-line\s+)([^\n]*?)(\s*)$/.exec(previous);
  let edit: TextEdit;
  if (existing && !existing[2]!.includes('--')) {
    // Extend the directive already there instead of stacking a second one.
    const end = { line: line - 1, character: existing[1]!.length + existing[2]!.length };
    edit = { range: { start: end, end }, newText: existing[2] ? `, ${name}` : name };
  } else {
    edit = { range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `${indent}// eslint-disable-next-line ${name}\n` };
  }
  return {
    title: `Disable ${name} for this line${unsafeNote(input.directive)}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    edit: workspaceEdit(document, [edit], input.versionedEdits),
  };
}

function disableFile(document: TextDocument, diagnostic: Diagnostic, ruleId: string, input: CodeActionInput): CodeAction {
  const name = `${input.directive.alias}/${ruleName(ruleId)}`;
  // After a shebang, which must stay on the first line.
  const line = document.getText().startsWith('#!') ? 1 : 0;
  return {
    title: `Disable ${name} for this file${unsafeNote(input.directive)}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    edit: workspaceEdit(document, [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `/* eslint-disable ${name} */\n` }], input.versionedEdits),
  };
}

function unsafeNote(directive: DisableDirective): string {
  return directive.safe ? '' : " (this folder's ESLint config may not load async-hazards and would report an unknown rule)";
}

export function workspaceEdit(document: TextDocument, edits: TextEdit[], versioned: boolean): WorkspaceEdit {
  return versioned
    ? { documentChanges: [{ textDocument: { uri: document.uri, version: document.version }, edits }] }
    : { changes: { [document.uri]: edits } };
}

export function diagnosticData(diagnostic: Diagnostic): DiagnosticData | null {
  if (diagnostic.source !== DIAGNOSTIC_SOURCE) return null;
  const data = diagnostic.data as Partial<DiagnosticData> | undefined;
  if (!data || typeof data.ruleId !== 'string' || !Array.isArray(data.suggestions)) return null;
  const context = data.context && (data.context.role === 'one-shot' || data.context.role === 'long-lived') ? { context: data.context } : {};
  return { ruleId: data.ruleId, version: typeof data.version === 'number' ? data.version : null, fix: data.fix, suggestions: data.suggestions, ...context };
}

function lineAt(document: TextDocument, line: number): string {
  return document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
}
