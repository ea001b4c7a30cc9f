import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { PromiseArrayOrigin, PromiseOrigin, TypeOracle } from '../analysis';
import type { RoleSubject } from '../analysis';
import { chainRootText, createTypeOracle, getAsyncContext, mapForOfRewrite, processRole, shortSource, skipTransparent } from '../analysis';
import { isFileless } from './fileless';
import { getOptionalParserServices } from './parserServices';
import { evidenceAt } from './evidence';

/**
 * How no-orphaned-promise words a dropped promise: its origin and array in messages, the related
 * locations that show where it came from, and the `await`/`void` suggestions.
 */

export function describeOrigin(sourceCode: Readonly<TSESLint.SourceCode>, filename: string, node: TSESTree.Node, origin: PromiseOrigin): string {
  switch (origin.kind) {
    case 'imported': {
      const how = origin.declaredAsync ? 'async' : 'returns a promise';
      return `\`${origin.name}\` (${how}, in \`${relativeTo(filename, origin.file)}\`)`;
    }
    case 'local': {
      const expr = skipTransparent(node);
      if (expr.type === AST_NODE_TYPES.CallExpression && skipTransparent(expr.callee) === origin.declaration) {
        return 'this async IIFE';
      }
      const how = origin.declaredAsync ? 'async' : 'returns a `Promise`';
      return `\`${origin.name}\` (${how}, line ${origin.declaration.loc.start.line})`;
    }
    case 'library':
    case 'combinator':
      return `\`${origin.name}\``;
    case 'package':
      return `\`${origin.name}\` (${origin.module})`;
    case 'transaction':
      return `\`${origin.name}\` (its \`${origin.sibling}()\` is awaited at line ${origin.evidence.loc.start.line})`;
    case 'awaitedImport':
      return origin.file === null
        ? `\`${origin.name}\` (awaited at line ${origin.evidence.loc.start.line})`
        : `\`${origin.name}\` (awaited in \`${relativeTo(filename, origin.file)}\`)`;
    case 'constructor':
      return '`new Promise`';
    case 'chain':
      return chainRootText(sourceCode, node);
    case 'typed':
      return `\`${origin.name}\` (type \`${origin.typeText}\`)`;
  }
}

/** `file` as written from `filename`'s folder: `./db.js`, `../jobs/run.ts`. */
function relativeTo(filename: string, file: string): string {
  const where = path.relative(path.dirname(filename), file).split(path.sep).join('/');
  return where.startsWith('.') ? where : `./${where}`;
}

/** `\`items.map(…)\``, `\`[send(a), send(b)]\``, `\`pending\` (type \`Promise<void>[]\`)`, for messages. */
export function describeArray(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, origin: PromiseArrayOrigin): string {
  const short = (n: TSESTree.Node): string | null => shortSource(sourceCode, n);
  const whole = short(node);
  if (origin.kind === 'typed') return whole ? `\`${whole}\` (type \`${origin.typeText}\`)` : `this array (type \`${origin.typeText}\`)`;
  if (whole) return `\`${whole}\``;
  const callee = origin.kind === 'map' ? skipTransparent(origin.call.callee) : null;
  const receiver = callee?.type === AST_NODE_TYPES.MemberExpression ? short(callee.object) : null;
  return receiver ? `\`${receiver}.map(…)\`` : 'this array';
}

export function arrayEvidence(origin: PromiseArrayOrigin): ReturnType<typeof evidenceAt>[] {
  if (origin.kind === 'map') return [evidenceAt(origin.callback, 'returns a promise for every item')];
  if (origin.kind === 'literal') return origin.elements.map((element) => evidenceAt(element, 'a promise'));
  return [];
}

/** The array as the argument of `Promise.all(…)`: only a sequence expression needs parentheses there. */
export function argumentText(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
  const text = sourceCode.getText(node);
  return node.type === AST_NODE_TYPES.SequenceExpression ? `(${text})` : text;
}

export function originEvidence(origin: PromiseOrigin): ReturnType<typeof evidenceAt>[] {
  if (origin.kind === 'local') return [evidenceAt(origin.declaration, `\`${origin.name}\` is declared here`)];
  if (origin.kind === 'imported') return [evidenceAt(origin.declaration, `\`${origin.name}\` is declared here`, origin.file)];
  if (origin.kind === 'chain') return [evidenceAt(origin.property, `.${origin.method}() without a rejection handler`)];
  if (origin.kind === 'package') return [evidenceAt(origin.evidence, `a ${origin.module} object, from here`, origin.evidenceFile ?? undefined)];
  if (origin.kind === 'transaction') return [evidenceAt(origin.evidence, `\`${origin.sibling}()\` of the same connection is awaited here`)];
  if (origin.kind === 'awaitedImport') return [evidenceAt(origin.evidence, `\`${origin.name}\` is awaited here`, origin.file ?? undefined)];
  return [];
}

