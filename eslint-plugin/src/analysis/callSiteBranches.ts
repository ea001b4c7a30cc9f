import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { skipTransparent } from './ast';
import { cannotThrow, isPlainCondition, isThrowFreeDeclaration } from './rejections';

type Services = Readonly<TSESLint.SourceCode>;

/** What the condition around a call says about one `this.a.b` path: truthy or falsy. */
interface PathFact {
  path: string;
  truthy: boolean;
}

/**
 * `if (!this.subscriber.connect) { this.connect(); }` where `connect()` begins
 * `if (typeof this.subscriber.connect === 'function') { await … }`: the branch the call site's
 * condition rules out cannot run for this call. Returns the callee's top-level `if` branches that
 * cannot run (a set of statements), or null when the call tells nothing. Only for a method called
 * on `this` as the first statement under an `if` on a `this.…` path, to a callee whose parameters
 * have no defaults, and only for the callee's branches that come before anything that could
 * change that path: early returns on plain conditions and declarations that cannot throw, no
 * call, no `await`.
 */
export function branchesRuledOutAt(sourceCode: Services, call: TSESTree.Node, fn: FunctionNode): ReadonlySet<TSESTree.Node> | null {
  const expr = skipTransparent(call);
  if (expr.type !== AST_NODE_TYPES.CallExpression || fn.body?.type !== AST_NODE_TYPES.BlockStatement) return null;
  // A parameter's default runs before the body and may call anything.
  if (!fn.params.every((param) => param.type === AST_NODE_TYPES.Identifier)) return null;
  const callee = skipTransparent(expr.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.ThisExpression) return null;
  const fact = callSiteFact(expr);
  if (!fact) return null;
  const out = new Set<TSESTree.Node>();
  for (const statement of fn.body.body) {
    if (statement.type === AST_NODE_TYPES.IfStatement) {
      const implied = impliedFact(statement.test);
      if (implied?.path === fact.path) {
        // The test, when true, says `implied`; when false, its opposite.
        if (implied.truthy !== fact.truthy) out.add(statement.consequent);
        else if (statement.alternate && implied.negation) out.add(statement.alternate);
      }
    }
    if (!leavesPathsAlone(sourceCode, statement)) break;
  }
  return out.size > 0 ? out : null;
}

/** The fact the `if` around the call establishes, when the call is the first thing it runs. */
function callSiteFact(call: TSESTree.CallExpression): PathFact | null {
  const statement = call.parent;
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const block = statement.parent;
  let branch: TSESTree.Node = statement;
  if (block?.type === AST_NODE_TYPES.BlockStatement) {
    if (block.body[0] !== statement) return null;
    branch = block;
  }
  const test = branch.parent;
  if (test?.type !== AST_NODE_TYPES.IfStatement) return null;
  const implied = impliedFact(test.test);
  if (!implied) return null;
  if (test.consequent === branch) return { path: implied.path, truthy: implied.truthy };
  // In the `else`, the test was false: only a negation (`!p`) or a plain truthiness test (`p`) flips cleanly.
  return test.alternate === branch && implied.negation ? { path: implied.path, truthy: !implied.truthy } : null;
}

/**
 * `p`, `!p`, `typeof p === 'function'` for a `this.…` path `p`: the fact a true test gives, and
 * whether a false test gives its opposite (`negation`). `typeof p === 'function'` being false
 * does not make `p` falsy.
 */
function impliedFact(test: TSESTree.Node): (PathFact & { negation: boolean }) | null {
  const expr = skipTransparent(test);
  if (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '!') {
    const path = thisPath(expr.argument);
    return path === null ? null : { path, truthy: false, negation: true };
  }
  if (expr.type === AST_NODE_TYPES.BinaryExpression && expr.operator === '===' &&
    expr.left.type === AST_NODE_TYPES.UnaryExpression && expr.left.operator === 'typeof' &&
    expr.right.type === AST_NODE_TYPES.Literal && expr.right.value === 'function') {
    const path = thisPath(expr.left.argument);
    return path === null ? null : { path, truthy: true, negation: false };
  }
  const path = thisPath(expr);
  return path === null ? null : { path, truthy: true, negation: true };
}

/** `this.subscriber.connect` as text, for non-computed reads rooted at `this`; otherwise null. */
function thisPath(node: TSESTree.Node): string | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.MemberExpression || expr.computed || expr.property.type !== AST_NODE_TYPES.Identifier) return null;
  const object = skipTransparent(expr.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) return `this.${expr.property.name}`;
  const inner = thisPath(object);
  return inner === null ? null : `${inner}.${expr.property.name}`;
}

/** A statement that cannot change a `this.…` path before the next one runs. */
function leavesPathsAlone(sourceCode: Services, statement: TSESTree.Statement): boolean {
  if (isThrowFreeDeclaration(statement, sourceCode)) return true;
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate || !isPlainCondition(statement.test)) return false;
  const body = statement.consequent.type === AST_NODE_TYPES.BlockStatement ? statement.consequent.body : [statement.consequent];
  return body.length === 1 && body[0]?.type === AST_NODE_TYPES.ReturnStatement && (!body[0].argument || cannotThrow(body[0].argument));
}
