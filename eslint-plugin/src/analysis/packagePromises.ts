import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_TOKEN_TYPES } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, isNullOrUndefined, laterAssignments, shortSource, skipTransparent, staticPropertyName } from './ast';
import { annotatedRef, getConstruction, thisFieldAnnotatedRef } from './construction';
import type { ModuleRef } from './imports';
import { importedModules, refMatches, resolveReference } from './imports';
import { ModuleAnswers, sourceFileOf } from './localModules';
import { importsProjectModules } from './moduleFunctions';
import { declaresDependency } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Objects of well-known packages whose methods return promises, told without types by where the
 * object comes from (a construction from the package, a parameter the package hands over, a type
 * declared from it), never by a variable's name:
 * - `discord`: a discord.js structure (a message, an interaction, a channel, a member, a webhook);
 * - `discord-client`: the discord.js `Client`, whose listeners receive structures;
 * - `discord-manager` / `discord-cache`: `guild.roles`, `client.channels.cache`;
 * - `mongo` / `mongo-collection`: a mongodb `MongoClient` or `Db`, and a collection of one;
 * - `mongoose-model` / `mongoose-doc`: `mongoose.model(…)` (or typegoose's `getModelForClass(…)`), and a
 *   document it made or found;
 * - `puppeteer-browser` / `puppeteer-page`: what `await puppeteer.launch()` (or `connect`) and
 *   `await browser.newPage()` resolve to, or a value declared `Browser`/`Page` from puppeteer;
 * - `job-queue`: a Bull or BullMQ `Queue` (constructed, or declared with the package's type);
 * - `queue-job`: a Bull or BullMQ `Job` (declared with the package's type, or handed to a Bull
 *   queue's processor or job event listener);
 * - `tmp-file`: what tmp-promise's `await file()` / `await dir()` resolve to;
 * - `telegram-bot`: a node-telegram-bot-api `TelegramBot`, a `TeleBot`, telegraf's `bot.telegram`;
 * - `telegraf` / `telegraf-context`: a `Telegraf` bot, and the context its handlers receive.
 */
type PackageObject =
  | 'discord' | 'discord-client' | 'discord-manager' | 'discord-cache'
  | 'mongo' | 'mongo-collection' | 'mongoose-model' | 'mongoose-doc'
  | 'puppeteer-browser' | 'puppeteer-page'
  | 'job-queue' | 'queue-job' | 'tmp-file' | 'telegram-bot' | 'telegraf' | 'telegraf-context';

/**
 * Methods that send a request and return its promise, by object. A mongoose model's query methods
 * (`updateOne`, `deleteMany`) are left out: a query nobody awaits never runs, which is another bug.
 */
const PROMISE_METHODS: Readonly<Partial<Record<PackageObject, ReadonlySet<string>>>> = {
  discord: new Set([
    'send', 'reply', 'edit', 'delete', 'react', 'pin', 'unpin', 'followUp', 'deferReply', 'editReply', 'deferUpdate',
    'update', 'showModal', 'bulkDelete', 'setNickname', 'kick', 'ban', 'timeout', 'crosspost', 'sendTyping',
  ]),
  'discord-manager': new Set(['add', 'remove', 'create', 'ban', 'unban', 'kick']),
  'mongo-collection': new Set([
    'insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'replaceOne', 'findOneAndUpdate',
    'findOneAndDelete', 'findOneAndReplace', 'bulkWrite', 'createIndex', 'createIndexes', 'drop', 'dropIndex',
  ]),
  'mongoose-model': new Set(['create', 'insertMany', 'bulkWrite']),
  'mongoose-doc': new Set(['save']),
  // Each is a DevTools protocol round trip: it rejects when the page or browser is gone.
  'puppeteer-browser': new Set(['close', 'newPage']),
  'puppeteer-page': new Set([
    'goto', 'close', 'setViewport', 'screenshot', 'pdf', 'evaluate', 'exposeFunction', 'setContent', 'click', 'type', 'reload',
    'waitForSelector', 'waitForNavigation', 'waitForFunction', 'setRequestInterception', 'setExtraHTTPHeaders', 'setUserAgent',
    'emulateMediaType', 'setCookie', 'addScriptTag', 'addStyleTag', 'evaluateOnNewDocument', 'setJavaScriptEnabled', 'authenticate',
  ]),
  // Each writes to Redis. `process` is left out: its promise settles only when the queue closes.
  'job-queue': new Set(['add', 'addBulk', 'pause', 'resume', 'close', 'clean', 'empty', 'drain', 'obliterate']),
  // Each writes the job's hash or lists in Redis (Bull's reference: `remove(): Promise`, `retry`,
  // `promote`, `update(data)`, `log(row)`; BullMQ's `updateData`, `updateProgress`).
  'queue-job': new Set(['remove', 'retry', 'promote', 'update', 'log', 'updateData', 'updateProgress', 'moveToCompleted', 'moveToFailed']),
  // Removes the file or folder; the function is bound, so `const { cleanup } = await file()` works.
  'tmp-file': new Set(['cleanup']),
  // Bot API requests: each rejects on a network error or an answer such as "bot was blocked by the user".
  'telegram-bot': new Set([
    'sendMessage', 'sendPhoto', 'sendDocument', 'sendAudio', 'sendVideo', 'sendVoice', 'sendAnimation', 'sendSticker', 'sendLocation',
    'sendMediaGroup', 'sendChatAction', 'sendAction', 'forwardMessage', 'copyMessage', 'editMessageText', 'editMessageReplyMarkup',
    'editMessageCaption', 'deleteMessage', 'answerCallbackQuery', 'answerInlineQuery', 'banChatMember', 'kickChatMember',
    'unbanChatMember', 'restrictChatMember', 'pinChatMessage',
  ]),
  'telegraf-context': new Set([
    'reply', 'replyWithPhoto', 'replyWithDocument', 'replyWithAudio', 'replyWithVideo', 'replyWithSticker', 'replyWithHTML',
    'replyWithMarkdown', 'replyWithMarkdownV2', 'replyWithMediaGroup', 'replyWithChatAction', 'sendChatAction', 'deleteMessage',
    'editMessageText', 'editMessageReplyMarkup', 'answerCbQuery', 'answerInlineQuery', 'banChatMember', 'kickChatMember',
    'restrictChatMember', 'pinChatMessage', 'leaveChat',
  ]),
};
const ANY_METHOD: ReadonlySet<string> = new Set(Object.values(PROMISE_METHODS).flatMap((set) => [...set]));

/** Properties of a discord.js structure that are structures too (`message.channel`, `interaction.member`). */
const DISCORD_STRUCTURES: ReadonlySet<string> = new Set([
  'channel', 'author', 'member', 'guild', 'user', 'message', 'thread', 'webhook', 'targetMessage', 'targetUser', 'targetMember',
]);
/** Properties of a structure or the client that are managers (`guild.roles`, `client.channels`). */
const DISCORD_MANAGERS: ReadonlySet<string> = new Set(['roles', 'members', 'channels', 'messages', 'users', 'guilds']);
/**
 * Methods of a structure whose awaited result is a structure: `await message.startThread(…)` a
 * thread, `await user.createDM()` a DM channel, `await channel.send(…)` the message sent.
 */
const DISCORD_AWAITED_STRUCTURES: ReadonlySet<string> = new Set([
  'startThread', 'createDM', 'fetchStarterMessage', 'fetchReference', 'fetchOwner', 'fetchReply', 'send', 'reply', 'followUp', 'editReply', 'edit',
]);
/** A manager's cache hands out one structure: `client.channels.cache.get(id)`. */
const CACHE_LOOKUPS: ReadonlySet<string> = new Set(['get', 'find', 'first', 'last', 'random']);
/** Parameter names of a command module's exported handler: `exports.run = async (message) => …`. */
const HANDLER_PARAMETERS: ReadonlySet<string> = new Set(['message', 'msg', 'interaction']);
/** mongoose model methods whose awaited result is a document. */
const MONGOOSE_FINDERS: ReadonlySet<string> = new Set(['findOne', 'findById', 'create', 'findOneAndUpdate', 'findByIdAndUpdate']);

/** The package named in messages, for the objects that belong to one package only. */
const PACKAGE_OF: Readonly<Partial<Record<PackageObject, string>>> = {
  discord: 'discord.js', 'discord-client': 'discord.js', 'discord-manager': 'discord.js', 'discord-cache': 'discord.js',
  mongo: 'mongodb', 'mongo-collection': 'mongodb', 'mongoose-model': 'mongoose', 'mongoose-doc': 'mongoose',
  'puppeteer-browser': 'puppeteer', 'puppeteer-page': 'puppeteer', 'tmp-file': 'tmp-promise',
  telegraf: 'telegraf', 'telegraf-context': 'telegraf',
};
/** puppeteer and its variants with the same `Browser` and `Page`. */
const PUPPETEER_MODULES: ReadonlySet<string> = new Set(['puppeteer', 'puppeteer-core', 'puppeteer-extra']);

interface CatalogedExport {
  module: string;
  /** The export, `default` for the module object itself (`require('bull')`). */
  export: string;
  object: PackageObject;
}

/** Classes whose instances are package objects: `new Queue('mail')` from bull. */
const CLASSES: readonly CatalogedExport[] = [
  { module: 'bull', export: 'default', object: 'job-queue' },
  { module: 'bullmq', export: 'Queue', object: 'job-queue' },
  { module: 'node-telegram-bot-api', export: 'default', object: 'telegram-bot' },
  { module: 'telebot', export: 'default', object: 'telegram-bot' },
  { module: 'telegraf', export: 'Telegraf', object: 'telegraf' },
];
/** Types that declare a package object: `constructor(private queue: Queue)` with `Queue` from bull. */
const TYPES: readonly CatalogedExport[] = [
  { module: 'bull', export: 'Queue', object: 'job-queue' },
  { module: 'bullmq', export: 'Queue', object: 'job-queue' },
  { module: 'bull', export: 'Job', object: 'queue-job' },
  { module: 'bullmq', export: 'Job', object: 'queue-job' },
  { module: 'node-telegram-bot-api', export: 'default', object: 'telegram-bot' },
  { module: 'telegraf', export: 'Telegraf', object: 'telegraf' },
  { module: 'telegraf', export: 'Context', object: 'telegraf-context' },
];
/** Functions whose awaited result is a package object: `await file()` from tmp-promise. */
const AWAITED: readonly CatalogedExport[] = [
  { module: 'tmp-promise', export: 'file', object: 'tmp-file' },
  { module: 'tmp-promise', export: 'dir', object: 'tmp-file' },
];
/** Methods of a package object that register handlers, whose first parameter is then another one. */
const HANDLER_REGISTRATIONS: Readonly<Partial<Record<PackageObject, { methods: ReadonlySet<string>; parameter: PackageObject }>>> = {
  telegraf: {
    methods: new Set(['on', 'command', 'start', 'help', 'settings', 'hears', 'action', 'use', 'mention', 'hashtag', 'inlineQuery']),
    parameter: 'telegraf-context',
  },
};
/** Methods whose function keeps working taken off its object: `const { cleanup } = await file()`. */
const DETACHABLE: Readonly<Partial<Record<PackageObject, ReadonlySet<string>>>> = { 'tmp-file': new Set(['cleanup']) };

const KNOWN_MODULES: readonly string[] = [
  'discord.js', 'mongodb', 'mongoose', '@typegoose/typegoose', ...PUPPETEER_MODULES,
  ...new Set([...CLASSES, ...TYPES, ...AWAITED].map((e) => e.module)),
];

export interface PackagePromiseCall {
  /** The call as short code, for messages: `message.reply`, `….insertMany`. */
  name: string;
  /** The package, for messages: `discord.js`. */
  module: string;
  /** What ties the receiver to the package: its construction, the listener registration, the handler, the type. */
  evidence: TSESTree.Node;
  /** The file `evidence` is in, when it is another of the project's modules. */
  evidenceFile: string | null;
  /** A queue's or limiter's task: the call's promise rejects exactly when the task does. Null for a request. */
  task: TSESTree.Node | null;
}

interface Found {
  object: PackageObject;
  /** The package, for an object more than one package makes (a Bull or a BullMQ queue). */
  module?: string;
  evidence: TSESTree.Node;
  sourceCode: Services;
}

const MAX_DEPTH = 8;

/**
 * A call that returns a promise because of the package its receiver belongs to: a discord.js
 * `message.reply(…)` or `webhook.send(…)`, a mongodb `collection.insertMany(…)`, a mongoose
 * `Model.create(…)` or `doc.save()`, a p-queue `queue.add(task)`, a bottleneck
 * `limiter.schedule(task)`, a p-limit `limit(task)`. Null for anything else, and for a mongodb call
 * given a callback (it then returns nothing).
 */
export function packagePromiseCall(sourceCode: Services, call: TSESTree.CallExpression): PackagePromiseCall | null {
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return limiterCall(sourceCode, call, callee) ?? detachedCall(sourceCode, callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method === null) return null;
  const scheduled = scheduledTask(sourceCode, call, callee, method);
  if (scheduled !== undefined) return scheduled;
  if (!ANY_METHOD.has(method) || !mayUsePackages(sourceCode)) return null;
  const found = packageObject(sourceCode, callee.object, 0);
  if (!found || !PROMISE_METHODS[found.object]?.has(method)) return null;
  const last = call.arguments[call.arguments.length - 1];
  if (found.object.startsWith('mongo') && isFunctionNode(last)) return null;
  return packageCall(sourceCode, calleeText(sourceCode, callee, method), found);
}

function packageCall(sourceCode: Services, name: string, found: Found): PackagePromiseCall {
  return {
    name, module: found.module ?? PACKAGE_OF[found.object] ?? '', evidence: found.evidence,
    evidenceFile: otherFile(sourceCode, found.sourceCode), task: null,
  };
}

/** `cleanup()` after `const { cleanup } = await file()`: a detachable method taken off a package object. */
function detachedCall(sourceCode: Services, callee: TSESTree.Identifier): PackagePromiseCall | null {
  if (!mayUsePackages(sourceCode)) return null;
  const variable = findVariable(sourceCode, callee);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.ObjectPattern || !def.node.init) return null;
  if (!variable?.references.every((ref) => !ref.isWrite() || ref.init)) return null;
  const property = def.node.id.properties.find((p) => p.type === AST_NODE_TYPES.Property && p.value === def.name);
  const key = property?.type === AST_NODE_TYPES.Property && !property.computed ? property.key : null;
  const method = key?.type === AST_NODE_TYPES.Identifier ? key.name : null;
  if (method === null) return null;
  const found = packageObject(sourceCode, def.node.init, 0);
  return found && DETACHABLE[found.object]?.has(method) ? packageCall(sourceCode, callee.name, found) : null;
}

/**
 * A discord.js structure (a message, an interaction, a guild, a member), told by where it comes
 * from as `packagePromiseCall` tells receivers: a listener's or exported handler's parameter, a
 * declared type, a property or cache lookup of one.
 */
export function isDiscordStructure(sourceCode: Services, node: TSESTree.Node): boolean {
  return mayUsePackages(sourceCode) && packageObject(sourceCode, node, 0)?.object === 'discord';
}

function calleeText(sourceCode: Services, callee: TSESTree.Node, method: string): string {
  return shortSource(sourceCode, callee) ?? `….${method}`;
}

/** `queue.add(task)` (p-queue), `limiter.schedule([options,] task)` (bottleneck); undefined when not such a method. */
function scheduledTask(sourceCode: Services, call: TSESTree.CallExpression, callee: TSESTree.MemberExpression, method: string): PackagePromiseCall | null | undefined {
  if (method !== 'add' && method !== 'schedule') return undefined;
  if (!mayUseConstructions(sourceCode)) return undefined;
  const construction = getConstruction(sourceCode, callee.object);
  const kind = construction?.kind;
  if (!construction || !((kind === 'queue' && method === 'add') || (kind === 'bottleneck' && method === 'schedule'))) return undefined;
  const first = call.arguments[0];
  const task = kind === 'bottleneck' && first?.type === AST_NODE_TYPES.ObjectExpression ? call.arguments[1] : first;
  if (!task || task.type === AST_NODE_TYPES.SpreadElement) return null;
  return {
    name: calleeText(sourceCode, callee, method), module: construction.ref.module, evidence: construction.node,
    evidenceFile: otherFile(sourceCode, construction.sourceCode), task,
  };
}

/** `limit(task)` where `limit` is a p-limit limiter. */
function limiterCall(sourceCode: Services, call: TSESTree.CallExpression, callee: TSESTree.Identifier): PackagePromiseCall | null {
  const task = call.arguments[0];
  if (!task || task.type === AST_NODE_TYPES.SpreadElement || !mayUseConstructions(sourceCode)) return null;
  const construction = getConstruction(sourceCode, callee);
  if (construction?.kind !== 'limiter') return null;
  return { name: callee.name, module: construction.ref.module, evidence: construction.node, evidenceFile: otherFile(sourceCode, construction.sourceCode), task };
}

/** What `node` is, as an object of a known package, following property steps and `const` initializers. */
function packageObject(sourceCode: Services, node: TSESTree.Node, depth: number): Found | null {
  const expr = skipTransparent(node);
  if (depth > MAX_DEPTH) return null;
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const typed = thisFieldAnnotatedRef(sourceCode, expr);
    const object = typed ? typedObject(typed) : null;
    if (object) return { object, module: typed?.module, evidence: expr, sourceCode };
    const name = staticPropertyName(expr);
    const base = name === null ? null : packageObject(sourceCode, expr.object, depth + 1);
    return base && name !== null ? step(base, propertyStep(base.object, name)) : null;
  }
  if (expr.type === AST_NODE_TYPES.CallExpression) {
    const callee = skipTransparent(expr.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression) {
      const name = staticPropertyName(callee);
      const base = name === null ? null : packageObject(sourceCode, callee.object, depth + 1);
      if (base && name !== null) return step(base, callStep(base.object, name));
    }
  }
  if (expr.type === AST_NODE_TYPES.AwaitExpression) {
    return awaitedDocument(sourceCode, expr.argument, depth) ?? awaitedBrowser(sourceCode, expr.argument, depth) ??
      awaitedDiscord(sourceCode, expr.argument, depth) ?? awaitedObject(sourceCode, expr.argument);
  }
  if (expr.type === AST_NODE_TYPES.NewExpression) {
    const model = packageObject(sourceCode, expr.callee, depth + 1);
    if (model?.object === 'mongoose-model') return { ...model, object: 'mongoose-doc' };
  }
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const fromParameter = parameterObject(sourceCode, expr, depth);
    if (fromParameter !== undefined) return fromParameter;
    const init = unchangedInit(sourceCode, expr);
    const followed = init ? packageObject(sourceCode, init, depth + 1) : null;
    if (followed) return followed;
    const written = init ? null : browserWrites(sourceCode, expr, depth);
    if (written) return written;
  }
  return constructed(sourceCode, expr);
}

