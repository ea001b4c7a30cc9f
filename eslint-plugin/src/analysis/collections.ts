import type * as ts from 'typescript';
import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { ModuleExport } from '../util/settings';
import type { FunctionNode } from './ast';
import { constInit, contains, findObjectProperty, findVariable, isFunctionNode, patternNames, skipTransparent, staticPropertyName, walk } from './ast';
import type { ImportedFunction } from './callGraph';
import { getCallGraph, resolveImportedFunction } from './callGraph';
import { getConstruction, thisClass } from './construction';
import { isDataClientCall } from './dataSources';
import { handedArguments, sequentialWalk } from './handedSlices';
import type { ModuleRef } from './imports';
import { refMatches, resolveReference } from './imports';
import { isProjectSpecifier, localExport } from './localModules';
import { getPermitCall } from './permits';
import { askChecker } from './typeQueries';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Questions about collections that are mapped to async work: how many items they can hold, whether
 * the mapper starts async work, whether that work runs under a limiter, and the loop shapes that
 * chunk a collection into fixed-size slices.
 */

export type CollectionLoop =
  | TSESTree.ForStatement
  | TSESTree.ForOfStatement
  | TSESTree.ForInStatement
  | TSESTree.WhileStatement
  | TSESTree.DoWhileStatement;

/** A loop stepping through fixed-size slices of a collection. */
export interface ChunkLoop {
  via: 'slice' | 'splice' | 'chunk';
  loop: CollectionLoop | TSESTree.CallExpression;
  /** The whole collection (`xs` in `xs.slice(i, i + n)`, `chunk(xs, n)`). */
  source: TSESTree.Node;
  /** The slice-size expression (`n`). */
  size: TSESTree.Node;
  /** Its text when it is written in another module (a project helper that cuts the slices). */
  sizeText?: string;
  /** Its value when it is a literal or a `const` with a literal initializer. */
  sizeValue: number | null;
  /** The call that cuts the slice (`slice`, `splice`, `chunk`). */
  cut: TSESTree.CallExpression;
  /**
   * When the slices are walked in a caller and handed to the function that maps them: the call
   * that hands one over (`this.runBatch(batch)`). Then `loop` is that caller's walk, which may
   * also be a promise chain built by `reduce`.
   */
  handedBy?: TSESTree.CallExpression;
}

export type CollectionSize =
  /** At most `count` items, evident from the code or (typed mode) a tuple type. */
  | { kind: 'bounded'; count: number }
  | { kind: 'chunk'; chunk: ChunkLoop }
  | { kind: 'unknown' };

/**
 * What a mapper (or a pushed value) starts, from most to least concerning:
 * `async` work per item, work `bounded` by a limiter/semaphore/pool/worker, promises that
 * `existing` elsewhere, or plain `sync` values.
 */
export type WorkKind = 'async' | 'bounded' | 'existing' | 'sync';

/** What the type checker can add; absent without type information. */
export interface CollectionTypes {
  /** Fixed length of a tuple-typed expression (the longest of a union of tuples), else null. */
  tupleLength(node: TSESTree.Node): number | null;
  /** false when the value is provably not a thenable; null when unknown (`any`, generic, no type). */
  isThenable(node: TSESTree.Node): boolean | null;
  /** false when every call signature of the function value provably returns no thenable. */
  returnsThenable(fn: TSESTree.Node): boolean | null;
}

export interface CollectionContext {
  sourceCode: Services;
  /** Shared settings: team-declared permit callbacks and limiter factories also bound work. */
  permitCallbacks?: readonly ModuleExport[];
  limiters?: readonly ModuleExport[];
  types?: CollectionTypes | null;
}

const UNKNOWN: CollectionSize = { kind: 'unknown' };

// ---------------------------------------------------------------------------------------------
// Sizes

/** How many items `node` can hold, when the code (or a tuple type) says. */
export function collectionSize(ctx: CollectionContext, node: TSESTree.Node, depth = 0): CollectionSize {
  if (depth > 6) return UNKNOWN;
  const expr = skipTransparent(node);
  const syntactic = syntacticSize(ctx, expr, depth);
  if (syntactic.kind !== 'unknown') return syntactic;
  const tuple = ctx.types?.tupleLength(expr) ?? null;
  return tuple === null ? UNKNOWN : { kind: 'bounded', count: tuple };
}

function syntacticSize(ctx: CollectionContext, expr: TSESTree.Node, depth: number): CollectionSize {
  switch (expr.type) {
    case AST_NODE_TYPES.ArrayExpression: {
      let count = 0;
      for (const element of expr.elements) {
        if (element?.type !== AST_NODE_TYPES.SpreadElement) {
          count++;
          continue;
        }
        const inner = collectionSize(ctx, element.argument, depth + 1);
        if (inner.kind !== 'bounded') return UNKNOWN;
        count += inner.count;
      }
      return { kind: 'bounded', count };
    }
    case AST_NODE_TYPES.Identifier:
      return identifierSize(ctx, expr, depth);
    case AST_NODE_TYPES.AwaitExpression:
      return boundedOnly(collectionSize(ctx, expr.argument, depth + 1));
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.CallExpression: {
      const size = callSize(ctx, expr, depth);
      return size.kind === 'unknown' && expr.type === AST_NODE_TYPES.CallExpression ? returnedSize(ctx, expr, depth) : size;
    }
    default:
      return UNKNOWN;
  }
}

/**
 * `regions()` whose every `return` is a short literal list, in this file or in the project module
 * it is imported from: as many items as the longest of them.
 */
function returnedSize(ctx: CollectionContext, call: TSESTree.CallExpression, depth: number): CollectionSize {
  let fn: FunctionNode | null = getCallGraph(ctx.sourceCode).resolveCall(call)?.node ?? null;
  let at = ctx;
  if (!fn) {
    const imported = resolveImportedFunction(ctx.sourceCode, call.callee);
    if (!imported) return UNKNOWN;
    fn = imported.fn;
    at = inModule(ctx, imported);
  }
  if (fn.generator) return UNKNOWN;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return boundedOnly(collectionSize(at, fn.body, depth + 1));
  const returned: TSESTree.Node[] = [];
  walk(fn.body, at.sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement) returned.push(node.argument ?? node);
    return undefined;
  });
  let count = 0;
  for (const value of returned) {
    const size = value.type === AST_NODE_TYPES.ReturnStatement ? UNKNOWN : collectionSize(at, value, depth + 1);
    if (size.kind !== 'bounded') return UNKNOWN;
    count = Math.max(count, size.count);
  }
  return returned.length > 0 ? { kind: 'bounded', count } : UNKNOWN;
}

