import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, skipTransparent } from './ast';
import { getConstruction, thisClass } from './construction';
import type { ModuleRef } from './imports';
import { refMatches, resolveReference } from './imports';
import { localExport } from './localModules';
import { isProjectSpecifier } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Emitter classes whose `emit` returns a promise that waits for the listeners and rejects with
 * their errors, so an async listener's rejection reaches whoever awaits `emit`. Each from the
 * package's documentation. Not here: Node's `EventEmitter` (listener return values are ignored),
 * eventemitter2 and eventemitter3 (`emit` ignores them; only eventemitter2's separate `emitAsync`
 * waits, and the listener cannot tell which one its emitter is called with).
 */
export const AWAITING_EMITTERS: readonly { module: string; export: string }[] = [
  // emittery: `emit` "returns a promise for when all the event listeners are done".
  { module: 'emittery', export: 'default' },
  // promise-events: Node's EventEmitter with `emit` overridden to return a promise of the listeners' results.
  { module: 'promise-events', export: 'default' },
  { module: 'promise-events', export: 'EventEmitter' },
  // async-node-events: the asynchronous `emit` awaits each listener; a listener's error rejects it.
  { module: 'async-node-events', export: 'EventEmitter' },
  { module: '@digitalbazaar/async-node-events', export: 'EventEmitter' },
  // events-promisify: `emit` returns a promise; a listener that rejects or throws rejects it.
  { module: 'events-promisify', export: 'default' },
];

/** Local subclasses and re-exports followed at most this deep. */
const MAX_DEPTH = 4;

/**
 * Is `receiver` an emitter from the catalogue above: built by `new` of a catalogued class, of a
 * class (here or in one of the project's modules) that extends one, or imported from a project
 * module that built one; or `this` inside such a subclass? Decided from imports, never from names.
 */
export function isAwaitingEmitter(sourceCode: Services, receiver: TSESTree.Node): boolean {
  return receiverAwaits(sourceCode, receiver, 0);
}

function receiverAwaits(sourceCode: Services, receiver: TSESTree.Node, depth: number): boolean {
  const expr = skipTransparent(receiver);
  if (depth > MAX_DEPTH) return false;
  if (expr.type === AST_NODE_TYPES.ThisExpression) {
    const cls = thisClass(expr);
    return cls !== null && classAwaits(sourceCode, cls, depth);
  }
  const construction = getConstruction(sourceCode, expr);
  if (construction) return constructedAwaits(construction.sourceCode, construction.ref, construction.node, depth);
  // `new Bus()` of a class declared in this file: construction knows only library constructors.
  const created = newExpressionOf(sourceCode, expr);
  if (created) {
    const cls = localClass(sourceCode, created.callee);
    return cls !== null && classAwaits(sourceCode, cls, depth);
  }
  // `import { events } from './events'`, where that module builds one of those itself.
  const ref = expr.type === AST_NODE_TYPES.Identifier || expr.type === AST_NODE_TYPES.MemberExpression ? resolveReference(sourceCode, expr) : null;
  const found = ref && isProjectSpecifier(sourceCode, ref.module) ? localExport(sourceCode, ref) : null;
  return found !== null && found.rest.length === 0 && receiverAwaits(found.value.sourceCode, found.value.node, depth + 1);
}

function constructedAwaits(sourceCode: Services, ref: ModuleRef, node: TSESTree.Node, depth: number): boolean {
  if (isCatalogued(ref)) return true;
  if (node.type !== AST_NODE_TYPES.NewExpression || !isProjectSpecifier(sourceCode, ref.module)) return false;
  const cls = importedClass(sourceCode, ref);
  return cls !== null && classAwaits(cls.sourceCode, cls.node, depth + 1);
}

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

function classAwaits(sourceCode: Services, cls: ClassNode, depth: number): boolean {
  if (depth > MAX_DEPTH || !cls.superClass) return false;
  const superClass = skipTransparent(cls.superClass);
  const ref = resolveReference(sourceCode, superClass);
  if (ref) {
    if (isCatalogued(ref)) return true;
    const imported = isProjectSpecifier(sourceCode, ref.module) ? importedClass(sourceCode, ref) : null;
    return imported !== null && classAwaits(imported.sourceCode, imported.node, depth + 1);
  }
  const local = localClass(sourceCode, superClass);
  return local !== null && classAwaits(sourceCode, local, depth + 1);
}

function isCatalogued(ref: ModuleRef): boolean {
  return AWAITING_EMITTERS.some((entry) => refMatches(ref, entry.module, entry.export));
}

function importedClass(sourceCode: Services, ref: ModuleRef): { sourceCode: Services; node: ClassNode } | null {
  const found = localExport(sourceCode, ref);
  if (!found || found.rest.length > 0) return null;
  const node = skipTransparent(found.value.node);
  if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
    return { sourceCode: found.value.sourceCode, node };
  }
  const cls = localClass(found.value.sourceCode, node);
  return cls ? { sourceCode: found.value.sourceCode, node: cls } : null;
}

/** The class a name in this file denotes: `class Bus …` or `const Bus = class …`. */
function localClass(sourceCode: Services, node: TSESTree.Node): ClassNode | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.ClassExpression || expr.type === AST_NODE_TYPES.ClassDeclaration) return expr;
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const def = findVariable(sourceCode, expr)?.defs[0];
  if (def?.type === 'ClassName' && (def.node.type === AST_NODE_TYPES.ClassDeclaration || def.node.type === AST_NODE_TYPES.ClassExpression)) {
    return def.node;
  }
  const init = def?.type === 'Variable' && def.parent.kind === 'const' && def.node.init ? skipTransparent(def.node.init) : null;
  return init?.type === AST_NODE_TYPES.ClassExpression ? init : null;
}

function newExpressionOf(sourceCode: Services, expr: TSESTree.Node): TSESTree.NewExpression | null {
  if (expr.type === AST_NODE_TYPES.NewExpression) return expr;
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  // `export const events = new Bus()` hands over the binding itself.
  const declarator = expr.parent;
  if (declarator?.type === AST_NODE_TYPES.VariableDeclarator && declarator.id === expr) {
    const init = declarator.init ? skipTransparent(declarator.init) : null;
    return init?.type === AST_NODE_TYPES.NewExpression ? init : null;
  }
  const def = findVariable(sourceCode, expr)?.defs[0];
  const init = def?.type === 'Variable' && def.node.init ? skipTransparent(def.node.init) : null;
  return init?.type === AST_NODE_TYPES.NewExpression ? init : null;
}