function step(base: Found, object: PackageObject | null): Found | null {
  return object ? { ...base, object } : null;
}

function propertyStep(object: PackageObject, name: string): PackageObject | null {
  switch (object) {
    case 'discord':
      if (DISCORD_STRUCTURES.has(name)) return 'discord';
      return DISCORD_MANAGERS.has(name) ? 'discord-manager' : null;
    case 'discord-client':
      if (name === 'user') return 'discord';
      return DISCORD_MANAGERS.has(name) ? 'discord-manager' : null;
    case 'discord-manager':
      return name === 'cache' ? 'discord-cache' : null;
    case 'telegraf':
    case 'telegraf-context':
      return name === 'telegram' ? 'telegram-bot' : null;
    default:
      return null;
  }
}

function callStep(object: PackageObject, name: string): PackageObject | null {
  if (object === 'discord-cache' && CACHE_LOOKUPS.has(name)) return 'discord';
  if (object === 'mongo' && name === 'db') return 'mongo';
  if (object === 'mongo' && name === 'collection') return 'mongo-collection';
  return null;
}

/** `const doc = await Model.findOne(…)`: a mongoose document. */
function awaitedDocument(sourceCode: Services, argument: TSESTree.Node, depth: number): Found | null {
  const call = skipTransparent(argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !MONGOOSE_FINDERS.has(staticPropertyName(callee) ?? '')) return null;
  const model = packageObject(sourceCode, callee.object, depth + 1);
  return model?.object === 'mongoose-model' ? { ...model, object: 'mongoose-doc' } : null;
}

