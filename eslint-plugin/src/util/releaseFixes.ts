import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { Acquisition, ReleaseSite } from '../analysis';
import { contains, firstExit, patternNames, releaseCoverStatement, statementList, walk } from '../analysis';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Fix = TSESLint.ReportFixFunction;

/** A planned `try { … } finally { release }` rewrite of the statements after an acquire. */
export interface WrapPlan {
  fix: Fix;
  /** True when only the exception path changes: one release, same block, no early exit in between. */
  safe: boolean;
}

/**
 * Wraps the statements after the acquire in `try`, with the release in `finally`. Releases inside
 * the wrapped statements are removed. Statements after the last release that read declarations
 * from inside the `try` move into it too, when they cannot throw (`return result;`). Null when the
 * shape does not allow it (a release in a nested expression, a later statement that needs a moved
 * declaration and can throw, nothing to wrap).
 */
export function planWrapInTryFinally(sourceCode: SourceCode, acquisition: Acquisition, releaseText: string | null): WrapPlan | null {
  const statement = acquisition.acquireStatement;
  const list = statementList(statement);
  const start = list.indexOf(statement);
  const sites = acquisition.releaseCalls;
  const releaseStatements: TSESTree.Node[] = [];
  for (const site of sites) {
    const cover = releaseCoverStatement(site, acquisition.scope);
    if (site.finallyOf || cover?.type !== AST_NODE_TYPES.ExpressionStatement || !isInBlock(cover)) return null;
    releaseStatements.push(cover);
  }
  // Different releases (`pool.destroy(res)` on one path, `pool.release(res)` on another) cannot become one.
  if (new Set(releaseStatements.map((r) => sourceCode.getText(r))).size > 1) return null;
  let last = start;
  for (let i = start + 1; i < list.length; i++) {
    if (releaseStatements.some((r) => contains(list[i] as TSESTree.Node, r))) last = i;
  }
  if (sites.length > 0 && last === start) return null;
  if (sites.length === 0) last = list.length - 1;
  let end = last;
  const moved = list.slice(start + 1, last + 1);
  const trailing = list.slice(last + 1);
  if (declaresUsedLater(sourceCode, moved, trailing)) {
    // Only code that cannot throw may join the `try` after the release point.
    if (trailing.some((s) => hasCallOrAwait(sourceCode, s))) return null;
    end = list.length - 1;
  }
  const finalText = releaseText ?? textOfRelease(sourceCode, releaseStatements);
  if (finalText === null) return null;
  const body = list.slice(start + 1, end + 1).filter((s) => !releaseStatements.includes(s));
  if (body.length === 0) return null;
  const rangeStart = leadingStart(sourceCode, statement);
  const rangeEnd = (list[end] as TSESTree.Node).range[1];
  const skipped = releaseStatements.map((r) => lineRange(sourceCode, r));
  const indent = indentOf(sourceCode, statement);
  const unit = indentUnit(sourceCode, statement, indent);
  const inner = reindent(cut(sourceCode.text, rangeStart, rangeEnd, skipped).trim(), unit);
  const text = `try {\n${indent}${unit}${inner}\n${indent}} finally {\n${indent}${unit}${finalText}\n${indent}}`;
  const safe =
    sites.length === 1 &&
    releaseStatements[0] === list[last] &&
    !moved.slice(0, -1).some((s) => firstExit(s) !== null);
  return { fix: (fixer) => fixer.replaceTextRange([rangeStart, rangeEnd], text), safe };
}

/**
 * async-mutex `runExclusive`: `const release = await m.acquire(); A; release();` →
 * `await m.runExclusive(async () => { A });`. Only for one release in the same block, no exit, no
 * `yield`, and no declaration the code after it still needs.
 */
