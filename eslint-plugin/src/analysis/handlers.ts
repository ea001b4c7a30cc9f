import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import * as path from 'node:path';
import type { FunctionNode } from './ast';
import { declaredName, decoratorsOf, findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import { isSynchronouslyInvoked, isTypeWrapper } from './asyncContext';
import { resolveCalleeFunction } from './callGraph';
import { annotatedRef } from './construction';
import { declaresDependency } from '../project';
import type { ModuleRef } from './imports';
import { importedModules, refMatches, resolveReference } from './imports';
import { importersMayAnswer, importerUses } from './knownCallers';
import { isProjectSpecifier, lintGeneration, sourceFileOf } from './localModules';
import type { UsageHandler } from './handlerUsage';
import { expressParameterUsage, USAGE_PACKAGES, usageHandler } from './handlerUsage';
import { mayRegisterValidators, validatorRegistration } from './requestValidators';

type Services = Readonly<TSESLint.SourceCode>;

export type Framework =
  | 'express' | 'fastify' | 'koa' | 'hono' | 'node:http' | 'nestjs' | 'next' | 'socket.io' | 'ws'
  | 'discord.js' | 'telegraf' | 'grammy' | 'node-telegram-bot-api';

/** What the framework does with the function: all of them run once per request or message. */
export type HandlerRole = 'route handler' | 'middleware' | 'hook' | 'request listener' | 'connection listener' | 'message listener' | 'validator';

export interface HandlerRegistration {
  framework: Framework;
  role: HandlerRole;
  /** The registering call (`app.get(…)`), decorator (`@Get()`) or, for file conventions and usage, the function. */
  node: TSESTree.Node;
  /**
   * Told by how the function uses its parameters, not by a registration in sight (see
   * `usageHandler`): the package's server is out of sight, or only this module's importers are.
   */
  byUsage?: UsageHandler['sight'];
}

/**
 * Objects of a server or event framework, told by what they are (a construction from the
 * framework's module, a parameter the framework hands over, a declared type from its module),
 * never by a variable's name.
 */
type Receiver =
  | 'express-app' | 'express-route'
  | 'fastify'
  | 'koa-app' | 'koa-router'
  | 'hono'
  | 'http-server'
  | 'io-server' | 'io-socket'
  | 'ws-server' | 'ws-socket'
  | 'discord-client' | 'telegraf-bot' | 'grammy-bot' | 'telegram-bot';

const HTTP_VERBS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'delete', 'del', 'patch', 'options', 'head', 'all']);

interface MethodRule {
  role: HandlerRole;
  /** Which arguments are handlers: every function argument, or only the one at this index. */
  args: 'functions' | number;
  /** Only when the first argument is one of these event names. */
  events?: ReadonlySet<string>;
}

const ROUTE: MethodRule = { role: 'route handler', args: 'functions' };
const MIDDLEWARE: MethodRule = { role: 'middleware', args: 'functions' };
const CONNECTION_EVENTS: ReadonlySet<string> = new Set(['connection', 'connect']);
/**
 * Chat-bot client events that are not a user's message or action: the login (`ready`), the
 * client's own diagnostics and errors. Every other event of a bot client (`messageCreate`,
 * `interactionCreate`, `guildMemberAdd`, `message`, `callback_query`) comes from users, as many at
 * once as they send.
 */
const BOT_OWN_EVENTS: ReadonlySet<string> = new Set([
  'ready', 'clientReady', 'shardReady', 'shardResume', 'shardDisconnect', 'shardReconnecting', 'shardError', 'invalidated',
  'debug', 'warn', 'error', 'polling_error', 'webhook_error',
]);
/** Registration methods of telegraf and grammY bots (and their composers): each runs its functions per update. */
const UPDATE_HANDLER_METHODS: ReadonlySet<string> = new Set([
  'on', 'use', 'command', 'hears', 'action', 'start', 'help', 'settings', 'inlineQuery', 'callbackQuery', 'chatType', 'filter', 'drop', 'reaction',
]);
const BOT_LISTENER: MethodRule = { role: 'message listener', args: 1 };
/** Composer methods that return a composer whose handlers run on the same updates (a filtered or branched one). */
const COMPOSER_METHODS: ReadonlySet<string> = new Set([...UPDATE_HANDLER_METHODS, 'chatType', 'filter', 'drop', 'wait', 'step', 'errorBoundary', 'fork', 'branch']);

