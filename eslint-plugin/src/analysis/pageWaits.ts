import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { contains, findObjectProperty, findVariable, isFunctionNode, isNullOrUndefined, laterAssignments, sameFileCallArguments, skipTransparent, staticPropertyName } from './ast';
import { annotatedRef } from './construction';
import { resolveReference } from './imports';
import { reachableModules } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** Browser automation packages whose pages wait out a fixed delay on request. */
const BROWSER_MODULES: readonly string[] = ['puppeteer', 'puppeteer-core', 'puppeteer-extra', 'playwright', 'playwright-core', 'playwright-chromium'];

const MAX_DEPTH = 6;

/**
 * `await page.waitForTimeout(ms)`, and puppeteer's older `await page.waitFor(ms)` with a number:
 * a browser page that does nothing but wait for a timer. The page is told by where it comes from,
 * `await browser.newPage()` (or `context.newPage()`) in a file that reaches puppeteer or
 * playwright through its imports, or a value declared with their `Page` type. `waitFor` also takes a selector or a function, which wait for
 * the page instead: only an argument that is a number (a literal, arithmetic, `Number(…)`, a value
 * every writer and same-file caller sets to one) makes it a sleep.
 */
export function isTimedPageWait(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = staticPropertyName(callee);
  if (method !== 'waitForTimeout' && method !== 'waitFor') return false;
  const arg = call.arguments[0];
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement || call.arguments.length > 1) return false;
  if (method === 'waitFor' && !isNumber(sourceCode, arg, 0)) return false;
  if (isDeclaredPage(sourceCode, callee.object)) return true;
  if (!isOpenedPage(sourceCode, callee.object)) return false;
  const reached = reachableModules(sourceCode);
  return BROWSER_MODULES.some((m) => reached.has(m));
}

/** `(page: Page)` with `Page` from puppeteer or playwright (a type-only import too). */
function isDeclaredPage(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(sourceCode, expr)?.defs[0];
  if (!def || (def.type !== 'Parameter' && def.type !== 'Variable')) return false;
  const declared = annotatedRef(sourceCode, def.name);
  return declared !== null && BROWSER_MODULES.includes(declared.ref.module) && declared.ref.path.at(-1) === 'Page';
}

/** `await x.newPage()`, or a variable every write of which is that (a `let page = null` included). */
function isOpenedPage(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.AwaitExpression) return opensPage(expr.argument);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.id !== def.name) return false;
  let opened = def.node.init ? isOpenedPage(sourceCode, def.node.init) : false;
  if (def.node.init && !opened && !isNullOrUndefined(def.node.init)) return false;
  const assignments = laterAssignments(variable);
  if (!assignments) return false;
  for (const assigned of assignments) {
    if (isNullOrUndefined(assigned)) continue;
    const value = skipTransparent(assigned);
    if (value.type !== AST_NODE_TYPES.AwaitExpression || !opensPage(value.argument)) return false;
    opened = true;
  }
  return opened;
}

function opensPage(node: TSESTree.Node): boolean {
  const call = skipTransparent(node);
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'newPage';
}

const ARITHMETIC: ReadonlySet<string> = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
const NUMBER_FUNCTIONS: ReadonlySet<string> = new Set(['Number', 'parseInt', 'parseFloat']);

/**
 * Whether `node` is a number: `5000`, `2 * 1000`, `Number(q.delay) || 5000`, `Math.min(d, max)`,
 * a `const` set to one, a property of an object literal set to one, or a parameter every
 * same-file caller passes one to. A value that may be a string or a function is not.
 */
function isNumber(sourceCode: Services, node: TSESTree.Node, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expr.value === 'number';
    case AST_NODE_TYPES.UnaryExpression:
      return expr.operator === '-' || expr.operator === '+';
    case AST_NODE_TYPES.BinaryExpression:
      if (ARITHMETIC.has(expr.operator)) return true;
      return expr.operator === '+' && isNumber(sourceCode, expr.left, depth + 1) && isNumber(sourceCode, expr.right, depth + 1);
    case AST_NODE_TYPES.LogicalExpression:
      // `toInteger(q.wait) || 5000`: a fallback number, and a left side that is not a selector.
      return isNumber(sourceCode, expr.right, depth + 1) && !mayBeText(expr.left) &&
        (expr.operator !== '&&' || isNumber(sourceCode, expr.left, depth + 1));
    case AST_NODE_TYPES.ConditionalExpression:
      return isNumber(sourceCode, expr.consequent, depth + 1) && isNumber(sourceCode, expr.alternate, depth + 1);
    case AST_NODE_TYPES.CallExpression:
      return numberCall(sourceCode, expr);
    case AST_NODE_TYPES.Identifier:
      return identifierNumber(sourceCode, expr, depth);
    case AST_NODE_TYPES.MemberExpression:
      return propertyNumber(sourceCode, expr, depth);
    default:
      return false;
  }
}

