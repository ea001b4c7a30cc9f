/**
 * Acquires that only borrow: `const connection = await getConnection(conn)` where the helper hands
 * `conn` back when it is given and takes from the pool only when it is not, and `conn` is a
 * parameter of the enclosing function. Whether anything is acquired there rests on that
 * function's callers: in its own file, and in the files of its package that import it (the
 * project layer's package scan, so the answer is the same whatever order files are linted in).
 *
 * Borrowed only when every known call hands in a resource: a connection taken right there (bound
 * to a `const`, or a `let` set before the call), or a parameter of the caller that its own callers
 * all fill.
 * Unknown callers (passed as a value, exported with no importer, more importers than the scan
 * follows) and a module whose exports are not all used by the files seen (its real importers lie
 * outside what was listed) leave the question open: the acquire then counts as one.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { enclosingFunction, findVariable, isFunctionNode, skipTransparent } from './ast';
import { lentArgument, yieldsAcquiredValue } from './acquireWrappers';
import { exportedNames, importerUses, knownCallers, usedInOwnFile } from './knownCallers';
import { ModuleAnswers, sourceFileOf } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** Where a parameter sits in its function's calls: the argument at `index`, or that argument's property (`{ conn }`). */
export interface ParameterSlot {
  index: number;
  property: string | null;
}

/** Callers of callers are followed this deep: a model's `conn` from a service's `conn` from a controller's own connection. */
const MAX_DEPTH = 3;

/**
 * Does the acquire `call` take nothing of its own, because its helper lends back the enclosing
 * function's parameter and every known call of that function hands one in?
 */
export function borrowsAtEveryCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const index = lentArgument(sourceCode, call);
  const argument = index === null ? null : skipTransparent(call.arguments[index] as TSESTree.Node);
  if (argument?.type !== AST_NODE_TYPES.Identifier) return false;
  const fn = enclosingFunction(call);
  const slot = fn ? parameterSlot(sourceCode, fn, argument) : null;
  return fn !== null && slot !== null && everyCallHandsIn(sourceCode, fn, slot, 0);
}

/** The slot of `fn`'s parameter `id` names: `(sql, conn)` → argument 1, `({ id, conn })` → argument 0's `conn`. Null when reassigned or defaulted. */
export function parameterSlot(sourceCode: Services, fn: FunctionNode, id: TSESTree.Identifier): ParameterSlot | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Parameter' || def.node !== fn || variable.references.some((r) => r.isWrite())) return null;
  for (const [index, param] of fn.params.entries()) {
    if (param.type === AST_NODE_TYPES.Identifier && param.name === id.name) return { index, property: null };
    if (param.type !== AST_NODE_TYPES.ObjectPattern) continue;
    for (const prop of param.properties) {
      if (prop.type === AST_NODE_TYPES.Property && !prop.computed && prop.key.type === AST_NODE_TYPES.Identifier &&
        prop.value.type === AST_NODE_TYPES.Identifier && prop.value.name === id.name) {
        return { index, property: prop.key.name };
      }
    }
  }
  return null;
}

/**
 * Does every known call of `fn` hand a resource into `slot`? False when a call leaves it out or
 * passes something that may be missing, and when the calls are not all known.
 */
export function everyCallHandsIn(sourceCode: Services, fn: FunctionNode, slot: ParameterSlot, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const key = `${slot.index}:${slot.property ?? ''}`;
  let byKey = answers.get(sourceCode, fn);
  if (!byKey) answers.set(fn, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit !== undefined) return hit;
  byKey.set(key, false); // recursion: a function reached only through itself proves nothing
  const sites = knownCallers(sourceCode, fn);
  const result = sites !== null && sites.length > 0 &&
    (exportedNames(sourceCode, fn) === null || exportsAllUsed(sourceCode)) &&
    sites.every((site) => site.call.type === AST_NODE_TYPES.CallExpression && handsIn(site.sourceCode, argumentAt(site.call, slot), depth));
  byKey.set(key, result);
  return result;
}