/** A registration method of a receiver: `app.get(path, ...handlers)`, `fastify.addHook(name, fn)`. */
function methodRule(receiver: Receiver, method: string, firstArg: string | null): MethodRule | null {
  switch (receiver) {
    case 'express-app':
    case 'express-route':
    case 'koa-router':
    case 'hono':
      if (HTTP_VERBS.has(method)) return ROUTE;
      if (method === 'use' || (receiver === 'express-app' && method === 'param')) return MIDDLEWARE;
      if (receiver === 'hono' && method === 'on') return ROUTE;
      return null;
    case 'fastify':
      if (HTTP_VERBS.has(method)) return ROUTE;
      if (method === 'addHook') return { role: 'hook', args: 1 };
      if (method === 'setErrorHandler' || method === 'setNotFoundHandler') return { role: 'route handler', args: 'functions' };
      return null;
    case 'koa-app':
      return method === 'use' ? MIDDLEWARE : null;
    case 'http-server':
      return method === 'on' && firstArg === 'request' ? { role: 'request listener', args: 1 } : null;
    case 'io-server':
    case 'ws-server':
      if (method === 'on' || method === 'once' || method === 'addListener') {
        return firstArg !== null && CONNECTION_EVENTS.has(firstArg) ? { role: 'connection listener', args: 1 } : null;
      }
      return method === 'use' && receiver === 'io-server' ? MIDDLEWARE : null;
    case 'io-socket':
    case 'ws-socket':
      if (method === 'on' || method === 'once' || method === 'addListener') {
        return firstArg !== null && !CONNECTION_EVENTS.has(firstArg) ? { role: 'message listener', args: 1 } : null;
      }
      return method === 'use' && receiver === 'io-socket' ? MIDDLEWARE : null;
    case 'discord-client':
      return (method === 'on' || method === 'once' || method === 'addListener') && firstArg !== null && !BOT_OWN_EVENTS.has(firstArg) ? BOT_LISTENER : null;
    case 'telegram-bot':
      if (method === 'onText') return BOT_LISTENER;
      return (method === 'on' || method === 'addListener') && firstArg !== null && !BOT_OWN_EVENTS.has(firstArg) ? BOT_LISTENER : null;
    case 'telegraf-bot':
    case 'grammy-bot':
      return UPDATE_HANDLER_METHODS.has(method) ? { role: 'message listener', args: 'functions' } : null;
  }
}

const FRAMEWORK_OF: Readonly<Record<Receiver, Framework>> = {
  'express-app': 'express', 'express-route': 'express',
  fastify: 'fastify',
  'koa-app': 'koa', 'koa-router': 'koa',
  hono: 'hono',
  'http-server': 'node:http',
  'io-server': 'socket.io', 'io-socket': 'socket.io',
  'ws-server': 'ws', 'ws-socket': 'ws',
  'discord-client': 'discord.js', 'telegraf-bot': 'telegraf', 'grammy-bot': 'grammy', 'telegram-bot': 'node-telegram-bot-api',
};

