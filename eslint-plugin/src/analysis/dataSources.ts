import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import * as path from 'node:path';
import { bareName, declaresDependency, listDirectory, nearestPackage } from '../project';
import type { FunctionNode } from './ast';
import { contains, findObjectProperty, findVariable, isFunctionNode, returnedValues, sameFileCallArguments, skipTransparent, staticPropertyName, walk } from './ast';
import { getCallGraph, resolveImportedFunction } from './callGraph';
import { annotatedRef, getConstruction, thisFieldAnnotatedRef } from './construction';
import type { HandlerRegistration } from './handlers';
import { handlerRegistration, importedRegistration } from './handlers';
import type { ModuleRef } from './imports';
import { refMatches, requiredModule, resolveReference } from './imports';
import { chatCollection, chatRecordRead } from './chatCollections';
import { knownCallers } from './knownCallers';
import { isProjectSpecifier, localExport, moduleSourceCode, sourceFileOf } from './localModules';
import { resolverArgsIndex } from './graphqlResolvers';
import { membershipBound } from './membershipFilters';
import { isAllPagesListing, isOnePageListing, requestPageSize } from './pageBounds';
import { HANDLE_CALLBACK_METHODS, awaitsUnreadableHelper } from './unreadableHelpers';
import { carriedValue } from './valueCarriers';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Where the items of a collection come from, which decides whether its size can grow with input:
 * - `data`: rows of a database query, an HTTP response body, a directory listing or glob, a
 *   queue message, a request's body or query: as large as whatever is stored or sent;
 * - `capped`: such data under a page bound (`.limit(n)`, `take: n`, `first()`);
 * - `declared`: literals, constants and what the program derives from its own declarations;
 * - `unknown`: anything else (imported values, class state, parameters nobody in the file passes).
 */
export type ValueOrigin = 'data' | 'capped' | 'declared' | 'unknown';

export interface OriginContext {
  sourceCode: Services;
  filename: string;
}

/**
 * Modules whose client objects answer with data: every call reached through such an object
 * (`pool.query(…)`, `prisma.user.findMany(…)`, `db.collection(c).find(q).toArray()`, `knex('t')`)
 * yields rows. Told by the module a value was constructed from or declared as, never by its name.
 */
const CLIENT_MODULES: ReadonlySet<string> = new Set([
  'pg', 'mysql', 'mysql2', 'mysql2/promise', 'knex', '@prisma/client', 'typeorm', 'mongoose', 'mongodb', 'sequelize',
  'sequelize-typescript', 'better-sqlite3', 'sqlite', 'sqlite3', 'postgres', 'drizzle-orm', 'kysely', 'ioredis', 'redis',
  '@elastic/elasticsearch', '@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', '@aws-sdk/client-s3', '@octokit/rest',
  'axios', 'got', 'undici', 'ky',
  // Typegoose's `getModelForClass(C)` hands back a mongoose model; a matrix-bot-sdk `MatrixClient`
  // asks the homeserver (`getJoinedRooms()`, `getRoomMembers(id)`).
  '@typegoose/typegoose', 'matrix-bot-sdk', 'objection',
]);

/** HTTP clients: a call of the module is a request; only their factories make a client. */
const HTTP_MODULES: ReadonlySet<string> = new Set(['axios', 'got', 'undici', 'ky']);
const HTTP_FACTORIES: ReadonlySet<string> = new Set(['create', 'extend', 'Client', 'Pool']);

function isClientModule(ref: ModuleRef): boolean {
  if (!CLIENT_MODULES.has(ref.module)) return false;
  return !HTTP_MODULES.has(ref.module) || (ref.path.length === 1 && HTTP_FACTORIES.has(ref.path[0] as string));
}

/** Module functions whose result is data: HTTP requests, fs listings and reads, globs. */
const DATA_FUNCTIONS: readonly { module: string; path: readonly string[] }[] = [
  ...['readdir', 'readdirSync', 'readFile', 'readFileSync', 'opendir'].flatMap((f) => [
    { module: 'fs', path: [f] }, { module: 'fs', path: ['promises', f] }, { module: 'fs-extra', path: [f] },
  ]),
  ...['default', 'glob', 'globSync', 'sync', 'async'].flatMap((f) => [
    { module: 'glob', path: [f] }, { module: 'fast-glob', path: [f] }, { module: 'globby', path: [f] }, { module: 'tinyglobby', path: [f] },
  ]),
  { module: 'globby', path: ['globby'] }, { module: 'tinyglobby', path: ['glob'] },
  { module: 'node-fetch', path: ['default'] }, { module: 'cross-fetch', path: ['default'] },
  ...['default', 'get', 'post', 'request', 'put', 'patch'].flatMap((f) => [
    { module: 'axios', path: [f] }, { module: 'got', path: [f] }, { module: 'ky', path: [f] },
  ]),
  { module: 'undici', path: ['request'] }, { module: 'undici', path: ['fetch'] },
];

/**
 * Queue consumers: a function handed to one of these runs per message, and its parameters are the
 * message (`new Worker(name, async (job) => …)`, `channel.consume(q, (msg) => …)`,
 * `consumer.run({ eachMessage })`).
 */
const QUEUE_MODULES: ReadonlySet<string> = new Set([
  'bullmq', 'bull', 'bee-queue', 'amqplib', 'amqplib/callback_api', 'kafkajs', '@aws-sdk/client-sqs', 'sqs-consumer', 'pg-boss', 'agenda',
]);

