import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { conjuncts, findVariable, skipTransparent, staticPropertyName } from './ast';
import { resolveReference } from './imports';
import { localExport } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** What a test says about the deployment: true only in production, or only outside it. */
type Env = 'production' | 'not-production';

/** Bindings followed from a test to the comparison that defines it (`isDev` → `./util` → `NODE_ENV === …`). */
const MAX_HOPS = 3;

/**
 * Does `node` run only outside production? It does under a test that holds only there:
 * `if (process.env.NODE_ENV !== 'production')`, `NODE_ENV === 'development' && …`, the `else`
 * of `if (NODE_ENV === 'production')`, or a constant bound to such a comparison, in this file or
 * exported by one of the project's modules (`const { isDev } = require('./util')`). What the
 * test is called plays no part.
 */
export function isDevOnly(sourceCode: Services, node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current; child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.IfStatement || current.type === AST_NODE_TYPES.ConditionalExpression) {
      if (current.consequent === child && conjuncts(current.test).some((c) => envOf(sourceCode, c, 0) === 'not-production')) return true;
      if (current.alternate === child && envOf(sourceCode, current.test, 0) === 'production') return true;
    } else if (current.type === AST_NODE_TYPES.LogicalExpression && current.operator === '&&' && current.right === child &&
      conjuncts(current.left).some((c) => envOf(sourceCode, c, 0) === 'not-production')) {
      return true;
    }
  }
  return false;
}

function envOf(sourceCode: Services, node: TSESTree.Node, hops: number): Env | null {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '!') {
    // Not production is outside production; not development may still be production.
    return envOf(sourceCode, expr.argument, hops) === 'production' ? 'not-production' : null;
  }
  if (expr.type === AST_NODE_TYPES.BinaryExpression && ['===', '==', '!==', '!='].includes(expr.operator)) {
    const value = nodeEnvComparedWith(sourceCode, expr.left, expr.right) ?? nodeEnvComparedWith(sourceCode, expr.right, expr.left);
    if (value === null) return null;
    const equal = expr.operator === '===' || expr.operator === '==';
    if (value === 'production') return equal ? 'production' : 'not-production';
    // `=== 'development'` rules production out; `!== 'development'` lets it in with everything else.
    return equal ? 'not-production' : null;
  }
  if (expr.type === AST_NODE_TYPES.Identifier && hops < MAX_HOPS) return boundEnv(sourceCode, expr, hops + 1);
  return null;
}

/** The string `process.env.NODE_ENV` is compared with, when `env` is that read and `other` a string literal. */
function nodeEnvComparedWith(sourceCode: Services, env: TSESTree.Node, other: TSESTree.Node): string | null {
  if (other.type !== AST_NODE_TYPES.Literal || typeof other.value !== 'string') return null;
  const read = skipTransparent(env);
  if (read.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(read) !== 'NODE_ENV') return null;
  const envObject = skipTransparent(read.object);
  if (envObject.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(envObject) !== 'env') return null;
  const processRef = skipTransparent(envObject.object);
  // A local `process` is not Node's.
  return processRef.type === AST_NODE_TYPES.Identifier && processRef.name === 'process' && !findVariable(sourceCode, processRef)?.defs.length
    ? other.value
    : null;
}

/** A `const` of this file, or a binding imported from a project module, whose value is an environment test. */
function boundEnv(sourceCode: Services, id: TSESTree.Identifier, hops: number): Env | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return null;
  if (def.type === 'Variable' && def.node.id === def.name && def.parent.kind === 'const' && def.node.init) {
    const local = envOf(sourceCode, def.node.init, hops);
    if (local) return local;
  }
  const ref = resolveReference(sourceCode, id);
  const exported = ref ? localExport(sourceCode, ref) : null;
  if (!exported || exported.rest.length > 0) return null;
  const value = exported.value.node;
  // `export const isDev = …` names the binding; `exports.isDev = …` gives the value itself.
  if (value.type === AST_NODE_TYPES.Identifier && value.parent?.type === AST_NODE_TYPES.VariableDeclarator && value.parent.id === value) {
    const declaration = value.parent.parent;
    return declaration.kind === 'const' && value.parent.init ? envOf(exported.value.sourceCode, value.parent.init, hops) : null;
  }
  return envOf(exported.value.sourceCode, value, hops);
}