/** Calls and constructions that make a receiver. */
const FACTORIES: readonly { module: string; path: readonly string[]; receiver: Receiver }[] = [
  { module: 'express', path: [], receiver: 'express-app' },
  { module: 'express', path: ['Router'], receiver: 'express-app' },
  { module: 'fastify', path: [], receiver: 'fastify' },
  { module: 'fastify', path: ['fastify'], receiver: 'fastify' },
  { module: 'koa', path: [], receiver: 'koa-app' },
  { module: '@koa/router', path: [], receiver: 'koa-router' },
  { module: 'koa-router', path: [], receiver: 'koa-router' },
  { module: 'hono', path: ['Hono'], receiver: 'hono' },
  { module: 'socket.io', path: [], receiver: 'io-server' },
  { module: 'socket.io', path: ['Server'], receiver: 'io-server' },
  { module: 'ws', path: ['WebSocketServer'], receiver: 'ws-server' },
  { module: 'ws', path: ['Server'], receiver: 'ws-server' },
  { module: 'ws', path: ['WebSocket', 'Server'], receiver: 'ws-server' },
  // Chat bots: `new Client({ intents })`, `new Telegraf(token)` (telegraf 3's default export too),
  // `new Bot(token)`, `new TelegramBot(token, { polling: true })`.
  { module: 'discord.js', path: ['Client'], receiver: 'discord-client' },
  { module: 'telegraf', path: ['Telegraf'], receiver: 'telegraf-bot' },
  { module: 'telegraf', path: [], receiver: 'telegraf-bot' },
  { module: 'grammy', path: ['Bot'], receiver: 'grammy-bot' },
  { module: 'node-telegram-bot-api', path: [], receiver: 'telegram-bot' },
  // Composers and scenes register handlers the bot runs as middleware, like the bot's own.
  { module: 'telegraf', path: ['Composer'], receiver: 'telegraf-bot' },
  { module: 'telegraf', path: ['Scenes', 'BaseScene'], receiver: 'telegraf-bot' },
  { module: 'grammy', path: ['Composer'], receiver: 'grammy-bot' },
  { module: 'grammy-scenes', path: ['Scene'], receiver: 'grammy-bot' },
];

/** Declared types that name a receiver: `(app: Express)`, `(fastify: FastifyInstance)`, `(socket: Socket)`. */
const TYPES: readonly { module: string; path: readonly string[]; receiver: Receiver }[] = [
  { module: 'express', path: ['Express'], receiver: 'express-app' },
  { module: 'express', path: ['Application'], receiver: 'express-app' },
  { module: 'express', path: ['Router'], receiver: 'express-app' },
  { module: 'express', path: ['IRouter'], receiver: 'express-app' },
  { module: 'fastify', path: ['FastifyInstance'], receiver: 'fastify' },
  { module: 'koa', path: [], receiver: 'koa-app' },
  { module: '@koa/router', path: [], receiver: 'koa-router' },
  { module: 'hono', path: ['Hono'], receiver: 'hono' },
  { module: 'socket.io', path: ['Server'], receiver: 'io-server' },
  { module: 'socket.io', path: ['Socket'], receiver: 'io-socket' },
  { module: 'ws', path: ['WebSocketServer'], receiver: 'ws-server' },
  { module: 'ws', path: [], receiver: 'ws-socket' },
  { module: 'ws', path: ['WebSocket'], receiver: 'ws-socket' },
  { module: 'discord.js', path: ['Client'], receiver: 'discord-client' },
  { module: 'telegraf', path: ['Telegraf'], receiver: 'telegraf-bot' },
  { module: 'grammy', path: ['Bot'], receiver: 'grammy-bot' },
  { module: 'node-telegram-bot-api', path: [], receiver: 'telegram-bot' },
];

/** Request parameter types that make any function a handler, wherever it is registered. */
const REQUEST_TYPES: readonly { module: string; path: readonly string[]; framework: Framework }[] = [
  { module: 'express', path: ['Request'], framework: 'express' },
  { module: 'fastify', path: ['FastifyRequest'], framework: 'fastify' },
  { module: 'koa', path: ['Context'], framework: 'koa' },
  { module: 'koa', path: ['ParameterizedContext'], framework: 'koa' },
  { module: 'next', path: ['NextApiRequest'], framework: 'next' },
  { module: 'next/server', path: ['NextRequest'], framework: 'next' },
  { module: 'http', path: ['IncomingMessage'], framework: 'node:http' },
];

const HTTP_MODULES = ['http', 'https', 'http2'] as const;
const NEST_ROUTE_DECORATORS: ReadonlySet<string> = new Set(['Get', 'Post', 'Put', 'Delete', 'Patch', 'Options', 'Head', 'All']);
const NEXT_ROUTE_EXPORTS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