/**
 * What discord.js resolves to a structure: the methods above on a structure, `fetch()` of a
 * structure (itself, refreshed), and a manager's `fetch(id)` with one id (without one, or with
 * options, it resolves to a collection).
 */
function awaitedDiscord(sourceCode: Services, argument: TSESTree.Node, depth: number): Found | null {
  const call = skipTransparent(argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || method === null) return null;
  if (!DISCORD_AWAITED_STRUCTURES.has(method) && method !== 'fetch') return null;
  const base = packageObject(sourceCode, callee.object, depth + 1);
  if (base?.object === 'discord') return method !== 'fetch' || call.arguments.length === 0 ? { ...base, object: 'discord' } : null;
  const id = call.arguments[0];
  const byId = method === 'fetch' && call.arguments.length === 1 && id !== undefined &&
    (id.type === AST_NODE_TYPES.Identifier || id.type === AST_NODE_TYPES.TemplateLiteral || (id.type === AST_NODE_TYPES.Literal && typeof id.value === 'string') ||
      id.type === AST_NODE_TYPES.MemberExpression);
  return base?.object === 'discord-manager' && byId ? { ...base, object: 'discord' } : null;
}

/** `await file(…)` of tmp-promise, and the other awaited results the catalogue lists. */
function awaitedObject(sourceCode: Services, argument: TSESTree.Node): Found | null {
  const call = skipTransparent(argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return null;
  const ref = resolveReference(sourceCode, call.callee);
  const entry = ref ? AWAITED.find((e) => refMatches(ref, e.module, e.export)) : undefined;
  return entry ? { object: entry.object, module: entry.module, evidence: call, sourceCode } : null;
}

/** The package object a declared type names, from the catalogue or puppeteer's types. */
function typedObject(ref: ModuleRef): PackageObject | null {
  return TYPES.find((e) => refMatches(ref, e.module, e.export))?.object ?? puppeteerType(ref);
}

/** `await puppeteer.launch(…)` / `connect(…)`: a browser; `await browser.newPage()`: a page. */
function awaitedBrowser(sourceCode: Services, argument: TSESTree.Node, depth: number): Found | null {
  const call = skipTransparent(argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method === 'newPage') {
    const browser = packageObject(sourceCode, callee.object, depth + 1);
    return browser?.object === 'puppeteer-browser' ? { ...browser, object: 'puppeteer-page' } : null;
  }
  if (method !== 'launch' && method !== 'connect') return null;
  const ref = resolveReference(sourceCode, callee);
  if (!ref || !PUPPETEER_MODULES.has(ref.module) || !(ref.path.length === 1 || (ref.path.length === 2 && ref.path[0] === 'default'))) return null;
  return { object: 'puppeteer-browser', evidence: call, sourceCode };
}

/**
 * `let browser = null; … browser = await puppeteer.launch()`: a variable declared without a
 * value (or `null`) whose every other write is the same puppeteer object.
 */
function browserWrites(sourceCode: Services, id: TSESTree.Identifier, depth: number): Found | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.id !== def.name || (def.node.init && !isNullOrUndefined(def.node.init))) return null;
  let found: Found | null = null;
  const assignments = laterAssignments(variable);
  if (!assignments) return null;
  for (const assigned of assignments) {
    if (isNullOrUndefined(assigned)) continue;
    const value = skipTransparent(assigned);
    const object = value.type === AST_NODE_TYPES.AwaitExpression ? awaitedBrowser(sourceCode, value.argument, depth + 1) : null;
    if (!object || (found && found.object !== object.object)) return null;
    found ??= object;
  }
  return found;
}