function identifierSize(ctx: CollectionContext, id: TSESTree.Identifier, depth: number): CollectionSize {
  const variable = findVariable(ctx.sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return UNKNOWN;
  if (def.type === 'ImportBinding') return importedSize(ctx, id, depth);
  const annotated = tupleAnnotationLength(def.name);
  if (annotated !== null) return { kind: 'bounded', count: annotated };
  if (def.type === 'Parameter') {
    const handed = handedSliceSize(ctx, def.node as FunctionNode, def.name, depth);
    return handed.kind === 'unknown' ? helperSliceSize(ctx, def.node as FunctionNode, def.name) : handed;
  }
  if (def.type !== 'Variable' || def.node.id !== def.name) return UNKNOWN;
  const declaration = def.node.parent;
  const loop = declaration.parent;
  if (!def.node.init && loop?.type === AST_NODE_TYPES.ForOfStatement && loop.left === declaration) {
    const chunk = chunkSource(ctx, loop.right, depth);
    return chunk ? { kind: 'chunk', chunk: { ...chunk, loop } } : UNKNOWN;
  }
  if (!def.node.init || isReassigned(variable, declaration) || isResized(variable)) return UNKNOWN;
  return collectionSize(ctx, def.node.init, depth + 1);
}

/**
 * A parameter every caller fills with one slice of a chunked list, walked one slice after
 * another (`for (const b of chunk(xs, 50)) await this.run(b)`, or a `reduce` promise chain):
 * the function's own fan-out over it is a chunked batch.
 */
function handedSliceSize(ctx: CollectionContext, fn: FunctionNode, param: TSESTree.Node, depth: number): CollectionSize {
  // Cheap first: only a `chunk(…)` list is walked slice by slice here, and most files name none.
  if (!/chunk/i.test(ctx.sourceCode.text)) return UNKNOWN;
  const calls = handedArguments(ctx.sourceCode, fn, param);
  if (!calls) return UNKNOWN;
  let found: ChunkLoop | null = null;
  for (const { call, index } of calls) {
    const walk = sequentialWalk(ctx.sourceCode, call, index);
    const chunk = walk ? chunkSource(ctx, walk.list, depth) : null;
    if (!walk || !chunk) return UNKNOWN;
    found ??= { ...chunk, loop: walk.walker, handedBy: call };
  }
  return found ? { kind: 'chunk', chunk: found } : UNKNOWN;
}

/** Whether `param` of `fn` is one slice of a list a helper walks slice by slice (see `helperSliceSize`). */
export function isHelperSlice(ctx: CollectionContext, fn: FunctionNode, param: TSESTree.Node): boolean {
  return helperSliceSize(ctx, fn, param).kind === 'chunk';
}

/**
 * The callback's first parameter is one slice of a list a helper walks slice by slice:
 * `batch.processArray(inboxes, async (slice) => …, opts)` where the helper (same file or an
 * imported project module) awaits its callback parameter on `array.slice(start, start + n)` of its
 * list parameter inside a loop. The walk is the helper call, which also hands each slice over.
 */
function helperSliceSize(ctx: CollectionContext, fn: FunctionNode, param: TSESTree.Node): CollectionSize {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || fn.params[0] !== param) return UNKNOWN;
  const callbackIndex = call.arguments.indexOf(fn as TSESTree.CallExpressionArgument);
  if (callbackIndex < 0) return UNKNOWN;
  const local = getCallGraph(ctx.sourceCode).resolveCall(call);
  const helper = local ? { fn: local.node, sourceCode: ctx.sourceCode } : resolveImportedFunction(ctx.sourceCode, call.callee);
  if (!helper || helper.fn === fn) return UNKNOWN;
  const cut = slicedCallback(helper.sourceCode, helper.fn, callbackIndex);
  const list = cut ? call.arguments[cut.listIndex] : undefined;
  if (!cut || !list || list.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN;
  return {
    kind: 'chunk',
    chunk: { via: 'slice', loop: call, source: list, size: call, sizeText: helper.sourceCode.getText(cut.size), sizeValue: constNumber(helper.sourceCode, cut.size), cut: call, handedBy: call },
  };
}

/** In `helper`, an awaited call of its parameter `callbackIndex`, in a loop, with a window slice of another parameter. */
function slicedCallback(sourceCode: Services, helper: FunctionNode, callbackIndex: number): { listIndex: number; size: TSESTree.Node } | null {
  const callback = helper.params[callbackIndex];
  if (callback?.type !== AST_NODE_TYPES.Identifier || helper.body.type !== AST_NODE_TYPES.BlockStatement) return null;
  let found: { listIndex: number; size: TSESTree.Node } | null = null;
  walk(helper.body, sourceCode.visitorKeys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.AwaitExpression) return undefined;
    const called = skipTransparent(node.argument);
    if (called.type !== AST_NODE_TYPES.CallExpression || called.callee.type !== AST_NODE_TYPES.Identifier || called.callee.name !== callback.name) return undefined;
    if (findVariable(sourceCode, called.callee)?.defs[0]?.name !== callback || !enclosingLoop(called)) return undefined;
    let arg: TSESTree.Node | null | undefined = called.arguments[0];
    if (arg?.type === AST_NODE_TYPES.Identifier) arg = constInit(sourceCode, arg);
    const slice = arg ? skipTransparent(arg) : null;
    if (slice?.type !== AST_NODE_TYPES.CallExpression || slice.callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(slice.callee) !== 'slice') return undefined;
    const [start, end] = slice.arguments;
    const size = start && end ? windowSize(start, end) : null;
    const list = skipTransparent(slice.callee.object);
    const listIndex = list.type === AST_NODE_TYPES.Identifier ? helper.params.findIndex((p) => p.type === AST_NODE_TYPES.Identifier && p.name === list.name) : -1;
    if (size && listIndex >= 0 && listIndex !== callbackIndex) found = { listIndex, size };
    return undefined;
  });
  return found;
}

/** `import { REGIONS } from './config'` with `export const REGIONS = ['eu', 'us']` there. */
function importedSize(ctx: CollectionContext, id: TSESTree.Identifier, depth: number): CollectionSize {
  const ref = resolveReference(ctx.sourceCode, id);
  const found = ref && isProjectSpecifier(ctx.sourceCode, ref.module) ? localExport(ctx.sourceCode, ref) : null;
  if (!found || found.rest.length > 0) return UNKNOWN;
  const { value } = found;
  const at: CollectionContext = { ...ctx, sourceCode: value.sourceCode, types: null };
  if (value.node.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(value.sourceCode, value.node)?.defs[0];
    // Only a `const`: another module may assign to nothing else it exports, but could to a `let`.
    if (def?.type !== 'Variable' || def.node.parent.kind !== 'const') return UNKNOWN;
  }
  return boundedOnly(collectionSize(at, value.node, depth + 1));
}

function callSize(ctx: CollectionContext, call: TSESTree.CallExpression | TSESTree.NewExpression, depth: number): CollectionSize {
  const callee = skipTransparent(call.callee);
  const args = call.arguments;
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Array' && isGlobalName(ctx.sourceCode, callee)) {
    // `Array(8)` / `new Array(8)`: one numeric argument is a length.
    const n = args.length === 1 && args[0] ? constNumber(ctx.sourceCode, args[0]) : null;
    return n === null ? UNKNOWN : { kind: 'bounded', count: n };
  }
  if (callee.type === AST_NODE_TYPES.Identifier && (callee.name === 'Set' || callee.name === 'Map') && call.type === AST_NODE_TYPES.NewExpression) {
    return args[0] ? collectionSize(ctx, args[0], depth + 1) : { kind: 'bounded', count: 0 };
  }
  if (call.type !== AST_NODE_TYPES.CallExpression || callee.type !== AST_NODE_TYPES.MemberExpression) return UNKNOWN;
  const method = staticPropertyName(callee);
  const object = skipTransparent(callee.object);
  if (method === null) return UNKNOWN;
  if (object.type === AST_NODE_TYPES.Identifier && isGlobalName(ctx.sourceCode, object)) {
    if (object.name === 'Array' && method === 'from' && args[0]) return arrayFromSize(ctx, args[0], depth);
    if (object.name === 'Array' && method === 'of') return { kind: 'bounded', count: args.length };
    if (object.name === 'Object' && (method === 'keys' || method === 'values' || method === 'entries') && args[0]) {
      const count = objectLiteralSize(ctx, args[0]);
      return count === null ? UNKNOWN : { kind: 'bounded', count };
    }
  }
  switch (method) {
    case 'slice':
      return sliceSize(ctx, call, object, depth);
    case 'splice':
      return spliceSize(ctx, call, object);
    case 'map':
    case 'filter':
    case 'toSorted':
    case 'toReversed':
    case 'sort':
    case 'reverse':
    case 'fill':
    case 'keys':
    case 'values':
    case 'entries':
    case 'with':
      return boundedOnly(collectionSize(ctx, object, depth + 1));
    default:
      return UNKNOWN;
  }
}

/** A chunk loop's slice is bounded per iteration, but a `map` over it is not a chunk loop itself. */
function boundedOnly(size: CollectionSize): CollectionSize {
  return size.kind === 'bounded' ? size : UNKNOWN;
}

function arrayFromSize(ctx: CollectionContext, source: TSESTree.Node, depth: number): CollectionSize {
  const expr = skipTransparent(source);
  if (expr.type === AST_NODE_TYPES.ObjectExpression) {
    const length = findObjectProperty(expr, 'length');
    const n = length ? constNumber(ctx.sourceCode, length.value) : null;
    return n === null ? UNKNOWN : { kind: 'bounded', count: n };
  }
  return collectionSize(ctx, expr, depth + 1);
}