const registrationCache = new WeakMap<FunctionNode, HandlerRegistration | null>();

/** Modules whose import makes a handler possible; files without one skip the question. */
const FRAMEWORK_MODULES: ReadonlySet<string> = new Set([
  ...FACTORIES.map((f) => f.module), ...TYPES.map((t) => t.module), ...REQUEST_TYPES.map((t) => t.module),
  ...HTTP_MODULES, '@nestjs/common', 'next',
]);

/** The packages of the server frameworks above: a package that depends on one runs a server. */
export const SERVER_FRAMEWORK_PACKAGES: readonly string[] = [...FRAMEWORK_MODULES].filter((m) => !(HTTP_MODULES as readonly string[]).includes(m));

/** A cheap superset: can anything in this file be a request handler? */
export function mayRegisterHandlers(sourceCode: Services, filename: string): boolean {
  for (const m of importedModules(sourceCode)) if (FRAMEWORK_MODULES.has(m)) return true;
  if (USAGE_PACKAGES.some((p) => declaresDependency(filename, p)) || mayRegisterValidators(sourceCode)) return true;
  return /[\\/](?:app[\\/](?:.+[\\/])?route|pages[\\/]api[\\/].+)\.[cm]?[jt]sx?$/.test(filename);
}

/**
 * How a server or event framework runs `fn`, once per request or message, or null when nothing
 * says it does. Registrations are read from the same file: a function passed to a framework
 * object's registration method (directly or by name), a NestJS controller route, a Next.js route
 * handler, and any function whose first parameter is declared as a framework's request type.
 */
export function handlerRegistration(sourceCode: Services, filename: string, fn: FunctionNode): HandlerRegistration | null {
  const hit = registrationCache.get(fn);
  if (hit !== undefined) return hit;
  registrationCache.set(fn, null);
  const result = registeredAt(sourceCode, fn, fn) ?? nestRoute(sourceCode, fn) ?? nextRoute(filename, fn) ??
    declaredHandler(sourceCode, fn) ?? usageRegistration(sourceCode, filename, fn);
  registrationCache.set(fn, result);
  return result;
}

/**
 * How a server framework runs the named function `fn` of this file when the file registers it by
 * name (`app.get('/', handler)` after `async function handler(req, res) {…}`). Only that: the
 * inline case is judged at its call, and the other kinds of handler keep their own questions.
 */
export function namedRegistration(sourceCode: Services, fn: FunctionNode): HandlerRegistration | null {
  for (const reference of referencesTo(sourceCode, fn)) {
    const found = registeredAt(sourceCode, fn, reference);
    if (found) return found;
  }
  return null;
}

/**
 * The last evidence: a module-level function whose parameters are used as a framework's request
 * and response, in a package that depends on the framework (`exports.create = async (req, res)
 * => { … req.body … res.status(201).json(…) }` whose router is not in sight).
 */
export function usageRegistration(sourceCode: Services, filename: string, fn: FunctionNode): HandlerRegistration | null {
  const found = usageHandler(sourceCode, filename, fn);
  return found ? { framework: found.framework, role: found.role, node: fn, byUsage: found.sight } : null;
}

type ImportedRegistration = HandlerRegistration & { file: string };

/**
 * The modules a registration's receiver can come from (see `registeredAt`): it is told only by
 * references the file resolves to these, and `resolveReference` reads them from the file's own
 * string literals (`require('express')`, `import type { FastifyInstance } from 'fastify'`).
 */
const RECEIVER_MODULES: readonly string[] = [...new Set([...FACTORIES.map((f) => f.module), ...TYPES.map((t) => t.module), ...HTTP_MODULES])];
const RECEIVER_SPECIFIER = new RegExp(`['"\`](?:node:)?(?:${RECEIVER_MODULES.map((m) => m.replace(/[.]/g, '\\.')).join('|')})['"\`]`);
/** A string written with escapes (`'expr\u0065ss'`) has a value its text does not spell. */
const STRING_ESCAPE = /\\(?:[ux0-7])/;

