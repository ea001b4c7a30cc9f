import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import type { LoopNode } from './sleeps';

type Services = Readonly<TSESLint.SourceCode>;

/** A text edit: replace `range` with `text`. */
export interface Edit {
  range: readonly [number, number];
  text: string;
}

/** Permit-taking methods whose callback runs once and whose call resolves to the callback's result. */
const NOT_ONE_SHOT: ReadonlySet<string> = new Set(['wrap', 'map', 'addAll']);

/**
 * The inline callback of `taker` when the permit call runs it once and returns its result, and
 * the callback takes no parameters: the shapes where the nesting can be turned inside out.
 */
export function swappableCallback(sourceCode: Services, taker: TSESTree.CallExpression, callback: TSESTree.Node): FunctionNode | null {
  const callee = skipTransparent(taker.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && NOT_ONE_SHOT.has(staticPropertyName(callee) ?? '')) return null;
  if (!taker.arguments.includes(callback as TSESTree.CallExpressionArgument)) return null;
  const fn = skipTransparent(callback);
  if (!isFunctionNode(fn) || fn.params.length > 0 || fn.generator) return null;
  if (fn.type === AST_NODE_TYPES.FunctionExpression && usesThisOrArguments(sourceCode, fn.body)) return null;
  return fn;
}

/** The single expression a function returns: `() => x`, `async () => await x`, `{ return x; }`. */
export function soleResult(fn: FunctionNode): TSESTree.Node | null {
  let expr: TSESTree.Node | null | undefined;
  if (fn.body.type === AST_NODE_TYPES.BlockStatement) {
    const only = fn.body.body.length === 1 ? fn.body.body[0] : undefined;
    expr = only?.type === AST_NODE_TYPES.ReturnStatement ? only.argument : null;
  } else {
    expr = fn.body;
  }
  if (!expr) return null;
  let result = skipTransparent(expr);
  if (result.type === AST_NODE_TYPES.AwaitExpression) result = skipTransparent(result.argument);
  return result;
}

/**
 * `limit(() => pRetry(fn, opts))` → `pRetry(() => limit(fn), opts)`: each attempt takes and returns
 * its own permit, so backoff sleeps hold nothing. `retry` must be the callback's sole result and
 * its first argument an arrow function (its parameters, such as async-retry's `bail`, are kept on
 * the outer function). Null when the shape does not fit.
 */
export function swapRetryNesting(
  sourceCode: Services,
  taker: TSESTree.CallExpression,
  callback: FunctionNode,
  retry: TSESTree.CallExpression,
): Edit | null {
  if (soleResult(callback) !== retry) return null;
  const attempt = retry.arguments[0];
  if (attempt?.type !== AST_NODE_TYPES.ArrowFunctionExpression) return null;
  const text = sourceCode.text;
  const takerWith = (inner: string): string =>
    text.slice(taker.range[0], callback.range[0]) + inner + text.slice(callback.range[1], taker.range[1]);
  let outer: string;
  if (attempt.params.length === 0) {
    outer = `() => ${takerWith(sourceCode.getText(attempt))}`;
  } else {
    const params = text.slice((attempt.params[0] as TSESTree.Parameter).range[0], (attempt.params.at(-1) as TSESTree.Parameter).range[1]);
    const body = attempt.body.type === AST_NODE_TYPES.ObjectExpression ? `(${sourceCode.getText(attempt.body)})` : sourceCode.getText(attempt.body);
    outer = `(${params}) => ${takerWith(`${attempt.async ? 'async ' : ''}() => ${body}`)}`;
  }
  const replacement = text.slice(retry.range[0], attempt.range[0]) + outer + text.slice(attempt.range[1], retry.range[1]);
  return { range: taker.range, text: replacement };
}

/**
 * A hand-written retry loop that is the whole callback body, moved outside the permit: the loop
 * runs in the caller and only the `try` block (one attempt) runs under the permit:
 * `return limit(async () => { for (…) { try { return await call(); } catch { await sleep(ms); } } })`
 * → `for (…) { try { return await limit(async () => { return await call(); }); } catch { await sleep(ms); } }`.
 *
 * Fits when the permit call is returned as the last statement of an async function, or is the
 * expression body of an arrow (which becomes async with a block body); the loop has no `break`,
 * and its `try` block ends in `return` with no `break`/`continue`. Null otherwise.
 */
