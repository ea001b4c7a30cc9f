import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { annotatesPromise, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { thisClass } from './construction';
import { resolveReference } from './imports';
import { isProjectSpecifier, localExport, ownExport } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

export interface FunctionInfo {
  node: FunctionNode;
  /** Declared name: `function f`, `const f = () => …`, method or field name; null when anonymous. */
  name: string | null;
  isAsync: boolean;
  isGenerator: boolean;
  /** Declared `Promise<…>` (or `PromiseLike<…>`) return type. */
  returnsPromiseType: boolean;
  /** Calls made while this function runs: its own body plus synchronous callbacks inside it. */
  readonly calls: CallSite[];
  /** Backing store of `calls`, filled for every function the first time any `calls` is read. */
  ownCalls: CallSite[];
}

export interface CallSite {
  call: TSESTree.CallExpression;
  /** The same-file function the call invokes, when it can be told. */
  target: FunctionInfo | null;
}

export interface CallGraph {
  functions: readonly FunctionInfo[];
  infoOf(fn: FunctionNode): FunctionInfo | undefined;
  /** The same-file function a call invokes: by name, through `const` aliases, `this.method()`, `Class.staticMethod()`. */
  resolveCall(call: TSESTree.CallExpression): FunctionInfo | null;
  /** The function a callee expression denotes (`f`, `this.m`), without a call. */
  resolveCallee(callee: TSESTree.Node): FunctionInfo | null;
}

const graphs = new WeakMap<object, CallGraph>();

/** The same-file call graph, built the first time a rule asks, then cached per file. */
export function getCallGraph(sourceCode: Services): CallGraph {
  const hit = graphs.get(sourceCode);
  if (hit) return hit;
  const graph = build(sourceCode);
  graphs.set(sourceCode, graph);
  return graph;
}

function build(sourceCode: Services): CallGraph {
  const infos = new Map<FunctionNode, FunctionInfo>();
  let callsFilled = false;
  const resolveCallee = (callee: TSESTree.Node): FunctionInfo | null => {
    const fn = calleeFunction(sourceCode, callee, 0);
    return fn ? (infos.get(fn) ?? null) : null;
  };
  const resolveCall = (call: TSESTree.CallExpression): FunctionInfo | null => resolveCallee(call.callee);
  // Most questions are about functions and single calls; the per-function call lists cost a walk
  // and a scope lookup per call, so they are filled in only when some `calls` is first read.
  const fillCalls = (): void => {
    if (callsFilled) return;
    callsFilled = true;
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return;
      const owner = runningFunction(node);
      if (owner) infos.get(owner)?.ownCalls.push({ call: node, target: resolveCall(node) });
    });
  };
  for (const node of functionNodes(sourceCode)) {
    infos.set(node, {
      node,
      name: functionName(node),
      isAsync: node.async,
      isGenerator: node.generator,
      returnsPromiseType: annotatesPromise(node.returnType),
      ownCalls: [],
      get calls() {
        fillCalls();
        return this.ownCalls;
      },
    });
  }

  return {
    functions: [...infos.values()],
    infoOf: (fn) => infos.get(fn),
    resolveCall,
    resolveCallee,
  };
}

/**
 * Every function of the file in source order. The scope manager already holds one scope per
 * function, which is much cheaper than walking the tree; a parser without one gets the walk.
 */
function functionNodes(sourceCode: Services): FunctionNode[] {
  const scopes = (sourceCode as { scopeManager?: TSESLint.Scope.ScopeManager | null }).scopeManager?.scopes;
  const nodes: FunctionNode[] = [];
  if (scopes) {
    for (const scope of scopes) {
      if (scope.type === 'function' && isFunctionNode(scope.block as TSESTree.Node)) nodes.push(scope.block as FunctionNode);
    }
    return nodes;
  }
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) nodes.push(node);
  });
  return nodes;
}

/**
 * The function whose execution a call is part of: the nearest enclosing function, skipping
 * synchronous callbacks that are not async themselves (they run inside their caller).
 */