/** A construction from a known package: `new Discord.WebhookClient(…)`, `new MongoClient(…)`, `mongoose.model(…)`. */
function constructed(sourceCode: Services, expr: TSESTree.Node): Found | null {
  if (!mayUseConstructions(sourceCode)) return null;
  const construction = getConstruction(sourceCode, expr);
  if (!construction || construction.fromType) return null;
  const { module, path } = construction.ref;
  const last = path[path.length - 1];
  let object: PackageObject | null = null;
  if (module === 'discord.js' && construction.node.type === AST_NODE_TYPES.NewExpression) {
    if (last === 'WebhookClient') object = 'discord';
    else if (last === 'Client') object = 'discord-client';
  } else if (module === 'mongodb' && (last === 'MongoClient' || (path[0] === 'MongoClient' && last === 'connect'))) {
    object = 'mongo';
  } else if ((module === 'mongoose' && last === 'model') || (module === '@typegoose/typegoose' && last === 'getModelForClass')) {
    // typegoose builds a mongoose model from a decorated class.
    object = 'mongoose-model';
  } else if (construction.node.type === AST_NODE_TYPES.NewExpression) {
    const entry = CLASSES.find((e) => refMatches(construction.ref, e.module, e.export));
    if (entry) return { object: entry.object, module: entry.module, evidence: construction.node, sourceCode: construction.sourceCode };
  }
  return object ? { object, evidence: construction.node, sourceCode: construction.sourceCode } : null;
}

