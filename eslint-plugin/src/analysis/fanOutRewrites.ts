import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findObjectProperty, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { importedModules, refMatches, resolveReference } from './imports';
import { nearestDependencies } from '../project';
import { constNumber } from './collections';
import type { ChunkLoop, FanOut } from './collections';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Text edits that bound a fan-out: `pMap(xs, fn, { concurrency: N })` from p-map, or a p-limit
 * limiter around each call. Plain data (ranges and text); the rule turns them into suggestions.
 */
export interface TextEdit {
  range: readonly [number, number];
  text: string;
}

export interface BoundingLibraries {
  pMap: boolean;
  pLimit: boolean;
}

/** One suggested rewrite: the library it bounds the calls with, and its edits (not yet merged). */
export interface BoundingRewrite {
  library: 'p-map' | 'p-limit';
  edits: TextEdit[];
}

const rewriteLibraries = new WeakMap<object, BoundingLibraries>();

/** Which bounding libraries a rewrite may use: declared by the nearest package.json, or already imported. */
export function boundingLibraries(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): BoundingLibraries {
  const hit = rewriteLibraries.get(sourceCode);
  if (hit) return hit;
  const names = nearestDependencies(filename).names;
  const modules = importedModules(sourceCode);
  const found = { pMap: names.has('p-map') || modules.has('p-map'), pLimit: names.has('p-limit') || modules.has('p-limit') };
  rewriteLibraries.set(sourceCode, found);
  return found;
}

/** `import <name> from '<module>'`: the local name to use, and the insertion when the file has none yet. */
export function defaultImport(sourceCode: Services, module: string, preferred: string): { name: string; edit: TextEdit | null } | null {
  const body = sourceCode.ast.body;
  const imports = body.filter((s): s is TSESTree.ImportDeclaration => s.type === AST_NODE_TYPES.ImportDeclaration);
  for (const decl of imports) {
    if (decl.source.value !== module || decl.importKind === 'type') continue;
    const spec = decl.specifiers.find((s) => s.type === AST_NODE_TYPES.ImportDefaultSpecifier);
    if (spec) return { name: spec.local.name, edit: null };
  }
  // p-map and p-limit are ES modules: a CommonJS file gets no rewrite rather than a broken one.
  if (sourceCode.ast.sourceType !== 'module') return null;
  if (imports.length === 0 && sourceCode.text.includes('require(')) return null;
  const name = freeName(sourceCode, preferred);
  const last = imports[imports.length - 1];
  const quote = last?.source.raw.startsWith('"') ? '"' : "'";
  const statement = `import ${name} from ${quote}${module}${quote};`;
  if (last) return { name, edit: { range: [last.range[1], last.range[1]], text: `\n${statement}` } };
  const first = body.find((s) => !(s.type === AST_NODE_TYPES.ExpressionStatement && typeof s.directive === 'string')) ?? body[0];
  if (!first) return null;
  return { name, edit: { range: [first.range[0], first.range[0]], text: `${statement}\n\n` } };
}

const namesCache = new WeakMap<object, ReadonlySet<string>>();