function sliceSize(ctx: CollectionContext, call: TSESTree.CallExpression, object: TSESTree.Node, depth: number): CollectionSize {
  const [startArg, endArg] = call.arguments;
  const start = startArg ? constNumber(ctx.sourceCode, startArg) : 0;
  const end = endArg ? constNumber(ctx.sourceCode, endArg) : null;
  if (start !== null && end !== null) return { kind: 'bounded', count: Math.max(0, end - Math.max(0, start)) };
  if (start !== null && start < 0 && !endArg) return { kind: 'bounded', count: -start };
  if (startArg && endArg) {
    const size = windowSize(startArg, endArg);
    const loop = size ? enclosingLoop(call) : null;
    if (size && loop) {
      return { kind: 'chunk', chunk: { via: 'slice', loop, source: object, size, sizeValue: constNumber(ctx.sourceCode, size), cut: call } };
    }
  }
  return boundedOnly(collectionSize(ctx, object, depth + 1));
}

function spliceSize(ctx: CollectionContext, call: TSESTree.CallExpression, object: TSESTree.Node): CollectionSize {
  const [startArg, countArg] = call.arguments;
  if (!startArg || !countArg || constNumber(ctx.sourceCode, startArg) !== 0) return UNKNOWN;
  const loop = enclosingLoop(call);
  const n = constNumber(ctx.sourceCode, countArg);
  if (loop) return { kind: 'chunk', chunk: { via: 'splice', loop, source: object, size: countArg, sizeValue: n, cut: call } };
  return n === null ? UNKNOWN : { kind: 'bounded', count: n };
}

/** `slice(i, i + n)`, `slice(i, n + i)`, `slice(i, Math.min(i + n, xs.length))` → `n`. */
function windowSize(start: TSESTree.Node, end: TSESTree.Node): TSESTree.Node | null {
  const s = skipTransparent(start);
  let e = skipTransparent(end);
  if (s.type !== AST_NODE_TYPES.Identifier) return null;
  if (
    e.type === AST_NODE_TYPES.CallExpression &&
    e.callee.type === AST_NODE_TYPES.MemberExpression &&
    e.callee.object.type === AST_NODE_TYPES.Identifier &&
    e.callee.object.name === 'Math' &&
    staticPropertyName(e.callee) === 'min'
  ) {
    const sum = e.arguments.find((a) => a.type === AST_NODE_TYPES.BinaryExpression && a.operator === '+');
    if (!sum) return null;
    e = sum;
  }
  if (e.type !== AST_NODE_TYPES.BinaryExpression || e.operator !== '+') return null;
  const sameAs = (n: TSESTree.Node): boolean => n.type === AST_NODE_TYPES.Identifier && n.name === s.name;
  if (sameAs(e.left)) return e.right;
  if (sameAs(e.right)) return e.left;
  return null;
}

/** `chunk(xs, n)` from lodash (any import form), or a same-file helper whose name says chunk. */
function chunkSource(
  ctx: CollectionContext,
  node: TSESTree.Node,
  depth: number,
): Omit<ChunkLoop, 'loop'> | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier && depth < 4) {
    const variable = findVariable(ctx.sourceCode, expr);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === 'Variable' && def.node.init && def.node.id === def.name && !isReassigned(variable as TSESLint.Scope.Variable, def.node.parent)) {
      return pushedSlices(ctx, variable as TSESLint.Scope.Variable, def.node.init) ?? chunkSource(ctx, def.node.init, depth + 1);
    }
    return null;
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression || expr.arguments.length !== 2) return null;
  const [source, size] = expr.arguments as [TSESTree.Node, TSESTree.Node];
  if (source.type === AST_NODE_TYPES.SpreadElement || size.type === AST_NODE_TYPES.SpreadElement) return null;
  if (!isChunkFunction(ctx.sourceCode, expr)) return null;
  return { via: 'chunk', source, size, sizeValue: constNumber(ctx.sourceCode, size), cut: expr };
}

/**
 * `const batches = []; for (let i = 0; i < xs.length; i += n) batches.push(xs.slice(i, i + n));`:
 * a list of slices cut by a stepping loop, each pushed whole (directly or through a `const`).
 */
function pushedSlices(ctx: CollectionContext, variable: TSESLint.Scope.Variable, init: TSESTree.Node): Omit<ChunkLoop, 'loop'> | null {
  const start = skipTransparent(init);
  if (start.type !== AST_NODE_TYPES.ArrayExpression || start.elements.length > 0) return null;
  let found: Omit<ChunkLoop, 'loop'> | null = null;
  for (const reference of variable.references) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const name = staticPropertyName(member);
    if (name === null || !RESIZING_METHODS.has(name) || member.parent?.type !== AST_NODE_TYPES.CallExpression) continue;
    const pushed = name === 'push' && member.parent.arguments.length === 1 ? member.parent.arguments[0] : undefined;
    let value = pushed && pushed.type !== AST_NODE_TYPES.SpreadElement ? skipTransparent(pushed) : null;
    if (value?.type === AST_NODE_TYPES.Identifier) value = constInit(ctx.sourceCode, value);
    const slice = value ? skipTransparent(value) : null;
    if (slice?.type !== AST_NODE_TYPES.CallExpression || slice.callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(slice.callee) !== 'slice') return null;
    const size = sliceSize(ctx, slice, skipTransparent(slice.callee.object), 0);
    if (size.kind !== 'chunk') return null;
    found ??= { via: 'slice', source: size.chunk.source, size: size.chunk.size, sizeValue: size.chunk.sizeValue, cut: slice };
  }
  return found;
}

/**
 * `chunk(xs, n)`: lodash's, or a function of the project that cuts its first parameter into
 * slices sized by its second (`xs.slice(i, i + n)`, `xs.splice(0, n)`), whatever it is called.
 */
function isChunkFunction(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const ref = resolveReference(sourceCode, call.callee);
  if (ref && (refMatches(ref, 'lodash', 'chunk') || refMatches(ref, 'lodash-es', 'chunk') ||
    refMatches(ref, 'lodash/chunk') || refMatches(ref, 'lodash-es/chunk') || refMatches(ref, 'lodash.chunk'))) return true;
  const local = getCallGraph(sourceCode).resolveCall(call)?.node;
  if (local && isFunctionNode(local)) return cutsIntoSlices(sourceCode, local);
  const imported = ref ? resolveImportedFunction(sourceCode, call.callee) : null;
  return imported !== null && cutsIntoSlices(imported.sourceCode, imported.fn);
}

/** The function slices its first parameter with bounds that read its second. */
function cutsIntoSlices(sourceCode: Services, fn: FunctionNode): boolean {
  const [list, size] = fn.params.map((p) => (p.type === AST_NODE_TYPES.AssignmentPattern ? p.left : p));
  if (list?.type !== AST_NODE_TYPES.Identifier || size?.type !== AST_NODE_TYPES.Identifier) return false;
  const listVar = findVariable(sourceCode, list);
  const sizeVar = findVariable(sourceCode, size);
  if (!listVar || !sizeVar) return false;
  return [listVar, ...copiesOf(sourceCode, listVar)].some((v) => v.references.some((reference) => {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) return false;
    const method = staticPropertyName(member);
    const cut = member.parent;
    if ((method !== 'slice' && method !== 'splice') || cut?.type !== AST_NODE_TYPES.CallExpression || cut.callee !== member) return false;
    return sizeVar.references.some((r) => cut.arguments.some((a) => contains(a, r.identifier)));
  }));
}

/** `const copy = [...list]` (or `list.slice()`, `Array.from(list)`): a copy to cut without touching the caller's list. */
function copiesOf(sourceCode: Services, list: TSESLint.Scope.Variable): TSESLint.Scope.Variable[] {
  const copies: TSESLint.Scope.Variable[] = [];
  for (const reference of list.references) {
    let copy: TSESTree.Node = reference.identifier;
    const parent = copy.parent;
    if (parent?.type === AST_NODE_TYPES.SpreadElement && parent.parent?.type === AST_NODE_TYPES.ArrayExpression && parent.parent.elements.length === 1) {
      copy = parent.parent;
    } else if (parent?.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(parent) === 'slice' &&
      parent.parent?.type === AST_NODE_TYPES.CallExpression && parent.parent.arguments.length === 0) {
      copy = parent.parent;
    } else if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === copy &&
      parent.callee.type === AST_NODE_TYPES.MemberExpression && parent.callee.object.type === AST_NODE_TYPES.Identifier &&
      parent.callee.object.name === 'Array' && staticPropertyName(parent.callee) === 'from') {
      copy = parent;
    } else continue;
    const declarator = copy.parent;
    if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== copy || declarator.id.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = findVariable(sourceCode, declarator.id);
    if (variable) copies.push(variable);
  }
  return copies;
}

