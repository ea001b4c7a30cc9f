import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { AsyncContext, AsyncTwin, FunctionNode } from '../analysis';
import { contains, skipTransparent } from '../analysis';
import { awaitNeedsParens, stdoutKeepsMeaning } from './awaitRewrite';
import type { ImportEdit } from './importBinding';
import { applyImportEdits, bindingFor } from './importBinding';
import { nullThrows } from './nullThrows';

type Services = Readonly<TSESLint.SourceCode>;

/** `asyncTwinRewrite` for a call in async code `ctx`: `await` is only valid in the async function's own body, not in a callback. */
export function twinRewrite(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  twin: AsyncTwin,
  ctx: AsyncContext,
): { label: string; fix: TSESLint.ReportFixFunction } | null {
  return ctx.via.length > 0 ? null : asyncTwinRewrite(sourceCode, call, twin, ctx.asyncFunction);
}

/**
 * `fs.readFileSync(p)` → `await readFile(p)` plus the import, keeping the value the code used, for
 * a call in the body of the async function `fn`. Null where `await` cannot go (a sync function,
 * a parameter default, an optional call) or the awaited value would mean something else.
 */
export function asyncTwinRewrite(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  twin: AsyncTwin,
  fn: FunctionNode,
): { label: string; fix: TSESLint.ReportFixFunction } | null {
  if (!fn.async || call.optional || fn.params.some((p) => contains(p, call))) return null;
  if (twin.result === 'stdout' && !stdoutKeepsMeaning(call)) return null;
  const edits: ImportEdit[] = [];
  const fnText = twinReference(sourceCode, call, twin, edits);
  if (fnText === null) return null;
  let invoked = fnText;
  if (twin.kind === 'promisify') {
    const promisify = bindingFor(sourceCode, call, 'node:util', 'promisify');
    if (!promisify) return null;
    if (promisify.edit) edits.push(promisify.edit);
    invoked = `${promisify.text}(${fnText})`;
  }
  // From the `(` of the arguments: a parenthesized callee (`(f as F)(p)`) ends before its `)`.
  const argsStart = nullThrows(
    sourceCode.getTokenAfter(call.typeArguments ?? call.callee, (token) => token.value === '('),
    'a call has an argument list',
  ).range[0];
  let replacement = `await ${invoked}${sourceCode.text.slice(argsStart, call.range[1])}`;
  if (twin.result === 'exists') replacement = `${replacement}.then(() => true, () => false)`;
  if (twin.result === 'stdout' && call.parent.type !== AST_NODE_TYPES.ExpressionStatement) {
    replacement = `(${replacement}).stdout`;
  } else if (awaitNeedsParens(call)) {
    replacement = `(${replacement})`;
  }
  const finalText = replacement;
  return {
    label: abbreviate(finalText),
    fix: (fixer) => [fixer.replaceText(call, finalText), ...applyImportEdits(fixer, edits)],
  };
}

/** The twin as an expression at the call: on the same namespace when there is one, else an import. */
function twinReference(sourceCode: Services, call: TSESTree.CallExpression, twin: AsyncTwin, edits: ImportEdit[]): string | null {
  const callee = skipTransparent(call.callee);
  if (twin.namespacePath && callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed) {
    const object = sourceCode.getText(callee.object);
    const viaNamespace = [object, ...twin.namespacePath, twin.export].join('.');
    if (callee.object.type === AST_NODE_TYPES.Identifier) return viaNamespace;
  }
  const binding = bindingFor(sourceCode, call, twin.module, twin.export);
  if (!binding) return null;
  if (binding.edit) edits.push(binding.edit);
  return binding.text;
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