/**
 * A parameter the package hands over: of a listener on a discord.js client (`client.on(event,
 * (message) => …)`), declared with a discord.js type, or named `message`/`interaction` in a
 * handler a command module exports, in a package that depends on discord.js. Undefined when `id`
 * is not a parameter.
 */
function parameterObject(sourceCode: Services, id: TSESTree.Identifier, depth: number): Found | null | undefined {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Parameter' || def.name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const fn = def.node as FunctionNode;
  const typed = annotatedRef(sourceCode, def.name);
  if (typed?.ref.module === 'discord.js') return { object: 'discord', evidence: typed.type, sourceCode };
  const declared = typed ? typedObject(typed.ref) : null;
  if (declared && typed) return { object: declared, module: typed.ref.module, evidence: typed.type, sourceCode };
  if (documentsDiscordParameter(sourceCode, fn, def.name.name)) return { object: 'discord', evidence: fn, sourceCode };
  const registration = fn.parent;
  if (registration?.type === AST_NODE_TYPES.CallExpression && registration.arguments[1] === fn) {
    const callee = skipTransparent(registration.callee);
    const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
    if (callee.type === AST_NODE_TYPES.MemberExpression && (method === 'on' || method === 'once')) {
      const emitter = packageObject(sourceCode, callee.object, depth + 1);
      if (emitter?.object === 'discord-client') return { object: 'discord', evidence: registration, sourceCode };
    }
  }
  const handed = handedParameter(sourceCode, fn, def.name, depth);
  if (handed) return handed;
  if (HANDLER_PARAMETERS.has(def.name.name) && isExportedHandler(fn) && dependsOnDiscord(sourceCode)) {
    return { object: 'discord', evidence: fn, sourceCode };
  }
  return null;
}