/** Query-builder methods and options that cap how many rows come back. */
const CAP_METHODS: ReadonlySet<string> = new Set(['limit', 'take', 'first', 'top', 'paginate', 'findOne', 'findFirst', 'findUnique', 'findByPk', 'getOne']);
const CAP_OPTIONS: readonly string[] = ['limit', 'take', 'first', 'top', 'per_page', 'perPage', 'pageSize'];

/** Array methods whose result is no larger than the array they are called on (or the arrays they join). */
const DERIVING_METHODS: ReadonlySet<string> = new Set([
  'map', 'filter', 'flat', 'flatMap', 'slice', 'concat', 'sort', 'reverse', 'toSorted', 'toReversed', 'keys', 'values', 'entries',
  'splice', 'with', 'toArray', 'all', 'json', 'text',
]);

const RANK: Record<ValueOrigin, number> = { declared: 0, capped: 1, unknown: 2, data: 3 };

/** What any of several values could be: the most data-like wins. */
function anyOf(origins: readonly ValueOrigin[]): ValueOrigin {
  let best: ValueOrigin = 'declared';
  for (const o of origins) if (RANK[o] > RANK[best]) best = o;
  return best;
}

function leastOf(a: ValueOrigin, b: ValueOrigin): ValueOrigin {
  return RANK[a] <= RANK[b] ? a : b;
}

const cache = new WeakMap<TSESTree.Node, ValueOrigin>();
/** The nodes being answered, each with its place on the stack of questions. */
const open = new Map<TSESTree.Node, number>();
/** Answers that leaned on a question still open, kept only until the outermost question is answered. */
const provisional = new Map<TSESTree.Node, ValueOrigin>();
/** The lowest place on the stack whose open question the current one ran into. */
let reachedOpen = Infinity;

/**
 * Where the value of `node` (a collection being mapped) comes from.
 *
 * A value can lead back to itself (`result.repos = await Promise.all(repos.map(…))` after
 * `const { repos } = result`): the open question answers `unknown` to itself. An answer given
 * while a question below it on the stack was still open is partial, so it is not kept past the
 * outermost question: asked on its own later, the same node is answered in full.
 */
export function valueOrigin(ctx: OriginContext, node: TSESTree.Node, depth = 0): ValueOrigin {
  const expr = skipTransparent(node);
  const hit = cache.get(expr) ?? provisional.get(expr);
  if (hit !== undefined) return hit;
  const place = open.get(expr);
  if (place !== undefined) {
    reachedOpen = Math.min(reachedOpen, place);
    return 'unknown';
  }
  // Deep enough for a store module's state read through a snapshot, a derivation chain and an import.
  if (depth > 14) return 'unknown';
  const own = open.size;
  const outer = reachedOpen;
  reachedOpen = Infinity;
  open.set(expr, own);
  let result: ValueOrigin = 'unknown';
  // The stack is shared by every file linted in this process: a question that throws must not leave it open.
  try {
    result = compute(ctx, expr, depth + 1);
  } finally {
    open.delete(expr);
    if (reachedOpen < own) provisional.set(expr, result);
    else cache.set(expr, result);
    reachedOpen = Math.min(outer, reachedOpen < own ? reachedOpen : Infinity);
    if (open.size === 0) provisional.clear();
  }
  return result;
}

function compute(ctx: OriginContext, expr: TSESTree.Node, depth: number): ValueOrigin {
  switch (expr.type) {
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.TemplateLiteral:
    case AST_NODE_TYPES.ObjectExpression:
      return objectOrigin(ctx, expr, depth);
    case AST_NODE_TYPES.ArrayExpression:
      return anyOf(expr.elements.map((e) => (e?.type === AST_NODE_TYPES.SpreadElement ? valueOrigin(ctx, e.argument, depth) : 'declared')));
    case AST_NODE_TYPES.AwaitExpression: {
      const awaited = valueOrigin(ctx, expr.argument, depth);
      if (awaited !== 'unknown' || !awaitsUnreadableHelper(ctx.sourceCode, expr.argument)) return awaited;
      // `await prisma.link.findMany({ take: 20 })` through a client the lint cannot read: still a page.
      const call = skipTransparent(expr.argument);
      return call.type === AST_NODE_TYPES.CallExpression && queryChainCapped(call) ? 'capped' : 'data';
    }
    case AST_NODE_TYPES.ConditionalExpression:
      return anyOf([valueOrigin(ctx, expr.consequent, depth), valueOrigin(ctx, expr.alternate, depth)]);
    case AST_NODE_TYPES.LogicalExpression:
      return anyOf([valueOrigin(ctx, expr.left, depth), valueOrigin(ctx, expr.right, depth)]);
    case AST_NODE_TYPES.Identifier:
      return identifierOrigin(ctx, expr, depth);
    case AST_NODE_TYPES.MemberExpression:
      return memberOrigin(ctx, expr, depth);
    case AST_NODE_TYPES.NewExpression:
      // `new Set(rows)`, `new Map(entries)`
      return expr.arguments[0] ? valueOrigin(ctx, expr.arguments[0], depth) : 'declared';
    case AST_NODE_TYPES.CallExpression:
      return callOrigin(ctx, expr, depth);
    default:
      return 'unknown';
  }
}

function objectOrigin(ctx: OriginContext, expr: TSESTree.Node, depth: number): ValueOrigin {
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return 'declared';
  // `Array.from({ length: n }, fn)`: as many items as `n` says.
  const length = findObjectProperty(expr, 'length');
  return anyOf(expr.properties.map((p) => (p.type === AST_NODE_TYPES.SpreadElement ? valueOrigin(ctx, p.argument, depth)
    : p === length ? valueOrigin(ctx, p.value, depth) : 'declared')));
}

