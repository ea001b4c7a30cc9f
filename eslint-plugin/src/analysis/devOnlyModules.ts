import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isDevelopmentOnly, packageImporters, resolveImport } from '../project';
import { walk } from './ast';
import { isDevOnly } from './devOnly';
import { refMatches, resolveReference } from './imports';
import { moduleSourceCode } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** Library calls that start a bundler's development server: code that serves a developer, never production. */
const DEV_SERVERS: readonly { module: string; path: string[] }[] = [
  { module: 'vite', path: ['createServer'] },
  { module: 'webpack-dev-server', path: [] },
  { module: 'webpack-dev-middleware', path: [] },
  { module: 'webpack-hot-middleware', path: [] },
];

/**
 * Does only a development process run the module `filename` (whose parse is `sourceCode`)? It does
 * when the package says so (a dev script's target, or reached only from one: `isDevelopmentOnly`),
 * when every file of the package that loads it does so under a test that holds only outside
 * production (`if (process.env.NODE_ENV !== 'production') require('./devtools')`, see
 * `isDevOnly`), and when it starts a bundler's dev server (Vite's `createServer`, webpack's dev
 * middleware) and every importer loads it only under a condition (`if (options.dev) await
 * import('./dev-server')`): the importer's development mode. A static import is unconditional.
 */
export function isDevOnlyModule(sourceCode: Services, filename: string): boolean {
  // Asked once per lint (the rule keeps the answer), so nothing is cached here.
  return path.isAbsolute(filename) && computeDevOnly(sourceCode, path.resolve(filename));
}

function computeDevOnly(sourceCode: Services, file: string): boolean {
  if (isDevelopmentOnly(file)) return true;
  const importers = packageImporters(file);
  if (!importers || importers.length === 0) return false;
  const devServer = startsDevServer(sourceCode);
  return importers.every((importer) => loadsOnlyInDevelopment(importer, file, devServer));
}

function startsDevServer(sourceCode: Services): boolean {
  if (!DEV_SERVERS.some((d) => sourceCode.text.includes(d.module))) return false;
  let found = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
      const ref = resolveReference(sourceCode, node.callee);
      if (DEV_SERVERS.some((d) => refMatches(ref, d.module, ...d.path))) found = true;
    }
    return !found;
  });
  return found;
}

/** Every load of `target` in `importer` is a `require` or `import()` under a development test (or, for a dev server, any condition). */
function loadsOnlyInDevelopment(importer: string, target: string, devServer: boolean): boolean {
  const other = moduleSourceCode(importer);
  // A load outside every branch is unconditional wherever it goes: an importer with only such
  // loads (a server requiring each route at top level) loads nothing in development only, and its
  // specifiers need no resolving. `isDevOnly` holds only under a branch too.
  if (!other || !hasBranchedLoad(other)) return false;
  const goesTo = (source: TSESTree.Node | null | undefined): boolean =>
    source?.type === AST_NODE_TYPES.Literal && typeof source.value === 'string' && sameFile(resolveImport(importer, source.value), target);
  let loads = 0;
  let unconditional = false;
  walk(other.ast, other.visitorKeys, (node) => {
    if (unconditional) return false;
    if ((node.type === AST_NODE_TYPES.ImportDeclaration && node.importKind !== 'type') ||
      ((node.type === AST_NODE_TYPES.ExportNamedDeclaration || node.type === AST_NODE_TYPES.ExportAllDeclaration) && node.exportKind !== 'type')) {
      if (goesTo(node.source)) unconditional = true;
      return !unconditional;
    }
    const source = node.type === AST_NODE_TYPES.ImportExpression
      ? node.source
      : node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require' ? node.arguments[0] : null;
    if (!goesTo(source)) return true;
    loads++;
    if (!isDevOnly(other, node) && !(devServer && underCondition(node))) unconditional = true;
    return !unconditional;
  });
  // A file that starts it by path (a forked script) loads it without either form: not known here.
  return loads > 0 && !unconditional;
}

/** Per parse: does a `require` or `import()` sit in a branch (`underCondition`)? The answer rests on the tree alone. */
const branchedLoads = new WeakMap<TSESTree.Program, boolean>();

function hasBranchedLoad(sourceCode: Services): boolean {
  let found = branchedLoads.get(sourceCode.ast);
  if (found !== undefined) return found;
  found = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (isLoad(node) && underCondition(node)) found = true;
    return !found;
  });
  branchedLoads.set(sourceCode.ast, found);
  return found;
}

function isLoad(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ImportExpression ||
    (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require');
}

function sameFile(resolution: ReturnType<typeof resolveImport>, target: string): boolean {
  return resolution.kind === 'file' && path.resolve(resolution.path) === target;
}

/** Inside a branch of an `if`, a `?:` or an `&&`/`||`: what runs only when the test says so. */
function underCondition(node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current; child = current, current = current.parent) {
    if ((current.type === AST_NODE_TYPES.IfStatement || current.type === AST_NODE_TYPES.ConditionalExpression) && current.test !== child) return true;
    if (current.type === AST_NODE_TYPES.LogicalExpression && current.right === child) return true;
  }
  return false;
}