/** False when `text` cannot hold a framework receiver, so no registration can be read from it. */
function mayHoldReceiver(text: string): boolean {
  return RECEIVER_SPECIFIER.test(text) || STRING_ESCAPE.test(text);
}

const importedCache = new WeakMap<FunctionNode, { generation: number; found: ImportedRegistration | null }>();

/**
 * How a server framework runs the exported function `fn` when a file of its package that imports
 * it registers it (`router.get('/x', one)` after `const { one } = require('./controller')`), the
 * receiver told by what it is in that file. `node` is the registering call, in `file`. Null when
 * no importer registers it, or the importers are not known.
 */
export function importedRegistration(sourceCode: Services, fn: FunctionNode): ImportedRegistration | null {
  const generation = lintGeneration();
  const hit = importedCache.get(fn);
  if (hit && hit.generation === generation) return hit.found;
  let found: ImportedRegistration | null = null;
  const file = sourceFileOf(sourceCode);
  // Most importers of a module are not where a server is set up (a service importing its
  // repository): when none can be, no importer is parsed to look.
  const uses = file !== null && importersMayAnswer(file, mayHoldReceiver) ? importerUses(sourceCode, fn) : null;
  for (const use of uses ?? []) {
    const registration = registeredAt(use.sourceCode, fn, use.node);
    const file = sourceFileOf(use.sourceCode);
    if (registration && file) {
      found = { ...registration, file };
      break;
    }
  }
  importedCache.set(fn, { generation, found });
  return found;
}

/**
 * The nearest function `node` runs in, through synchronous callbacks, that a framework runs per
 * request: a handler, or a request validator (see `validatorRegistration`), which runs on the
 * same path before the handler. Only this question counts validators: what a framework does
 * with a handler's promise, or what its first parameter holds, is asked of handlers alone.
 */
export function enclosingHandler(
  sourceCode: Services,
  filename: string,
  node: TSESTree.Node,
): { handler: FunctionNode; via: FunctionNode[]; registration: HandlerRegistration } | null {
  const via: FunctionNode[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) return null;
    if (!isFunctionNode(current)) continue;
    if (!current.async && isSynchronouslyInvoked(current)) {
      via.push(current);
      continue;
    }
    const registration = handlerRegistration(sourceCode, filename, current) ?? validatorRegistration(sourceCode, current);
    return registration ? { handler: current, via, registration } : null;
  }
  return null;
}

function registeredAt(sourceCode: Services, fn: FunctionNode, value: TSESTree.Node): HandlerRegistration | null {
  let arg: TSESTree.Node = value;
  while (arg.parent && isTypeWrapper(arg.parent)) arg = arg.parent;
  const parent = arg.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(arg as TSESTree.CallExpressionArgument)) {
    const index = parent.arguments.indexOf(arg as TSESTree.CallExpressionArgument);
    return callRegistration(sourceCode, parent, index) ?? (arg === fn ? usageRoute(sourceCode, parent, fn) : null);
  }
  // `app.route({ method, url, handler })`, `fastify.get(path, { handler })`.
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === arg && !parent.computed) {
    const key = parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : null;
    const call = parent.parent.parent;
    if (key && call?.type === AST_NODE_TYPES.CallExpression && call.arguments.includes(parent.parent as TSESTree.ObjectExpression)) {
      return optionsRegistration(sourceCode, call, key);
    }
  }
  // A named function registered elsewhere in the file: `app.get('/', handler)`.
  if (value === fn) {
    for (const reference of referencesTo(sourceCode, fn)) {
      const found = registeredAt(sourceCode, fn, reference);
      if (found) return found;
    }
  }
  return null;
}