function identifierOrigin(ctx: OriginContext, id: TSESTree.Identifier, depth: number): ValueOrigin {
  const variable = findVariable(ctx.sourceCode, id);
  if (!variable || variable.defs.length === 0) return 'unknown';
  if (isClient(ctx, id)) return 'unknown';
  const origins: ValueOrigin[] = [];
  for (const def of variable.defs) {
    if (def.type === 'Parameter') {
      origins.push(parameterOrigin(ctx, def.node as FunctionNode, def.name, depth));
    } else if (def.type === 'Variable') {
      const declarator = def.node;
      const loop = declarator.parent.parent;
      if (loop && (loop.type === AST_NODE_TYPES.ForOfStatement || loop.type === AST_NODE_TYPES.ForInStatement) && loop.left === declarator.parent) {
        // An item of a data collection is data too (`for (const user of users) user.posts`).
        origins.push(valueOrigin(ctx, loop.right, depth));
      } else if (declarator.init) {
        origins.push(valueOrigin(ctx, declarator.init, depth));
      } else {
        origins.push('declared');
      }
    } else if (def.type === 'FunctionName' || def.type === 'ClassName') {
      origins.push('declared');
    } else if (def.type === 'ImportBinding') {
      origins.push(importedOrigin(ctx, id, depth));
    } else {
      origins.push('unknown');
    }
  }
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init) continue;
    const parent = reference.identifier.parent;
    origins.push(parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === reference.identifier
      ? valueOrigin(ctx, parent.right, depth) : 'unknown');
  }
  // `const ids = []; for (const row of rows) ids.push(row.id)`: as many items as the loop has rounds.
  for (const reference of variable.references) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    // `state.pairs = rows`: a store object holds what is put in it (a plainer value does not make it less declared).
    if (member.parent?.type === AST_NODE_TYPES.AssignmentExpression && member.parent.left === member) {
      if (valueOrigin(ctx, member.parent.right, depth) === 'data') origins.push('data');
      continue;
    }
    const name = staticPropertyName(member);
    if ((name !== 'push' && name !== 'unshift' && name !== 'add' && name !== 'set') || member.parent?.type !== AST_NODE_TYPES.CallExpression) continue;
    origins.push(roundsOrigin(ctx, member.parent, depth));
  }
  return anyOf(origins);
}

/** How many times `node` runs: the origin of the collection an enclosing loop or callback walks. */
function roundsOrigin(ctx: OriginContext, node: TSESTree.Node, depth: number): ValueOrigin {
  const origins: ValueOrigin[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ForOfStatement || current.type === AST_NODE_TYPES.ForInStatement) {
      if (contains(current.body, node)) origins.push(valueOrigin(ctx, current.right, depth));
    } else if (current.type === AST_NODE_TYPES.ForStatement || current.type === AST_NODE_TYPES.WhileStatement || current.type === AST_NODE_TYPES.DoWhileStatement) {
      origins.push('unknown');
    } else if (isFunctionNode(current)) {
      const walked = iteratedBy(current);
      if (!walked) break;
      origins.push(valueOrigin(ctx, walked, depth));
    }
  }
  return anyOf(origins);
}

/** The collection a callback walks: `xs` of `xs.forEach(fn)` / `xs.map(fn)`, `Array.from(xs, fn)`. */
function iteratedBy(fn: FunctionNode): TSESTree.Node | null {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (call.arguments[0] === fn && (method === 'forEach' || method === 'map' || method === 'flatMap' || method === 'filter' || method === 'reduce' || method === 'reduceRight')) {
    return callee.object;
  }
  const object = skipTransparent(callee.object);
  if (call.arguments[1] === fn && method === 'from' && object.type === AST_NODE_TYPES.Identifier && object.name === 'Array') {
    return call.arguments[0] ?? null;
  }
  return null;
}

function itemIndex(fn: FunctionNode): number {
  const callee = fn.parent?.type === AST_NODE_TYPES.CallExpression ? skipTransparent(fn.parent.callee) : null;
  const method = callee?.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  return method === 'reduce' || method === 'reduceRight' ? 1 : 0;
}

function parameterOrigin(ctx: OriginContext, fn: FunctionNode, name: TSESTree.Node, depth: number): ValueOrigin {
  if (requestRegistration(ctx, fn)) return 'data';
  if (isQueueConsumer(ctx.sourceCode, fn)) return 'data';
  const index = fn.params.findIndex((p) => contains(p, name));
  if (index >= 0 && index === resolverArgsIndex(ctx.sourceCode, fn)) return 'data';
  // A callback's item is an item of what it walks (after the accumulator, for `reduce`).
  const walked = index === itemIndex(fn) ? iteratedBy(fn) : null;
  if (walked) return valueOrigin(ctx, walked, depth);
  const args = sameFileCallArguments(ctx.sourceCode, fn, index);
  const origins = args && args.length > 0
    ? args.map((a) => (a ? valueOrigin(ctx, a, depth) : 'declared'))
    : exportCallerOrigins(ctx, fn, index, depth);
  if (origins.length === 0) return 'unknown';
  // Data only when every caller in the file passes data; declared only when every one passes that.
  if (origins.every((o) => o === 'data')) return 'data';
  if (origins.every((o) => o === 'declared' || o === 'capped')) return anyOf(origins);
  return 'unknown';
}