/** The loop whose body contains `node`, within the same function. */
export function enclosingLoop(node: TSESTree.Node): CollectionLoop | null {
  let child: TSESTree.Node = node;
  let current = node.parent;
  while (current && !isFunctionNode(current)) {
    switch (current.type) {
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
        if (current.body === child) return current;
        break;
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.ForInStatement:
        if (current.body === child) return current;
        break;
      default:
        break;
    }
    child = current;
    current = current.parent;
  }
  return null;
}

/** How many iterations a loop runs, when evident: for-of over a sized collection, `i < K`. */
export function loopSize(ctx: CollectionContext, loop: CollectionLoop): CollectionSize {
  if (loop.type === AST_NODE_TYPES.ForOfStatement) return boundedOnly(collectionSize(ctx, loop.right));
  if (loop.type === AST_NODE_TYPES.ForStatement && loop.test?.type === AST_NODE_TYPES.BinaryExpression) {
    const { operator, right } = loop.test;
    const n = operator === '<' || operator === '<=' ? constNumber(ctx.sourceCode, right) : null;
    if (n !== null) return { kind: 'bounded', count: operator === '<=' ? n + 1 : n };
  }
  return UNKNOWN;
}

function tupleAnnotationLength(name: TSESTree.Node): number | null {
  const annotation = 'typeAnnotation' in name ? (name.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
  let type = annotation?.typeAnnotation;
  if (type?.type === AST_NODE_TYPES.TSTypeOperator && type.operator === 'readonly') type = type.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTupleType) return null;
  const variable = type.elementTypes.some((e) => e.type === AST_NODE_TYPES.TSRestType ||
    (e.type === AST_NODE_TYPES.TSNamedTupleMember && e.elementType.type === AST_NODE_TYPES.TSRestType));
  return variable ? null : type.elementTypes.length;
}

function objectLiteralSize(ctx: CollectionContext, node: TSESTree.Node): number | null {
  let expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(ctx.sourceCode, expr);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.parent.kind !== 'const' || !def.node.init) return null;
    expr = skipTransparent(def.node.init);
  }
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return null;
  return expr.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement) ? null : expr.properties.length;
}

function isReassigned(variable: TSESLint.Scope.Variable, declaration: TSESTree.VariableDeclaration): boolean {
  return declaration.kind !== 'const' && variable.references.some((r) => r.isWrite() && !r.init);
}

const RESIZING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice', 'add', 'set']);

/** `xs.push(…)` or `xs.length = …` anywhere: the initializer's size no longer holds. */
function isResized(variable: TSESLint.Scope.Variable): boolean {
  return variable.references.some((r) => {
    const parent = r.identifier.parent;
    if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== r.identifier) return false;
    const name = staticPropertyName(parent);
    if (name === 'length') return parent.parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.parent.left === parent;
    return name !== null && RESIZING_METHODS.has(name) && parent.parent?.type === AST_NODE_TYPES.CallExpression;
  });
}

// ---------------------------------------------------------------------------------------------
// Work

const RANK: Record<WorkKind, number> = { sync: 0, existing: 1, bounded: 2, async: 3 };

function worst(a: WorkKind, b: WorkKind): WorkKind {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Global functions and namespaces whose calls compute a value and start nothing. */
const SYNC_GLOBALS: ReadonlySet<string> = new Set([
  'String', 'Number', 'Boolean', 'BigInt', 'Symbol', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'structuredClone',
]);
const SYNC_NAMESPACES: ReadonlySet<string> = new Set(['JSON', 'Math', 'Object', 'Array', 'Number', 'String', 'console', 'Reflect', 'Date']);
/** Promise statics that wrap values or combine promises already running: no new work per item. */
const PROMISE_WRAPPERS: ReadonlySet<string> = new Set(['resolve', 'reject', 'all', 'allSettled', 'any', 'race']);
const CHAIN_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);
/** Methods that wait for a slot before the caller goes on: the work after them is bounded. */
const GATE_METHODS: ReadonlySet<string> = new Set(['acquire', 'connect', 'getConnection', 'waitForUnlock']);
const GATE_KINDS: ReadonlySet<string> = new Set(['mutex', 'semaphore', 'dbPool', 'genericPool']);

/** What one call of `mapper` per item starts: see `WorkKind`. */
export function mapperWork(ctx: CollectionContext, mapper: TSESTree.Node, depth = 0): WorkKind {
  const expr = skipTransparent(mapper);
  if (depth > 4) return 'async';
  if (isFunctionNode(expr)) return refineByType(ctx, expr, functionWork(ctx, expr, depth));
  if (expr.type === AST_NODE_TYPES.Identifier || expr.type === AST_NODE_TYPES.MemberExpression) {
    if (isSyncBuiltin(ctx.sourceCode, expr)) return 'sync';
    if (isPromiseStatic(ctx.sourceCode, expr)) return 'existing';
    if (isBoundingValue(ctx, expr)) return 'bounded';
    const target = getCallGraph(ctx.sourceCode).resolveCallee(expr);
    if (target) return mapperWork(ctx, target.node, depth + 1);
    // `xs.map(fetchOne)` with `fetchOne` from one of the project's modules: bounded when it runs under a limiter there.
    const imported = resolveImportedFunction(ctx.sourceCode, expr);
    if (imported) return boundedOrAsync(mapperWork(inModule(ctx, imported), imported.fn, depth + 1));
  }
  if (expr.type === AST_NODE_TYPES.Literal || expr.type === AST_NODE_TYPES.ObjectExpression) return 'sync';
  // A function from elsewhere, handed to `Promise.all` through a map: presumed to start async work.
  return refineByType(ctx, expr, 'async');
}

/** What evaluating `node` (a pushed value, a returned value) starts. */
export function expressionWork(ctx: CollectionContext, node: TSESTree.Node, depth = 0, scope: FunctionNode | null = null): WorkKind {
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.CallExpression: {
      const work = callWork(ctx, expr, depth);
      return work === 'async' ? refineByType(ctx, expr, work) : work;
    }
    case AST_NODE_TYPES.NewExpression: {
      const callee = skipTransparent(expr.callee);
      return callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Promise' ? 'async' : 'sync';
    }
    case AST_NODE_TYPES.ConditionalExpression:
      return worst(expressionWork(ctx, expr.consequent, depth, scope), expressionWork(ctx, expr.alternate, depth, scope));
    case AST_NODE_TYPES.LogicalExpression:
      return worst(expressionWork(ctx, expr.left, depth, scope), expressionWork(ctx, expr.right, depth, scope));
    case AST_NODE_TYPES.SequenceExpression:
      return expressionWork(ctx, expr.expressions[expr.expressions.length - 1] as TSESTree.Node, depth, scope);
    case AST_NODE_TYPES.ArrayExpression:
      return expr.elements.reduce<WorkKind>((acc, e) => (e ? worst(acc, expressionWork(ctx, e.type === AST_NODE_TYPES.SpreadElement ? e.argument : e, depth, scope)) : acc), 'sync');
    case AST_NODE_TYPES.Identifier: {
      // A local initialized by a call inside the mapper is made now; anything else already exists.
      const variable = findVariable(ctx.sourceCode, expr);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (scope && def?.type === 'Variable' && def.node.init && def.node.id === def.name && contains(scope, def.node)) {
        return expressionWork(ctx, def.node.init, depth + 1, scope);
      }
      return 'existing';
    }
    case AST_NODE_TYPES.MemberExpression:
      return 'existing';
    default:
      return 'sync';
  }
}

function callWork(ctx: CollectionContext, call: TSESTree.CallExpression, depth: number): WorkKind {
  const callee = skipTransparent(call.callee);
  if (isBoundingCall(ctx, call)) return 'bounded';
  if (isSyncBuiltin(ctx.sourceCode, callee)) return 'sync';
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    if (isPromiseStatic(ctx.sourceCode, callee)) return combinatorWork(ctx, call, depth);
    const method = staticPropertyName(callee);
    // `.then()` on a promise that already runs adds a callback, not a new call per item.
    if (method !== null && CHAIN_METHODS.has(method)) return worst(expressionWork(ctx, callee.object, depth + 1), 'existing');
  }
  if (depth > 4) return 'async';
  const target = getCallGraph(ctx.sourceCode).resolveCall(call);
  if (target) {
    // `async function fetchOne(x) { return limit(() => get(x)); }`: the limiter inside the callee is the bound.
    if (target.isAsync || target.returnsPromiseType) return boundedOrAsync(functionWork(ctx, target.node, depth + 1));
    return functionWork(ctx, target.node, depth + 1);
  }
  const imported = resolveImportedFunction(ctx.sourceCode, call.callee);
  if (imported) return boundedOrAsync(functionWork(inModule(ctx, imported), imported.fn, depth + 1));
  return 'async';
}