function callRegistration(sourceCode: Services, call: TSESTree.CallExpression, index: number): HandlerRegistration | null {
  const callee = skipTransparent(call.callee);
  const firstArg = call.arguments[0]?.type === AST_NODE_TYPES.Literal && typeof call.arguments[0].value === 'string'
    ? call.arguments[0].value
    : null;
  const ref = resolveReference(sourceCode, callee);
  const httpModule = HTTP_MODULES.find((m) => refMatches(ref, m, 'createServer') || refMatches(ref, m, 'createSecureServer'));
  if (httpModule) return { framework: 'node:http', role: 'request listener', node: call };
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  const receiver = method === null ? null : receiverOf(sourceCode, callee.object, 0);
  if (!receiver || method === null) return null;
  const rule = methodRule(receiver, method, firstArg);
  if (!rule || (typeof rule.args === 'number' && rule.args !== index)) return null;
  return { framework: FRAMEWORK_OF[receiver], role: rule.role, node: call };
}

/**
 * `app.get('/users/:id', (req, res) => { … res.json(…) })` where the file cannot say what `app` is:
 * a parameter (`module.exports = (app) => { … }`), a value imported from one of the project's
 * modules, an implicit global. In a package that depends on express, an HTTP verb whose first
 * argument is a route path, with a callback that uses its parameters as Express's request and
 * response, is a route all the same. A receiver that resolves to a package (a wrapper router, any
 * other library) is that package's, and is left alone.
 */
function usageRoute(sourceCode: Services, call: TSESTree.CallExpression, fn: FunctionNode): HandlerRegistration | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !HTTP_VERBS.has(staticPropertyName(callee) ?? '') || call.arguments[0] === fn) return null;
  const path = call.arguments[0];
  const route = path?.type === AST_NODE_TYPES.Literal ? path.value
    : path?.type === AST_NODE_TYPES.TemplateLiteral && path.expressions.length === 0 ? path.quasis[0]?.value.cooked : null;
  if (typeof route !== 'string' || !route.startsWith('/')) return null;
  const file = sourceFileOf(sourceCode);
  if (file === null || !declaresDependency(file, 'express') || !unresolvedReceiver(sourceCode, callee.object)) return null;
  const role = expressParameterUsage(sourceCode, fn);
  return role ? { framework: 'express', role, node: call, byUsage: 'server' } : null;
}

/** A receiver the file says nothing about: a parameter, an undeclared name, or an import of the project's own modules. */
function unresolvedReceiver(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  if (!variable || variable.defs.length === 0) return true;
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  // A declared type says what the parameter is, known framework or not.
  if (def?.type === 'Parameter') return def.name.type === AST_NODE_TYPES.Identifier && !def.name.typeAnnotation;
  const ref = resolveReference(sourceCode, expr);
  return ref !== null && isProjectSpecifier(sourceCode, ref.module);
}

function optionsRegistration(sourceCode: Services, call: TSESTree.CallExpression, key: string): HandlerRegistration | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method !== 'route' && !HTTP_VERBS.has(method ?? '')) return null;
  if (receiverOf(sourceCode, callee.object, 0) !== 'fastify') return null;
  if (key === 'handler' || key === 'errorHandler') return { framework: 'fastify', role: 'route handler', node: call };
  return /^(?:on|pre)[A-Z]/.test(key) ? { framework: 'fastify', role: 'hook', node: call } : null;
}

/**
 * The framework of a server object whose `listen` starts Node's own server: an Express or Koa
 * app, a fastify instance, an `http.createServer()` server. Null for anything else (a router, a
 * socket, an unknown value).
 */
export function listeningServer(sourceCode: Services, node: TSESTree.Node): Framework | null {
  const receiver = receiverOf(sourceCode, node, 0);
  return receiver === 'express-app' || receiver === 'koa-app' || receiver === 'fastify' || receiver === 'http-server' ? FRAMEWORK_OF[receiver] : null;
}