/**
 * `module.exports = { sendAll }` with `sendAll(list.emails, …)` in the controller that imports it:
 * what the exported function's callers, in its own file and its importers, pass at `index`.
 * Empty when they are not all known (see `knownCallers`).
 */
function exportCallerOrigins(ctx: OriginContext, fn: FunctionNode, index: number, depth: number): ValueOrigin[] {
  if (index < 0 || fn.params[index]?.type === AST_NODE_TYPES.RestElement) return [];
  const sites = knownCallers(ctx.sourceCode, fn);
  if (!sites) return [];
  const origins: ValueOrigin[] = [];
  for (const site of sites) {
    const arg = site.call.arguments[index];
    if (arg?.type === AST_NODE_TYPES.SpreadElement) return [];
    origins.push(arg ? valueOrigin({ sourceCode: site.sourceCode, filename: sourceFileOf(site.sourceCode) ?? ctx.filename }, arg, depth) : 'declared');
  }
  return origins;
}

/** A function handed to a queue library's consumer API, directly or as an option of it. */
function isQueueConsumer(sourceCode: Services, fn: FunctionNode): boolean {
  let node: TSESTree.Node = fn;
  let parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === fn && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
    node = parent.parent;
    parent = node.parent;
  }
  if ((parent?.type !== AST_NODE_TYPES.CallExpression && parent?.type !== AST_NODE_TYPES.NewExpression) || !parent.arguments.includes(node as TSESTree.CallExpressionArgument)) return false;
  const callee = skipTransparent(parent.callee);
  const ref = resolveReference(sourceCode, callee) ??
    (callee.type === AST_NODE_TYPES.MemberExpression ? getConstruction(sourceCode, callee.object)?.ref ?? null : null);
  return ref !== null && QUEUE_MODULES.has(ref.module);
}

/**
 * How a framework runs `fn`: registered here, or by a file that imports it
 * (`router.get('/x', controller.countByCity)`), which `file` then names.
 */
function requestRegistration(ctx: OriginContext, fn: FunctionNode): (HandlerRegistration & { file?: string }) | null {
  // A module nothing in sight imports runs per request, but what hands it its arguments (a router,
  // a loader that validates first) is not in sight: its parameters say nothing of their origin.
  const registration = handlerRegistration(ctx.sourceCode, ctx.filename, fn);
  if (registration && registration.byUsage !== 'module') return registration;
  return importedRegistration(ctx.sourceCode, fn);
}

/** Servers whose handlers get the request object first (`(req, res)`, koa's `ctx`). */
const REQUEST_FRAMEWORKS: ReadonlySet<string> = new Set(['express', 'koa', 'fastify', 'node:http']);
/**
 * What of that object the client sent (express/fastify `req.body`, `req.query`, koa
 * `ctx.request`, the session and user it carries). The rest is what the server put there
 * itself: parse-server's `req.config`, `req.app`, a middleware's own fields.
 */
const REQUEST_DATA: ReadonlySet<string> = new Set([
  'body', 'query', 'params', 'files', 'file', 'headers', 'cookies', 'signedCookies', 'session', 'user', 'rawBody', 'request', 'req', 'raw',
]);

/** `req.config` of a request handler's `req`: not something the client sent. */
function serverField(ctx: OriginContext, object: TSESTree.Node, member: TSESTree.MemberExpression): boolean {
  const name = staticPropertyName(member);
  return name !== null && !REQUEST_DATA.has(name) && isRequestObject(ctx, object, 0);
}

/** The first parameter of a request handler, or of a same-file helper every caller hands that parameter. */
function isRequestObject(ctx: OriginContext, node: TSESTree.Node, hops: number): boolean {
  const fn = hops > 3 ? null : firstParameterOf(ctx, node);
  if (!fn) return false;
  const registration = requestRegistration(ctx, fn);
  if (registration) return REQUEST_FRAMEWORKS.has(registration.framework);
  const args = sameFileCallArguments(ctx.sourceCode, fn, 0);
  return args !== null && args.length > 0 && args.every((a) => a !== null && isRequestObject(ctx, a, hops + 1));
}

/** The function whose first parameter `node` names. */
function firstParameterOf(ctx: OriginContext, node: TSESTree.Node): FunctionNode | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const def = findVariable(ctx.sourceCode, expr)?.defs[0];
  return def?.type === 'Parameter' && isFunctionNode(def.node) && def.node.params[0] === def.name ? def.node : null;
}

function memberOrigin(ctx: OriginContext, member: TSESTree.MemberExpression, depth: number): ValueOrigin {
  const chat = chatCollection(ctx.sourceCode, ctx.filename, member);
  if (chat) return chat;
  const object = skipTransparent(member.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) return 'unknown';
  if (serverField(ctx, object, member)) return 'unknown';
  if (staticPropertyName(member) === 'files' && uploadsCapped(ctx, object)) return 'capped';
  // `pool.query(…)` is data, `pool` itself is not: a member of a client is more client.
  if (isClient(ctx, object)) return 'unknown';
  const base = valueOrigin(ctx, object, depth);
  // `rows.length` and other scalars do not matter here: only collections are asked about.
  return base;
}

/**
 * `router.post('/x', upload.array('images', 3), handler)`: multer's middleware in the same
 * registration rejects a request with more files than its `maxCount`, so `req.files` is capped.
 * Also `upload.fields([{ name, maxCount }, …])` when every field names a literal count. The
 * middleware is told by what built it (`multer(…)`, here or in the module it is imported from).
 */
