import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { declaredName, findVariable, staticPropertyName } from './ast';
import { isTypeWrapper } from './asyncContext';
import { conventionLoaders, declaresDependency, importsOf, isTestFile, nearestPackage, packageFilesNaming, packageImporters } from '../project';
import { lintGeneration } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

export interface UsageHandler {
  framework: 'express' | 'koa' | 'fastify';
  role: 'route handler' | 'middleware';
  /**
   * Why usage may speak: the package sets its server up out of sight (`'server'`), or the server
   * is in sight but nothing in sight imports or loads this module (`'module'`): it runs per request
   * all the same, but what runs it (a router, a loader that awaits it) is unknown.
   */
  sight: 'server' | 'module';
}

const KOA_PACKAGES = ['koa', '@koa/router', 'koa-router'];
/** The packages whose handlers can be told by usage. */
export const USAGE_PACKAGES: readonly string[] = ['express', ...KOA_PACKAGES, 'fastify'];

/** Methods that answer the request; a chain on the response must end in one. */
const EXPRESS_ANSWERS: ReadonlySet<string> = new Set(['json', 'send', 'sendStatus', 'render', 'redirect', 'sendFile', 'end', 'download', 'jsonp']);
/** Methods that set something on the response and return it for the answer: `res.status(404).json(…)`. */
const EXPRESS_SETTERS: ReadonlySet<string> = new Set(['status', 'set', 'cookie', 'clearCookie', 'header', 'type', 'location', 'append', 'vary', 'attachment']);
/** What a handler reads of an Express (or fastify) request. */
const REQUEST_READS: ReadonlySet<string> = new Set(['body', 'params', 'query', 'headers', 'cookies', 'signedCookies', 'file', 'files', 'user']);
const FASTIFY_SETTERS: ReadonlySet<string> = new Set(['code', 'status', 'header', 'headers', 'type']);
/** What a Koa middleware reads of its context besides what it answers with. */
const KOA_READS: ReadonlySet<string> = new Set(['request', 'params', 'query', 'headers', 'cookies', 'state']);

/**
 * A module-level function of a package depending on a server framework whose parameters are
 * used the way that framework's request and response are: Express `(req, res, next)` reading
 * `req.body` and answering with `res.status(…).json(…)`, Koa `(ctx, next)` setting `ctx.body`
 * and reading `ctx.request`, fastify `(request, reply)` answering with `reply.send(…)`. For
 * controllers whose router is not in sight. Never from names: only from what the function does
 * with its parameters, and only when the file neither calls it (a helper a handler calls with its
 * `res`) nor hands it to something.
 */
export function usageHandler(sourceCode: Services, filename: string, fn: FunctionNode): UsageHandler | null {
  if (fn.params.length < 1 || fn.params.length > 3 || !isModuleLevel(fn) || usedInFile(sourceCode, fn)) return null;
  let found: Omit<UsageHandler, 'sight'> | null = null;
  if (declaresDependency(filename, 'express')) found = expressUsage(sourceCode, fn);
  if (!found && KOA_PACKAGES.some((p) => declaresDependency(filename, p))) found = koaUsage(sourceCode, fn);
  if (!found && declaresDependency(filename, 'fastify') && fastifyUsage(sourceCode, fn)) found = { framework: 'fastify', role: 'route handler' };
  if (!found) return null;
  if (serverOutOfSight(filename, found.framework === 'koa' ? KOA_PACKAGES : [found.framework])) return { ...found, sight: 'server' };
  return moduleOutOfSight(filename) ? { ...found, sight: 'module' } : null;
}

/**
 * No file of the package imports `filename` or loads it by a fixed name, in a package listed
 * whole: its router is not among the files there are (a folder linted in part, a controller kept
 * apart from its routes).
 */
function moduleOutOfSight(filename: string): boolean {
  const importers = packageImporters(filename);
  if (importers === null || importers.length > 0) return false;
  const loaders = conventionLoaders(filename);
  return loaders !== null && loaders.length === 0;
}

const outOfSight = new Map<string, { generation: number; value: boolean }>();

