import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { conjuncts, contains, enclosingFunction, findVariable } from './ast';

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
 * body, after `call` and in no loop around `call`; assignments elsewhere may only clear it. The
 * answer is a predicate over nodes of `helper`, or null when no variable qualifies.
 */
export function unsetGuard(sourceCode: Services, call: TSESTree.CallExpression, helper: FunctionNode): ((node: TSESTree.Node) => boolean) | null {
  const outer = enclosingFunction(helper);
  if (!outer || enclosingFunction(call) !== outer) return null;
  const unset = new Set<TSESLint.Scope.Variable>();
  for (const variable of sourceCode.getScope(outer).variables) {
    if (unsetAt(variable, call, outer)) unset.add(variable);
  }
  if (unset.size === 0) return null;
  return (node) => guarded(sourceCode, node, helper, unset);
}

function unsetAt(variable: TSESLint.Scope.Variable, call: TSESTree.CallExpression, outer: FunctionNode): boolean {
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id !== def.name || def.parent.kind === 'const' || !isEmpty(def.node.init)) return false;
  const loops = loopsAround(call, outer);
  return variable.references.every((reference) => {
    if (!reference.isWrite() || reference.init) return true;
    const write = reference.identifier;
    const assignment = write.parent;
    if (assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.left === write && assignment.operator === '=' &&
      isEmpty(assignment.right)) {
      return true;
    }
    return enclosingFunction(write) === outer && write.range[0] > call.range[1] && !loops.some((loop) => contains(loop, write));
  });
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

/** Is `node` evaluated only when one of `unset` is truthy: `v && node`, `if (v && …) node`, `v ? node : …`. */
function guarded(sourceCode: Services, node: TSESTree.Node, helper: FunctionNode, unset: ReadonlySet<TSESLint.Scope.Variable>): boolean {
  const requires = (test: TSESTree.Node): boolean => conjuncts(test).some((c) => {
    if (c.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(sourceCode, c);
    return variable !== null && unset.has(variable);
  });
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
