import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { contains, declaredName, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Other async work of the same process that is in flight while `node` runs, in code (one-shot or
 * startup) where nothing else would be:
 * - `fan-out`: `node` runs in an async callback of a fan-out (`xs.map(async …)`, `xs.forEach(async
 *   …)`, `Array.from(xs, async …)`), or in a function the file calls from one
 *   (`Promise.all(xs.map((x) => work(x)))`, `xs.map(work)`);
 * - `concurrent task`: `node` runs in a function started beside other work (an element of
 *   `Promise.all([…])`, a call whose promise is kept and awaited later, `void work()`), or after its
 *   own function started such a task that it has not awaited yet (`const p = fetchAll(); readFileSync(…); await p`).
 * `at` is where the other work starts.
 */
export interface InFlight {
  kind: 'fan-out' | 'concurrent task';
  at: TSESTree.Node;
}

/** Array methods that call an async callback once per element without waiting between calls. */
const FAN_OUT_METHODS: ReadonlySet<string> = new Set(['map', 'flatMap', 'forEach']);
const COMBINATORS: ReadonlySet<string> = new Set(['all', 'allSettled', 'race', 'any']);
/** How far call sites are followed: `work` called from `step` called from a fan-out. */
const MAX_DEPTH = 3;

export function inFlightWork(sourceCode: Services, node: TSESTree.Node, fn: FunctionNode): InFlight | null {
  return startedBeside(sourceCode, node, fn) ?? concurrentRun(sourceCode, fn, 0, new Set());
}

/** Is `fn` (or a function around it) run concurrently with other instances or other work? */
function concurrentRun(sourceCode: Services, fn: FunctionNode, depth: number, seen: Set<FunctionNode>): InFlight | null {
  for (let current: TSESTree.Node | undefined = fn; current; current = current.parent) {
    if (!isFunctionNode(current) || seen.has(current)) continue;
    seen.add(current);
    const direct = fanOutCallback(current);
    if (direct) return { kind: 'fan-out', at: direct };
    if (depth < MAX_DEPTH) {
      const viaCallers = concurrentCallSite(sourceCode, current, depth, seen);
      if (viaCallers) return viaCallers;
    }
  }
  return null;
}

/** `xs.map(async (x) => …)`: the call that runs the async callback once per element. */
function fanOutCallback(fn: FunctionNode): TSESTree.CallExpression | null {
  if (!fn.async) return null;
  const parent = argumentParent(fn);
  return parent && isFanOutCall(parent, parent.arguments.indexOf(argumentOf(fn))) ? parent : null;
}

function isFanOutCall(call: TSESTree.CallExpression, index: number): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = staticPropertyName(callee);
  if (name !== null && FAN_OUT_METHODS.has(name)) return index === 0;
  return name === 'from' && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Array' && index === 1;
}

/** A call site of `fn`, elsewhere in the file, that starts it beside other work. */
function concurrentCallSite(sourceCode: Services, fn: FunctionNode, depth: number, seen: Set<FunctionNode>): InFlight | null {
  const id = declaredName(fn);
  if (!id) return null;
  const variable = findVariable(sourceCode, id);
  if (!variable) return null;
  for (const reference of variable.references) {
    const ref = reference.identifier;
    if (!reference.isRead()) continue;
    const parent = ref.parent;
    // `xs.map(work)`: passed as the fan-out's callback.
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee !== ref && isFanOutCall(parent, parent.arguments.indexOf(ref as TSESTree.CallExpressionArgument))) {
      return { kind: 'fan-out', at: parent };
    }
    if (parent?.type !== AST_NODE_TYPES.CallExpression || skipTransparent(parent.callee) !== ref) continue;
    const started = startKind(sourceCode, parent);
    if (started) return started;
    // `async function step(x) { await work(x) }` run from a fan-out: `work` is too.
    const caller = enclosingFunctionOf(parent);
    if (caller && !seen.has(caller)) {
      const outer = concurrentRun(sourceCode, caller, depth + 1, seen);
      if (outer) return outer;
    }
  }
  return null;
}

/** How a call's promise is used: in a fan-out mapper, among `Promise.all([…])`'s elements, or kept running. */
function startKind(sourceCode: Services, call: TSESTree.CallExpression): InFlight | null {
  let value: TSESTree.Node = call;
  while (value.parent && (value.parent.type === AST_NODE_TYPES.TSAsExpression || value.parent.type === AST_NODE_TYPES.TSNonNullExpression)) value = value.parent;
  const parent = value.parent;
  if (!parent) return null;
  // `(x) => work(x)` / `(x) => { return work(x); }` as a fan-out's callback.
  const mapper = parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === value
    ? parent
    : parent.type === AST_NODE_TYPES.ReturnStatement ? enclosingFunctionOf(parent) : null;
  if (mapper) {
    const host = argumentParent(mapper);
    if (host && isFanOutCall(host, host.arguments.indexOf(argumentOf(mapper)))) return { kind: 'fan-out', at: host };
  }
  if (parent.type === AST_NODE_TYPES.ArrayExpression && parent.elements.length > 1 && isCombinatorArgument(parent)) {
    return { kind: 'concurrent task', at: parent.parent as TSESTree.Node };
  }
  if (isAtTopLevel(call)) return null;
  if (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void') return { kind: 'concurrent task', at: call };
  // `tasks.push(work(x))`: collected, to be awaited together.
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.callee.type === AST_NODE_TYPES.MemberExpression &&
    staticPropertyName(parent.callee) === 'push') {
    return { kind: 'concurrent task', at: call };
  }
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === value && parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, parent.id);
    const awaitedLater = variable?.references.some((r) => r.isRead() && r.identifier.range[0] > call.range[1] &&
      awaitsValue(r.identifier as TSESTree.Identifier) && hasAwaitBetween(sourceCode, enclosingFunctionOf(call), call, r.identifier));
    if (awaitedLater) return { kind: 'concurrent task', at: call };
  }
  return null;
}