export function runningFunction(node: TSESTree.Node): FunctionNode | null {
  let current = node.parent;
  while (current) {
    if (isFunctionNode(current)) {
      if (!current.async && isSynchronouslyInvoked(current)) {
        current = current.parent;
        continue;
      }
      return current;
    }
    current = current.parent;
  }
  return null;
}

/**
 * The same-file function a callee expression denotes, resolved on its own, without building the
 * graph: for rules that only ever ask about a few calls.
 */
export function resolveCalleeFunction(sourceCode: Services, callee: TSESTree.Node): FunctionNode | null {
  return calleeFunction(sourceCode, callee, 0);
}

/** A function exported by one of the project's own modules, with the `SourceCode` to analyse it on. */
export interface ImportedFunction {
  fn: FunctionNode;
  sourceCode: Services;
  /** Absolute path of the module that declares it. */
  file: string;
}

/**
 * The function a callee denotes when it is imported from one of the project's own modules:
 * `import { saveDb } from './store'`, `require('./store').saveDb`, `store.saveDb` on a namespace
 * or a `module.exports = { saveDb }` object. Null for packages, modules that cannot be read, and
 * exports that are not plainly a function (a class instance's method, a factory's result).
 */
export function resolveImportedFunction(sourceCode: Services, callee: TSESTree.Node, hops = 0): ImportedFunction | null {
  const ref = resolveReference(sourceCode, callee);
  if (!ref || !isProjectSpecifier(sourceCode, ref.module)) return null;
  const found = localExport(sourceCode, ref);
  if (!found || found.rest.length > 0) return null;
  const { value } = found;
  const fn = calleeFunction(value.sourceCode, value.node, 0);
  if (fn) return { fn, sourceCode: value.sourceCode, file: value.file };
  // `import { save } from './fs-store'; module.exports = { save }`: exported on, a few modules deep.
  return hops < MAX_REEXPORT_HOPS ? resolveImportedFunction(value.sourceCode, value.node, hops + 1) : null;
}

const MAX_REEXPORT_HOPS = 3;

function calleeFunction(sourceCode: Services, callee: TSESTree.Node, depth: number): FunctionNode | null {
  if (depth > 8) return null;
  const expr = skipTransparent(callee);
  if (isFunctionNode(expr)) return expr;
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, expr);
    const def = variable ? implementationDef(variable) : null;
    if (!variable || !def) return null;
    // `declare function f(): T;` has no body to follow: the call resolves to nothing.
    if (def.type === 'FunctionName') return isFunctionNode(def.node) ? def.node : null;
    if (def.type === 'Variable' && def.node.id === def.name && def.node.init) {
      const constant = def.node.parent.kind === 'const' || !variable.references.some((r) => r.isWrite() && !r.init);
      return constant ? calleeFunction(sourceCode, def.node.init, depth + 1) : null;
    }
    return null;
  }
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(expr);
    if (name === null) return null;
    if (expr.object.type === AST_NODE_TYPES.ThisExpression) {
      const cls = thisClass(expr);
      return cls ? classMember(cls, name, inStaticMember(expr), expr.property.type === AST_NODE_TYPES.PrivateIdentifier) : null;
    }
    // `exports.start()`, `module.exports.start()`: the module calling its own export.
    if (isOwnExportsObject(sourceCode, expr.object)) {
      const exported = ownExport(sourceCode, name);
      return exported ? calleeFunction(sourceCode, exported, depth + 1) : null;
    }
    if (expr.object.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(sourceCode, expr.object);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (def?.type === 'ClassName' && def.node.type === AST_NODE_TYPES.ClassDeclaration) {
        return classMember(def.node, name, true, false);
      }
      if (def?.type === 'Variable' && def.node.parent.kind === 'const' && def.node.init?.type === AST_NODE_TYPES.ObjectExpression) {
        return objectMember(def.node.init, name);
      }
    }
  }
  return null;
}