/**
 * What a callee's body says is trusted only when it finds a bound: an async function whose body
 * this reading sees no awaited work in (it forwards a promise it got elsewhere) still starts one.
 */
function boundedOrAsync(work: WorkKind): WorkKind {
  return work === 'bounded' ? 'bounded' : 'async';
}

/** The same questions, asked in the project module a function was imported from (without types: they are the linted file's). */
function inModule(ctx: CollectionContext, imported: ImportedFunction): CollectionContext {
  return { ...ctx, sourceCode: imported.sourceCode, types: null };
}

/** `Promise.resolve(v)` wraps a value; `Promise.all(xs.map(f))` inside a mapper is a nested fan-out. */
function combinatorWork(ctx: CollectionContext, call: TSESTree.CallExpression, depth: number): WorkKind {
  const arg = call.arguments[0];
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return 'existing';
  const expr = skipTransparent(arg);
  const callee = expr.type === AST_NODE_TYPES.CallExpression ? skipTransparent(expr.callee) : null;
  if (expr.type === AST_NODE_TYPES.CallExpression && callee?.type === AST_NODE_TYPES.MemberExpression) {
    const method = staticPropertyName(callee);
    if ((method === 'map' || method === 'flatMap') && expr.arguments[0]) return mapperWork(ctx, expr.arguments[0], depth + 1);
  }
  return worst('existing', expressionWork(ctx, expr, depth + 1));
}

function functionWork(ctx: CollectionContext, fn: FunctionNode, depth: number): WorkKind {
  if (isWorker(ctx.sourceCode, fn)) return 'bounded';
  if (fn.async) return asyncBodyWork(ctx, fn, depth);
  if (fn.generator) return 'sync';
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return expressionWork(ctx, fn.body, depth, fn);
  let work: WorkKind = 'sync';
  walk(fn.body, ctx.sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) work = worst(work, expressionWork(ctx, node.argument, depth, fn));
    // `(x) => { coll.updateOne(…); }`: the query runs though its promise is dropped.
    if (node.type === AST_NODE_TYPES.ExpressionStatement) {
      const expr = skipTransparent(node.expression);
      if (expr.type === AST_NODE_TYPES.CallExpression && isDataClientCall(ctx.sourceCode, expr)) work = 'async';
    }
    return undefined;
  });
  return work;
}

/**
 * An async mapper starts its work at once, unless the first thing it waits on is a slot: a
 * limiter call, `runExclusive`, or `await semaphore.acquire()` / `pool.connect()`. What it does
 * after that point runs at most as many at a time as the slot allows. Only what it awaits or
 * returns counts: other calls in its body are synchronous helpers (or another rule's finding).
 */
function asyncBodyWork(ctx: CollectionContext, fn: FunctionNode, depth: number): WorkKind {
  const events: { end: number; work: WorkKind }[] = [];
  const add = (node: TSESTree.Node, work: WorkKind): void => {
    if (work === 'async' || work === 'bounded') events.push({ end: node.range[1], work });
  };
  const awaited = (node: TSESTree.Node): WorkKind => {
    const expr = skipTransparent(node);
    if (expr.type === AST_NODE_TYPES.CallExpression && isGateCall(ctx.sourceCode, expr)) return 'bounded';
    return expressionWork(ctx, expr, depth + 1, fn);
  };
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) add(fn.body, awaited(fn.body));
  walk(fn.body, ctx.sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.AwaitExpression) add(node.argument, awaited(node.argument));
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) add(node.argument, awaited(node.argument));
    if (node.type === AST_NODE_TYPES.ForOfStatement && node.await) add(node.right, 'async');
    return undefined;
  });
  events.sort((a, b) => a.end - b.end);
  return events[0]?.work ?? 'sync';
}

/** Typed mode: a mapper or value that provably produces no thenable starts no async work. */
function refineByType(ctx: CollectionContext, node: TSESTree.Node, work: WorkKind): WorkKind {
  if (work !== 'async' || !ctx.types) return work;
  const thenable = isFunctionNode(node) || node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.MemberExpression
    ? ctx.types.returnsThenable(node)
    : ctx.types.isThenable(node);
  return thenable === false ? 'sync' : work;
}

/** A call that runs its callback in a limited slot: p-limit, p-queue with a concurrency, semaphores, declared shapes. */
export function isBoundingCall(ctx: CollectionContext, call: TSESTree.CallExpression): boolean {
  const permit = getPermitCall(ctx.sourceCode, call, ctx.permitCallbacks ?? []);
  if (permit) return permit.capacity !== Infinity;
  return isBoundingValue(ctx, call.callee);
}

/** A limiter made by a team-declared factory (`settings.limiters`), or p-limit's limiter itself. */
function isBoundingValue(ctx: CollectionContext, node: TSESTree.Node): boolean {
  const construction = getConstruction(ctx.sourceCode, node);
  if (!construction) return false;
  if (construction.kind === 'limiter') return true;
  return (ctx.limiters ?? []).some((l) => l.export !== undefined && refMatches(construction.ref, l.module, l.export));
}

function isGateCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = staticPropertyName(callee);
  if (method === null || !GATE_METHODS.has(method)) return false;
  const kind = getConstruction(sourceCode, callee.object)?.kind;
  return kind !== undefined && kind !== null && GATE_KINDS.has(kind);
}

/**
 * A worker pulls items from shared state in a loop (`queue.shift()`, `iterator.next()`, a shared
 * index, `for (const x of sharedIterator)`), so N copies of it are a fixed pool of N slots.
 */
export function isWorker(sourceCode: Services, fn: FunctionNode): boolean {
  let pulls = false;
  const shared = (node: TSESTree.Node): boolean => {
    const expr = skipTransparent(node);
    if (expr.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(sourceCode, expr);
    const def = variable?.defs[0];
    return def !== undefined && !contains(fn, def.node);
  };
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (pulls) return false;
    if (isFunctionNode(node)) return false;
    if (!isLoop(node)) return undefined;
    let awaits = false;
    let pulling = node.type === AST_NODE_TYPES.ForOfStatement && shared(node.right) && isIteratorLike(sourceCode, node.right);
    walk(node, sourceCode.visitorKeys, (inner) => {
      if (isFunctionNode(inner)) return false;
      if (inner.type === AST_NODE_TYPES.AwaitExpression || (inner.type === AST_NODE_TYPES.ForOfStatement && inner.await)) awaits = true;
      if (inner.type === AST_NODE_TYPES.CallExpression && inner.callee.type === AST_NODE_TYPES.MemberExpression) {
        const method = staticPropertyName(inner.callee);
        if ((method === 'shift' || method === 'pop' || method === 'next' || method === 'dequeue') && shared(inner.callee.object)) pulling = true;
      }
      if (inner.type === AST_NODE_TYPES.UpdateExpression && shared(inner.argument)) pulling = true;
      if (inner.type === AST_NODE_TYPES.AssignmentExpression && inner.operator === '+=' && shared(inner.left)) pulling = true;
      return undefined;
    });
    pulls = awaits && pulling;
    return false;
  });
  return pulls;
}