function uploadsCapped(ctx: OriginContext, request: TSESTree.Node): boolean {
  const fn = firstParameterOf(ctx, request);
  const registration = fn ? requestRegistration(ctx, fn) : null;
  const call = registration?.node;
  if (call?.type !== AST_NODE_TYPES.CallExpression) return false;
  const at = registration?.file ? moduleSourceCode(registration.file) : ctx.sourceCode;
  if (!at) return false;
  return call.arguments.some((arg) => {
    const mw = skipTransparent(arg);
    if (mw.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = skipTransparent(mw.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const method = staticPropertyName(callee);
    if (method !== 'array' && method !== 'fields') return false;
    if (getConstruction(at, callee.object)?.ref.module !== 'multer') return false;
    if (method === 'array') return isCount(mw.arguments[1]);
    const list = mw.arguments[0] ? skipTransparent(mw.arguments[0]) : null;
    return list?.type === AST_NODE_TYPES.ArrayExpression && list.elements.length > 0 &&
      list.elements.every((e) => e?.type === AST_NODE_TYPES.ObjectExpression && isCount(findObjectProperty(e, 'maxCount')?.value));
  });
}

function isCount(node: TSESTree.Node | undefined | null): boolean {
  return node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'number';
}

/**
 * `readFile('./config/emotes.json', 'utf8')`: a JSON file at a fixed path of the program's own
 * tree, which this file never writes, is configuration read at run time, as `require` would read
 * it. A path built from input, or one the file also writes (a JSON store), stays data.
 */
function readsOwnJson(sourceCode: Services, ref: ModuleRef, call: TSESTree.CallExpression): boolean {
  const name = ref.path[ref.path.length - 1];
  if (name !== 'readFile' && name !== 'readFileSync') return false;
  const path = fixedPath(call.arguments[0]);
  if (path === null || !path.startsWith('.') || !path.endsWith('.json')) return false;
  let written = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (written) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && node !== call && node.arguments.some((a) => fixedPath(a) === path)) {
      const callee = skipTransparent(node.callee);
      const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : null;
      if (method === null || !/^(?:readFile|readFileSync)$/.test(method)) written = true;
    }
    return undefined;
  });
  return !written;
}

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * `readdir('./src/events')`: a listing of a fixed folder of the package that holds its own source
 * modules (directly or one level down, and nothing else but JSON and docs) is the program's code,
 * as long as what is checked in. A folder of uploads, data or anything built at run time is not.
 */
function listsOwnSources(ctx: OriginContext, ref: ModuleRef, call: TSESTree.CallExpression): boolean {
  const name = ref.path[ref.path.length - 1];
  if (name !== 'readdir' && name !== 'readdirSync' && name !== 'opendir') return false;
  const relative = fixedPath(call.arguments[0]);
  const manifest = nearestPackage(ctx.filename).manifest;
  if (relative === null || path.isAbsolute(relative) || manifest === null) return false;
  const dir = path.join(path.dirname(manifest), relative);
  const top = listDirectory(dir);
  const levels = [top, ...top.dirs.map((d) => listDirectory(path.join(dir, d)))];
  const files = levels.flatMap((l) => l.files);
  return files.some((f) => SOURCE_FILE.test(f)) && files.every((f) => SOURCE_FILE.test(f) || /\.(?:json|md)$/.test(f)) &&
    levels.slice(1).every((l) => l.dirs.length === 0);
}

function fixedPath(node: TSESTree.Node | undefined): string | null {
  const expr = node ? skipTransparent(node) : null;
  if (expr?.type === AST_NODE_TYPES.Literal && typeof expr.value === 'string') return expr.value;
  if (expr?.type === AST_NODE_TYPES.TemplateLiteral && expr.expressions.length === 0) return expr.quasis[0]?.value.cooked ?? null;
  return null;
}

/** `require('./config.json')`, `import { guildIds } from '../settings.json'`: the program's own configuration. */
function isOwnJson(module: string): boolean {
  return module.startsWith('.') && module.endsWith('.json');
}

