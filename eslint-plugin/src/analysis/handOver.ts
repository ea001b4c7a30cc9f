/**
 * A resource the acquiring function hands on (returns it, stores it, puts it in an object, or
 * gives it to a listener that releases it later) is not this function's to release, but only
 * from the hand-over on. An `await` that rejects, or a `throw`, between the acquire and that point
 * leaves nobody holding it: `const c = await getConnection(pool); await begin(c); return c;`
 * loses the connection when `begin` fails. This file finds that window.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { contains, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import type { Acquisition } from './locks';
import { cannotThrow } from './rejections';

export interface HandOverLeak {
  /** The `await` or `throw` that can leave before the hand-over. */
  thrower: TSESTree.Node;
  /** Where the resource changes hands: the `return`, the object, the listener. */
  handOver: TSESTree.Node;
}

type Keys = TSESLint.SourceCode.VisitorKeys;

export interface HandOverOptions {
  sourceCode: Readonly<TSESLint.SourceCode>;
  /** An awaited acquire of another lock, which waits rather than fails. */
  waitsWithoutFailing?: (node: TSESTree.Node) => boolean;
}

/**
 * The first way `acquisition` can be lost before it is handed on, or null when it is released
 * or handed on first, when a `catch` or `finally` around it gives it back, or when it is not
 * handed on at all (releasePaths' question).
 */
export function leakBeforeHandOver(acquisition: Acquisition, options: HandOverOptions): HandOverLeak | null {
  const keys = options.sourceCode.visitorKeys;
  const variable = acquisition.resourceVariable;
  if (acquisition.acquireExpression.type !== AST_NODE_TYPES.AwaitExpression || !variable) return null;
  const handOver = firstHandOver(acquisition, variable);
  if (!handOver) return null;
  const list = siblings(acquisition.acquireStatement);
  const start = list.indexOf(acquisition.acquireStatement);
  const end = list.findIndex((statement) => contains(statement, handOver));
  if (start < 0 || end <= start) return null;
  let thrower: TSESTree.Node | null = null;
  for (const statement of list.slice(start + 1, end)) {
    if (releasesResource(acquisition, statement, keys)) return null;
    thrower = firstExitingThrow(statement, options);
    if (thrower) break;
  }
  if (!thrower || protectedAround(acquisition, thrower, options.sourceCode)) return null;
  return { thrower, handOver };
}

/** The first reference after the acquire that passes ownership on, or the listener a release sits in. */
function firstHandOver(acquisition: Acquisition, variable: TSESLint.Scope.Variable): TSESTree.Node | null {
  const after = acquisition.acquireCall.range[1];
  let best: TSESTree.Node | null = null;
  const consider = (node: TSESTree.Node): void => {
    if (!best || node.range[0] < best.range[0]) best = node;
  };
  for (const reference of variable.references) {
    const id = reference.identifier;
    if (id.range[0] < after || !contains(acquisition.scope, id)) continue;
    const fn = nestedFunction(id, acquisition.scope);
    if (fn) {
      consider(fn);
      continue;
    }
    const parent = skipUp(id).parent;
    if (!parent) continue;
    if (
      parent.type === AST_NODE_TYPES.ReturnStatement ||
      (parent.type === AST_NODE_TYPES.Property && parent.value === skipUp(id)) ||
      parent.type === AST_NODE_TYPES.ArrayExpression ||
      parent.type === AST_NODE_TYPES.SpreadElement ||
      (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === skipUp(id)) ||
      (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === skipUp(id))
    ) {
      consider(parent);
    }
  }
  return best;
}

function skipUp(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent?.type === AST_NODE_TYPES.TSAsExpression || current.parent?.type === AST_NODE_TYPES.TSNonNullExpression) current = current.parent;
  if (current.parent?.type === AST_NODE_TYPES.AwaitExpression && current.parent.parent?.type === AST_NODE_TYPES.ReturnStatement) return current.parent;
  return current;
}

/** The outermost function between `node` and `scope`, or null when `node` runs in the acquiring function. */
function nestedFunction(node: TSESTree.Node, scope: TSESTree.Node): TSESTree.Node | null {
  let found: TSESTree.Node | null = null;
  for (let p = node.parent; p && p !== scope; p = p.parent) if (isFunctionNode(p)) found = p;
  return found;
}

function siblings(statement: TSESTree.Statement): readonly TSESTree.Node[] {
  const parent = statement.parent;
  if (parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program) return parent.body;
  if (parent?.type === AST_NODE_TYPES.SwitchCase) return parent.consequent;
  return [];
}