/** `Number(x)`, `parseInt(x)`, `Math.min(a, b)`, lodash's `toInteger`/`toNumber`. */
function numberCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  const ref = resolveReference(sourceCode, callee);
  const last = ref?.path[ref.path.length - 1];
  if (ref && (ref.module === 'lodash' || ref.module.startsWith('lodash/')) && last !== undefined) return LODASH_NUMBERS.test(last);
  if (callee.type === AST_NODE_TYPES.Identifier) return NUMBER_FUNCTIONS.has(callee.name) && isGlobal(sourceCode, callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(callee.object);
  return object.type === AST_NODE_TYPES.Identifier && (object.name === 'Math' || object.name === 'Number') && isGlobal(sourceCode, object);
}

const LODASH_NUMBERS = /^to(?:Integer|Number|Finite|Length|SafeInteger)$/;

function isGlobal(sourceCode: Services, id: TSESTree.Identifier): boolean {
  return !findVariable(sourceCode, id)?.defs.length;
}

function mayBeText(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return (expr.type === AST_NODE_TYPES.Literal && typeof expr.value === 'string') || expr.type === AST_NODE_TYPES.TemplateLiteral || isFunctionNode(expr);
}

function identifierNumber(sourceCode: Services, id: TSESTree.Identifier, depth: number): boolean {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return false;
  if (def.type === 'Parameter') {
    const fn = def.node as FunctionNode;
    const index = fn.params.indexOf(def.name as TSESTree.Parameter);
    const args = sameFileCallArguments(sourceCode, fn, index);
    return args !== null && args.length > 0 && args.every((a) => a !== null && isNumber(sourceCode, a, depth + 1));
  }
  if (def.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return false;
  const writes = variable.references.filter((r) => r.isWrite() && !r.init);
  return isNumber(sourceCode, def.node.init, depth + 1) && writes.every((r) => {
    const parent = r.identifier.parent;
    return parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === r.identifier && parent.operator === '=' &&
      isNumber(sourceCode, parent.right, depth + 1);
  });
}

/** `task.waitFor` where `task` is an object literal (here or as every same-file caller's argument) setting it to a number. */
function propertyNumber(sourceCode: Services, member: TSESTree.MemberExpression, depth: number): boolean {
  const name = staticPropertyName(member);
  const object = skipTransparent(member.object);
  if (name === null || object.type !== AST_NODE_TYPES.Identifier) return false;
  return objectValues(sourceCode, object, depth).every((literal) => {
    const property = literal ? findObjectProperty(literal, name) : null;
    return property !== null && isNumber(sourceCode, property.value, depth + 1);
  }) && objectValues(sourceCode, object, depth).length > 0;
}

/** The object literals `id` holds: its `const` initializer, or what every same-file caller passes for it; null for anything else. */
function objectValues(sourceCode: Services, id: TSESTree.Identifier, depth: number): (TSESTree.ObjectExpression | null)[] {
  if (depth > MAX_DEPTH) return [];
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return [];
  if (def.type === 'Parameter') {
    const fn = def.node as FunctionNode;
    const index = fn.params.findIndex((p) => p === def.name || contains(p, def.name));
    if (fn.params[index] !== def.name) return [];
    const args = sameFileCallArguments(sourceCode, fn, index);
    if (!args || args.length === 0) return [];
    return args.flatMap((a) => {
      const arg = a ? skipTransparent(a) : null;
      if (arg?.type === AST_NODE_TYPES.ObjectExpression) return [arg];
      return arg?.type === AST_NODE_TYPES.Identifier ? orNull(objectValues(sourceCode, arg, depth + 1)) : [null];
    });
  }
  if (def.type !== 'Variable' || def.node.id !== def.name || def.node.parent.kind !== 'const' || !def.node.init) return [];
  const init = skipTransparent(def.node.init);
  return [init.type === AST_NODE_TYPES.ObjectExpression ? init : null];
}

function orNull(values: (TSESTree.ObjectExpression | null)[]): (TSESTree.ObjectExpression | null)[] {
  return values.length > 0 ? values : [null];
}