function callOrigin(ctx: OriginContext, call: TSESTree.CallExpression, depth: number): ValueOrigin {
  const required = requiredModule(ctx.sourceCode, call);
  if (required && required.path.length === 0 && isOwnJson(required.module)) return 'declared';
  if (isOnePageListing(ctx.filename, call)) return 'capped';
  if (isAllPagesListing(ctx.filename, call)) return 'data';
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'fetch' && !findVariable(ctx.sourceCode, callee)?.defs.length) {
    return pageSized(ctx, call, depth) ? 'capped' : 'data';
  }
  const ref = resolveReference(ctx.sourceCode, promisifiedTarget(ctx.sourceCode, callee) ?? callee);
  if (ref && DATA_FUNCTIONS.some((f) => refMatches(ref, f.module, ...f.path))) {
    if (readsOwnJson(ctx.sourceCode, ref, call) || listsOwnSources(ctx, ref, call)) return 'declared';
    return capped(call) || pageSized(ctx, call, depth) ? 'capped' : 'data';
  }
  if (isClientCall(ctx, call)) return queryChainCapped(call) || pageSized(ctx, call, depth) ? 'capped' : 'data';
  const chat = chatCollection(ctx.sourceCode, ctx.filename, call);
  if (chat) return capped(call) ? 'capped' : chat;
  const carried = carriedValue(ctx.sourceCode, call);
  if (carried) return valueOrigin(ctx, carried, depth);
  // `await listUsers()` or `store.listUsers()` from `./store`, whose body returns a query's rows:
  // followed into that module.
  const imported = resolveImportedFunction(ctx.sourceCode, callee);
  if (imported) return returnOrigin({ sourceCode: imported.sourceCode, filename: imported.file }, imported.fn, depth);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const object = skipTransparent(callee.object);
    const method = staticPropertyName(callee);
    if (object.type === AST_NODE_TYPES.Identifier && !findVariable(ctx.sourceCode, object)?.defs.length) {
      // `Object.keys(rows)`, `Array.from(rows)`, `JSON.parse(body)`, `Promise.all(pending)`
      if (['Object', 'Array', 'JSON', 'Promise'].includes(object.name) && call.arguments[0]) {
        return valueOrigin(ctx, call.arguments[0], depth);
      }
      return 'unknown';
    }
    const base = valueOrigin(ctx, object, depth);
    if (method !== null && CAP_METHODS.has(method) && base === 'data') return 'capped';
    // `settings.get(guild.id)`, `db.get(`channels_${message.guild.id}`)`: a community's record in a
    // store the program did not declare, so its lists are what that community's users put there.
    if (base === 'unknown' && chatRecordRead(ctx.sourceCode, ctx.filename, call)) return 'data';
    if (method !== null && DERIVING_METHODS.has(method)) {
      const joined = method === 'concat' ? call.arguments.map((a) => valueOrigin(ctx, a, depth)) : [];
      const known = membershipBound(ctx.sourceCode, call);
      // Kept only when another collection has them: no more than that one holds.
      if (known) return leastOf(base, valueOrigin(ctx, known, depth));
      return anyOf([base, ...joined]);
    }
    // Another method of a response or a row set (`res.json()`, `result.getRows()`) is still data.
    return base === 'data' ? 'data' : base === 'declared' ? 'declared' : 'unknown';
  }
  const target = getCallGraph(ctx.sourceCode).resolveCall(call);
  if (target) return returnOrigin(ctx, target.node, depth);
  return 'unknown';
}

/**
 * `const readdir = util.promisify(fs.readdir)` (or `promisify(fs.readdir)(dir)` in place): the
 * wrapped function, whose result the promise carries.
 */
function promisifiedTarget(sourceCode: Services, callee: TSESTree.Node): TSESTree.Node | null {
  let expr = skipTransparent(callee);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(sourceCode, expr)?.defs[0];
    if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init || def.node.parent.kind !== 'const') return null;
    expr = skipTransparent(def.node.init);
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression || !refMatches(resolveReference(sourceCode, expr.callee), 'util', 'promisify')) return null;
  const wrapped = expr.arguments[0];
  return wrapped && wrapped.type !== AST_NODE_TYPES.SpreadElement ? wrapped : null;
}

/** `import { users } from './fixtures'`: what the module that exports it stores in it. */
function importedOrigin(ctx: OriginContext, id: TSESTree.Identifier, depth: number): ValueOrigin {
  const ref = resolveReference(ctx.sourceCode, id);
  if (ref && isOwnJson(ref.module)) return 'declared';
  const found = ref && isProjectSpecifier(ctx.sourceCode, ref.module) ? localExport(ctx.sourceCode, ref) : null;
  if (!found || found.rest.length > 0) return 'unknown';
  const { value } = found;
  // A function or class exported as a value is the program's own declaration.
  if (isFunctionNode(value.node) || value.node.type === AST_NODE_TYPES.ClassDeclaration) return 'declared';
  return valueOrigin({ sourceCode: value.sourceCode, filename: value.file }, value.node, depth);
}

function returnOrigin(ctx: OriginContext, fn: FunctionNode, depth: number): ValueOrigin {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return valueOrigin(ctx, fn.body, depth);
  const origins: ValueOrigin[] = [];
  walk(fn.body, ctx.sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) origins.push(valueOrigin(ctx, node.argument, depth));
    return undefined;
  });
  return origins.length === 0 ? 'declared' : anyOf(origins);
}

/** A value built from, or declared as, a data-source module's client: a pool, an ORM, a query builder. */
function isClient(ctx: OriginContext, node: TSESTree.Node): boolean {
  return clientRef(ctx, node) !== null;
}

function clientRef(ctx: OriginContext, node: TSESTree.Node): ModuleRef | null {
  const expr = skipTransparent(node);
  const construction = getConstruction(ctx.sourceCode, expr);
  if (construction && isClientModule(construction.ref)) return construction.ref;
  const ref = resolveReference(ctx.sourceCode, expr);
  if (ref && !HTTP_MODULES.has(ref.module) && CLIENT_MODULES.has(ref.module)) return ref;
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(ctx.sourceCode, expr)?.defs[0];
    if (def && (def.type === 'Parameter' || def.type === 'Variable')) {
      const annotated = annotatedRef(ctx.sourceCode, def.name);
      if (annotated && CLIENT_MODULES.has(annotated.ref.module)) return annotated.ref;
    }
    // `const client = await pool.connect()`: a connection lent by a client is a client too.
    if (def?.type === 'Variable' && def.node.id === def.name && def.node.init && def.node.parent.kind === 'const') {
      let init = skipTransparent(def.node.init);
      if (init.type === AST_NODE_TYPES.AwaitExpression) init = skipTransparent(init.argument);
      const callee = init.type === AST_NODE_TYPES.CallExpression ? skipTransparent(init.callee) : null;
      if (callee?.type === AST_NODE_TYPES.MemberExpression && SINGLE_HANDLE_METHODS.has(staticPropertyName(callee) ?? '')) {
        const lender = clientRef(ctx, callee.object);
        if (lender) return lender;
      }
    }
    if (def && objectionModel(ctx, expr, def)) return OBJECTION_MODEL;
    // `class User extends Model {}` with `Model` from an ORM: the class is a client of its table.
    if (def?.type === 'ClassName' && def.node.type === AST_NODE_TYPES.ClassDeclaration && def.node.superClass) {
      return clientRef(ctx, def.node.superClass);
    }
  }
  if (expr.type === AST_NODE_TYPES.MemberExpression && skipTransparent(expr.object).type !== AST_NODE_TYPES.ThisExpression) {
    return clientRef(ctx, expr.object);
  }
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const annotated = thisFieldAnnotatedRef(ctx.sourceCode, expr);
    if (annotated && CLIENT_MODULES.has(annotated.module) && !HTTP_MODULES.has(annotated.module)) return annotated;
  }
  return null;
}