/** `bot.command('start', (ctx) => …)` on a telegraf bot: the first parameter of a handler it registers. */
function handedParameter(sourceCode: Services, fn: FunctionNode, param: TSESTree.Identifier, depth: number): Found | null {
  const registration = fn.parent;
  if (fn.params[0] !== param || registration?.type !== AST_NODE_TYPES.CallExpression || !registration.arguments.includes(fn as TSESTree.CallExpressionArgument)) {
    return null;
  }
  const callee = skipTransparent(registration.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || method === null) return null;
  const owner = packageObject(sourceCode, callee.object, depth + 1);
  const handler = owner ? HANDLER_REGISTRATIONS[owner.object] : undefined;
  if (owner && handler?.methods.has(method)) return { ...owner, object: handler.parameter, evidence: registration };
  return owner?.object === 'job-queue' && owner.module === 'bull' && bullJobHandler(registration, fn, method) ? { ...owner, object: 'queue-job', evidence: registration } : null;
}

/** Bull 3 job events whose listener receives the job first (`waiting` gets its id; `global:` events get ids too). */
const BULL_JOB_EVENTS: ReadonlySet<string> = new Set(['active', 'stalled', 'progress', 'completed', 'failed', 'removed']);

/** `queue.process([name,] [concurrency,] fn)` or `queue.on('completed', fn)` on a Bull queue: `fn` receives the job. */
function bullJobHandler(registration: TSESTree.CallExpression, fn: FunctionNode, method: string): boolean {
  if (method === 'process') return registration.arguments[registration.arguments.length - 1] === fn;
  const event = registration.arguments[0];
  return (method === 'on' || method === 'once') && registration.arguments[1] === fn &&
    event?.type === AST_NODE_TYPES.Literal && typeof event.value === 'string' && BULL_JOB_EVENTS.has(event.value);
}