/** What framework object an expression is. */
function receiverOf(sourceCode: Services, node: TSESTree.Node, depth: number): Receiver | null {
  if (depth > 8) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.CallExpression || expr.type === AST_NODE_TYPES.NewExpression) {
    const ref = resolveReference(sourceCode, expr.callee);
    if (ref) return factoryReceiver(ref, expr);
    const callee = skipTransparent(expr.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || expr.type !== AST_NODE_TYPES.CallExpression) return null;
    const method = staticPropertyName(callee);
    const inner = receiverOf(sourceCode, callee.object, depth + 1);
    if (!inner || method === null) return null;
    // `router.route('/x').get(…)`, `io.of('/chat')`, and registrations that return their receiver.
    if (inner === 'express-app' && method === 'route') return 'express-route';
    if (inner === 'io-server' && method === 'of') return 'io-server';
    // `bot.chatType('private')`, `scene.wait('step')`: a telegraf or grammY composer hands back another.
    if ((inner === 'telegraf-bot' || inner === 'grammy-bot') && COMPOSER_METHODS.has(method)) return inner;
    if (HTTP_VERBS.has(method) || method === 'use') return inner === 'http-server' ? null : inner;
    return null;
  }
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, expr);
  if (!variable) {
    const init = implicitGlobalInit(sourceCode, expr);
    return init ? receiverOf(sourceCode, init, depth + 1) : null;
  }
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return null;
  if (def.type === 'Variable' && def.node.id === def.name && def.node.init) {
    const reassigned = def.node.parent.kind !== 'const' && variable.references.some((r) => r.isWrite() && !r.init);
    return reassigned ? null : receiverOf(sourceCode, def.node.init, depth + 1) ?? typedReceiver(sourceCode, def.name);
  }
  if (def.type === 'Variable') return typedReceiver(sourceCode, def.name);
  if (def.type === 'Parameter') return typedReceiver(sourceCode, def.name) ?? handedOver(sourceCode, def.node, def.name, depth);
  return null;
}

/**
 * The value of a name the file never declares but assigns once, in a statement of its own at
 * top level (`Router = express.Router()`, an implicit global of sloppy code): every other
 * reference in the file reads that value. Null when it is written anywhere else in the file.
 */
function implicitGlobalInit(sourceCode: Services, id: TSESTree.Identifier): TSESTree.Expression | null {
  const global = sourceCode.scopeManager?.globalScope;
  if (!global) return null;
  const writes = global.through.filter((r) => r.identifier.name === id.name && r.isWrite());
  const write = writes.length === 1 ? writes[0] : undefined;
  const assignment = write?.identifier.parent;
  if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left !== write?.identifier) return null;
  const statement = assignment.parent;
  return statement.type === AST_NODE_TYPES.ExpressionStatement && statement.parent.type === AST_NODE_TYPES.Program ? assignment.right : null;
}

function factoryReceiver(ref: ModuleRef, expr: TSESTree.CallExpression | TSESTree.NewExpression): Receiver | null {
  for (const m of HTTP_MODULES) {
    if (refMatches(ref, m, 'createServer') || refMatches(ref, m, 'createSecureServer')) return 'http-server';
  }
  const entry = FACTORIES.find((f) => refMatches(ref, f.module, ...f.path));
  if (!entry) return null;
  // `express.Router()` and `express()` are called; `new Koa()`, `new Hono()`, `new Server()` are constructed.
  return entry.receiver === 'express-app' || entry.receiver === 'fastify' || expr.type === AST_NODE_TYPES.NewExpression ||
    entry.module === 'socket.io'
    ? entry.receiver
    : null;
}

function typedReceiver(sourceCode: Services, name: TSESTree.Node): Receiver | null {
  const annotated = annotatedRef(sourceCode, name);
  if (!annotated) return null;
  return TYPES.find((t) => refMatches(annotated.ref, t.module, ...t.path))?.receiver ?? null;
}

/**
 * A parameter the framework fills in: the socket a `connection` listener receives, the instance a
 * fastify plugin registered with `register` receives.
 */
function handedOver(sourceCode: Services, fn: TSESTree.Node, param: TSESTree.Node, depth: number): Receiver | null {
  if (!isFunctionNode(fn) || fn.params[0] !== param) return null;
  const parent = fn.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.some((a) => a === fn)) return null;
  const callee = skipTransparent(parent.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  const receiver = receiverOf(sourceCode, callee.object, depth + 1);
  const event = parent.arguments[0]?.type === AST_NODE_TYPES.Literal ? parent.arguments[0].value : null;
  if (receiver === 'fastify' && method === 'register' && parent.arguments[0] === fn) return 'fastify';
  if ((method === 'on' || method === 'once') && typeof event === 'string' && CONNECTION_EVENTS.has(event)) {
    if (receiver === 'io-server') return 'io-socket';
    if (receiver === 'ws-server') return 'ws-socket';
  }
  return null;
}