function isIteratorLike(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const init = def?.type === 'Variable' && def.node.init ? skipTransparent(def.node.init) : null;
  if (init?.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(init.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return getCallGraph(sourceCode).resolveCall(init)?.isGenerator === true;
  const method = staticPropertyName(callee);
  return method === 'values' || method === 'keys' || method === 'entries' || (callee.computed && method === null);
}

function isLoop(node: TSESTree.Node): node is CollectionLoop {
  return node.type === AST_NODE_TYPES.ForStatement || node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.ForInStatement || node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement;
}

function isSyncBuiltin(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) return SYNC_GLOBALS.has(expr.name) && isGlobalName(sourceCode, expr);
  if (expr.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(expr.object);
  return object.type === AST_NODE_TYPES.Identifier && SYNC_NAMESPACES.has(object.name) && isGlobalName(sourceCode, object);
}

function isPromiseStatic(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(expr.object);
  const name = staticPropertyName(expr);
  return object.type === AST_NODE_TYPES.Identifier && object.name === 'Promise' && isGlobalName(sourceCode, object) &&
    name !== null && PROMISE_WRAPPERS.has(name);
}

// ---------------------------------------------------------------------------------------------
// Fan-out: what a `Promise.all` argument starts

export interface FanOut {
  /**
   * `map`: `xs.map(fn)` / `xs.flatMap(fn)` / `Array.from(xs, fn)` as the argument itself;
   * `stored`: such an array kept in a variable first; `push`: one promise pushed per loop
   * iteration; `literal`: an array literal with more calls than the limit.
   */
  shape: 'map' | 'stored' | 'push' | 'literal';
  /** The mapping call (`xs.map(fn)`), for `map` and `stored`. */
  mapCall: TSESTree.CallExpression | null;
  /** The mapped collection or the loop's iterable. */
  collection: TSESTree.Node | null;
  /** The mapper, or the pushed value. */
  work: TSESTree.Node | null;
  size: CollectionSize;
  /** `stored`: the declarator; `push`: the `push(…)` call. */
  origin: TSESTree.Node | null;
  /** `push`: the loop that pushes. */
  loop: TSESTree.Node | null;
  /** `literal`: how many elements start work. */
  count: number;
  /**
   * Set when only a name suggests the items are registered code (`this.plugins`) or that the
   * mapper tears them down (`(s) => s.closeAll()`): see `namedLikeRegisteredCode`.
   */
  guess: 'registeredCode' | 'teardown' | null;
}

/**
 * What the argument of `Promise.all` (and friends) starts, when it is one async call per item of a
 * collection whose size is unknown, larger than `maxElements`, or cut into chunks by a loop.
 * Null when the size is evident and small, when the work runs under a limiter or a worker pool,
 * or when the items are promises that already exist.
 */
export function describeFanOut(ctx: CollectionContext, arg: TSESTree.Node, maxElements: number, depth = 0): FanOut | null {
  const expr = skipTransparent(arg);
  if (depth > 3) return null;
  if (expr.type === AST_NODE_TYPES.CallExpression) return mappedFanOut(ctx, expr, maxElements);
  if (expr.type === AST_NODE_TYPES.ArrayExpression) return literalFanOut(ctx, expr, maxElements, depth);
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(ctx.sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return null;
  if (isReassigned(variable, def.node.parent)) return null;
  const init = skipTransparent(def.node.init);
  if (init.type === AST_NODE_TYPES.ArrayExpression && init.elements.length === 0) {
    return pushFanOut(ctx, variable, maxElements);
  }
  const stored = describeFanOut(ctx, init, maxElements, depth + 1);
  return stored && stored.shape === 'map' ? { ...stored, shape: 'stored', origin: def.node } : null;
}

/**
 * `xs.forEach(async (x) => …)` or `xs.map(async (x) => …)` as a statement of its own: every call
 * starts at once and nothing waits for them, the same burst as `Promise.all` without the join.
 */
export function describeDroppedFanOut(ctx: CollectionContext, call: TSESTree.CallExpression, maxElements: number): FanOut | null {
  if (call.parent?.type !== AST_NODE_TYPES.ExpressionStatement || call.arguments.length !== 1) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.optional) return null;
  const method = staticPropertyName(callee);
  if (method !== 'forEach' && method !== 'map' && method !== 'flatMap') return null;
  // What a plain callback returns is thrown away, and an unknown call in it may well be synchronous
  // (`rows.forEach((r) => out.push(r))`): only an async function, or a query sent through an eager
  // driver, is known to start work per item.
  const mapper = skipTransparent(call.arguments[0] as TSESTree.Node);
  const fn = isFunctionNode(mapper) ? mapper : getCallGraph(ctx.sourceCode).resolveCallee(mapper)?.node ?? resolveImportedFunction(ctx.sourceCode, mapper)?.fn;
  if (!fn || (!fn.async && !(isFunctionNode(mapper) && firesDataCall(ctx.sourceCode, mapper)))) return null;
  return mappedFanOut(ctx, call, maxElements, true);
}

function firesDataCall(sourceCode: Services, fn: FunctionNode): boolean {
  let found = false;
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && isDataClientCall(sourceCode, node)) found = true;
    return undefined;
  });
  return found;
}

function mappedFanOut(ctx: CollectionContext, call: TSESTree.CallExpression, maxElements: number, forEach = false): FanOut | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  const object = skipTransparent(callee.object);
  let collection: TSESTree.Node;
  let mapper: TSESTree.Node | undefined;
  if (method === 'from' && object.type === AST_NODE_TYPES.Identifier && object.name === 'Array' && isGlobalName(ctx.sourceCode, object)) {
    collection = call.arguments[0] as TSESTree.Node;
    mapper = call.arguments[1];
  } else if (method === 'map' || method === 'flatMap' || (forEach && method === 'forEach')) {
    // `limit.map(xs, fn)` (p-limit) and `queue.map` are the bound, not a fan-out.
    const kind = getConstruction(ctx.sourceCode, object)?.kind;
    if (kind === 'limiter' || kind === 'queue' || isBoundingValue(ctx, object)) return null;
    collection = object;
    mapper = call.arguments[0];
  } else {
    return null;
  }
  if (!collection || !mapper || mapper.type === AST_NODE_TYPES.SpreadElement || collection.type === AST_NODE_TYPES.SpreadElement) return null;
  // `Array.from({ length: K }, fn)` is sized by its first argument, which `collectionSize` of the call reads.
  const size = collectionSize(ctx, method === 'from' ? call : collection);
  if (size.kind === 'bounded' && size.count <= maxElements) return null;
  if (mapperWork(ctx, mapper) !== 'async') return null;
  // Facts: each item is the function called, or a listener the emitter holds; the mapper tears
  // down an object a catalogued library built.
  if ((callsItem(ctx.sourceCode, mapper) && !isMappedLocal(ctx.sourceCode, collection)) || isListenerList(ctx.sourceCode, collection)) return null;
  const teardown = teardownOf(ctx, mapper, collection);
  if (teardown === 'fact') return null;
  const guess = teardown === 'guess' ? 'teardown' : namedLikeRegisteredCode(collection) ? 'registeredCode' : null;
  return { shape: 'map', mapCall: call, collection, work: mapper, size, origin: null, loop: null, count: 0, guess };
}

function literalFanOut(ctx: CollectionContext, array: TSESTree.ArrayExpression, maxElements: number, depth: number): FanOut | null {
  let count = 0;
  for (const element of array.elements) {
    if (!element) continue;
    if (element.type === AST_NODE_TYPES.SpreadElement) {
      const inner = describeFanOut(ctx, element.argument, maxElements, depth + 1);
      if (inner) return inner;
      continue;
    }
    if (expressionWork(ctx, element) === 'async') count++;
  }
  if (count <= maxElements) return null;
  return { shape: 'literal', mapCall: null, collection: null, work: null, size: { kind: 'bounded', count }, origin: null, loop: null, count, guess: null };
}

/** `const ps = []; for (const x of xs) ps.push(send(x));` — one promise per item, all running. */
function pushFanOut(ctx: CollectionContext, variable: TSESLint.Scope.Variable, maxElements: number): FanOut | null {
  for (const reference of variable.references) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const call = member.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member || staticPropertyName(member) !== 'push') continue;
    const pushed = call.arguments[0];
    if (!pushed) continue;
    const around = pushLoop(ctx, call);
    if (!around) continue;
    if (around.size.kind === 'bounded' && around.size.count <= maxElements) continue;
    const value = pushed.type === AST_NODE_TYPES.SpreadElement ? pushed.argument : pushed;
    const work = pushed.type === AST_NODE_TYPES.SpreadElement
      ? (describeFanOut(ctx, value, maxElements, 3) ? 'async' : 'sync')
      : expressionWork(ctx, value);
    if (work !== 'async') continue;
    if (callsLoopItem(ctx.sourceCode, value, around.loop) || (around.collection && isListenerList(ctx.sourceCode, around.collection))) continue;
    const teardown = teardownCall(ctx, value, loopItemNames(around.loop), around.collection);
    if (teardown === 'fact') continue;
    const guess = teardown === 'guess' ? 'teardown' : around.collection && namedLikeRegisteredCode(around.collection) ? 'registeredCode' : null;
    return { shape: 'push', mapCall: null, collection: around.collection, work: value, size: around.size, origin: call, loop: around.loop, count: 0, guess };
  }
  return null;
}