/** Add `await` (only where the nearest function is async) and mark as detached with `void`. */
export function detachSuggestions(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
  allowVoid: boolean,
): TSESLint.SuggestionReportDescriptor<'addAwait' | 'addVoid'>[] {
  const text = needsParens(node) ? `(${sourceCode.getText(node)})` : sourceCode.getText(node);
  const out: TSESLint.SuggestionReportDescriptor<'addAwait' | 'addVoid'>[] = [];
  if (getAsyncContext(node)?.via.length === 0) {
    out.push({ messageId: 'addAwait', fix: (fixer) => fixer.replaceText(node, `await ${text}`) });
  }
  if (allowVoid) out.push({ messageId: 'addVoid', fix: (fixer) => fixer.replaceText(node, `void ${text}`) });
  return out;
}

type ArraySuggestion = TSESLint.SuggestionReportDescriptor<'addAwaitAll' | 'rewriteForOf' | 'addVoidAll' | 'wrapInPromiseAll'>;

/**
 * A dropped (or voided) array of promises: `await Promise.all(…)` in an async function, the
 * `for…of` loop for a `.map(async …)`, and `void Promise.all(…)` when `allowVoid`. `node` is what
 * the statement drops, `array` the array in it.
 */
export function droppedArraySuggestions(
  sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, array: TSESTree.Node, origin: PromiseArrayOrigin, allowVoid: boolean,
): ArraySuggestion[] {
  const all = `Promise.all(${argumentText(sourceCode, array)})`;
  const out: ArraySuggestion[] = [];
  if (getAsyncContext(node)?.via.length === 0) out.push({ messageId: 'addAwaitAll', fix: (fixer) => fixer.replaceText(node, `await ${all}`) });
  out.push(...forOfSuggestion(sourceCode, origin));
  if (allowVoid) out.push({ messageId: 'addVoidAll', fix: (fixer) => fixer.replaceText(node, `void ${all}`) });
  return out;
}

/** `await xs.map(…)`: wrap the array in `Promise.all(…)`, or loop over it. */
export function awaitedArraySuggestions(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.AwaitExpression, origin: PromiseArrayOrigin): ArraySuggestion[] {
  const all = `Promise.all(${argumentText(sourceCode, node.argument)})`;
  return [{ messageId: 'wrapInPromiseAll', fix: (fixer) => fixer.replaceText(node.argument, all) }, ...forOfSuggestion(sourceCode, origin)];
}

function forOfSuggestion(sourceCode: Readonly<TSESLint.SourceCode>, origin: PromiseArrayOrigin): ArraySuggestion[] {
  const rewrite = origin.kind === 'map' ? mapForOfRewrite(sourceCode, origin.call) : null;
  return rewrite ? [{ messageId: 'rewriteForOf', fix: (fixer) => fixer.replaceText(rewrite.statement, rewrite.text) }] : [];
}

/** `await x` binds tighter than everything but member access, calls and `new`. */
function needsParens(node: TSESTree.Node): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.MemberExpression:
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return false;
    default:
      return true;
  }
}

/** The type checker's answers for promise questions, when typescript-eslint's parser gives a program. */
export function typeOracle(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): TypeOracle | undefined {
  // Only typescript-eslint's parser provides these maps; any other parser means "no types".
  if (!context.sourceCode.parserServices?.esTreeNodeToTSNodeMap) return undefined;
  const services = getOptionalParserServices(context);
  return services.program ? createTypeOracle({ ...services, program: services.program }) : undefined;
}

/**
 * What awaiting a promise that never settles costs, in the role and phase at the executor: a
 * long-lived process stays up (its server, its timers), so whoever awaits it waits forever; a
 * one-shot script's event loop empties and the script ends with the awaiting code never resumed.
 */
export function executorCost(subject: RoleSubject, executor: TSESTree.Node): string {
  if (isFileless(subject.filename)) return 'the code awaiting it never resumes';
  const role = processRole(subject, executor);
  if (role.role === 'one-shot') return 'the code awaiting it never resumes, and the script ends without finishing once nothing else keeps it running';
  return role.phase === 'startup' ? 'the startup code awaiting it never resumes, and the process never gets to serve' : 'its callers wait forever';
}
