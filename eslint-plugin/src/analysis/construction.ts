import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { ModuleRef } from './imports';
import type { CatalogEntry, ConstructionKind } from './catalog';
import { CONSTRUCTORS, TYPE_NAMES, WRAPPERS } from './catalog';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { refMatches, resolveReference } from './imports';
import { isModuleSource, isProjectSpecifier, lintGeneration, localExport } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

export interface Construction {
  /** Where the constructor or factory comes from. */
  ref: ModuleRef;
  /** The catalogued kind, or null for a construction from a module the catalogue does not know. */
  kind: ConstructionKind | null;
  /** The `new X()` / `x()` expression, or the type annotation that declared it. */
  node: TSESTree.Node;
  /** `withTimeout(new Mutex(), ms)`: the wrapper calls around the construction, outermost first. */
  wrappedBy: TSESTree.CallExpression[];
  /** True when known from a type annotation only (`lock: Mutex`), not from a construction in the file. */
  fromType: boolean;
  /** The file `node` is in: the linted file's, or a project module's the value was imported from. */
  sourceCode: Services;
}

const cache = new WeakMap<TSESTree.Node, Construction | null>();
/**
 * Answers for nodes of the project's modules. Their parses outlive one lint (cached by content),
 * but an answer may rest on a module further down the imports, which can change while this one
 * does not: they hold for one linted file's lint only.
 */
const moduleCache = new WeakMap<TSESTree.Node, { generation: number; value: Construction | null }>();

/**
 * Which library constructor or factory created the value `node` evaluates to, followed through
 * `const`/`let` initializers and assignments, aliases, `this.x` class fields (initialized in the
 * field or assigned anywhere in the class), wrappers such as `withTimeout`, and type annotations
 * naming a catalogued type. Null when unknown.
 */
export function getConstruction(sourceCode: Services, node: TSESTree.Node): Construction | null {
  const expr = skipTransparent(node);
  if (isModuleSource(sourceCode)) {
    const generation = lintGeneration();
    const held = moduleCache.get(expr);
    if (held?.generation === generation) return held.value;
    moduleCache.set(expr, { generation, value: null }); // cycle guard
    const value = compute(sourceCode, expr);
    moduleCache.set(expr, { generation, value });
    return value;
  }
  const hit = cache.get(expr);
  if (hit !== undefined) return hit;
  cache.set(expr, null); // cycle guard: `a = b; b = a`
  const result = compute(sourceCode, expr);
  cache.set(expr, result);
  return result;
}

/** Convenience: the kind of the object `node` evaluates to. */
export function constructionKind(sourceCode: Services, node: TSESTree.Node): ConstructionKind | null {
  return getConstruction(sourceCode, node)?.kind ?? null;
}

function compute(sourceCode: Services, expr: TSESTree.Node): Construction | null {
  const imported = fromLocalModule(sourceCode, expr);
  if (imported !== undefined) return imported;
  switch (expr.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return getConstruction(sourceCode, expr.argument);
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.CallExpression:
      return fromCall(sourceCode, expr);
    case AST_NODE_TYPES.Identifier:
      return fromIdentifier(sourceCode, expr);
    case AST_NODE_TYPES.MemberExpression:
      return fromThisMember(sourceCode, expr);
    default:
      return null;
  }
}

function fromCall(sourceCode: Services, call: TSESTree.NewExpression | TSESTree.CallExpression): Construction | null {
  const ref = resolveReference(sourceCode, call.callee);
  if (!ref) return null;
  if (WRAPPERS.some((w) => refMatches(ref, w.module, w.export))) {
    const inner = call.arguments[0];
    const wrapped = inner ? getConstruction(sourceCode, inner) : null;
    return wrapped && call.type === AST_NODE_TYPES.CallExpression
      ? { ...wrapped, wrappedBy: [call, ...wrapped.wrappedBy] }
      : wrapped;
  }
  const entry = findEntry(CONSTRUCTORS, ref);
  // `pg.Pool` used without `new` is not a pool; `pLimit(8)` is called without `new`.
  return { ref, kind: entry?.kind ?? null, node: call, wrappedBy: [], fromType: false, sourceCode };
}

/**
 * `import { pool } from './db'`, `require('../lib/lock').mutex`, `db.pool`: a value imported from
 * one of the project's own modules is whatever that module built, found by the same analysis on
 * the module's own code. A factory (`export function getPool() { return pool; }`) is followed
 * through its returns. Undefined when `expr` is not such an import, so the in-file reading goes on.
 */
function fromLocalModule(sourceCode: Services, expr: TSESTree.Node): Construction | null | undefined {
  if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.MemberExpression && expr.type !== AST_NODE_TYPES.CallExpression) {
    return undefined;
  }
  const target = expr.type === AST_NODE_TYPES.CallExpression ? expr.callee : expr;
  const ref = resolveReference(sourceCode, target);
  if (!ref || !isProjectSpecifier(sourceCode, ref.module)) return undefined;
  const found = localExport(sourceCode, ref);
  // A module that cannot be read, or a property of an export: read as before, as an unknown value.
  if (!found || found.rest.length > 0) return undefined;
  const { value } = found;
  if (expr.type !== AST_NODE_TYPES.CallExpression) return getConstruction(value.sourceCode, value.node);
  return factoryConstruction(value.sourceCode, value.node);
}