/**
 * A name guess, kept for values nothing else is known about: a list named for registered code
 * (hooks, plugins, providers, listeners) is as long as the program made it, not as long as its
 * input. Only `strict` reports collections of unknown origin, so only there does this guess
 * decide anything; the rule never lets it quiet a collection whose origin is data.
 */
const REGISTERED_CODE_NAME = /(?:callbacks|listeners|handlers|hooks|plugins|providers|subscribers|middlewares?|interceptors|reporters)$/i;

function namedLikeRegisteredCode(collection: TSESTree.Node): boolean {
  let expr = skipTransparent(collection);
  // `this.hooks.values()`
  if (expr.type === AST_NODE_TYPES.CallExpression && expr.callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(expr.callee) === 'values') {
    expr = skipTransparent(expr.callee.object);
  }
  const name = expr.type === AST_NODE_TYPES.Identifier ? expr.name
    : expr.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(expr) : null;
  return name !== null && REGISTERED_CODE_NAME.test(name);
}

/** Node's `EventEmitter` methods that hand out the listeners registered for an event. */
const LISTENER_METHODS: ReadonlySet<string> = new Set(['listeners', 'rawListeners']);

/**
 * `emitter.listeners(event)` on an `EventEmitter` from `events` (built, or a class extending it):
 * the functions the program registered, one call each.
 */