const OBJECTION_MODEL: ModuleRef = { module: 'objection', path: ['Model'] };

/**
 * `import UserModel from '@/db/models/UserModel'` with `UserModel.query().where(…)` in a package
 * that depends on objection: `query()` on a model class is that ORM's way in to its table, so the
 * class is a client whether or not its module is in sight (there it would extend objection's
 * `Model`). Told by the declared ORM and the import from a module of the project's own, never by
 * the class's name.
 */
function objectionModel(ctx: OriginContext, id: TSESTree.Identifier, def: { type: string; node: TSESTree.Node }): boolean {
  if (def.type !== 'ImportBinding' || def.node.parent?.type !== AST_NODE_TYPES.ImportDeclaration) return false;
  const specifier = def.node.parent.source.value;
  if (bareName(specifier) !== null || !declaresDependency(ctx.filename, 'objection')) return false;
  const variable = findVariable(ctx.sourceCode, id);
  return variable?.references.some((r) => {
    const member = r.identifier.parent;
    return member?.type === AST_NODE_TYPES.MemberExpression && member.object === r.identifier && staticPropertyName(member) === 'query' &&
      member.parent?.type === AST_NODE_TYPES.CallExpression && member.parent.callee === member;
  }) ?? false;
}

/**
 * A statement-level call that sends a query or request through a catalogued client
 * (`coll.findOneAndUpdate(…);` with nothing returned): the work starts whether or not anyone waits.
 */
export function isDataClientCall(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  const ctx = { sourceCode, filename: '' };
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = staticPropertyName(callee);
  let object: TSESTree.Node = skipTransparent(callee.object);
  while (object.type === AST_NODE_TYPES.CallExpression && !isClient(ctx, object)) {
    const inner = skipTransparent(object.callee);
    if (inner.type !== AST_NODE_TYPES.MemberExpression) return false;
    object = skipTransparent(inner.object);
  }
  const ref = clientRef(ctx, object);
  const getters = ref ? EAGER_CLIENTS[ref.module] : undefined;
  return getters !== undefined && method !== null && !getters.has(method);
}

/**
 * Drivers whose calls send the query when made, with the methods of theirs that only hand out a
 * handle. Builders that wait for `then` (knex, mongoose queries, Prisma) are left out: a dropped
 * one never runs.
 */
const EAGER_CLIENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  mongodb: new Set(['db', 'collection', 'find', 'aggregate', 'watch', 'initializeOrderedBulkOp', 'initializeUnorderedBulkOp']),
  pg: new Set(['on', 'release']),
  mysql: new Set(['on', 'release', 'escape', 'format']),
  mysql2: new Set(['on', 'release', 'escape', 'format']),
  'mysql2/promise': new Set(['on', 'release', 'escape', 'format']),
  ioredis: new Set(['on', 'pipeline', 'multi', 'duplicate']),
  redis: new Set(['on', 'multi', 'duplicate']),
};

/** `pool.query(…)`, `prisma.user.findMany(…)`, `knex('users').where(…)`: a call reached through a client. */
function isClientCall(ctx: OriginContext, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const object = skipTransparent(callee.object);
    if (isClient(ctx, object)) return true;
    if (object.type === AST_NODE_TYPES.CallExpression) return isClientCall(ctx, object);
    return false;
  }
  // `knex('users')`, `sql\`…\``: the client itself called.
  return getConstruction(ctx.sourceCode, callee) !== null && isClient(ctx, callee);
}

/**
 * A request that asks for a page of a set size (`fetch(\`…/trending?limit=${limit}\`)` with every
 * caller passing 6, `axios.get(url, { params: { per_page: 50 } })`): the listing answers with at
 * most that many items. A page size the client of this program sent (`?limit=${req.query.n}`) bounds nothing.
 */
function pageSized(ctx: OriginContext, call: TSESTree.CallExpression, depth: number): boolean {
  const size = requestPageSize(call);
  return size === 'fixed' || (size !== null && valueOrigin(ctx, size, depth) !== 'data');
}

/** Anywhere down the chain, a page bound: `.limit(20)`, `{ take: 10 }`, `.first()`. */
function queryChainCapped(call: TSESTree.CallExpression): boolean {
  for (let current: TSESTree.Node = call; current.type === AST_NODE_TYPES.CallExpression;) {
    if (capped(current)) return true;
    const callee = skipTransparent(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) break;
    const method = staticPropertyName(callee);
    if (method !== null && CAP_METHODS.has(method)) return true;
    current = skipTransparent(callee.object);
  }
  return false;
}