/**
 * Usage speaks only where the registrations cannot be read: when no other file of the package
 * (listed whole) imports the framework, the server is set up out of sight (a folder linted in
 * part). Where one does, the registrations are in sight and say which functions are handlers; a
 * function they do not register is run by something else (a package's own loader that awaits it,
 * evershop's middleware), whose treatment usage cannot tell.
 */
function serverOutOfSight(filename: string, modules: readonly string[]): boolean {
  const manifest = nearestPackage(filename).manifest;
  if (manifest === null) return true;
  const key = `${manifest}\0${modules.join(',')}`;
  const generation = lintGeneration();
  const hit = outOfSight.get(key);
  if (hit && hit.generation === generation) return hit.value;
  const naming = packageFilesNaming(filename, modules[0] as string) ?? [];
  const value = !naming.some((f) => !isTestFile(f) &&
    importsOf(f).some((i) => !i.typeOnly && modules.includes(i.specifier)));
  outOfSight.set(key, { generation, value });
  return value;
}

/**
 * How `fn`'s parameters are used, when they are used as Express's request and response (reads
 * `req.body`, answers with `res.status(…).json(…)`): its role, else null. For an inline callback
 * registered on a receiver the file cannot resolve (see `usageRoute` in handlers.ts).
 */
export function expressParameterUsage(sourceCode: Services, fn: FunctionNode): UsageHandler['role'] | null {
  return fn.params.length >= 2 && fn.params.length <= 3 ? expressUsage(sourceCode, fn)?.role ?? null : null;
}

function expressUsage(sourceCode: Services, fn: FunctionNode): Omit<UsageHandler, 'sight'> | null {
  const [req, res, next] = fn.params;
  if (!req || !res || res.type !== AST_NODE_TYPES.Identifier) return null;
  const requestRead = req.type === AST_NODE_TYPES.ObjectPattern
    ? req.properties.some((p) => p.type === AST_NODE_TYPES.Property && !p.computed &&
      p.key.type === AST_NODE_TYPES.Identifier && REQUEST_READS.has(p.key.name))
    : req.type === AST_NODE_TYPES.Identifier && uses(sourceCode, req).some((id) => readProperty(id, REQUEST_READS));
  if (!requestRead) return null;
  const answers = uses(sourceCode, res).some((id) => chainAnswers(id, EXPRESS_SETTERS, EXPRESS_ANSWERS));
  if (!answers) return null;
  const calls = next?.type === AST_NODE_TYPES.Identifier ? callsOf(sourceCode, next) : [];
  return { framework: 'express', role: calls.some((c) => c.arguments.length === 0) ? 'middleware' : 'route handler' };
}

function koaUsage(sourceCode: Services, fn: FunctionNode): Omit<UsageHandler, 'sight'> | null {
  const [ctx, next] = fn.params;
  if (fn.params.length > 2 || ctx?.type !== AST_NODE_TYPES.Identifier) return null;
  const ids = uses(sourceCode, ctx);
  const answers = ids.some((id) => {
    const member = id.parent;
    return member?.type === AST_NODE_TYPES.MemberExpression && member.object === id && !member.computed &&
      ['body', 'status'].includes(staticPropertyName(member) ?? '') &&
      member.parent.type === AST_NODE_TYPES.AssignmentExpression && member.parent.left === member;
  });
  if (!answers) return null;
  const calls = next?.type === AST_NODE_TYPES.Identifier ? callsOf(sourceCode, next) : [];
  if (!ids.some((id) => readProperty(id, KOA_READS)) && calls.length === 0) return null;
  return { framework: 'koa', role: calls.length > 0 ? 'middleware' : 'route handler' };
}

function fastifyUsage(sourceCode: Services, fn: FunctionNode): boolean {
  const [request, reply] = fn.params;
  if (fn.params.length !== 2 || request?.type !== AST_NODE_TYPES.Identifier || reply?.type !== AST_NODE_TYPES.Identifier) return false;
  return uses(sourceCode, request).some((id) => readProperty(id, REQUEST_READS)) &&
    uses(sourceCode, reply).some((id) => chainAnswers(id, FASTIFY_SETTERS, new Set(['send'])));
}