/** `Page` and `Browser` (or `BrowserContext`, which opens pages the same way) from puppeteer. */
function puppeteerType(ref: ModuleRef): PackageObject | null {
  if (!PUPPETEER_MODULES.has(ref.module)) return null;
  const last = ref.path[ref.path.length - 1];
  if (last === 'Page') return 'puppeteer-page';
  return last === 'Browser' || last === 'BrowserContext' ? 'puppeteer-browser' : null;
}

/**
 * `exports.run = async (message) => …`, `module.exports = { async execute(interaction) {…} }`,
 * `export async function execute(interaction)`, `export const run = async (message) => …`, a
 * method of `module.exports = class extends Command {…}`: a function the module exports for a
 * loader or framework to call.
 */
function isExportedHandler(fn: FunctionNode): boolean {
  let node: TSESTree.Node = fn;
  if (node.parent?.type === AST_NODE_TYPES.Property && node.parent.value === node) {
    const object = node.parent.parent;
    if (object?.type !== AST_NODE_TYPES.ObjectExpression) return false;
    node = object;
  } else if (node.parent?.type === AST_NODE_TYPES.MethodDefinition && node.parent.value === node && !node.parent.static) {
    const cls = node.parent.parent.parent;
    if (cls?.type !== AST_NODE_TYPES.ClassDeclaration && cls?.type !== AST_NODE_TYPES.ClassExpression) return false;
    node = cls;
  }
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.ExportNamedDeclaration || parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node) {
    return parent.parent.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration;
  }
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== node) return false;
  return isModuleExports(parent.left);
}