/** `base`, or `base2`, `base3`… : the first name no identifier in the file uses. */
export function freeName(sourceCode: Services, base: string): string {
  let names = namesCache.get(sourceCode);
  if (!names) {
    names = new Set((sourceCode.ast.tokens ?? []).filter((t) => t.type === 'Identifier').map((t) => t.value));
    namesCache.set(sourceCode, names);
  }
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base}${i}`)) return `${base}${i}`;
}

/** `mapper` rewritten so each call waits for a slot of `limit`; null when it cannot be done safely. */
export function limitedMapper(sourceCode: Services, mapper: TSESTree.Node, limit: string, item: string): string | null {
  if (mapper.type === AST_NODE_TYPES.ArrowFunctionExpression) {
    const arrow = sourceCode.getTokenBefore(mapper.body, { filter: (t) => t.value === '=>' });
    if (!arrow) return null;
    const headStart = mapper.async ? (sourceCode.getTokenAfter(sourceCode.getFirstToken(mapper) as TSESTree.Token) as TSESTree.Token).range[0] : mapper.range[0];
    const head = sourceCode.text.slice(headStart, arrow.range[1]);
    const body = sourceCode.text.slice(arrow.range[1], mapper.range[1]).trim();
    return `${head} ${limit}(${mapper.async ? 'async ' : ''}() => ${body})`;
  }
  if (mapper.type === AST_NODE_TYPES.Identifier || mapper.type === AST_NODE_TYPES.MemberExpression) {
    return `(${item}) => ${limit}(() => ${sourceCode.getText(mapper)}(${item}))`;
  }
  return null;
}

/** `send(x)` → `limit(() => send(x))`, unless the value awaits or yields where it stands. */
export function limitedValue(sourceCode: Services, value: TSESTree.Node, limit: string): string | null {
  let suspends = false;
  walk(value, sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.AwaitExpression || node.type === AST_NODE_TYPES.YieldExpression) suspends = true;
    return undefined;
  });
  return suspends ? null : `${limit}(() => ${sourceCode.getText(value)})`;
}

/** True when a mapper can move into `pMap` unchanged: it reads at most the item and the index. */
export function fitsPMap(mapper: TSESTree.Node): boolean {
  const expr = skipTransparent(mapper);
  if (isFunctionNode(expr)) return expr.params.length <= 2 && !expr.generator;
  return expr.type === AST_NODE_TYPES.Identifier || expr.type === AST_NODE_TYPES.MemberExpression;
}

/** The statement to put a `const limit = pLimit(N)` in front of: `node`'s nearest ancestor in a statement list. */
export function statementAnchor(node: TSESTree.Node): TSESTree.Node | null {
  let current: TSESTree.Node | undefined = node;
  while (current?.parent) {
    const parent: TSESTree.Node = current.parent;
    if (
      parent.type === AST_NODE_TYPES.Program || parent.type === AST_NODE_TYPES.BlockStatement ||
      parent.type === AST_NODE_TYPES.StaticBlock || parent.type === AST_NODE_TYPES.TSModuleBlock ||
      (parent.type === AST_NODE_TYPES.SwitchCase && parent.consequent.includes(current as TSESTree.Statement))
    ) {
      return current;
    }
    current = parent;
  }
  return null;
}

/** `const limit = pLimit(8);` placed before `anchor`, on its own line with the anchor's indentation. */
export function limiterDeclaration(sourceCode: Services, anchor: TSESTree.Node, limit: string, factory: string, concurrency: string): TextEdit {
  const line = sourceCode.lines[anchor.loc.start.line - 1] ?? '';
  const prefix = line.slice(0, anchor.loc.start.column);
  const separator = /^\s*$/.test(prefix) ? `\n${prefix}` : ' ';
  return { range: [anchor.range[0], anchor.range[0]], text: `const ${limit} = ${factory}(${concurrency});${separator}` };
}

/**
 * A chunk loop whose body is only the batch (`await Promise.all(slice.map(fn))`), with the
 * pieces a rewrite needs; null for any other shape (results collected, extra statements, splice).
 */
export function soleBatch(
  sourceCode: Services,
  chunk: ChunkLoop,
  combinator: TSESTree.CallExpression,
): { mapper: TSESTree.Node; source: string } | null {
  const loop = chunk.loop;
  // A slice handed to another function: the rewrite would span two functions.
  if (chunk.handedBy || loop.type === AST_NODE_TYPES.CallExpression) return null;
  const body = loop.body.type === AST_NODE_TYPES.BlockStatement ? loop.body.body : [loop.body];
  const only = body.length === 1 ? body[0] : undefined;
  if (only?.type !== AST_NODE_TYPES.ExpressionStatement || only.expression.type !== AST_NODE_TYPES.AwaitExpression) return null;
  if (only.expression.argument !== combinator) return null;
  const arg = combinator.arguments[0];
  if (arg?.type !== AST_NODE_TYPES.CallExpression || arg.callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  if (staticPropertyName(arg.callee) !== 'map' || arg.arguments.length !== 1 || arg.callee.optional) return null;
  const mapper = arg.arguments[0] as TSESTree.Node;
  const source = sourceCode.getText(chunk.source);
  const sizeText = sourceCode.getText(chunk.size);
  if (chunk.via === 'slice') {
    if (arg.callee.object !== chunk.cut || loop.type !== AST_NODE_TYPES.ForStatement) return null;
    const counter = sliceCounter(loop, source, sizeText, sourceCode);
    const start = chunk.cut.arguments[0];
    if (!counter || start?.type !== AST_NODE_TYPES.Identifier || start.name !== counter) return null;
    return { mapper, source };
  }
  if (chunk.via === 'chunk' && loop.type === AST_NODE_TYPES.ForOfStatement && loop.right === chunk.cut) {
    const decl = loop.left;
    const batch = decl.type === AST_NODE_TYPES.VariableDeclaration ? decl.declarations[0]?.id : null;
    const object = arg.callee.object;
    if (batch?.type === AST_NODE_TYPES.Identifier && object.type === AST_NODE_TYPES.Identifier && object.name === batch.name) {
      return { mapper, source };
    }
  }
  return null;
}

/** `for (let i = 0; i < xs.length; i += n)` → `i`, when the loop walks `xs` exactly in steps of `n`. */
function sliceCounter(loop: TSESTree.ForStatement, source: string, size: string, sourceCode: Services): string | null {
  const init = loop.init;
  if (init?.type !== AST_NODE_TYPES.VariableDeclaration || init.declarations.length !== 1) return null;
  const decl = init.declarations[0] as TSESTree.VariableDeclarator;
  if (decl.id.type !== AST_NODE_TYPES.Identifier || decl.init?.type !== AST_NODE_TYPES.Literal || decl.init.value !== 0) return null;
  const name = decl.id.name;
  const test = loop.test;
  if (test?.type !== AST_NODE_TYPES.BinaryExpression || test.operator !== '<') return null;
  if (test.left.type !== AST_NODE_TYPES.Identifier || test.left.name !== name || sourceCode.getText(test.right) !== `${source}.length`) return null;
  const update = loop.update;
  if (update?.type !== AST_NODE_TYPES.AssignmentExpression || update.operator !== '+=') return null;
  if (update.left.type !== AST_NODE_TYPES.Identifier || update.left.name !== name || sourceCode.getText(update.right) !== size) return null;
  return name;
}

/**
 * The rewrite that bounds a combinator's fan-out to `concurrency`: `Promise.all(xs.map(fn))`
 * becomes `pMap(xs, fn, { concurrency })` when p-map is available, otherwise each call of the
 * mapper (or each pushed value) runs through a `pLimit(concurrency)` limiter. Null when neither fits.
 */
export function fanOutRewrite(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  method: string,
  fanOut: FanOut,
  libraries: BoundingLibraries,
  concurrency: string,
): BoundingRewrite | null {
  const mapCall = fanOut.mapCall;
  if (fanOut.shape === 'map' && method === 'all' && libraries.pMap && mapCall && call.arguments[0] === mapCall) {
    const edits = pMapEdits(sourceCode, call, mapCall, concurrency);
    if (edits) return { library: 'p-map', edits };
  }
  if (!libraries.pLimit || !fanOut.work) return null;
  const imp = defaultImport(sourceCode, 'p-limit', 'pLimit');
  if (!imp) return null;
  const limit = freeName(sourceCode, 'limit');
  const wrapped = fanOut.shape === 'push'
    ? limitedValue(sourceCode, fanOut.work, limit)
    : limitedMapper(sourceCode, fanOut.work, limit, freeName(sourceCode, 'item'));
  const anchor = statementAnchor(fanOut.shape === 'push' && fanOut.loop ? fanOut.loop : (mapCall ?? call));
  if (!wrapped || !anchor) return null;
  const edits = [
    ...optional(imp.edit),
    limiterDeclaration(sourceCode, anchor, limit, imp.name, concurrency),
    { range: fanOut.work.range, text: wrapped },
  ];
  return { library: 'p-limit', edits };
}

/** `Promise.all(xs.map(fn))` → `pMap(xs, fn, { concurrency: n })`, when the mapper moves over unchanged. */
function pMapEdits(sourceCode: Services, call: TSESTree.CallExpression, mapCall: TSESTree.CallExpression, concurrency: string): TextEdit[] | null {
  const callee = mapCall.callee;
  const mapper = mapCall.arguments[0];
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'map' || mapCall.arguments.length !== 1) return null;
  if (callee.optional || !mapper || !fitsPMap(mapper)) return null;
  const imp = defaultImport(sourceCode, 'p-map', 'pMap');
  if (!imp) return null;
  const text = `${imp.name}(${sourceCode.getText(callee.object)}, ${sourceCode.getText(mapper)}, { concurrency: ${concurrency} })`;
  return [...optional(imp.edit), { range: call.range, text }];
}

/**
 * The rewrite that replaces a loop of awaited slices with one sliding window of `size`: `pMap`
 * when p-map is available and the combinator is `all`, else a `pLimit(size)` limiter around each
 * call. Null when the loop is not only the batch (see `soleBatch`) or the chosen library cannot
 * be imported; p-map being chosen and not importable does not fall back to p-limit.
 */
export function sliceRewrite(
  sourceCode: Services,
  chunk: ChunkLoop,
  call: TSESTree.CallExpression,
  method: string,
  libraries: BoundingLibraries,
): BoundingRewrite | null {
  const batch = soleBatch(sourceCode, chunk, call);
  if (!batch) return null;
  const size = sourceCode.getText(chunk.size);
  if (libraries.pMap && method === 'all' && fitsPMap(batch.mapper)) {
    const imp = defaultImport(sourceCode, 'p-map', 'pMap');
    if (!imp) return null;
    const text = `await ${imp.name}(${batch.source}, ${sourceCode.getText(batch.mapper)}, { concurrency: ${size} });`;
    return { library: 'p-map', edits: [...optional(imp.edit), { range: chunk.loop.range, text }] };
  }
  if (!libraries.pLimit) return null;
  const imp = defaultImport(sourceCode, 'p-limit', 'pLimit');
  const limit = freeName(sourceCode, 'limit');
  const wrapped = limitedMapper(sourceCode, batch.mapper, limit, freeName(sourceCode, 'item'));
  if (!imp || !wrapped) return null;
  const edits = [
    ...optional(imp.edit),
    limiterDeclaration(sourceCode, chunk.loop, limit, imp.name, size),
    { range: chunk.loop.range, text: `await Promise.${method}(${batch.source}.map(${wrapped}));` },
  ];
  return { library: 'p-limit', edits };
}

function optional<T>(value: T | null): T[] {
  return value === null ? [] : [value];
}

/** Insertions at the same offset become one edit, so ESLint never sees overlapping fixes. */
export function mergeEdits(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0]);
  const merged: TextEdit[] = [];
  for (const edit of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.range[0] === last.range[1] && last.range[1] === edit.range[0]) {
      merged[merged.length - 1] = { range: [last.range[0], edit.range[1]], text: last.text + edit.text };
    } else {
      merged.push(edit);
    }
  }
  return merged;
}

/** The combinator's promise is awaited inside the loop body, so each slice finishes before the next starts. */
export function isAwaitedIn(call: TSESTree.CallExpression, loop: TSESTree.Node): boolean {
  let current: TSESTree.Node | undefined = call.parent;
  while (current && current !== loop) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) return true;
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.ArrowFunctionExpression) return false;
    current = current.parent;
  }
  return false;
}

/**
 * `pMap(xs, fn)` / bluebird's `map(xs, fn)` without a finite `concurrency`: the input, the
 * mapper, and the edit that writes `concurrency: n`. Null when the call is not one of them,
 * already bounded, or its options cannot be read (a spread, a variable).
 */
export function pMapCall(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  concurrency: string,
): { input: TSESTree.Node; mapper: TSESTree.Node; edit: TextEdit } | null {
  const ref = resolveReference(sourceCode, call.callee);
  const isPMap = refMatches(ref, 'p-map') || refMatches(ref, 'p-map', 'pMap');
  if (!isPMap && !refMatches(ref, 'bluebird', 'map')) return null;
  const [input, mapper, opts] = call.arguments;
  if (!input || !mapper || input.type === AST_NODE_TYPES.SpreadElement || mapper.type === AST_NODE_TYPES.SpreadElement) return null;
  if (opts && opts.type === AST_NODE_TYPES.SpreadElement) return null;
  const options = opts ? skipTransparent(opts) : null;
  if (options && options.type !== AST_NODE_TYPES.ObjectExpression) return null;
  if (options?.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return null;
  const prop = options ? findObjectProperty(options, 'concurrency') : null;
  if (prop && constNumber(sourceCode, prop.value) !== Infinity) return null;
  const edit: TextEdit = prop
    ? { range: prop.value.range, text: concurrency }
    : options
      ? { range: [options.range[0] + 1, options.range[0] + 1], text: options.properties.length > 0 ? ` concurrency: ${concurrency},` : ` concurrency: ${concurrency} ` }
      : { range: [mapper.range[1], mapper.range[1]], text: `, { concurrency: ${concurrency} }` };
  return { input, mapper, edit };
}