/** The identifiers reading a parameter's binding. */
function uses(sourceCode: Services, param: TSESTree.Identifier): TSESTree.Identifier[] {
  const variable = findVariable(sourceCode, param);
  if (!variable || variable.defs.length !== 1) return [];
  return variable.references.filter((r) => r.identifier !== param).map((r) => r.identifier as TSESTree.Identifier);
}

function callsOf(sourceCode: Services, param: TSESTree.Identifier): TSESTree.CallExpression[] {
  return uses(sourceCode, param).flatMap((id) => (id.parent?.type === AST_NODE_TYPES.CallExpression && id.parent.callee === id ? [id.parent] : []));
}

/** `id.<prop>` for one of `props`. */
function readProperty(id: TSESTree.Node, props: ReadonlySet<string>): boolean {
  const member = id.parent;
  return member?.type === AST_NODE_TYPES.MemberExpression && member.object === id && !member.computed && props.has(staticPropertyName(member) ?? '');
}

/** `id.status(404).set(…).json(…)`: a chain of method calls on `id`, only setters, ending in an answer. */
function chainAnswers(id: TSESTree.Node, setters: ReadonlySet<string>, answers: ReadonlySet<string>): boolean {
  let node: TSESTree.Node = id;
  let answered = false;
  for (;;) {
    const member = node.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node || member.computed) break;
    const call = member.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) break;
    const method = staticPropertyName(member) ?? '';
    if (answers.has(method)) answered = true;
    else if (!setters.has(method)) return false;
    node = call;
  }
  return answered;
}

/**
 * Declared or exported at the top of the module: `function h(req, res) {…}`, `const h = (…) => …`,
 * `exports.h = …`, `module.exports = { h(req, res) {…} }`, `export default …`.
 */
function isModuleLevel(fn: FunctionNode): boolean {
  const parent = fn.parent;
  if (!parent) return false;
  const atTop = (node: TSESTree.Node): boolean => node.parent?.type === AST_NODE_TYPES.Program ||
    (node.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration && node.parent.parent.type === AST_NODE_TYPES.Program);
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return atTop(fn) || parent.type === AST_NODE_TYPES.ExportDefaultDeclaration;
  if (parent.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.init === fn && atTop(parent.parent);
  if (parent.type === AST_NODE_TYPES.AssignmentExpression) {
    return parent.right === fn && parent.parent.type === AST_NODE_TYPES.ExpressionStatement &&
      parent.parent.parent.type === AST_NODE_TYPES.Program && isExportsTarget(parent.left);
  }
  if (parent.type === AST_NODE_TYPES.Property && parent.value === fn) {
    const object = parent.parent;
    const holder = object.parent;
    if (holder?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
    return holder?.type === AST_NODE_TYPES.AssignmentExpression && holder.right === object &&
      holder.parent.type === AST_NODE_TYPES.ExpressionStatement && holder.parent.parent.type === AST_NODE_TYPES.Program &&
      isExportsTarget(holder.left);
  }
  return false;
}

/** `exports.x`, `module.exports`, `module.exports.x`. */
function isExportsTarget(node: TSESTree.Node): boolean {
  let root: TSESTree.Node = node;
  while (root.type === AST_NODE_TYPES.MemberExpression) root = root.object;
  return root.type === AST_NODE_TYPES.Identifier && (root.name === 'exports' || root.name === 'module') && root !== node;
}

/**
 * Does the file call the function or hand it on (`wrap(handler)`, `[handler].map(…)`)? A
 * registration the file makes is found before this question is asked.
 */
function usedInFile(sourceCode: Services, fn: FunctionNode): boolean {
  const id = declaredName(fn);
  if (!id) return false;
  const variable = findVariable(sourceCode, id);
  if (!variable) return false;
  return variable.references.some((r) => {
    let node: TSESTree.Node = r.identifier;
    while (node.parent && isTypeWrapper(node.parent)) node = node.parent;
    const parent = node.parent;
    return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) &&
      (parent.callee === node || parent.arguments.includes(node as TSESTree.CallExpressionArgument));
  });
}