/** A function whose first parameter is declared as a framework's request: `(req: Request, res: Response)`. */
function declaredHandler(sourceCode: Services, fn: FunctionNode): HandlerRegistration | null {
  // `(this: void, req: Request, res: Response)`: a `this` parameter is a type, not an argument.
  const params = fn.params.filter((p) => !(p.type === AST_NODE_TYPES.Identifier && p.name === 'this'));
  const first = params[0];
  if (!first || params.length < 2) return null;
  const annotated = annotatedRef(sourceCode, first);
  const entry = annotated ? REQUEST_TYPES.find((t) => refMatches(annotated.ref, t.module, ...t.path)) : undefined;
  return entry ? { framework: entry.framework, role: 'route handler', node: fn } : null;
}

/** A method of a `@Controller()` class with a route decorator, both from `@nestjs/common`. */
function nestRoute(sourceCode: Services, fn: FunctionNode): HandlerRegistration | null {
  const method = fn.parent;
  if (method?.type !== AST_NODE_TYPES.MethodDefinition || method.value !== fn) return null;
  const route = decoratorsOf(method).find((d) => nestDecorator(sourceCode, d, NEST_ROUTE_DECORATORS));
  const cls = method.parent.parent;
  if (!route || (cls.type !== AST_NODE_TYPES.ClassDeclaration && cls.type !== AST_NODE_TYPES.ClassExpression)) return null;
  const controller = decoratorsOf(cls).some((d) => nestDecorator(sourceCode, d, new Set(['Controller'])));
  return controller ? { framework: 'nestjs', role: 'route handler', node: route } : null;
}

function nestDecorator(sourceCode: Services, decorator: TSESTree.Decorator, names: ReadonlySet<string>): boolean {
  const expr = skipTransparent(decorator.expression);
  if (expr.type !== AST_NODE_TYPES.CallExpression) return false;
  const ref = resolveReference(sourceCode, expr.callee);
  return ref !== null && ref.module === '@nestjs/common' && ref.path.length === 1 && names.has(ref.path[0] as string);
}

/**
 * Next.js's file conventions: `export function GET(…)` in `app/…/route.ts`, the default export of
 * `pages/api/…`. Only in a package that depends on `next`, where the convention is Next's.
 */
function nextRoute(filename: string, fn: FunctionNode): HandlerRegistration | null {
  const parts = filename.split(/[\\/]/);
  const base = path.basename(filename).replace(/\.[cm]?[jt]sx?$/, '');
  const exported = fn.parent;
  const isApp = base === 'route' && parts.includes('app');
  const isPagesApi = parts.some((p, i) => p === 'pages' && parts[i + 1] === 'api');
  if (!isApp && !isPagesApi) return null;
  let ok = false;
  if (isApp && fn.type === AST_NODE_TYPES.FunctionDeclaration && exported?.type === AST_NODE_TYPES.ExportNamedDeclaration) {
    ok = fn.id !== null && NEXT_ROUTE_EXPORTS.has(fn.id.name);
  }
  if (isPagesApi && exported?.type === AST_NODE_TYPES.ExportDefaultDeclaration) ok = true;
  return ok && declaresDependency(filename, 'next') ? { framework: 'next', role: 'route handler', node: fn } : null;
}

/** Identifiers that read the function's binding: `const handler = (req, res) => …` → each use of `handler`. */
function referencesTo(sourceCode: Services, fn: FunctionNode): TSESTree.Node[] {
  const id = declaredName(fn);
  if (!id) return [];
  const variable = findVariable(sourceCode, id);
  if (!variable || variable.defs.length !== 1) return [];
  return variable.references
    .filter((r) => r.isRead() && resolveCalleeFunction(sourceCode, r.identifier) === fn)
    .map((r) => r.identifier);
}
