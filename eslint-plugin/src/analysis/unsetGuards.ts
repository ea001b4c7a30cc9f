import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { conjuncts, contains, enclosingFunction, findVariable, skipTransparent } from './ast';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * The calls of `helper` that cannot run when `call` invokes it, because each sits behind a
 * variable of the enclosing function that holds no value yet at `call`:
 *
 *     let dest;
 *     const abort = () => { if (dest && fs.existsSync(dest)) fs.unlinkSync(dest); };
 *     if (!ok) return abort();   // `dest` is still undefined: neither fs call runs
 *     dest = path.join(dir, name);
 *
 * A variable counts when it is declared without a value (or with `null`/`undefined`) in the
 * function that makes `call`, every assignment that gives it a value is in that function's own
 * body, after `call` and in no loop around `call`; assignments elsewhere may only clear it.
 *
 * So do calls behind `fs.existsSync(v)` where `v` holds a path just found free: the name a
 * `do { v = pick(); } while (fs.existsSync(v))` loop of that function settled on, when nothing
 * between the loop and `call` uses `v` (the file is made later, by code after `call`).
 *
 * The answer is a predicate over nodes of `helper`, or null when no variable qualifies.
 */
export function unsetGuard(sourceCode: Services, call: TSESTree.CallExpression, helper: FunctionNode): ((node: TSESTree.Node) => boolean) | null {
  const outer = enclosingFunction(helper);
  if (!outer || enclosingFunction(call) !== outer) return null;
  const unset = new Set<TSESLint.Scope.Variable>();
  const free = new Set<TSESLint.Scope.Variable>();
  for (const variable of sourceCode.getScope(outer).variables) {
    if (unsetAt(variable, call, outer)) unset.add(variable);
    else if (freeAt(sourceCode, variable, call, outer)) free.add(variable);
  }
  if (unset.size === 0 && free.size === 0) return null;
  return (node) => guarded(sourceCode, node, helper, unset, free);
}

function unsetAt(variable: TSESLint.Scope.Variable, call: TSESTree.CallExpression, outer: FunctionNode): boolean {
  if (!declaredEmpty(variable)) return false;
  const loops = loopsAround(call, outer);
  return variable.references.every((reference) => {
    if (!reference.isWrite() || reference.init || clears(reference.identifier)) return true;
    const write = reference.identifier;
    return enclosingFunction(write) === outer && write.range[0] > call.range[1] && !loops.some((loop) => contains(loop, write));
  });
}

/**
 * Is `variable` a name a probe loop of `outer` found free, untouched since, at `call`? Declared
 * without a value and given one only inside the loop, it is unset at `call` when the loop did
 * not run.
 */
function freeAt(sourceCode: Services, variable: TSESLint.Scope.Variable, call: TSESTree.CallExpression, outer: FunctionNode): boolean {
  if (!declaredEmpty(variable)) return false;
  const loop = variable.references.map((r) => probeLoop(sourceCode, r.identifier)).find((l) => l !== null);
  if (!loop || enclosingFunction(loop) !== outer || loop.range[1] > call.range[0]) return false;
  if (loopsAround(call, outer).some((around) => contains(around, loop))) return false;
  return variable.references.every((reference) => {
    const id = reference.identifier;
    if (id.range[0] > loop.range[1] && id.range[1] < call.range[0]) return false;
    if (!reference.isWrite() || reference.init || clears(id)) return true;
    return enclosingFunction(id) === outer && contains(loop, id);
  });
}

/** The `while`/`do … while` loop whose whole test is `fs.existsSync(id)`, or null. */
function probeLoop(sourceCode: Services, id: TSESTree.Node): TSESTree.WhileStatement | TSESTree.DoWhileStatement | null {
  const probe = id.parent;
  if (probe?.type !== AST_NODE_TYPES.CallExpression || probe.arguments[0] !== id || !isExistsProbe(sourceCode, probe)) return null;
  const loop = probe.parent;
  return (loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement) && loop.test === probe ? loop : null;
}

function isExistsProbe(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const ref = resolveReference(sourceCode, skipTransparent(call.callee));
  return refMatches(ref, 'fs', 'existsSync') || refMatches(ref, 'fs-extra', 'existsSync');
}

/** `let v;`, `let v = null;`: a variable that holds no value until assigned. */
function declaredEmpty(variable: TSESLint.Scope.Variable): boolean {
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === 'Variable' && def.node.id === def.name && def.parent.kind !== 'const' && isEmpty(def.node.init);
}

/** `v = null`: a write that only clears the variable. */
function clears(write: TSESTree.Node): boolean {
  const assignment = write.parent;
  return assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.left === write && assignment.operator === '=' &&
    isEmpty(assignment.right);
}

/** `undefined`, `null`, `void 0`, or no initialiser at all. */
function isEmpty(node: TSESTree.Node | null | undefined): boolean {
  if (!node) return true;
  if (node.type === AST_NODE_TYPES.Literal) return node.value === null;
  if (node.type === AST_NODE_TYPES.UnaryExpression) return node.operator === 'void';
  return node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined';
}

function loopsAround(node: TSESTree.Node, outer: FunctionNode): TSESTree.Node[] {
  const loops: TSESTree.Node[] = [];
  for (let current = node.parent; current && current !== outer; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.ForStatement || current.type === AST_NODE_TYPES.ForInStatement ||
      current.type === AST_NODE_TYPES.ForOfStatement || current.type === AST_NODE_TYPES.WhileStatement ||
      current.type === AST_NODE_TYPES.DoWhileStatement
    ) {
      loops.push(current);
    }
  }
  return loops;
}

/**
 * Is `node` evaluated only when one of `unset` is truthy or a path in `free` exists: `v && node`,
 * `if (v && fs.existsSync(p)) node`, `v ? node : …`.
 */
function guarded(
  sourceCode: Services,
  node: TSESTree.Node,
  helper: FunctionNode,
  unset: ReadonlySet<TSESLint.Scope.Variable>,
  free: ReadonlySet<TSESLint.Scope.Variable>,
): boolean {
  const holds = (id: TSESTree.Node | undefined, set: ReadonlySet<TSESLint.Scope.Variable>): boolean => {
    if (id?.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(sourceCode, id);
    return variable !== null && set.has(variable);
  };
  const requires = (test: TSESTree.Node): boolean => conjuncts(test).some((c) => holds(c, unset) ||
    (c.type === AST_NODE_TYPES.CallExpression && isExistsProbe(sourceCode, c) && holds(c.arguments[0], free)));
  let child = node;
  for (let current = node.parent; current && current !== helper; child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.LogicalExpression && current.operator === '&&' && current.right === child && requires(current.left)) return true;
    if ((current.type === AST_NODE_TYPES.IfStatement || current.type === AST_NODE_TYPES.ConditionalExpression) &&
      current.consequent === child && requires(current.test)) {
      return true;
    }
  }
  return false;
}