export function planRunExclusive(sourceCode: SourceCode, acquisition: Acquisition): Fix | null {
  const { acquireStatement: statement, owner, releaseCalls, acquireCall } = acquisition;
  if (acquisition.library !== 'async-mutex' || !owner || releaseCalls.length !== 1) return null;
  const site = releaseCalls[0] as ReleaseSite;
  const cover = releaseCoverStatement(site, acquisition.scope);
  const list = statementList(statement);
  const start = list.indexOf(statement);
  const last = cover ? list.indexOf(cover) : -1;
  if (site.finallyOf || last <= start + 1 || cover?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const body = list.slice(start + 1, last);
  if (body.some((s) => firstExit(s) !== null || usesFunctionContext(sourceCode, s))) return null;
  if (declaresUsedLater(sourceCode, body, list.slice(last + 1))) return null;
  const param = semaphoreValue(statement);
  if (param === null) return null;
  if (acquisition.resourceVariable?.references.some((r) => r.identifier.range[0] > acquireCall.range[1] && !contains(site.call, r.identifier))) {
    return null;
  }
  const indent = indentOf(sourceCode, statement);
  const unit = indentUnit(sourceCode, statement, indent);
  const inner = reindent(sourceCode.text.slice(leadingStart(sourceCode, statement), (body[body.length - 1] as TSESTree.Node).range[1]), unit);
  const args = acquireCall.arguments.map((a) => `, ${sourceCode.getText(a)}`).join('');
  // A comment that trailed the acquire stays on the line that now takes the lock.
  const trailing = sourceCode.getCommentsAfter(statement).filter((c) => c.loc.start.line === statement.loc.end.line);
  const note = trailing.map((c) => ` ${sourceCode.getText(c)}`).join('');
  const callback = `async (${param}) => {${note}\n${indent}${unit}${inner}\n${indent}}`;
  const text = `await ${sourceCode.getText(owner)}.runExclusive(${callback}${args});`;
  return (fixer) => fixer.replaceTextRange([statement.range[0], cover.range[1]], text);
}

/** Moves the statements between the acquire and the guarding `try` to the start of its block. */
export function planMoveIntoTry(sourceCode: SourceCode, acquisition: Acquisition, guard: TSESTree.TryStatement): Fix | null {
  const list = statementList(acquisition.acquireStatement);
  const from = list.indexOf(acquisition.acquireStatement);
  const to = list.indexOf(guard);
  if (to <= from + 1) return null;
  // A name declared by the moved code would leave scope for the `catch`, the `finally` and what
  // follows the `try` (`const releaseInner = await inner.acquire()`, released in `finally`).
  const after = [guard.handler, guard.finalizer, ...list.slice(to + 1)].filter((n): n is NonNullable<typeof n> => n != null);
  if (declaresUsedLater(sourceCode, list.slice(from + 1, to), after)) return null;
  const lastBetween = list[to - 1] as TSESTree.Node;
  const indent = indentOf(sourceCode, guard);
  const unit = indentUnit(sourceCode, guard, indent);
  const removeFrom = leadingStart(sourceCode, acquisition.acquireStatement);
  const moved = reindent(sourceCode.text.slice(removeFrom, lastBetween.range[1]), unit);
  return (fixer) => [
    fixer.removeRange([removeFrom, guard.range[0]]),
    fixer.insertTextAfterRange([guard.block.range[0], guard.block.range[0] + 1], `\n${indent}${unit}${moved}`),
  ];
}

// ---------------------------------------------------------------------------------------------

function isInBlock(statement: TSESTree.Node): boolean {
  const parent = statement.parent;
  return parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program || parent?.type === AST_NODE_TYPES.SwitchCase;
}

/** The text of the last release statement, used as the one release in `finally`. */
function textOfRelease(sourceCode: SourceCode, statements: readonly TSESTree.Node[]): string | null {
  const last = statements[statements.length - 1];
  return last ? sourceCode.getText(last) : null;
}

/** `[value, release]` → `value`; `release` → ``; `[, release]` → ``. Null for shapes we do not rewrite. */
function semaphoreValue(statement: TSESTree.Statement): string | null {
  if (statement.type === AST_NODE_TYPES.ExpressionStatement) return statement.expression.type === AST_NODE_TYPES.AwaitExpression ? '' : null;
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.declarations.length !== 1) return null;
  const id = (statement.declarations[0] as TSESTree.VariableDeclarator).id;
  if (id.type === AST_NODE_TYPES.Identifier) return '';
  if (id.type === AST_NODE_TYPES.ArrayPattern) {
    const value = id.elements[0];
    if (!value) return '';
    return value.type === AST_NODE_TYPES.Identifier ? value.name : null;
  }
  return null;
}

function declaredNames(statement: TSESTree.Node): string[] {
  if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
    return [...patternNames(statement)];
  }
  if ((statement.type === AST_NODE_TYPES.FunctionDeclaration || statement.type === AST_NODE_TYPES.ClassDeclaration) && statement.id) {
    return [statement.id.name];
  }
  return [];
}


/** Do statements in `later` name anything declared by `moved`? (By name: shadowing only makes this conservative.) */
function declaresUsedLater(sourceCode: SourceCode, moved: readonly TSESTree.Node[], later: readonly TSESTree.Node[]): boolean {
  const names = new Set(moved.flatMap(declaredNames));
  if (names.size === 0) return false;
  return later.some((s) => sourceCode.getTokens(s).some((t) => t.type === 'Identifier' && names.has(t.value)));
}

