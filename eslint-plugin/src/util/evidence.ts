import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * The evidence side channel. An ESLint message carries one location; the places that explain a
 * finding (where a lock was taken, the line that can throw, the early exit) are recorded here per
 * `SourceCode`, so an editor integration can read them after `Linter.verify` and show them as
 * related locations. The CLI keeps the same facts in the message text.
 */
export interface EvidenceLocation {
  message: string;
  /** 1-based line, 0-based column, as in ESLint messages. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Absolute path, when the place is in another file (a helper imported from a project module). */
  file?: string;
}

export interface EvidenceRecord {
  /** Rule id with the plugin prefix, as ESLint reports it: `async-hazards/<name>`. */
  ruleId: string;
  messageId: string;
  line: number;
  column: number;
  related: EvidenceLocation[];
}

const registry = new WeakMap<object, EvidenceRecord[]>();

export const PLUGIN_PREFIX = 'async-hazards';

/** A place in the linted file, or in `file` when the node comes from another module. */
export function evidenceAt(node: TSESTree.Node | TSESTree.Token, message: string, file?: string): EvidenceLocation {
  return {
    message,
    line: node.loc.start.line,
    column: node.loc.start.column,
    endLine: node.loc.end.line,
    endColumn: node.loc.end.column,
    ...(file ? { file } : {}),
  };
}

/** Records evidence for a report made at `node`. Call it right next to `context.report`. */
export function recordEvidence(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  node: TSESTree.Node,
  messageId: string,
  related: EvidenceLocation[],
): void {
  if (related.length === 0) return;
  const key = context.sourceCode as object;
  let records = registry.get(key);
  if (!records) {
    records = [];
    registry.set(key, records);
  }
  const ruleName = context.id.includes('/') ? context.id.slice(context.id.lastIndexOf('/') + 1) : context.id;
  records.push({
    ruleId: `${PLUGIN_PREFIX}/${ruleName}`,
    messageId,
    line: node.loc.start.line,
    column: node.loc.start.column,
    related,
  });
}

/**
 * Evidence recorded while linting `sourceCode` (from `linter.getSourceCode()` after `verify`).
 * Match a message by `ruleId`, `line` and `column` (ESLint's column is 1-based: subtract 1).
 */
export function getEvidence(sourceCode: object): readonly EvidenceRecord[] {
  return registry.get(sourceCode) ?? [];
}

/** Drops what was recorded for `sourceCode`; the registry is weak, so this is only for long runs. */
export function clearEvidence(sourceCode: object): void {
  registry.delete(sourceCode);
}
