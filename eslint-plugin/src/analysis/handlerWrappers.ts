import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, returnedValues, skipTransparent, walk } from './ast';
import { nearestPackage, packageFiles, readText } from '../project';
import { lintGeneration, moduleSourceCode } from './localModules';


/**
 * Does `filename`'s package write its own Express handler wrapper: a function that takes a
 * function and returns a `(req, res, next)` function calling it and handing its rejection to that
 * last parameter (`fn(req, res, next).catch(next)`, `Promise.resolve(fn(…)).catch(next)`, or
 * `try { await fn(…) } catch (e) { next(e) }`)? A package with one wraps its handlers where it
 * registers them; when those registrations are out of sight, a handler told only by usage may be
 * wrapped. True when the package cannot be listed whole (nothing can be ruled out then).
 */
export function packageWrapsHandlers(filename: string): boolean {
  const manifest = nearestPackage(filename).manifest;
  if (manifest === null) return false;
  const generation = lintGeneration();
  const hit = answers.get(manifest);
  if (hit && hit.generation === generation) return hit.value;
  const files = packageFiles(filename);
  const value = files === null || files.some((f) => definesWrapper(f));
  answers.set(manifest, { generation, value });
  return value;
}

const answers = new Map<string, { generation: number; value: boolean }>();

/**
 * A file's answer rests on its own text alone, so it is kept while the text stays the same: each
 * lint still reads every file of the package (and so depends on them), but parses only those new
 * or changed since the last ask.
 */
const byText = new Map<string, { text: string; value: boolean }>();

function definesWrapper(file: string): boolean {
  const text = readText(file);
  if (text === null) return false;
  const known = byText.get(file);
  if (known && known.text === text) return known.value;
  // A wrapper hands a rejection on with `catch`, and names the function it calls with it.
  const value = text.includes('catch') && /\bnext\b|\.\.\./.test(text) && parsesToWrapper(file);
  byText.set(file, { text, value });
  return value;
}

function parsesToWrapper(file: string): boolean {
  const sourceCode = moduleSourceCode(file);
  if (!sourceCode) return false;
  const keys = sourceCode.visitorKeys;
  let found = false;
  walk(sourceCode.ast, keys, (node) => {
    if (found) return false;
    if (isFunctionNode(node) && isWrapper(node, keys)) found = true;
    return !found;
  });
  return found;
}

/**
 * `(fn) => (req, res, next) => …` calling `fn` with its rejection handed to `next`; `next` may be
 * the last of a rest parameter (`(...args) => { const next = args[args.length - 1]; … }`), and the
 * call's result may be held in a variable first.
 */
function isWrapper(outer: FunctionNode, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  const wrapped = outer.params[0];
  if (outer.params.length !== 1 || wrapped?.type !== AST_NODE_TYPES.Identifier) return false;
  return returnedValues(outer, keys).some((value) => {
    const inner = skipTransparent(value);
    return isFunctionNode(inner) && inner.params.length >= 1 && inner.params.length <= 4 && passesRejection(inner, wrapped.name, keys);
  });
}

function passesRejection(inner: FunctionNode, wrapped: string, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  const last = inner.params[inner.params.length - 1];
  const nexts = new Set<string>();
  const rest = last?.type === AST_NODE_TYPES.RestElement && last.argument.type === AST_NODE_TYPES.Identifier ? last.argument.name : null;
  if (last?.type === AST_NODE_TYPES.Identifier && inner.params.length >= 2) nexts.add(last.name);
  const results = new Set<string>();
  walk(inner.body, keys, (node) => {
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || !node.init) return;
    const init = skipTransparent(node.init);
    if (rest && init.type === AST_NODE_TYPES.MemberExpression && init.computed && skipTransparent(init.object).type === AST_NODE_TYPES.Identifier &&
      (skipTransparent(init.object) as TSESTree.Identifier).name === rest) nexts.add(node.id.name);
    else if (callsIn(init, new Set([wrapped]), keys)) results.add(node.id.name);
  });
  if (nexts.size === 0) return false;
  const wrappedCall = (root: TSESTree.Node): boolean => callsIn(root, new Set([wrapped]), keys) || mentions(root, results, keys);
  let found = false;
  walk(inner.body, keys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression &&
      !node.callee.computed && node.callee.property.type === AST_NODE_TYPES.Identifier && node.callee.property.name === 'catch' &&
      handsTo(node.arguments[0], nexts, keys) && wrappedCall(node.callee.object)) found = true;
    if (node.type === AST_NODE_TYPES.TryStatement && node.handler && wrappedCall(node.block) && callsIn(node.handler.body, nexts, keys)) found = true;
    return !found;
  });
  return found;
}

/** `next` itself, or a function whose body calls it. */
function handsTo(arg: TSESTree.Node | undefined, nexts: ReadonlySet<string>, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  if (!arg) return false;
  const value = skipTransparent(arg);
  if (value.type === AST_NODE_TYPES.Identifier) return nexts.has(value.name);
  return isFunctionNode(value) && callsIn(value.body, nexts, keys);
}

/** Does `root` read one of `names`? */
function mentions(root: TSESTree.Node, names: ReadonlySet<string>, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  if (names.size === 0) return false;
  let found = false;
  walk(root, keys, (node) => {
    if (node.type === AST_NODE_TYPES.Identifier && names.has(node.name)) found = true;
    return !found;
  });
  return found;
}

/** Does `root` call one of `names` (directly, or through `.call`/`.apply`)? */
function callsIn(root: TSESTree.Node | null | undefined, names: ReadonlySet<string>, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  if (!root) return false;
  let found = false;
  walk(root, keys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = skipTransparent(node.callee);
      const target = callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier &&
        (callee.property.name === 'call' || callee.property.name === 'apply') ? skipTransparent(callee.object) : callee;
      if (target.type === AST_NODE_TYPES.Identifier && names.has(target.name)) found = true;
    }
    return !found;
  });
  return found;
}
