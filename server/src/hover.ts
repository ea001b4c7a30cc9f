import type { Diagnostic, Hover, Position } from 'vscode-languageserver';
import { MarkupKind } from 'vscode-languageserver';
import { diagnosticData } from './codeActions';
import { ruleDocSummary, ruleDocsUrl } from './ruleDocs';

/**
 * Hover on a finding: the rule, why the pattern hurts at run time, how to fix it, and the docs
 * link. The finding's own message is left out: editors already show it in the same hover, and
 * saying it twice pushes the explanation out of view.
 */
export function hoverFor(diagnostics: readonly Diagnostic[], position: Position): Hover | null {
  const hits = diagnostics.filter((d) => diagnosticData(d) && contains(d, position));
  if (hits.length === 0) return null;
  const sections = hits.map((diagnostic) => {
    const data = diagnosticData(diagnostic)!;
    const summary = ruleDocSummary(data.ruleId);
    const url = ruleDocsUrl(data.ruleId);
    const fixes = [...(data.fix ? ['an automatic fix'] : []), ...data.suggestions.map((s) => s.title)];
    const lines = [`**${data.ruleId}**`];
    if (summary.intro) lines.push(`**Why it matters:** ${summary.intro}`);
    if (fixes.length) lines.push(`**How to fix:** ${fixes.join('; ')} (lightbulb).`);
    else if (summary.fixes) lines.push(`**How to fix:** ${summary.fixes}`);
    if (data.context) lines.push(`**Judged as:** ${describeContext(data.context)}.`);
    if (url) lines.push(`[Documentation](${url})`);
    return lines.join('\n\n');
  });
  return { contents: { kind: MarkupKind.Markdown, value: sections.join('\n\n---\n\n') }, range: hits[0]!.range };
}

/** "one-shot code", "long-lived code, serving": what the rule took the process to be here. */
function describeContext(context: NonNullable<ReturnType<typeof diagnosticData>>['context'] & object): string {
  if (context.role === 'one-shot') return 'one-shot code (a script, a CLI command, a migration or a test)';
  return context.phase ? `long-lived code, ${context.phase} phase` : 'long-lived code';
}

function contains(diagnostic: Diagnostic, position: Position): boolean {
  const { start, end } = diagnostic.range;
  const afterStart = position.line > start.line || (position.line === start.line && position.character >= start.character);
  const beforeEnd = position.line < end.line || (position.line === end.line && position.character <= end.character);
  return afterStart && beforeEnd;
}