const answers = new ModuleAnswers<FunctionNode, Map<string, boolean>>();

/** What `call` passes into `slot`; null when it passes nothing there or a spread may have put anything there. */
function argumentAt(call: TSESTree.CallExpression, slot: ParameterSlot): TSESTree.Node | null {
  const args = call.arguments;
  if (args.slice(0, slot.index + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return null;
  const argument = args[slot.index];
  if (!argument || slot.property === null) return argument ?? null;
  const object = skipTransparent(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return null;
  let value: TSESTree.Node | null = null;
  for (const prop of object.properties) {
    // `{ conn, ...rest }`: the spread may carry a `conn` of its own, missing or not.
    if (prop.type === AST_NODE_TYPES.SpreadElement) value = null;
    else if (!prop.computed && propertyKey(prop.key) === slot.property) value = prop.value;
  }
  return value;
}

function propertyKey(key: TSESTree.Node): string | null {
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  return key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string' ? key.value : null;
}

/** Is `node`, where it is passed, surely a resource: a connection the caller took, or a parameter every caller fills? */
function handsIn(sourceCode: Services, node: TSESTree.Node | null, depth: number): boolean {
  if (!node) return false;
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return false;
  if (def.type === 'Parameter' && isFunctionNode(def.node)) {
    const fn = def.node;
    const slot = parameterSlot(sourceCode, fn, expr);
    return slot !== null && everyCallHandsIn(sourceCode, fn, slot, depth + 1);
  }
  if (def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier) return false;
  const writes = variable.references.filter((r) => r.isWrite());
  // `let conn; try { conn = await pool.getConnection(); … f({ conn }) }`: every write takes one, and one comes first.
  return writes.length > 0 && writes.every((w) => w.writeExpr !== null && w.writeExpr !== undefined && yieldsAcquiredValue(sourceCode, w.writeExpr)) &&
    writes.some((w) => w.identifier.range[1] <= expr.range[0] && enclosingFunction(w.identifier) === enclosingFunction(expr));
}

const allUsed = new ModuleAnswers<TSESTree.Program, boolean>();

/**
 * Does each function the module exports have a use the package scan can see, in the module
 * itself or in an importer? An export nobody uses says the listed files are not all its users (a
 * partial checkout, a computed `require`, code outside the package), so calls seen are not all.
 */
export function exportsAllUsed(sourceCode: Services): boolean {
  const hit = allUsed.get(sourceCode, sourceCode.ast);
  if (hit !== undefined) return hit;
  const result = sourceFileOf(sourceCode) !== null && exportedFunctions(sourceCode).every((fn) =>
    usedInOwnFile(sourceCode, fn) || (importerUses(sourceCode, fn)?.length ?? 0) > 0);
  allUsed.set(sourceCode.ast, result);
  return result;
}

/** The module's top-level functions (declared, or a `const` bound to one) and those in `module.exports = { … }`, that it exports. */
function exportedFunctions(sourceCode: Services): FunctionNode[] {
  const candidates: FunctionNode[] = [];
  for (const statement of sourceCode.ast.body) {
    const inner = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration
      ? statement.declaration
      : statement;
    if (!inner) continue;
    if (inner.type === AST_NODE_TYPES.FunctionDeclaration) candidates.push(inner);
    if (inner.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const d of inner.declarations) if (d.init && isFunctionNode(d.init)) candidates.push(d.init);
    }
    if (inner.type === AST_NODE_TYPES.ExpressionStatement && inner.expression.type === AST_NODE_TYPES.AssignmentExpression) {
      const right = skipTransparent(inner.expression.right);
      if (isFunctionNode(right)) candidates.push(right);
      if (right.type === AST_NODE_TYPES.ObjectExpression) {
        for (const prop of right.properties) if (prop.type === AST_NODE_TYPES.Property && isFunctionNode(prop.value)) candidates.push(prop.value);
      }
    }
  }
  return candidates.filter((fn) => exportedNames(sourceCode, fn) !== null);
}