/** `module.exports`, `module.exports.x`, `exports.x`. */
function isModuleExports(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(expr.object);
  if (object.type === AST_NODE_TYPES.Identifier) {
    return (object.name === 'module' && staticPropertyName(expr) === 'exports') || object.name === 'exports';
  }
  return object.type === AST_NODE_TYPES.MemberExpression && isModuleExports(object);
}

/**
 * JSDoc that types the parameter from discord.js: `@param {import('discord.js').Message} message`.
 * The comment right before the function, its method or property, or its statement.
 */
function documentsDiscordParameter(sourceCode: Services, fn: FunctionNode, name: string): boolean {
  let holder: TSESTree.Node = fn;
  while (holder.parent && holder.parent.type !== AST_NODE_TYPES.Program && holder.parent.type !== AST_NODE_TYPES.ClassBody &&
    holder.parent.type !== AST_NODE_TYPES.ObjectExpression && holder.parent.type !== AST_NODE_TYPES.BlockStatement) {
    holder = holder.parent;
  }
  const comment = sourceCode.getCommentsBefore(holder).at(-1);
  if (comment?.type !== AST_TOKEN_TYPES.Block || !comment.value.startsWith('*') || !comment.value.includes('discord.js')) return false;
  const escaped = name.replaceAll('$', String.raw`\$`);
  const pattern = new RegExp(String.raw`@param\s+\{[^}]*import\(\s*['"]discord\.js['"]\s*\)[^}]*\}\s+\[?${escaped}(?![\w$])`);
  return pattern.test(comment.value);
}

/** The initializer of a variable never assigned again (`const`, or a `let` written only where declared). */
function unchangedInit(sourceCode: Services, id: TSESTree.Identifier): TSESTree.Node | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return null;
  // A `let` assigned again later may hold something else.
  return variable?.references.every((ref) => !ref.isWrite() || ref.init) ? def.node.init : null;
}

/** Per file and lint generation: the answer rests on the package's manifest, which may change. */
const discordFiles = new ModuleAnswers<object, boolean>();

function dependsOnDiscord(sourceCode: Services): boolean {
  const hit = discordFiles.get(sourceCode, sourceCode);
  if (hit !== undefined) return hit;
  const file = sourceFileOf(sourceCode);
  const found = importedModules(sourceCode).has('discord.js') || (file !== null && declaresDependency(file, 'discord.js'));
  discordFiles.set(sourceCode, found);
  return found;
}

/**
 * A file that could hold an object of a known package at all: it imports one or the project's own
 * modules, names discord.js (a JSDoc type), or is in a package that depends on discord.js.
 */
function mayUsePackages(sourceCode: Services): boolean {
  // Asked for every call of a promise method's name; the text search alone scans the whole file.
  const hit = packageFiles.get(sourceCode, sourceCode);
  if (hit !== undefined) return hit;
  const modules = importedModules(sourceCode);
  const found = KNOWN_MODULES.some((m) => modules.has(m)) || importsProjectModules(sourceCode) || sourceCode.text.includes('discord.js') ||
    dependsOnDiscord(sourceCode);
  packageFiles.set(sourceCode, found);
  return found;
}

/** Per file and lint generation, as `discordFiles`: it rests on the manifest and the project's modules. */
const packageFiles = new ModuleAnswers<object, boolean>();

/** Constructions are looked up only in files that import a package or one of the project's modules. */
function mayUseConstructions(sourceCode: Services): boolean {
  return importedModules(sourceCode).size > 0;
}

function otherFile(linted: Services, found: Services): string | null {
  return found === linted ? null : sourceFileOf(found);
}