/** What a factory function returns, when every `return` agrees: `getPool()` → the pool. */
function factoryConstruction(sourceCode: Services, node: TSESTree.Node): Construction | null {
  let fn: TSESTree.Node = skipTransparent(node);
  if (fn.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(sourceCode, fn)?.defs[0];
    if (def?.type === 'FunctionName') fn = def.node;
    else if (def?.type === 'Variable' && def.node.init && def.node.parent.kind === 'const') fn = skipTransparent(def.node.init);
  }
  if (!isFunctionNode(fn)) return null;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return getConstruction(sourceCode, fn.body);
  const values: TSESTree.Node[] = [];
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    if (n !== fn && isFunctionNode(n)) return false;
    if (n.type === AST_NODE_TYPES.ReturnStatement && n.argument) values.push(n.argument);
    return true;
  });
  return agreeingConstruction(sourceCode, values);
}

function fromIdentifier(sourceCode: Services, id: TSESTree.Identifier): Construction | null {
  const variable = findVariable(sourceCode, id);
  if (!variable) return null;
  // A declared type holds for every value the variable ever has; values are checked below.
  let annotated: Construction | null = null;
  const values: TSESTree.Node[] = [];
  for (const def of variable.defs) {
    if (def.type === 'Variable' && def.node.init && def.node.id === def.name) values.push(def.node.init);
    if ((def.type === 'Parameter' || def.type === 'Variable') && !annotated) {
      annotated = fromAnnotation(sourceCode, def.name);
    }
  }
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init) continue;
    const parent = reference.identifier.parent;
    if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.left === reference.identifier) {
      values.push(parent.right);
    } else {
      return annotated; // destructuring, `for (x of …)`, `??=`: a value this analysis cannot see
    }
  }
  return agreeingConstruction(sourceCode, values) ?? annotated;
}

/**
 * The construction every assigned value agrees on. `let pool = null; … pool = new Pool()` is lazy
 * initialisation; a variable or field that may also hold something unknown, or a different kind,
 * is not trusted.
 */
function agreeingConstruction(sourceCode: Services, values: readonly TSESTree.Node[]): Construction | null {
  let found: Construction | null = null;
  for (const value of values) {
    if (isNullish(value)) continue;
    const construction = getConstruction(sourceCode, value);
    if (!construction || (found && found.kind !== construction.kind)) return null;
    found ??= construction;
  }
  return found;
}

function isNullish(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return (
    (expr.type === AST_NODE_TYPES.Literal && expr.raw === 'null') ||
    (expr.type === AST_NODE_TYPES.Identifier && expr.name === 'undefined') ||
    (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === 'void')
  );
}

/** `this.mutex` → the class field initializer or a `this.mutex = …` assignment in the class. */
function fromThisMember(sourceCode: Services, member: TSESTree.MemberExpression): Construction | null {
  if (member.object.type !== AST_NODE_TYPES.ThisExpression) return null;
  const name = staticPropertyName(member);
  if (name === null) return null;
  const classNode = thisClass(member);
  if (!classNode) return null;
  return classFieldConstruction(sourceCode, classNode, name);
}

const fieldCache = new WeakMap<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();

export function classFieldConstruction(
  sourceCode: Services,
  classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
): Construction | null {
  const sources = classFieldSources(classNode).get(name) ?? [];
  let annotated: Construction | null = null;
  const values: TSESTree.Node[] = [];
  for (const source of sources) {
    const declaration =
      source.type === AST_NODE_TYPES.PropertyDefinition ||
      (source.type === AST_NODE_TYPES.Identifier && source.parent?.type === AST_NODE_TYPES.TSParameterProperty);
    if (declaration) annotated ??= fromAnnotation(sourceCode, source);
    else values.push(source);
  }
  return agreeingConstruction(sourceCode, values) ?? annotated;
}

/**
 * The module type `this.<name>` is declared as, when its only declaration says so and nothing is
 * assigned to it: `constructor(private client: MatrixClient)` with `MatrixClient` from `matrix-bot-sdk`.
 */
export function thisFieldAnnotatedRef(sourceCode: Services, member: TSESTree.MemberExpression): ModuleRef | null {
  if (member.object.type !== AST_NODE_TYPES.ThisExpression) return null;
  const name = staticPropertyName(member);
  const classNode = name === null ? null : thisClass(member);
  const sources = classNode && name !== null ? classFieldSources(classNode).get(name) ?? [] : [];
  const only = sources.length === 1 ? sources[0] : undefined;
  const declaration = only !== undefined && (only.type === AST_NODE_TYPES.PropertyDefinition ||
    (only.type === AST_NODE_TYPES.Identifier && only.parent?.type === AST_NODE_TYPES.TSParameterProperty));
  return declaration ? annotatedRef(sourceCode, only)?.ref ?? null : null;
}