/**
 * `const p = start(); … node … await p`: `fn` itself started a task before `node` and awaits it
 * only after. Also `void start()`, and `start().then(…)` / `.catch(…)` statements, which nobody awaits.
 */
function startedBeside(sourceCode: Services, node: TSESTree.Node, fn: FunctionNode): InFlight | null {
  let found: InFlight | null = null;
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    if (found || n.range[0] >= node.range[0]) return false;
    if (isFunctionNode(n)) return false;
    if (n.type !== AST_NODE_TYPES.CallExpression || contains(n, node)) return true;
    const parent = n.parent;
    if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void' && parent.parent?.type === AST_NODE_TYPES.ExpressionStatement) {
      found = { kind: 'concurrent task', at: n };
    } else if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === n && parent.parent?.type === AST_NODE_TYPES.CallExpression &&
      ['then', 'catch', 'finally'].includes(staticPropertyName(parent) ?? '') && statementOf(parent.parent) !== null) {
      found = { kind: 'concurrent task', at: n };
    } else if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === n && parent.id.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(sourceCode, parent.id);
      if (variable?.references.some((r) => r.isRead() && r.identifier.range[0] > node.range[1] && awaitsValue(r.identifier as TSESTree.Identifier))) {
        found = { kind: 'concurrent task', at: n };
      }
    }
    return !found;
  });
  return found as InFlight | null;
}

/** `await p`, `await Promise.all([p, …])`, `await Promise.all(tasks)`. */
function awaitsValue(id: TSESTree.Node): boolean {
  let current: TSESTree.Node = id;
  for (let i = 0; i < 3 && current.parent; i++) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.AwaitExpression) return true;
    if (parent.type === AST_NODE_TYPES.ArrayExpression) {
      current = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.CallExpression && isCombinator(parent)) {
      current = parent;
      continue;
    }
    return false;
  }
  return false;
}

/** Something else is awaited between the start and the await of the kept promise: the task ran beside it. */
function hasAwaitBetween(sourceCode: Services, fn: FunctionNode | null, start: TSESTree.Node, end: TSESTree.Node): boolean {
  if (!fn) return false;
  let found = false;
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    if (found || isFunctionNode(n)) return false;
    if (n.type === AST_NODE_TYPES.AwaitExpression && n.range[0] > start.range[1] && n.range[1] <= end.range[0] && !contains(n, end)) found = true;
    return !found;
  });
  return found as boolean;
}

function isCombinator(call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'Promise' && COMBINATORS.has(staticPropertyName(callee) ?? '');
}

function isCombinatorArgument(array: TSESTree.ArrayExpression): boolean {
  const parent = array.parent;
  return parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === array && isCombinator(parent);
}

function argumentOf(fn: FunctionNode): TSESTree.CallExpressionArgument {
  let arg: TSESTree.Node = fn;
  while (arg.parent && (arg.parent.type === AST_NODE_TYPES.TSAsExpression || arg.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) arg = arg.parent;
  return arg as TSESTree.CallExpressionArgument;
}

function argumentParent(fn: FunctionNode): TSESTree.CallExpression | null {
  const parent = argumentOf(fn).parent;
  return parent?.type === AST_NODE_TYPES.CallExpression && parent.callee !== argumentOf(fn) ? parent : null;
}

function enclosingFunctionOf(node: TSESTree.Node): FunctionNode | null {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return null;
}

function isAtTopLevel(node: TSESTree.Node): boolean {
  return enclosingFunctionOf(node) === null;
}

function outermostChain(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent?.type === AST_NODE_TYPES.MemberExpression && current.parent.parent?.type === AST_NODE_TYPES.CallExpression &&
    current.parent.object === current) {
    current = current.parent.parent;
  }
  return current.parent?.type === AST_NODE_TYPES.ChainExpression ? current.parent : current;
}

function statementOf(node: TSESTree.Node): TSESTree.ExpressionStatement | null {
  const chain = outermostChain(node);
  return chain.parent?.type === AST_NODE_TYPES.ExpressionStatement ? chain.parent : null;
}