function isListenerList(sourceCode: Services, collection: TSESTree.Node): boolean {
  const expr = skipTransparent(collection);
  if (expr.type !== AST_NODE_TYPES.CallExpression || expr.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  if (!LISTENER_METHODS.has(staticPropertyName(expr.callee) ?? '')) return false;
  const receiver = skipTransparent(expr.callee.object);
  if (receiver.type === AST_NODE_TYPES.ThisExpression) {
    const cls = thisClass(expr.callee);
    return cls?.superClass ? isEventEmitter(resolveReference(sourceCode, cls.superClass)) : false;
  }
  return isEventEmitter(getConstruction(sourceCode, receiver)?.ref ?? null);
}

function isEventEmitter(ref: ModuleRef | null): boolean {
  return refMatches(ref, 'events') || refMatches(ref, 'events', 'EventEmitter');
}

/**
 * Teardown methods of the objects catalogued libraries build: closing what the program already
 * holds ends work rather than starting it, and those objects were opened under their own limits.
 */
const TEARDOWN_BY_MODULE: Readonly<Record<string, readonly string[]>> = {
  pg: ['end', 'release'],
  mysql: ['end', 'destroy', 'release'],
  mysql2: ['end', 'destroy', 'release'],
  'mysql2/promise': ['end', 'destroy', 'release'],
  ioredis: ['quit', 'disconnect'],
  redis: ['quit', 'disconnect', 'destroy', 'close'],
  mongodb: ['close'],
  ws: ['close', 'terminate'],
  worker_threads: ['terminate'],
  child_process: ['kill'],
  http: ['close', 'closeAllConnections'],
  https: ['close', 'closeAllConnections'],
  net: ['close', 'end', 'destroy'],
  amqplib: ['close'],
  bullmq: ['close', 'disconnect'],
  kafkajs: ['disconnect'],
  puppeteer: ['close'],
  playwright: ['close'],
  'generic-pool': ['drain', 'clear'],
};

/**
 * The same verbs, for items nothing is known about: a name guess, flagged as one (see
 * `namedLikeRegisteredCode` for why it only matters under `strict`). Method names count with a
 * suffix too (`endSession`, `closeAll`), except after `cancel`/`abort`; a function given the item
 * (`this.kill(child)`) only under the plain verb, since `closeTicket(ticket.id)` is a request.
 */
const TEARDOWN_VERBS: readonly string[] = [
  'close', 'dispose', 'destroy', 'end', 'stop', 'terminate', 'shutdown', 'kill', 'abort', 'cancel', 'disconnect', 'quit', 'unsubscribe',
];

/** Verbs that also start requests when they name an object (`cancelOrder`, `abortUpload`): exact names only. */
const EXACT_ONLY: ReadonlySet<string> = new Set(['cancel', 'abort']);

function isTeardownVerb(name: string): boolean {
  return TEARDOWN_VERBS.some((verb) => name === verb ||
    (!EXACT_ONLY.has(verb) && name.startsWith(verb) && /[A-Z_]/.test(name.charAt(verb.length))));
}

/**
 * A mapper that tears its item down: `(s) => s.close()`, `({ client }) => client.end()`,
 * `function (c) { return c.quit(); }`. `fact` when the items are objects a catalogued library
 * built and the method is one of its teardowns; `guess` when only the verb says so.
 */
export function teardownOf(ctx: CollectionContext, mapper: TSESTree.Node, collection: TSESTree.Node | null): 'fact' | 'guess' | null {
  const fn = skipTransparent(mapper);
  if (!isFunctionNode(fn) || !fn.params[0]) return null;
  let body: TSESTree.Node = fn.body;
  if (body.type === AST_NODE_TYPES.BlockStatement) {
    const [only] = body.body;
    if (body.body.length !== 1 || !only) return null;
    if (only.type === AST_NODE_TYPES.ReturnStatement && only.argument) body = only.argument;
    else if (only.type === AST_NODE_TYPES.ExpressionStatement) body = only.expression;
    else return null;
  }
  return teardownCall(ctx, body, patternNames(fn.params[0]), collection);
}

/**
 * `s.close()`, `await s.close()`, `entry.client.end()`, `node.quit().catch(ignore)`, `this.kill(c)`:
 * a call that tears down one of `items` (names bound to the current item of `collection`).
 */
function teardownCall(ctx: CollectionContext, value: TSESTree.Node, items: ReadonlySet<string>, collection: TSESTree.Node | null): 'fact' | 'guess' | null {
  if (items.size === 0) return null;
  let call = skipTransparent(value);
  if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTransparent(call.argument);
  // Look through handlers chained on the teardown: `node.quit().catch(ignore)`.
  while (call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.MemberExpression &&
    CHAIN_METHODS.has(staticPropertyName(call.callee) ?? '') && skipTransparent(call.callee.object).type === AST_NODE_TYPES.CallExpression) {
    call = skipTransparent(call.callee.object);
  }
  if (call.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(call.callee);
  const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  if (name === null) return null;
  if (callee.type === AST_NODE_TYPES.MemberExpression && skipTransparent(callee.object).type === AST_NODE_TYPES.Identifier &&
    items.has(rootName(callee.object) ?? '') && collection) {
    const module = itemModule(ctx, collection);
    if (module !== null && (TEARDOWN_BY_MODULE[module] ?? []).includes(name)) return 'fact';
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && isTeardownVerb(name) && items.has(rootName(callee.object) ?? '')) return 'guess';
  const first = call.arguments[0];
  return TEARDOWN_VERBS.includes(name) && first !== undefined && items.has(rootName(first) ?? '') ? 'guess' : null;
}

/**
 * The library every item of `collection` was built by, when the file shows each one: the
 * elements of its literal and every value it pushes, adds or sets
 * (`workers.push(new Worker(f))`, `new Map([[id, new Redis()]])` is not followed).
 */
function itemModule(ctx: CollectionContext, collection: TSESTree.Node): string | null {
  let expr = skipTransparent(collection);
  if (expr.type === AST_NODE_TYPES.CallExpression && expr.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['values', 'slice', 'filter'].includes(staticPropertyName(expr.callee) ?? '')) {
    expr = skipTransparent(expr.callee.object);
  }
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(ctx.sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return null;
  const items: TSESTree.Node[] = [];
  const init = skipTransparent(def.node.init);
  if (init.type === AST_NODE_TYPES.NewExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'Set') {
    if (init.arguments.length > 0) return null;
  } else if (init.type === AST_NODE_TYPES.ArrayExpression) {
    for (const element of init.elements) {
      if (!element || element.type === AST_NODE_TYPES.SpreadElement) return null;
      items.push(element);
    }
  } else {
    return null;
  }
  for (const reference of variable.references) {
    if (reference.init) continue;
    if (reference.isWrite()) return null;
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const method = staticPropertyName(member);
    const call = member.parent;
    if ((method === 'push' || method === 'add' || method === 'unshift') && call?.type === AST_NODE_TYPES.CallExpression && call.callee === member) {
      for (const arg of call.arguments) {
        if (arg.type === AST_NODE_TYPES.SpreadElement) return null;
        items.push(arg);
      }
    }
  }
  let module: string | null = null;
  for (const item of items) {
    const ref = getConstruction(ctx.sourceCode, item)?.ref.module ?? null;
    if (ref === null || (module !== null && module !== ref)) return null;
    module = ref;
  }
  return module;
}

/** `a` for `a`, `a.b.c`, `a[k]`; null for anything else. */
function rootName(node: TSESTree.Node): string | null {
  let expr = skipTransparent(node);
  while (expr.type === AST_NODE_TYPES.MemberExpression) expr = skipTransparent(expr.object);
  return expr.type === AST_NODE_TYPES.Identifier ? expr.name : null;
}

/** The names a push loop binds to its current item: `for (const { conn } of …)`, `xs.forEach((x) => …)`. */
function loopItemNames(loop: TSESTree.Node): Set<string> {
  if (loop.type === AST_NODE_TYPES.ForOfStatement || loop.type === AST_NODE_TYPES.ForInStatement) return patternNames(loop.left);
  if (loop.type === AST_NODE_TYPES.CallExpression) {
    const fn = loop.arguments[0];
    return isFunctionNode(fn) ? patternNames(fn.params[0]) : new Set();
  }
  return new Set();
}

/** `fns.map((fn) => fn(x))`, `entries.map(({ callback }) => callback())`: each item is the function called. */
function callsItem(sourceCode: Services, mapper: TSESTree.Node): boolean {
  const fn = skipTransparent(mapper);
  if (!isFunctionNode(fn) || !fn.params[0]) return false;
  const item = fn.params[0];
  return sourceCode.getDeclaredVariables(fn).some((variable) =>
    variable.defs.some((def) => def.type === 'Parameter' && contains(item, def.name)) && isCalledDirectly(variable));
}

/** `for (const listener of listeners) ps.push(listener(v))` and the `forEach` form. */
function callsLoopItem(sourceCode: Services, value: TSESTree.Node, loop: TSESTree.Node): boolean {
  const call = skipTransparent(value);
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(sourceCode, callee)?.defs[0];
  if (!def) return false;
  if (loop.type === AST_NODE_TYPES.ForOfStatement) return contains(loop.left, def.name);
  if (loop.type === AST_NODE_TYPES.CallExpression) {
    const fn = loop.arguments[0];
    return def.type === 'Parameter' && isFunctionNode(fn) && fn.params[0] !== undefined && contains(fn.params[0], def.name);
  }
  return false;
}

/** `const tasks = urls.map((u) => () => fetch(u))`: thunks made one per input item, so still data-sized. */
function isMappedLocal(sourceCode: Services, collection: TSESTree.Node): boolean {
  const expr = skipTransparent(collection);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(sourceCode, expr)?.defs[0];
  const init = def?.type === 'Variable' && def.node.init ? skipTransparent(def.node.init) : null;
  return init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['map', 'flatMap', 'from'].includes(staticPropertyName(init.callee) ?? '');
}

function isCalledDirectly(variable: TSESLint.Scope.Variable): boolean {
  return variable.references.some((reference) => {
    const parent = reference.identifier.parent;
    return parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === reference.identifier;
  });
}

/**
 * The loop (or `forEach` callback) a push runs in, with its iteration count. Null for a push that
 * is not repeated, or a loop that awaits inside (it paces itself: a hand-written window).
 */
function pushLoop(
  ctx: CollectionContext,
  push: TSESTree.CallExpression,
): { loop: TSESTree.Node; collection: TSESTree.Node | null; size: CollectionSize } | null {
  let current: TSESTree.Node | undefined = push.parent;
  while (current) {
    if (isFunctionNode(current)) {
      const parent = current.parent;
      const callee = parent?.type === AST_NODE_TYPES.CallExpression ? skipTransparent(parent.callee) : null;
      if (
        !current.async && parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === current &&
        callee?.type === AST_NODE_TYPES.MemberExpression && (staticPropertyName(callee) === 'forEach' || staticPropertyName(callee) === 'map')
      ) {
        return { loop: parent, collection: callee.object, size: boundedOnly(collectionSize(ctx, callee.object)) };
      }
      return null;
    }
    if (isLoop(current) && current.type !== AST_NODE_TYPES.WhileStatement && current.type !== AST_NODE_TYPES.DoWhileStatement) {
      if (awaitsInside(ctx.sourceCode, current.body)) return null;
      const collection = current.type === AST_NODE_TYPES.ForOfStatement || current.type === AST_NODE_TYPES.ForInStatement ? current.right : null;
      return { loop: current, collection, size: current.type === AST_NODE_TYPES.ForInStatement ? UNKNOWN : loopSize(ctx, current) };
    }
    current = current.parent;
  }
  return null;
}

function awaitsInside(sourceCode: Services, body: TSESTree.Node): boolean {
  let found = false;
  walk(body, sourceCode.visitorKeys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.AwaitExpression || (node.type === AST_NODE_TYPES.ForOfStatement && node.await)) found = true;
    return undefined;
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Small helpers shared with the rule

/** True when `id` names a global (not declared anywhere in the file). */
export function isGlobalName(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return !variable || variable.defs.length === 0;
}

/** A number literal, `-K`, or a `const` initialized with one (followed a few levels). */
export function constNumber(sourceCode: Services, node: TSESTree.Node, depth = 0): number | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Literal) return typeof expr.value === 'number' ? expr.value : null;
  if (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '-') {
    const inner = constNumber(sourceCode, expr.argument, depth + 1);
    return inner === null ? null : -inner;
  }
  if (expr.type !== AST_NODE_TYPES.Identifier || depth > 3) return null;
  if (expr.name === 'Infinity' && isGlobalName(sourceCode, expr)) return Infinity;
  const init = constInit(sourceCode, expr);
  return init ? constNumber(sourceCode, init, depth + 1) : null;
}


// ---------------------------------------------------------------------------------------------
// Types

// `ts.TypeFlags` values, spelled out so the plugin never loads TypeScript when types are off.
const TYPE_FLAGS_ANY_UNKNOWN = 1 | 2;
const TYPE_FLAGS_TYPE_PARAMETER = 524288;
// `ts.ElementFlags.Variable`: rest or variadic tuple elements.
const ELEMENT_FLAGS_VARIABLE = 12;

/** `CollectionTypes` over typescript-eslint's parser services. */
export function createCollectionTypes(services: ParserServicesWithTypeInformation): CollectionTypes {
  const checker = services.program.getTypeChecker();
  const thenable = (type: ts.Type, at: ts.Node): boolean | null => {
    if (type.flags & (TYPE_FLAGS_ANY_UNKNOWN | TYPE_FLAGS_TYPE_PARAMETER)) return null;
    if (type.isUnion()) {
      let unknown = false;
      for (const member of type.types) {
        const t = thenable(member, at);
        if (t === true) return true;
        if (t === null) unknown = true;
      }
      return unknown ? null : false;
    }
    const then = checker.getPropertyOfType(type, 'then');
    if (!then) return false;
    return checker.getTypeOfSymbolAtLocation(then, at).getCallSignatures().length > 0;
  };
  return {
    tupleLength: (node) => askChecker(() => {
      const type = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
      const members = type.isUnion() ? type.types : [type];
      let longest = 0;
      for (const member of members) {
        if (!checker.isTupleType(member)) return null;
        const target = (member as ts.TypeReference).target as ts.TupleType;
        if (target.combinedFlags & ELEMENT_FLAGS_VARIABLE) return null;
        longest = Math.max(longest, target.fixedLength);
      }
      return longest;
    }, null),
    isThenable: (node) => askChecker(() => {
      const tsNode = services.esTreeNodeToTSNodeMap.get(node);
      return thenable(checker.getTypeAtLocation(tsNode), tsNode);
    }, null),
    returnsThenable: (fn) => askChecker(() => {
      const tsNode = services.esTreeNodeToTSNodeMap.get(fn);
      const signatures = checker.getTypeAtLocation(tsNode).getCallSignatures();
      if (signatures.length === 0) return null;
      let unknown = false;
      for (const signature of signatures) {
        const t = thenable(signature.getReturnType(), tsNode);
        if (t === true) return true;
        if (t === null) unknown = true;
      }
      return unknown ? null : false;
    }, null),
  };
}
