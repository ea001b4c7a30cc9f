import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * The parts of an Express request the client writes whole: a field it leaves out is `undefined`
 * there. Route parameters are left out (the route matched, so they are set), and so are headers,
 * which proxies and clients add on their own.
 */
const CLIENT_PARTS: ReadonlySet<string> = new Set(['body', 'query']);

const cache = new WeakMap<FunctionNode, TSESTree.MemberExpression | null>();

/**
 * Where an Express handler reads into a field of the request body or query that the client may
 * leave out, before anything checks it and outside any `try`: `req.query.cities.split(',')`,
 * `const { items } = req.body; items.length`. A request without the field throws there, so the
 * handler's promise rejects on client input alone, with no `await` involved. Only statements run
 * on every call count: the top level of the body, never a condition's branch, a loop, a `try` or a
 * callback, and only a field read for the first time (a read before it may be the check).
 */
export function unguardedRequestRead(sourceCode: Services, fn: FunctionNode): TSESTree.MemberExpression | null {
  const hit = cache.get(fn);
  if (hit !== undefined) return hit;
  const found = findRead(sourceCode, fn);
  cache.set(fn, found);
  return found;
}

function findRead(sourceCode: Services, fn: FunctionNode): TSESTree.MemberExpression | null {
  const req = fn.params[0];
  if (req?.type !== AST_NODE_TYPES.Identifier || fn.body.type !== AST_NODE_TYPES.BlockStatement) return null;
  const request = findVariable(sourceCode, req);
  if (!request) return null;
  for (const statement of fn.body.body) {
    const roots = unconditionalParts(statement);
    if (roots === null) continue;
    let found: TSESTree.MemberExpression | null = null;
    for (const root of roots) {
      walk(root, sourceCode.visitorKeys, (node) => {
        if (found || !runsWithStatement(node, root)) return false;
        if (node.type === AST_NODE_TYPES.MemberExpression && !node.optional && readsMissingField(sourceCode, fn, request, node.object)) {
          found = node;
          return false;
        }
        return true;
      });
      if (found) return found;
    }
  }
  return null;
}

/** The expressions of a top-level statement that run whenever it does; null for any other statement. */
function unconditionalParts(statement: TSESTree.Statement): TSESTree.Node[] | null {
  switch (statement.type) {
    case AST_NODE_TYPES.ExpressionStatement:
      return [statement.expression];
    case AST_NODE_TYPES.VariableDeclaration:
      return statement.declarations.flatMap((d) => (d.init ? [d.init] : []));
    case AST_NODE_TYPES.ReturnStatement:
      return statement.argument ? [statement.argument] : [];
    default:
      return null;
  }
}

/** False for what may not run when `root` does: a nested function, a branch, the right of `&&`/`||`/`??`, an optional chain's tail. */
function runsWithStatement(node: TSESTree.Node, root: TSESTree.Node): boolean {
  if (node === root) return !isFunctionNode(node);
  if (isFunctionNode(node)) return false;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.LogicalExpression && parent.right === node) return false;
  if (parent?.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== node) return false;
  return node.type !== AST_NODE_TYPES.ChainExpression;
}

/**
 * `object` is a client field read for the first time: `req.body.x` / `req.query.x` with `req`
 * the handler's request, or a `const` set to one at the top of the handler (`const { x } =
 * req.body`, `const x = req.query.x`) whose first read this is.
 */
function readsMissingField(sourceCode: Services, fn: FunctionNode, request: TSESLint.Scope.Variable, object: TSESTree.Node): boolean {
  const expr = skipTransparent(object);
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    return !expr.optional && isClientField(request, expr) && firstMention(sourceCode, fn, expr);
  }
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.parent.parent !== fn.body || !def.node.init) return false;
  const init = skipTransparent(def.node.init);
  const fromField = def.node.id === def.name
    ? init.type === AST_NODE_TYPES.MemberExpression && !init.optional && isClientField(request, init)
    : isDestructuredField(def.node.id, def.name) && isClientPart(request, init);
  if (!fromField) return false;
  const first = variable?.references.find((r) => !r.init);
  return first?.identifier === expr;
}

/** `{ x } = …` or `{ x: y } = …` directly, without a default value. */
function isDestructuredField(pattern: TSESTree.Node, name: TSESTree.Identifier): boolean {
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return false;
  return pattern.properties.some((p) => p.type === AST_NODE_TYPES.Property && !p.computed && p.value === name);
}

/** `req.body.x` / `req.query.x`. */
function isClientField(request: TSESLint.Scope.Variable, member: TSESTree.MemberExpression): boolean {
  return isClientPart(request, skipTransparent(member.object));
}

/** `req.body` / `req.query`. */
function isClientPart(request: TSESLint.Scope.Variable, node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.optional || !CLIENT_PARTS.has(staticPropertyName(node) ?? '')) return false;
  const base = skipTransparent(node.object);
  return base.type === AST_NODE_TYPES.Identifier && request.references.some((r) => r.identifier === base);
}

/** No earlier text in the handler names the same field: a read before this one may be its check. */
function firstMention(sourceCode: Services, fn: FunctionNode, field: TSESTree.MemberExpression): boolean {
  const text = sourceCode.getText(field);
  const before = sourceCode.text.slice(fn.body.range[0], field.range[0]);
  return !before.includes(text);
}