/** `exports.start`, `module.exports.start`: the function of this module exported under that name, or null. */
export function ownExportFunction(sourceCode: Services, callee: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(callee);
  if (expr.type !== AST_NODE_TYPES.MemberExpression || !isOwnExportsObject(sourceCode, expr.object)) return null;
  return calleeFunction(sourceCode, expr, 0);
}

/** CommonJS's `exports` or `module.exports`, neither declared by the file itself. */
function isOwnExportsObject(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  const undeclared = (id: TSESTree.Identifier): boolean => !findVariable(sourceCode, id)?.defs.length;
  if (expr.type === AST_NODE_TYPES.Identifier) return expr.name === 'exports' && undeclared(expr);
  return expr.type === AST_NODE_TYPES.MemberExpression && expr.object.type === AST_NODE_TYPES.Identifier &&
    expr.object.name === 'module' && staticPropertyName(expr) === 'exports' && undeclared(expr.object);
}

/**
 * The one definition a call through `variable` runs: the only one, or, for a TypeScript function
 * with overload signatures, the implementation (the one declaration with a body). Anything else
 * with several definitions (a `var` declared twice, a function merged with a namespace) is null.
 */
function implementationDef(variable: TSESLint.Scope.Variable): TSESLint.Scope.Definition | null {
  const defs = variable.defs;
  if (defs.length === 1) return defs[0] ?? null;
  if (defs.length === 0 || !defs.every((d) => d.type === 'FunctionName')) return null;
  const bodies = defs.filter((d) => isFunctionNode(d.node));
  return bodies.length === 1 ? (bodies[0] ?? null) : null;
}

/** In a static method, field or block, `this` is the class itself: `this.x()` calls a static member. */
function inStaticMember(node: TSESTree.Node): boolean {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.StaticBlock) return true;
    if (
      current.type === AST_NODE_TYPES.MethodDefinition ||
      current.type === AST_NODE_TYPES.PropertyDefinition ||
      current.type === AST_NODE_TYPES.AccessorProperty
    ) {
      return current.static;
    }
    current = current.parent;
  }
  return false;
}

function classMember(
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
  isStatic: boolean,
  isPrivate: boolean,
): FunctionNode | null {
  for (const member of cls.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (member.static !== isStatic || member.computed) continue;
    // `#work` and `work` are different members that share a name once the `#` is dropped.
    if ((member.key.type === AST_NODE_TYPES.PrivateIdentifier) !== isPrivate) continue;
    const key = member.key.type === AST_NODE_TYPES.Identifier || member.key.type === AST_NODE_TYPES.PrivateIdentifier
      ? member.key.name
      : null;
    if (key !== name) continue;
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && isFunctionNode(member.value)) {
      return member.value;
    }
    if (member.type === AST_NODE_TYPES.PropertyDefinition && isFunctionNode(member.value)) return member.value;
  }
  return null;
}

function objectMember(obj: TSESTree.ObjectExpression, name: string): FunctionNode | null {
  for (const prop of obj.properties) {
    if (prop.type !== AST_NODE_TYPES.Property || prop.computed) continue;
    if (prop.key.type === AST_NODE_TYPES.Identifier && prop.key.name === name && isFunctionNode(prop.value)) {
      return prop.value;
    }
  }
  return null;
}

export function functionName(fn: FunctionNode): string | null {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (!parent) return null;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if (
    (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition ||
      parent.type === AST_NODE_TYPES.Property) &&
    !parent.computed &&
    (parent.key.type === AST_NODE_TYPES.Identifier || parent.key.type === AST_NODE_TYPES.PrivateIdentifier)
  ) {
    return parent.key.name;
  }
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    // `module.exports = (req, res) => …` has no name of its own: `exports` is the slot.
    const { object } = parent.left;
    if (object.type === AST_NODE_TYPES.Identifier && object.name === 'module' && staticPropertyName(parent.left) === 'exports') return null;
    return staticPropertyName(parent.left);
  }
  return null;
}