/** Everything that may initialize `this.<name>`: field initializers, assignments, parameter properties. */
function classFieldSources(classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression): Map<string, TSESTree.Node[]> {
  const body = classNode.body;
  const hit = fieldCache.get(body);
  if (hit) return hit;
  const map = new Map<string, TSESTree.Node[]>();
  const add = (key: string, node: TSESTree.Node): void => {
    const list = map.get(key) ?? [];
    list.push(node);
    map.set(key, list);
  };
  for (const member of body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.computed && member.key.type === AST_NODE_TYPES.Identifier) {
      if (member.value) add(member.key.name, member.value);
      if (member.typeAnnotation) add(member.key.name, member);
    }
    if (member.type !== AST_NODE_TYPES.MethodDefinition) continue;
    if (member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (param.type === AST_NODE_TYPES.TSParameterProperty) {
          const inner = param.parameter.type === AST_NODE_TYPES.AssignmentPattern ? param.parameter.left : param.parameter;
          if (inner.type === AST_NODE_TYPES.Identifier) add(inner.name, inner);
        }
      }
    }
    collectThisAssignments(member.value.body, add);
  }
  fieldCache.set(body, map);
  return map;
}

function collectThisAssignments(
  node: TSESTree.Node | null | undefined,
  add: (key: string, value: TSESTree.Node) => void,
): void {
  if (!node) return;
  // Statement-level assignments are enough here: `this.x = new X()` in a constructor or init method.
  const visit = (n: TSESTree.Node): void => {
    if (n.type === AST_NODE_TYPES.ExpressionStatement && n.expression.type === AST_NODE_TYPES.AssignmentExpression) {
      const { left, right } = n.expression;
      if (left.type === AST_NODE_TYPES.MemberExpression && left.object.type === AST_NODE_TYPES.ThisExpression) {
        const key = staticPropertyName(left);
        if (key !== null) add(key, right);
      }
    }
    if (n.type === AST_NODE_TYPES.BlockStatement) n.body.forEach(visit);
    if (n.type === AST_NODE_TYPES.IfStatement) {
      visit(n.consequent);
      if (n.alternate) visit(n.alternate);
    }
    if (n.type === AST_NODE_TYPES.TryStatement) visit(n.block);
  };
  visit(node);
}

export function enclosingClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | null {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) return current;
    current = current.parent;
  }
  return null;
}

/**
 * The class whose instance `this` is at `node`: arrow functions see through, a method or a field
 * initializer belongs to its class, any other function binds its own `this`.
 */
export function thisClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | null {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) {
      const parent = current.parent;
      if (parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.PropertyDefinition) {
        return enclosingClass(parent);
      }
      return null;
    }
    if (
      current.type === AST_NODE_TYPES.PropertyDefinition ||
      current.type === AST_NODE_TYPES.AccessorProperty ||
      current.type === AST_NODE_TYPES.StaticBlock
    ) {
      return enclosingClass(current);
    }
    current = current.parent;
  }
  return null;
}

/** `lock: Mutex` / `pool: Pool` with the type imported from a catalogued module. */
function fromAnnotation(sourceCode: Services, node: TSESTree.Node): Construction | null {
  const annotated = annotatedRef(sourceCode, node);
  const entry = annotated ? findEntry(TYPE_NAMES, annotated.ref) : undefined;
  return annotated && entry ? { ref: annotated.ref, kind: entry.kind, node: annotated.type, wrappedBy: [], fromType: true, sourceCode } : null;
}

/**
 * The module export a declared type names: `(app: Express)` with `Express` imported from
 * `express` → `express` + `Express`; `pool: pg.Pool` → `pg` + `Pool`. Null for local or unknown types.
 */
export function annotatedRef(sourceCode: Services, node: TSESTree.Node): { ref: ModuleRef; type: TSESTree.TSTypeReference } | null {
  const annotation = 'typeAnnotation' in node ? (node.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
  const type = annotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return null;
  const typeName = type.typeName;
  let ref: ModuleRef | null = null;
  if (typeName.type === AST_NODE_TYPES.Identifier) {
    ref = resolveTypeName(sourceCode, typeName);
  } else if (typeName.type === AST_NODE_TYPES.TSQualifiedName && typeName.left.type === AST_NODE_TYPES.Identifier) {
    const base = resolveTypeName(sourceCode, typeName.left);
    ref = base ? { module: base.module, path: [...base.path, typeName.right.name] } : null;
  }
  return ref ? { ref, type } : null;
}

function resolveTypeName(sourceCode: Services, id: TSESTree.Identifier): ModuleRef | null {
  return resolveReference(sourceCode, id) ?? (findVariable(sourceCode, id) ? null : null);
}

function findEntry(entries: readonly CatalogEntry[], ref: ModuleRef): CatalogEntry | undefined {
  return entries.find((e) => refMatches(ref, e.module, e.export));
}
