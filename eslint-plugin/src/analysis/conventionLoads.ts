import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, skipTransparent, staticPropertyName, walk } from './ast';
import { conventionName, endsWithLoadedName } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** Constants followed back from a computed specifier to the path it is built from. */
const MAX_STEPS = 6;

/**
 * The calls `loader` makes of the default export of `loaded` (absolute path), a file it loads by
 * convention: a computed `import()`/`require()` whose specifier is built from a variable folder and
 * a fixed file name that `loaded`'s path ends with (`path.resolve(module.path, 'bootstrap.js')`,
 * through `pathToFileURL(…)`, `` `${dir}/routes.js` ``), its module then called or its `default`
 * called. Null when such a load hands the module on some other way: who calls it is not known.
 */
export function conventionCalls(loader: Services, loaded: string): TSESTree.CallExpression[] | null {
  const calls: TSESTree.CallExpression[] = [];
  let unknown = false;
  walk(loader.ast, loader.visitorKeys, (node) => {
    if (unknown) return false;
    const specifier = computedSpecifier(node);
    if (specifier === null) return true;
    const name = fixedName(loader, specifier, 0);
    if (name === null || !endsWithLoadedName(loaded, name)) return true;
    if (!bindLoad(loader, node, calls)) unknown = true;
    return true;
  });
  return unknown ? null : calls;
}

function computedSpecifier(node: TSESTree.Node): TSESTree.Node | null {
  if (node.type === AST_NODE_TYPES.ImportExpression) return node.source.type === AST_NODE_TYPES.Literal ? null : node.source;
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'require') return null;
  const [first] = node.arguments;
  return node.arguments.length === 1 && first && first.type !== AST_NODE_TYPES.Literal ? first : null;
}

/** The fixed file name at the end of the path `node` builds from a variable folder; null when none is fixed. */
function fixedName(sourceCode: Services, node: TSESTree.Node, steps: number): string | null {
  if (steps > MAX_STEPS) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, expr);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || !def.node.init || def.node.id !== def.name) return null;
    return fixedName(sourceCode, def.node.init, steps + 1);
  }
  if (expr.type === AST_NODE_TYPES.TemplateLiteral) {
    const last = expr.quasis[expr.quasis.length - 1]?.value.cooked ?? '';
    return expr.expressions.length > 0 && last.startsWith('/') ? conventionName(last) : null;
  }
  if (expr.type === AST_NODE_TYPES.BinaryExpression && expr.operator === '+') {
    const right = skipTransparent(expr.right);
    return right.type === AST_NODE_TYPES.Literal && typeof right.value === 'string' && right.value.startsWith('/') ? conventionName(right.value) : null;
  }
  // `url.href`, `url.pathname`: the URL of the path.
  if (expr.type === AST_NODE_TYPES.MemberExpression && ['href', 'pathname'].includes(staticPropertyName(expr) ?? '')) {
    return fixedName(sourceCode, expr.object, steps + 1);
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression && expr.type !== AST_NODE_TYPES.NewExpression) return null;
  const callee = skipTransparent(expr.callee);
  const calleeName = callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  const [first] = expr.arguments;
  // `pathToFileURL(file)`, `pathToFileURL(file).toString()`, `String(file)`.
  if ((calleeName === 'pathToFileURL' || calleeName === 'String') && first) return fixedName(sourceCode, first, steps + 1);
  if (calleeName === 'toString' && callee.type === AST_NODE_TYPES.MemberExpression && expr.arguments.length === 0) {
    return fixedName(sourceCode, callee.object, steps + 1);
  }
  if (calleeName !== 'join' && calleeName !== 'resolve') return null;
  // `join(dir, 'routes', 'index.js')`: the literal parts after the last variable one.
  const parts: string[] = [];
  let index = expr.arguments.length - 1;
  for (; index >= 0; index--) {
    const arg = expr.arguments[index] as TSESTree.Node;
    if (arg.type !== AST_NODE_TYPES.Literal || typeof arg.value !== 'string') break;
    parts.unshift(arg.value);
  }
  if (index < 0 || parts.length === 0 || isOwnFolder(expr.arguments[index] as TSESTree.Node)) return null;
  return conventionName(parts.join('/'));
}

/** `__dirname`, `import.meta.dirname`: the loader's own folder, one file rather than a convention. */
function isOwnFolder(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name === '__dirname';
  return node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.MetaProperty && staticPropertyName(node) === 'dirname';
}

/**
 * Adds the calls of the loaded module's default made through `load`: `(await import(x)).default(…)`,
 * `const m = await import(x); m.default(…)`, `require(x)(…)`, `const run = require(x); run(…)`.
 * Reading other members, a `typeof` check, or loading for effects (a bare statement) call nothing.
 * False for any other use.
 */
function bindLoad(sourceCode: Services, load: TSESTree.Node, calls: TSESTree.CallExpression[]): boolean {
  const commonJs = load.type === AST_NODE_TYPES.CallExpression;
  let value: TSESTree.Node = load;
  while (value.parent && (value.parent.type === AST_NODE_TYPES.AwaitExpression || value.parent.type === AST_NODE_TYPES.TSAsExpression ||
    value.parent.type === AST_NODE_TYPES.TSNonNullExpression || value.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) {
    value = value.parent;
  }
  // An ESM namespace needs its `.default`; a required module is the default itself (or holds it there).
  const awaited = value !== load || commonJs;
  if (!awaited) return false;
  const holder = value.parent;
  if (holder?.type === AST_NODE_TYPES.ExpressionStatement) return true;
  if (holder?.type === AST_NODE_TYPES.VariableDeclarator && holder.init === value && holder.id.type === AST_NODE_TYPES.Identifier &&
    holder.parent.kind === 'const') {
    const variable = findVariable(sourceCode, holder.id);
    if (!variable) return false;
    return variable.references.every((r) => !r.isRead() || useOfModule(r.identifier as TSESTree.Node, commonJs, calls));
  }
  return useOfModule(value, commonJs, calls);
}

function useOfModule(use: TSESTree.Node, commonJs: boolean, calls: TSESTree.CallExpression[]): boolean {
  let node = use;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSAsExpression || node.parent.type === AST_NODE_TYPES.TSNonNullExpression)) node = node.parent;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'typeof') return true;
  if (commonJs && parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === node) {
    calls.push(parent);
    return true;
  }
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== node) return false;
  const name = staticPropertyName(parent);
  if (name === null) return false;
  if (name !== 'default') return true;
  const site = parent.parent;
  if (site?.type === AST_NODE_TYPES.CallExpression && site.callee === parent) {
    calls.push(site);
    return true;
  }
  return site?.type === AST_NODE_TYPES.UnaryExpression && site.operator === 'typeof';
}