function hasCallOrAwait(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  let found = false;
  walk(node, sourceCode.visitorKeys, (n) => {
    if (n.type === AST_NODE_TYPES.CallExpression || n.type === AST_NODE_TYPES.NewExpression || n.type === AST_NODE_TYPES.AwaitExpression ||
      n.type === AST_NODE_TYPES.ThrowStatement || n.type === AST_NODE_TYPES.TaggedTemplateExpression) {
      found = true;
    }
    return !found;
  });
  return found;
}

/** `yield` and `arguments` mean something else inside an arrow callback. */
function usesFunctionContext(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  return sourceCode.getTokens(node).some((t) => t.value === 'yield' || t.value === 'arguments');
}

/** Start of the first token or comment after `node`. */
function leadingStart(sourceCode: SourceCode, node: TSESTree.Node): number {
  let after = sourceCode.getTokenAfter(node, { includeComments: true });
  // A comment trailing the acquire on its own line stays there: `acquire(); // why` then `try {`.
  while (after && (after.type === 'Line' || after.type === 'Block') && after.loc.start.line === node.loc.end.line) {
    after = sourceCode.getTokenAfter(after, { includeComments: true });
  }
  return after ? after.range[0] : node.range[1];
}

/** The range to delete for a statement: its whole line when it stands alone on it. */
function lineRange(sourceCode: SourceCode, node: TSESTree.Node): [number, number] {
  const text = sourceCode.text;
  let from = node.range[0];
  let to = node.range[1];
  while (from > 0 && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  while (to < text.length && (text[to] === ' ' || text[to] === '\t')) to++;
  if ((from === 0 || text[from - 1] === '\n') && (to === text.length || text[to] === '\n' || text[to] === '\r')) {
    if (text[to] === '\r') to++;
    if (text[to] === '\n') to++;
    return [from, to];
  }
  return node.range;
}

function cut(text: string, from: number, to: number, skipped: readonly [number, number][]): string {
  let out = '';
  let at = from;
  for (const [a, b] of [...skipped].sort((x, y) => x[0] - y[0])) {
    if (b <= from || a >= to) continue;
    out += text.slice(at, Math.max(at, a));
    at = Math.max(at, b);
  }
  return out + text.slice(at, to);
}

function indentOf(sourceCode: SourceCode, node: TSESTree.Node): string {
  const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/** One level of indentation: the step from the enclosing block's line to `node`'s, else two spaces or a tab. */
function indentUnit(sourceCode: SourceCode, node: TSESTree.Node, indent: string): string {
  const block = node.parent;
  if (block && block.type !== AST_NODE_TYPES.Program) {
    const outer = indentOf(sourceCode, block);
    if (indent.startsWith(outer) && indent.length > outer.length) return indent.slice(outer.length);
  }
  return indent.includes('\t') ? '\t' : '  ';
}

function reindent(text: string, unit: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line.trim() === '' ? line.trimEnd() : unit + line))
    .join('\n');
}

/** The keyword of an early exit, as a message names it. */
export function exitKeyword(exit: TSESTree.Node): string {
  switch (exit.type) {
    case AST_NODE_TYPES.ReturnStatement:
      return 'return';
    case AST_NODE_TYPES.ThrowStatement:
      return 'throw';
    case AST_NODE_TYPES.BreakStatement:
      return 'break';
    default:
      return 'continue';
  }
}

/** The release statement to put in `finally` when the function has none. */
export function synthesizedRelease(acquisition: Acquisition): string | null {
  // `await pool.connect();` kept nothing to release with: the fix is to keep the client, a choice.
  if (acquisition.resultDropped) return null;
  // Commit or roll back: which one is the author's choice.
  if (acquisition.kind === 'transaction') return null;
  const name = acquisition.resourceNode?.name;
  const owner = acquisition.owner;
  const awaitPrefix = acquisition.kind === 'fileLock' || acquisition.kind === 'distributedLock' ? 'await ' : '';
  if (acquisition.resultRole === 'releaseFunction' && name) return `${awaitPrefix}${name}();`;
  if (acquisition.resultRole === 'resource' && name) {
    if (acquisition.kind === 'pooledResource' && owner?.type === AST_NODE_TYPES.Identifier) return `await ${owner.name}.release(${name});`;
    if (acquisition.kind === 'pooledResource') return null;
    return `${awaitPrefix}${name}.release();`;
  }
  if (owner?.type === AST_NODE_TYPES.Identifier && acquisition.recognizedBy === 'library') return `${owner.name}.release();`;
  return null;
}
