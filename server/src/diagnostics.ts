import type { Diagnostic, DiagnosticRelatedInformation, Range, TextEdit } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pathToFileURL } from 'node:url';
import type { LintMessage } from './lint';
import type { DiagnosticData } from './protocol';
import { DIAGNOSTIC_SOURCE } from './protocol';
import { ruleDocsUrl } from './ruleDocs';

/** ESLint message (1-based line, 1-based column) → LSP diagnostic on `document`. */
export function toDiagnostic(message: LintMessage, document: TextDocument): Diagnostic {
  const range = messageRange(message, document);
  if (message.fatal || !message.ruleId) {
    return { range, severity: DiagnosticSeverity.Error, source: DIAGNOSTIC_SOURCE, message: message.message };
  }
  const href = ruleDocsUrl(message.ruleId);
  const related: DiagnosticRelatedInformation[] = message.evidence.map((e) => ({
    location: {
      uri: e.file ? pathToFileURL(e.file).href : document.uri,
      range: { start: { line: e.line - 1, character: e.column }, end: { line: e.endLine - 1, character: e.endColumn } },
    },
    message: e.message,
  }));
  const data: DiagnosticData = {
    ruleId: message.ruleId,
    version: document.version,
    fix: message.fix ? toTextEdit(message.fix, document) : undefined,
    suggestions: (message.suggestions ?? []).map((s) => ({ title: s.desc, edit: toTextEdit(s.fix, document) })),
    ...(message.context ? { context: message.context } : {}),
  };
  return {
    range,
    severity: message.severity === 1 ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
    source: DIAGNOSTIC_SOURCE,
    code: message.ruleId,
    ...(href ? { codeDescription: { href } } : {}),
    message: message.message,
    ...(related.length ? { relatedInformation: related } : {}),
    data,
  };
}

export function toTextEdit(fix: { range: [number, number]; text: string }, document: TextDocument): TextEdit {
  return { range: { start: document.positionAt(fix.range[0]), end: document.positionAt(fix.range[1]) }, newText: fix.text };
}

function messageRange(message: LintMessage, document: TextDocument): Range {
  const line = clamp(message.line - 1, 0, Math.max(0, document.lineCount - 1));
  const start = { line, character: Math.max(0, message.column - 1) };
  if (message.endLine !== undefined && message.endColumn !== undefined) {
    return { start, end: { line: clamp(message.endLine - 1, 0, Math.max(0, document.lineCount - 1)), character: Math.max(0, message.endColumn - 1) } };
  }
  // Parse errors have one position: underline to the end of that line.
  const lineEnd = document.offsetAt({ line: line + 1, character: 0 });
  const end = document.positionAt(Math.max(document.offsetAt(start), lineEnd - 1));
  return { start, end: end.line === line ? end : { line, character: start.character + 1 } };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** One minimal edit turning `before` into `after` (common prefix and suffix kept). */
export function minimalEdit(before: string, after: string, document: TextDocument): TextEdit | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return { range: { start: document.positionAt(start), end: document.positionAt(endBefore) }, newText: after.slice(start, endAfter) };
}