/**
 * An `await` that can reject, or a `throw`, in `statement` that leaves it: not inside a nested
 * function, and not inside a `try` of its own that catches (what that `catch` does is beyond this
 * window's straight line).
 */
function firstExitingThrow(statement: TSESTree.Node, options: HandOverOptions): TSESTree.Node | null {
  let found: TSESTree.Node | null = null;
  walk(statement, options.sourceCode.visitorKeys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement && node.handler) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement) {
      found = node;
      return false;
    }
    if (node.type === AST_NODE_TYPES.AwaitExpression) {
      const argument = skipTransparent(node.argument);
      if (!options.waitsWithoutFailing?.(node) && !cannotThrow(argument, options.sourceCode)) found = node;
      return false;
    }
    return true;
  });
  return found;
}

/** Does `node` contain one of the acquisition's releases, or a release-named call on its owner or resource? */
export function releasesResource(acquisition: Acquisition, node: TSESTree.Node, keys: Keys): boolean {
  if (acquisition.releaseCalls.some((site) => contains(node, site.call))) return true;
  const owner = acquisition.owner;
  const variable = acquisition.resourceVariable;
  let found = false;
  walk(node, keys, (inner) => {
    if (found) return false;
    if (inner.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(inner.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && variable?.references.some((r) => r.identifier === callee)) found = true;
    if (callee.type === AST_NODE_TYPES.MemberExpression && OWNER_RELEASES.has(staticPropertyName(callee) ?? '')) {
      const object = skipTransparent(callee.object);
      const onOwner = owner !== null && sameText(object, owner);
      const onResource = object.type === AST_NODE_TYPES.Identifier && variable?.references.some((r) => r.identifier === object);
      if (onOwner || onResource) found = true;
    }
    return true;
  });
  return found;
}

const OWNER_RELEASES: ReadonlySet<string> = new Set(['release', 'unlock', 'releaseConnection', 'destroy']);

function sameText(a: TSESTree.Node, b: TSESTree.Node): boolean {
  return a.range[1] - a.range[0] === b.range[1] - b.range[0] && textOf(a) === textOf(b);
}

function textOf(node: TSESTree.Node): string {
  // Owners are member chains (`this.txManager`) or names: their shape is their text.
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (node.type === AST_NODE_TYPES.MemberExpression) return `${textOf(node.object)}.${staticPropertyName(node) ?? '?'}`;
  return `#${node.range[0]}`;
}

/**
 * Does a `try` around the acquire give the resource back when `thrower` throws: a `finally`
 * that releases, or a `catch` that releases before it can leave again?
 */
function protectedAround(acquisition: Acquisition, thrower: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const keys = sourceCode.visitorKeys;
  let child: TSESTree.Node = acquisition.acquireStatement;
  for (let p: TSESTree.Node | undefined = child.parent; p && child !== acquisition.scope && !isFunctionNode(p); p = p.parent) {
    if (p.type === AST_NODE_TYPES.TryStatement && p.block === child) {
      if (p.finalizer && releasesResource(acquisition, p.finalizer, keys)) return true;
      if (p.handler && handlerReleasesFirst(acquisition, p.handler, thrower, sourceCode)) return true;
    }
    child = p;
  }
  return false;
}

function handlerReleasesFirst(acquisition: Acquisition, handler: TSESTree.CatchClause, thrower: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const keys = sourceCode.visitorKeys;
  for (const statement of handler.body.body) {
    if (releasesResource(acquisition, statement, keys) && !keyedLater(statement, thrower, sourceCode)) return true;
    if (leaves(statement, keys)) return false;
  }
  return false;
}

/**
 * `catch (e) { await manager.unlock(currentAddress) }` where `currentAddress` is first assigned
 * after the line that threw: on that path the release names nothing and gives nothing back.
 */
function keyedLater(statement: TSESTree.Node, thrower: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  let later = false;
  walk(statement, sourceCode.visitorKeys, (node) => {
    if (later) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    for (const argument of node.arguments) {
      if (argument.type !== AST_NODE_TYPES.Identifier) continue;
      const variable = findVariable(sourceCode, argument);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (def?.type !== 'Variable' || def.node.init) continue;
      const writes = variable?.references.filter((r) => r.isWrite()) ?? [];
      if (writes.length > 0 && writes.every((w) => w.identifier.range[0] > thrower.range[1])) later = true;
    }
    return !later;
  });
  return later;
}

/** A `throw` or `return` in `statement`, outside nested functions. */
function leaves(statement: TSESTree.Node, keys: Keys): boolean {
  let found = false;
  walk(statement, keys, (node) => {
    if (found || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement || node.type === AST_NODE_TYPES.ReturnStatement) found = true;
    return !found;
  });
  return found;
}