export function moveRetryLoopOutside(
  sourceCode: Services,
  taker: TSESTree.CallExpression,
  callback: FunctionNode,
  loop: LoopNode,
): Edit[] | null {
  if (callback.body.type !== AST_NODE_TYPES.BlockStatement || callback.body.body.length !== 1 || callback.body.body[0] !== loop) return null;
  if (loop.body.type !== AST_NODE_TYPES.BlockStatement) return null;
  const tries = loop.body.body.filter((s): s is TSESTree.TryStatement => s.type === AST_NODE_TYPES.TryStatement);
  const attempt = tries.length === 1 ? tries[0] : undefined;
  if (!attempt?.handler) return null;
  const last = attempt.block.body.at(-1);
  if (last?.type !== AST_NODE_TYPES.ReturnStatement || hasJump(sourceCode, loop.body, ['BreakStatement']) || hasJump(sourceCode, attempt.block, ['ContinueStatement'])) {
    return null;
  }
  if (usesThisOrArguments(sourceCode, loop) && callback.type === AST_NODE_TYPES.FunctionExpression) return null;
  const text = sourceCode.text;
  const takerWith = (inner: string): string =>
    text.slice(taker.range[0], callback.range[0]) + inner + text.slice(callback.range[1], taker.range[1]);
  const asyncPrefix = callback.async ? 'async ' : '';
  const tryIndent = lineIndent(sourceCode, attempt);
  const inner = takerWith(`${asyncPrefix}() => ${reindent(sourceCode.getText(attempt.block), -2)}`);
  const newAttempt = `{\n${' '.repeat(tryIndent + 2)}return await ${inner};\n${' '.repeat(tryIndent)}}`;
  const movedLoop = text.slice(loop.range[0], attempt.block.range[0]) + newAttempt + text.slice(attempt.block.range[1], loop.range[1]);

  const statement = returningStatement(taker);
  if (statement) {
    const fn = statement.parent?.parent;
    if (!isFunctionNode(fn) || !fn.async || fn.body !== statement.parent) return null;
    const block = statement.parent as TSESTree.BlockStatement;
    if (block.body.at(-1) !== statement) return null;
    return [{ range: statement.range, text: reindent(movedLoop, loop.loc.start.column - statement.loc.start.column) }];
  }
  const arrow = taker.parent;
  if (arrow?.type !== AST_NODE_TYPES.ArrowFunctionExpression || arrow.body !== taker) return null;
  const indent = ' '.repeat(lineIndent(sourceCode, arrow));
  const body = `{\n${indent}  ${reindent(movedLoop, loop.loc.start.column - indent.length - 2)}\n${indent}}`;
  const edits: Edit[] = [{ range: taker.range, text: body }];
  if (!arrow.async) edits.unshift({ range: [arrow.range[0], arrow.range[0]], text: 'async ' });
  return edits;
}

/** `return limit(…)` or `return await limit(…)`: the statement, or null. */
function returningStatement(taker: TSESTree.CallExpression): TSESTree.ReturnStatement | null {
  let current: TSESTree.Node = taker;
  if (current.parent?.type === AST_NODE_TYPES.AwaitExpression) current = current.parent;
  return current.parent?.type === AST_NODE_TYPES.ReturnStatement ? current.parent : null;
}

function hasJump(sourceCode: Services, root: TSESTree.Node, types: readonly string[]): boolean {
  let found = false;
  walk(root, sourceCode.visitorKeys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (types.includes(node.type)) found = true;
    return true;
  });
  return found;
}

function usesThisOrArguments(sourceCode: Services, root: TSESTree.Node): boolean {
  let found = false;
  walk(root, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration) return node === root;
    if (node.type === AST_NODE_TYPES.ThisExpression || (node.type === AST_NODE_TYPES.Identifier && node.name === 'arguments')) found = true;
    return true;
  });
  return found;
}

function lineIndent(sourceCode: Services, node: TSESTree.Node): number {
  const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
  return line.length - line.trimStart().length;
}

/** Shifts every line after the first left by `by` columns (right when negative). */
function reindent(text: string, by: number): string {
  if (by === 0) return text;
  return text
    .split('\n')
    .map((line, i) => {
      if (i === 0) return line;
      if (by < 0) return ' '.repeat(-by) + line;
      const spaces = line.length - line.trimStart().length;
      return line.slice(Math.min(spaces, by));
    })
    .join('\n');
}