/** An options argument with a page bound, or with a spread the file cannot see into (it may hold one). */
function capped(call: TSESTree.CallExpression): boolean {
  return call.arguments.some((arg) => {
    const expr = skipTransparent(arg);
    if (expr.type !== AST_NODE_TYPES.ObjectExpression) return false;
    if (expr.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return true;
    return CAP_OPTIONS.some((name) => findObjectProperty(expr, name) !== null);
  });
}

/** Methods that hand out one connection, transaction or query runner: what runs on it queues. */
const SINGLE_HANDLE_METHODS: ReadonlySet<string> = new Set(['connect', 'getConnection', 'createQueryRunner', 'transaction', 'startTransaction', 'reserve']);
const SINGLE_CONNECTIONS: readonly { module: string; export: string }[] = [
  { module: 'pg', export: 'Client' }, { module: 'mysql2', export: 'createConnection' }, { module: 'mysql2/promise', export: 'createConnection' },
  { module: 'mysql', export: 'createConnection' }, { module: 'better-sqlite3', export: 'default' },
];

/**
 * Every call the mapper waits on goes through one transaction, connection or query runner:
 * `{ transaction }` options, `queryRunner.query(…)`, a knex `trx`, one pg client. The driver
 * runs one statement at a time on it, so the calls queue instead of bursting downstream.
 */
export function isSerializedWork(sourceCode: Services, work: TSESTree.Node): boolean {
  const fn = skipTransparent(work);
  const calls: TSESTree.CallExpression[] = [];
  let other = false;
  const collect = (node: TSESTree.Node): void => {
    const expr = skipTransparent(node.type === AST_NODE_TYPES.AwaitExpression ? node.argument : node);
    if (expr.type === AST_NODE_TYPES.CallExpression) calls.push(expr);
    else if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.Literal && expr.type !== AST_NODE_TYPES.ObjectExpression) other = true;
  };
  if (!isFunctionNode(fn)) {
    collect(fn);
  } else {
    if (fn.body.type !== AST_NODE_TYPES.BlockStatement) collect(fn.body);
    walk(fn.body, sourceCode.visitorKeys, (node) => {
      if (isFunctionNode(node)) return false;
      if (node.type === AST_NODE_TYPES.AwaitExpression) collect(node.argument);
      if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument && fn.async) {
        const arg = skipTransparent(node.argument);
        if (arg.type === AST_NODE_TYPES.CallExpression) calls.push(arg);
      }
      return undefined;
    });
  }
  return !other && calls.length > 0 && calls.every((call) => throughOneHandle(sourceCode, call));
}

function throughOneHandle(sourceCode: Services, call: TSESTree.CallExpression): boolean {
  // Sequelize and friends: `Model.create(values, { transaction })`.
  if (call.arguments.some((a) => { const e = skipTransparent(a); return e.type === AST_NODE_TYPES.ObjectExpression && findObjectProperty(e, 'transaction') !== null; })) return true;
  let root: TSESTree.Node = skipTransparent(call.callee);
  while (root.type === AST_NODE_TYPES.MemberExpression || root.type === AST_NODE_TYPES.CallExpression) {
    root = skipTransparent(root.type === AST_NODE_TYPES.MemberExpression ? root.object : root.callee);
  }
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return false;
  if (def.type === 'Parameter') {
    const owner = def.node as FunctionNode;
    const host = owner.parent;
    if (host?.type !== AST_NODE_TYPES.CallExpression || !host.arguments.includes(owner as TSESTree.CallExpressionArgument)) return false;
    const callee = skipTransparent(host.callee);
    return callee.type === AST_NODE_TYPES.MemberExpression && HANDLE_CALLBACK_METHODS.has(staticPropertyName(callee) ?? '') && owner.params[0] !== undefined && contains(owner.params[0], def.name);
  }
  if (def.type !== 'Variable' || !def.node.init || def.node.parent.kind !== 'const') return false;
  return isOneHandle(sourceCode, def.node.init, 0);
}

/**
 * `pool.connect()`, `new pg.Client()`, `dataSource.createQueryRunner()`, or a helper of the
 * project that returns one of them (`async getClient() { return pool.connect(); }` in `./db`).
 */
function isOneHandle(sourceCode: Services, value: TSESTree.Node, depth: number): boolean {
  let init = skipTransparent(value);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = skipTransparent(init.argument);
  if (init.type === AST_NODE_TYPES.Identifier && depth > 0) {
    const def = findVariable(sourceCode, init)?.defs[0];
    return def?.type === 'Variable' && def.node.id === def.name && def.node.init !== null && def.node.parent.kind === 'const' &&
      depth < 4 && isOneHandle(sourceCode, def.node.init, depth + 1);
  }
  if (init.type === AST_NODE_TYPES.NewExpression || init.type === AST_NODE_TYPES.CallExpression) {
    const ref = resolveReference(sourceCode, init.callee);
    if (ref && SINGLE_CONNECTIONS.some((c) => refMatches(ref, c.module, c.export))) return true;
  }
  if (init.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = skipTransparent(init.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && SINGLE_HANDLE_METHODS.has(staticPropertyName(callee) ?? '')) {
    return !init.arguments.some((a) => isFunctionNode(a));
  }
  if (depth >= 3) return false;
  const local = getCallGraph(sourceCode).resolveCall(init);
  const helper = local ? { fn: local.node, sourceCode } : resolveImportedFunction(sourceCode, callee);
  return helper !== null && returnsOneHandle(helper.sourceCode, helper.fn, depth + 1);
}

function returnsOneHandle(sourceCode: Services, fn: FunctionNode, depth: number): boolean {
  const returned = returnedValues(fn, sourceCode.visitorKeys);
  return returned.length > 0 && returned.every((r) => isOneHandle(sourceCode, r, depth));
}
